"""Reads: a game as one viewer may see it, and lists. Built only from `engine.view` and each
event's audience (docs/architecture.md, "Hidden information")."""

from __future__ import annotations

import time
from datetime import UTC, datetime

from django.core.cache import cache

from games import engine
from games.domain import identity
from games.domain.clock_stamps import clock_stamp
from games.domain.errors import GameError
from games.domain.offer_tokens import offer_token
from games.domain.options import public_options, spectators_allowed
from games.domain.poll_keys import (
    POLL_KEY_SECONDS,
    deadline_key,
    open_key,
    poll_fresh,
    version_key,
)
from games.engine import state_from_json
from games.engine.last_wills import result_lines
from games.engine.table import ROLE_TABLE
from games.models import Event, Game, Player
from games.selectors.log_index import lines_of, log_index, sees
from games.selectors.news import line_of

# The two reads of every page, poll and API view, as SQL written once: the ORM builds a query's
# SQL anew on every call, and for these two that was a third to a half of their cost (0.4 and
# 0.3 ms of CPU a request, docs/benchmarks.md, "The game page").
_GAME_BY_CODE = f"SELECT * FROM {Game._meta.db_table} WHERE code = %s"  # noqa: S608 - no input
_SEATS = f"SELECT * FROM {Player._meta.db_table} WHERE game_id = %s ORDER BY seat"  # noqa: S608


def game_get(code: str) -> Game:
    game = next(iter(Game.objects.raw(_GAME_BY_CODE, [code.upper()])), None)
    if game is None:
        raise GameError("not_found", f"No game has the code {code!r}.", 404)
    return game


def seats(game: Game) -> list[Player]:
    """The game's seats (its `Player` rows), in seat order."""
    return list(Player.objects.raw(_SEATS, [game.pk]))


def game_version(code: str) -> int | None:
    """The current version for the cheap "has it changed?" path (see `poll_state`)."""
    return poll_state(code)[0]


def poll_state(code: str) -> tuple[int | None, bool, bool]:
    """The current version, whether the host lets spectators watch, and whether the open window
    is still before its deadline (`fresh`; an overdue window must be closed by a full
    read), for the cheap "has it changed?" paths: one cache read, or one indexed query when the
    cache has lost them. (None, False, False) when there is no such game."""
    keys = [version_key(code), open_key(code), deadline_key(code)]
    found = cache.get_many(keys)
    if len(found) == 3:
        version = found[keys[0]]
        if poll_fresh(found[keys[2]], version, time.time()):
            return version, found[keys[1]] is True, True
    row = Game.objects.filter(code=code).values_list("version", "options", "deadline").first()
    if row is None:
        return None, False, False
    version, options, deadline = row
    spectators = spectators_allowed(options)
    # add, not set: a move committed since our read has already written a newer version
    cache.add(keys[0], version, timeout=POLL_KEY_SECONDS)
    cache.add(keys[1], spectators, timeout=POLL_KEY_SECONDS)  # fixed once the game exists
    entry = (version, deadline.timestamp() if deadline is not None else None)
    if cache.get(keys[0]) == version:  # the entry of the version the polls are told
        cache.set(keys[2], entry, timeout=POLL_KEY_SECONDS)
    return version, spectators is True, poll_fresh(entry, version, time.time())


def game_view(game: Game, user, players: list[Player] | None = None) -> dict:
    """The whole view of docs/api.md for this viewer (spectators: the public view, no `me`).
    `players`: the game's seats when the caller has read them already (read once a request)."""
    players = seats(game) if players is None else players
    mine = identity.player_in(players, user)
    seat = mine.seat if mine else None
    host = identity.host_player(players, game)
    out = {
        "code": game.code,
        "status": game.status,
        "version": game.version,
        "options": public_options(game.options),
        "host_seat": host.seat if host else None,
        "rematch": game.rematch.code if game.rematch_id else None,
    }
    if game.state is None:
        return {**out, **_lobby_view(game, players, seat)}
    state = state_from_json(game.state)
    view = engine.view(state, seat)
    # What this seat may do now, as one token (games/domain/offer_tokens.py), for If-Match.
    playing = seat is not None and game.status == Game.Status.RUNNING
    view["offer"] = offer_token(game.code, state, seat) if playing else None
    names = {p.seat: p for p in players}
    for s in view["seats"]:
        s["name"] = names[s["seat"]].name
        s["is_bot"] = names[s["seat"]].is_bot
        s["afk"] = names[s["seat"]].afk
        running = game.status == Game.Status.RUNNING
        s["vacation_until"] = vacation_until(names[s["seat"]]) if running else None
    view["deadline"] = iso(view["deadline"])
    window = (view.get("relics") or {}).get("window")
    if window:  # the open relic window's deadline, in the same format as the game's
        window["deadline"] = iso(window["deadline"])
    if game.status == Game.Status.RUNNING:
        view["clock"] = clock_view(game, players, view["seats"])
    if mine is not None and "me" in view:
        view["me"]["vacation"] = my_vacation(mine)
    return {**out, **view}


def last_will_lines(game: Game) -> list[dict]:
    """The public lines of the Last Wills the public view shows, as templates and seats
    (games.engine.last_wills.result_lines): what the room's narrator names the seats of."""
    if game.state is None:
        return []
    return result_lines(state_from_json(game.state))


def _stamp(moment: datetime | None) -> str | None:
    return iso(moment.timestamp()) if moment is not None else None


def vacation_until(player: Player) -> str | None:
    """Public: when a seat's vacation ends, while a bot holds it (games.services.vacation)."""
    return _stamp(player.vacation_until) if player.vacation_on else None


def my_vacation(player: Player) -> dict | None:
    """The player's own announced absence (not the table's until it begins), or None."""
    if player.vacation_until is None:
        return None
    return {
        "from": _stamp(player.vacation_from),
        "until": _stamp(player.vacation_until),
        "on": player.vacation_on,
    }


def clock_view(game: Game, players: list[Player], seats: list[dict]) -> dict:
    """The table's clock (games.services.deadlines), public: paused or not, and the open vote
    with who votes (the living seats played by people) and how many yes votes it takes."""
    alive = {s["seat"] for s in seats if s["alive"]}
    voters = sorted(
        p.seat
        for p in players
        if not p.is_bot and p.user_id and not p.vacation_on and p.seat in alive
    )
    clock = game.clock or {}
    vote = clock.get("vote")
    if vote:
        vote = {
            "proposal": vote["proposal"],
            "minutes": vote.get("minutes"),
            "by": vote["by"],
            "yes": list(vote["yes"]),
            "needed": len(voters) // 2 + 1,
        }
    left = clock.get("paused_left")
    return {
        "paused": left is not None,
        "paused_left": None if left is None else int(left),
        "moved": clock.get("moved_in") is not None and clock.get("moved_in") == clock.get("window"),
        "vote": vote,
        "voters": voters,
        "stamp": clock_stamp(game),
    }


def _lobby_view(game: Game, players: list[Player], seat: int | None) -> dict:
    count = len(players)
    deck = ROLE_TABLE.get(count)
    view = {
        "round": 0,
        "phase": "lobby",
        "deadline": None,
        "seats": [
            {
                "seat": p.seat,
                "name": p.name,
                "alive": True,
                "alpha": False,
                "protected": False,
                "is_bot": p.is_bot,
                "afk": False,
                "vacation_until": None,
                "placed_by": [],
            }
            for p in players
        ],
        "pending": [],
        "offer": None,
        "waiting_for": [],
        "last_dining": None,
        "winner": None,
        "roles": None,
        "deck": {
            "hunters": deck[0],
            "vampires": deck[1],
            "vampire_lord": 1,
            "lord_knows_vampires": deck[2],
        }
        if deck
        else None,
    }
    if seat is not None:
        mine = next(p for p in players if p.seat == seat)
        view["me"] = {"seat": seat, "vacation": my_vacation(mine)}
    return view


def events_for(game: Game, user, *, after: int = 0, limit: int = 200) -> tuple[list[dict], bool]:
    """The log `user` may see, after their `after`-th event; and whether more follow."""
    return events_seen_by(game, identity.seat_of(game, user), after=after, limit=limit)


def events_seen_by(
    game: Game, seat: int | None, *, after: int = 0, limit: int = 200
) -> tuple[list[dict], bool]:
    """The log `seat` (None: the public) may see, numbered the viewer's own way.

    An event's `seq` is its position among the events this viewer may see: the public ones and
    their seat's private ones, 1, 2, 3, ... with no gap. The game's own sequence counts every
    seat's private lines too, so its gaps told a spectator that someone learned a secret (one
    missing number after an examination, three when it was the Vampire Lord's card: the
    examination and two Mesmerism lines). `after` (a cursor) is in the same numbering."""
    after = max(after, 0)
    seqs, lines = _window(game, seat, lambda seqs: (after, after + limit))
    return lines, len(seqs) > after + limit


def events_tail(game: Game, seat: int | None, count: int) -> list[dict]:
    """The last `count` events `seat` may see, oldest first, numbered as in `events_seen_by`."""
    return _window(game, seat, lambda seqs: (max(0, len(seqs) - count), len(seqs)))[1]


def _window(game: Game, seat: int | None, bounds) -> tuple[list[int], list[dict]]:
    """The seqs `seat` may see, and the lines `bounds(seqs)` (start, stop) picks of them."""

    def pick(index):
        seqs = _visible(index, seat)
        start, stop = bounds(seqs)
        window = seqs[start:stop]
        return (seqs, start, window), window

    (seqs, start, window), rows = lines_of(game, seat, pick)
    return seqs, [_line(number, rows[seq]) for number, seq in enumerate(window, start + 1)]


def _visible_seqs(game: Game, seat: int | None) -> list[int]:
    """The game's own numbers of the events `seat` may see, oldest first."""
    return _visible(log_index(game), seat)


def _visible(index, seat: int | None) -> list[int]:
    """The seqs of `index` (the log's, `log_index`) that `seat` may see."""
    return [seq for seq, audience, _ in index if sees(seat, audience)]


def _line(number: int, e: Event) -> dict:
    """An event as the viewer's `number`-th line."""
    return {
        "seq": number,
        "round": e.round,
        "kind": e.kind,
        "text": e.text,
        "template": e.template,  # for the pages' names; the API does not publish it
        "data": e.data,
    }


def public_log(game: Game, count: int) -> list[dict]:
    """The last `count` public events, oldest first: the log every viewer shares (one query).
    A seat's own private lines are not in it (selectors.news.page_lines)."""
    rows = Event.objects.filter(game=game, audience__isnull=True).order_by("-seq")[:count]
    return [line_of(e) for e in reversed(rows)]


def iso(epoch: float | None) -> str | None:
    if epoch is None:
        return None
    return datetime.fromtimestamp(epoch, UTC).isoformat().replace("+00:00", "Z")
