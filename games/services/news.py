"""Private news: what happened to one seat, kept at the top of its page until the
player taps "Got it".

News is the log lines meant for this seat alone (the night information, but in a game with the
role reveal, which shows it; an examination or Investigation result, being
Mesmerized, a relic received or negated, tokens set aside) and the public lines about this seat
that change its game (being Staked, a Last Will's effect on it). The echo of a player's own move
("You placed a Stake on seat 3") is not news: they saw it happen.

What was read is kept on the seat (`Player.news_read`, the game's own Event seqs), so a second
device shows the same cards. The page numbers the cards the viewer's way
(`selectors.events_seen_by`): the game's seqs count other seats' private lines too, and their
gaps would tell a player that someone else learned a secret.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta

from django.core.cache import cache
from django.db import transaction
from django.utils import timezone

from games.domain import identity
from games.models import Game, Player
from games.selectors.news import is_news, lines_after, visible
from games.services import GameError


def acknowledge(game: Game, user, number: int) -> None:
    """The player tapped "Got it" on their news card `number` (the viewer's numbering)."""
    with transaction.atomic():
        seat = identity.seat_of(game, user)
        player = Player.objects.select_for_update().filter(game=game, seat=seat).first()
        if seat is None or player is None:
            raise GameError("not_seated", "Only the player this news is for can dismiss it.", 403)
        found = dict(visible(game, player.seat)).get(number)
        if found is None or not is_news(found, player.seat):
            raise GameError("no_such_news", "There is no such news for you.", 404)
        if found.seq not in player.news_read:
            player.news_read = [*player.news_read, found.seq]
            player.save(update_fields=["news_read"])


# --- "Since you last looked" ----------------------------------------------

# A page shown again after this long counts as coming back, like a fresh load of the page.
RETURN_AFTER = timedelta(minutes=10)
REOPENED_AFTER = timedelta(minutes=2)
# Reads write nothing (docs/slow-games.md "Coming back"): a seat's marks (how far its page saw,
# when, the pinned card, the Dining reveal it saw) live in the cache, kept this long...
LOOK_KEPT = 30 * 24 * 3600  # seconds
# ...and are copied to the seat's row (the durable copy, read when the cache lost them) at most
# once a minute per seat, like "last seen" (games.services.seats.seen).
SAVE_EVERY = 60  # seconds


def look_key(game_id: int, seat: int) -> str:
    """The cache key of a seat's marks (`look`)."""
    return f"look:{game_id}:{seat}"


def saved_key(game_id: int, seat: int) -> str:
    """The cache key held for SAVE_EVERY after a seat's marks were copied to its row."""
    return f"look-saved:{game_id}:{seat}"


@dataclass(frozen=True)
class Look:
    since_seq: int | None  # the card summarises the events after this seq (None: no card)
    since_at: datetime | None  # when the player had last looked
    animate_reveal: bool  # the Dining reveal is new to this seat: play it (once)


def _marks(game: Game, seat: int) -> dict:
    """The seat's marks: the cache's, or (never drawn, or the cache lost them) the row's copy,
    at most a minute old. A seat whose row went while its page was drawn (its player left the
    lobby at that moment) has none: the page is drawn as a first look, never a 500."""
    marks = cache.get(look_key(game.id, seat))
    if marks is not None:
        return marks
    row = (
        Player.objects.filter(game=game, seat=seat)
        .values("looked_seq", "looked_at", "since_seq", "since_at", "reveal_seen")
        .first()
    )
    if row is None:
        return {"seq": None, "at": None, "since": None, "since_at": None, "reveal": ""}
    return {
        "seq": row["looked_seq"],
        "at": row["looked_at"],
        "since": row["since_seq"],
        "since_at": (row["since_at"] or row["looked_at"]) if row["since_seq"] is not None else None,
        "reveal": row["reveal_seen"],
    }


def look(
    game: Game,
    seat: int,
    *,
    returning: bool,
    hidden: int | None = None,
    reveal: str = "",
    now=None,
) -> Look:
    """The seat's page shows the game now: remember how far it saw and when, and pin "Since
    you last looked" when the player comes back (a fresh load, or a page not drawn for
    RETURN_AFTER) to things they have not seen. `hidden`: the seconds a live page says it was
    out of sight before this redraw (None: it did not say); a page in sight all along is
    watched live, however long since its last redraw. `reveal` is the key of the Dining the
    page shows: its reveal plays once per seat, not on every load.

    A page is a read, so this writes no row on every draw: the marks are kept in the cache
    (`look_key`), and copied to the seat's row (`Player.looked_seq`, `looked_at`, `since_seq`,
    `reveal_seen`) at most once a minute per seat (SAVE_EVERY). The row is what a lost cache
    falls back on: then at worst the last minute's marks are missing (a reveal plays again, or
    the card starts a minute early)."""
    now = now or timezone.now()
    was = _marks(game, seat)
    since, since_at = was["since"], was.get("since_at")
    gone = now - was["at"] if was["at"] is not None else None
    away = gone is None or gone >= RETURN_AFTER
    # A fresh load counts from a short absence on (not the redirect after the player's own
    # move); a live redraw only after RETURN_AFTER without one (a tab left in the background).
    back = gone is not None and (away or (returning and gone >= REOPENED_AFTER))
    if not returning and hidden is not None:
        back = gone is not None and hidden >= RETURN_AFTER.total_seconds()
    if (
        since is None
        and back
        and game.last_seq > was["seq"]
        and lines_after(game, seat, was["seq"])
    ):
        since, since_at = was["seq"], was["at"]
    animate = bool(reveal) and reveal != was["reveal"]
    marks = {
        "seq": game.last_seq,
        "at": now,
        "since": since,
        "since_at": since_at if since is not None else None,
        "reveal": reveal if animate else was["reveal"],
    }
    cache.set(look_key(game.id, seat), marks, timeout=LOOK_KEPT)
    if cache.add(saved_key(game.id, seat), 1, timeout=SAVE_EVERY):
        Player.objects.filter(game=game, seat=seat).update(
            looked_seq=marks["seq"],
            looked_at=marks["at"],
            since_seq=marks["since"],
            since_at=marks["since_at"],
            reveal_seen=marks["reveal"],
        )
    return Look(since_seq=since, since_at=marks["since_at"], animate_reveal=animate)


def since_read(game: Game, user) -> None:
    """The player tapped "Got it" on "Since you last looked" (a POST): gone on every device.
    The seat's marks go to its row at once (a lost cache must not pin the card again)."""
    seat = identity.seat_of(game, user)
    if seat is None:
        raise GameError("not_seated", "Only a seated player has this to dismiss.", 403)
    key = look_key(game.id, seat)
    marks = cache.get(key)
    changes = {"since_seq": None, "since_at": None}
    if marks is not None:
        marks = {**marks, "since": None, "since_at": None}
        cache.set(key, marks, timeout=LOOK_KEPT)
        changes.update(looked_seq=marks["seq"], looked_at=marks["at"], reveal_seen=marks["reveal"])
    Player.objects.filter(game=game, seat=seat).update(**changes)
