"""Private news, read: what happened to one seat, kept at the top of its page until the
player taps "Got it" (games.services.news keeps what was read).

News is the log lines meant for this seat alone (the night information, but in a game with the
role reveal, which shows it; an examination or Investigation result, being
Mesmerized, a relic received or negated, tokens set aside) and the public lines about this seat
that change its game (being Staked, a Last Will's effect on it). The echo of a player's own move
("You placed a Stake on seat 3") is not news: they saw it happen.

The page numbers the cards the viewer's way (`selectors.events_seen_by`): the game's seqs count
other seats' private lines too, and their gaps would tell a player that someone else learned a
secret.
"""

from __future__ import annotations

from games.engine.events import named
from games.models import Event, Game, Player
from games.selectors.log_index import lines_of, sees

SINCE_LINES = 5  # the newest lines "Since you last looked" shows; the rest are in the log

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


def visible(game: Game, seat: int) -> list[tuple[int, Event]]:
    """(the viewer's number, event) of every event `seat` may see, oldest first."""
    rows = Event.objects.filter(game=game).order_by("seq")
    seen = (e for e in rows if sees(seat, e.audience))
    return list(enumerate(seen, start=1))


def is_news(event: Event, seat: int) -> bool:
    if event.audience is not None:
        return event.kind not in RECEIPTS
    return event.kind in ABOUT_A_SEAT and _about(event, seat)


def unread(game: Game, seat: int, player: Player | None = None) -> list[dict]:
    """The news `seat` has not acknowledged yet, oldest first, numbered the viewer's way."""
    return page_lines(game, seat, player, own=0)[0]


def page_lines(
    game: Game, seat: int, player: Player | None = None, *, own: int
) -> tuple[list[dict], list[dict]]:
    """What a seat's page reads of the log, in two queries at most: its unread news (as
    `unread`) and the newest `own` private lines it may see, oldest first (receipts too).

    The first reads every event's number, audience and kind only (to number the lines the
    viewer's way: the log's index, kept per change, games/selectors/log_index.py); the second
    the whole rows of the few lines shown, if any. `player`: the
    seat's row, when the caller has read it already."""
    if player is None:
        player = Player.objects.only("news_read").get(game=game, seat=seat)
    read = set(player.news_read)
    # A game with the role reveal (R2's ruling) showed the night information there, and the role
    # card keeps it: no card for it, which would show teammates again after the Ready.
    revealed = bool((game.options.get("timers") or {}).get("reveal"))

    def pick(index):
        news, private = [], []
        number = 0
        for seq, audience, kind in index:
            if not sees(seat, audience):
                continue
            number += 1
            if audience is not None:
                private.append(seq)
            if seq in read or (revealed and kind == "night"):
                continue
            if (audience is not None and kind not in RECEIPTS) or (
                audience is None and kind in ABOUT_A_SEAT  # `_about` is asked of the row below
            ):
                news.append((number, seq))
        private = private[-own:] if own else []
        return (news, private), [*(seq for _, seq in news), *private]

    (news, private), rows = lines_of(game, seat, pick)
    cards = [
        {"number": n, **line_of(rows[seq])}
        for n, seq in news
        if rows[seq].audience is not None or _about(rows[seq], seat)
    ]
    return cards, [line_of(rows[seq]) for seq in private]


def line_of(e: Event) -> dict:
    """One event as the pages' log and news lines read it."""
    return {
        "seq": e.seq,
        "kind": e.kind,
        "round": e.round,
        "text": e.text,
        "template": e.template,
        "data": e.data,
    }


def lines_after(game: Game, seat: int, after: int) -> list[Event]:
    """The events after seq `after` that `seat` may see, less the receipts of its own moves."""
    rows = Event.objects.filter(game=game, seq__gt=after).order_by("seq")
    return [
        e
        for e in rows
        if (e.audience is None or seat in e.audience)
        and not (e.audience is not None and e.kind in RECEIPTS)
    ]


def since(game: Game, seat: int, after: int) -> dict:
    """What the card says: the newest lines since seq `after` (oldest first), how many more
    the log holds, and how many of them are private news (shown as their own cards)."""
    found = lines_after(game, seat, after)
    return {
        "lines": [
            {
                "kind": e.kind,
                "round": e.round,
                "text": e.text,
                "data": e.data,
                "template": e.template,
            }
            for e in found[-SINCE_LINES:]
        ],
        "more": max(len(found) - SINCE_LINES, 0),
        "news": sum(1 for e in found if is_news(e, seat)),
    }
