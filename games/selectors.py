"""Reads: a game as one viewer may see it, and lists. Built only from `engine.view` and each
event's audience (DESIGN.md, "Hidden information")."""

from __future__ import annotations

from datetime import UTC, datetime

from django.core.cache import cache

from games import engine
from games.engine import state_from_json
from games.engine.table import ROLE_TABLE
from games.models import Event, Game, Player
from games.options import public_options
from games.services import POLL_KEY_SECONDS, GameError, version_key


def game_get(code: str) -> Game:
    game = Game.objects.filter(code=code.upper()).first()
    if game is None:
        raise GameError("not_found", f"No game has the code {code!r}.", 404)
    return game


def game_version(code: str) -> int | None:
    """The current version for the cheap "has it changed?" path: one cache read, or one
    indexed query when the cache has lost it."""
    version = cache.get(version_key(code))
    if version is None:
        version = Game.objects.filter(code=code).values_list("version", flat=True).first()
        if version is not None:
            # add, not set: a move committed since our read has already written a newer one
            cache.add(version_key(code), version, timeout=POLL_KEY_SECONDS)
    return version


def seat_of(game: Game, user) -> int | None:
    if not user or not user.is_authenticated:
        return None
    return game.players.filter(user=user).values_list("seat", flat=True).first()


def game_view(game: Game, user) -> dict:
    """The whole view of API.md for this viewer (spectators: the public view, no `me`)."""
    players = list(game.players.all())
    seat = next((p.seat for p in players if user and p.user_id == user.id), None)
    out = {
        "code": game.code,
        "status": game.status,
        "version": game.version,
        "options": public_options(game.options),
        "host_seat": next((p.seat for p in players if p.user_id == game.host_id), None),
        "rematch": game.rematch.code if game.rematch_id else None,
    }
    if game.state is None:
        return {**out, **_lobby_view(game, players, seat)}
    view = engine.view(state_from_json(game.state), seat)
    names = {p.seat: p for p in players}
    for s in view["seats"]:
        s["name"] = names[s["seat"]].name
        s["is_bot"] = names[s["seat"]].is_bot
        s["afk"] = names[s["seat"]].afk
    view["deadline"] = iso(view["deadline"])
    window = (view.get("relics") or {}).get("window")
    if window:  # the open relic window's deadline, in the same format as the game's
        window["deadline"] = iso(window["deadline"])
    return {**out, **view}


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
                "placed_by": [],
            }
            for p in players
        ],
        "pending": [],
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
        view["me"] = {"seat": seat}
    return view


def events_for(game: Game, user, *, after: int = 0, limit: int = 200) -> tuple[list[dict], bool]:
    """The log this viewer may see, after `after`; and whether more follow."""
    seat = seat_of(game, user)
    rows = Event.objects.filter(game=game, seq__gt=after).order_by("seq")
    visible = []
    more = False
    for e in rows.iterator(chunk_size=500):
        if not e.visible_to(seat):
            continue
        if len(visible) == limit:
            more = True
            break
        visible.append(
            {"seq": e.seq, "round": e.round, "kind": e.kind, "text": e.text, "data": e.data}
        )
    return visible, more


def iso(epoch: float | None) -> str | None:
    if epoch is None:
        return None
    return datetime.fromtimestamp(epoch, UTC).isoformat().replace("+00:00", "Z")
