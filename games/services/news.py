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


@dataclass(frozen=True)
class Look:
    since_seq: int | None  # the card summarises the events after this seq (None: no card)
    since_at: datetime | None  # when the player had last looked
    animate_reveal: bool  # the Dining reveal is new to this seat: play it (once)


def look(
    game: Game,
    seat: int,
    *,
    returning: bool,
    hidden: int | None = None,
    reveal: str = "",
    now=None,
) -> Look:
    """The seat's page shows the game now: remember how far it saw (`Player.looked_seq`) and
    when, and pin "Since you last looked" when the player comes back (a fresh load, or a page
    not drawn for RETURN_AFTER) to things they have not seen. `hidden`: the seconds a live
    page says it was out of sight before this redraw (None: it did not say); a page in sight
    all along is watched live, however long since its last redraw. `reveal` is the key of the
    Dining the page shows: its reveal plays once per seat, not on every load."""
    now = now or timezone.now()
    player = Player.objects.only(
        "looked_seq", "looked_at", "since_seq", "reveal_seen", "game_id", "seat"
    ).get(game=game, seat=seat)
    since, since_at = player.since_seq, None
    gone = now - player.looked_at if player.looked_at is not None else None
    away = gone is None or gone >= RETURN_AFTER
    # A fresh load counts from a short absence on (not the redirect after the player's own
    # move); a live redraw only after RETURN_AFTER without one (a tab left in the background).
    back = gone is not None and (away or (returning and gone >= REOPENED_AFTER))
    if not returning and hidden is not None:
        back = gone is not None and hidden >= RETURN_AFTER.total_seconds()
    if (
        since is None
        and back
        and game.last_seq > player.looked_seq
        and lines_after(game, seat, player.looked_seq)
    ):
        since = player.looked_seq
    if since is not None:
        since_at = player.looked_at
    animate = bool(reveal) and reveal != player.reveal_seen
    changes = {}
    if since != player.since_seq:
        changes["since_seq"] = since
    if game.last_seq != player.looked_seq or away or gone >= timedelta(minutes=1):
        changes.update(looked_seq=game.last_seq, looked_at=now)
    if animate:
        changes["reveal_seen"] = reveal
    if changes:
        Player.objects.filter(pk=player.pk).update(**changes)
    return Look(since_seq=since, since_at=since_at, animate_reveal=animate)


def since_read(game: Game, user) -> None:
    """The player tapped "Got it" on "Since you last looked": gone on every device."""
    seat = identity.seat_of(game, user)
    if seat is None:
        raise GameError("not_seated", "Only a seated player has this to dismiss.", 403)
    Player.objects.filter(game=game, seat=seat).update(since_seq=None)
