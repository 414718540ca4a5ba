"""Private news (issue 14): what happened to one seat, kept at the top of its page until the
player taps "Got it".

News is the log lines meant for this seat alone (an examination or Investigation result, being
Mesmerized, a relic received or negated, tokens set aside) and the public lines about this seat
that change its game (being Staked, a Last Will's effect on it). The echo of a player's own move
("You placed a Stake on seat 3") is not news: they saw it happen.

What was read is kept on the seat (`Player.news_read`, the game's own Event seqs), so a second
device shows the same cards. The page numbers the cards the viewer's way
(`selectors.events_seen_by`): the game's seqs count other seats' private lines too, and their
gaps would tell a player that someone else learned a secret.
"""

from __future__ import annotations

from django.db import transaction

from games import identity
from games.engine.events import named
from games.models import Event, Game, Player
from games.services import GameError

# The receipt of the player's own move: shown in the log, never as news.
RECEIPTS = frozenset({"token_placed", "intervention_vote", "tie_vote"})
# Public lines that are news for the seat they name.
ABOUT_A_SEAT = frozenset({"eliminated", "last_will_effect", "relic_bangle"})


def _about(event: Event, seat: int) -> bool:
    """The line's words name `seat` (its template's seats; a line written before templates:
    its data's `seat`)."""
    if event.template:
        return seat in named(event.template, event.data)
    return event.data.get("seat") == seat


def _visible(game: Game, seat: int) -> list[tuple[int, Event]]:
    """(the viewer's number, event) of every event `seat` may see, oldest first."""
    rows = Event.objects.filter(game=game).order_by("seq")
    seen = (e for e in rows if e.audience is None or seat in e.audience)
    return list(enumerate(seen, start=1))


def is_news(event: Event, seat: int) -> bool:
    if event.audience is not None:
        return event.kind not in RECEIPTS
    return event.kind in ABOUT_A_SEAT and _about(event, seat)


def unread(game: Game, seat: int) -> list[dict]:
    """The news `seat` has not acknowledged yet, oldest first, numbered the viewer's way."""
    player = Player.objects.only("news_read").get(game=game, seat=seat)
    read = set(player.news_read)
    return [
        {
            "number": number,
            "kind": e.kind,
            "round": e.round,
            "text": e.text,
            "template": e.template,
            "data": e.data,
        }
        for number, e in _visible(game, seat)
        if e.seq not in read and is_news(e, seat)
    ]


def acknowledge(game: Game, user, number: int) -> None:
    """The player tapped "Got it" on their news card `number` (the viewer's numbering)."""
    with transaction.atomic():
        seat = identity.seat_of(game, user)
        player = Player.objects.select_for_update().filter(game=game, seat=seat).first()
        if seat is None or player is None:
            raise GameError("not_seated", "Only the player this news is for can dismiss it.", 403)
        found = dict(_visible(game, player.seat)).get(number)
        if found is None or not is_news(found, player.seat):
            raise GameError("no_such_news", "There is no such news for you.", 404)
        if found.seq not in player.news_read:
            player.news_read = [*player.news_read, found.seq]
            player.save(update_fields=["news_read"])
