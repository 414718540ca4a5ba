"""Tables of real users that play whole games to the end through the services, each seat
moving as the sensible bot would from its own view (the history's tests, pages and browser)."""

from __future__ import annotations

import random
import uuid

from django.contrib.auth import get_user_model

import relics.rules  # noqa: F401 - registers the Sacred Relics module (bot_game's engine)
from games import engine, services
from games.bots.moves import bot_move
from games.domain.options import engine_options, normalized
from games.engine import state_from_json
from games.engine.table import role_deck
from games.engine.view import waiting_for
from games.models import Game
from games.services.replay import FORMAT, FORMAT_VERSION, replay_import

NAMES = ["Ana", "Ben", "Cleo", "Dev", "Eli", "Fay", "Gus", "Hana"]


def users(n: int) -> list:
    return [
        get_user_model().objects.create_user(f"{NAMES[i].lower()}-{uuid.uuid4().hex[:8]}")
        for i in range(n)
    ]


def table(players: list, **options) -> Game:
    """A started game of `players` (users, seat 1 first) with the R1.2 deck dealt in order:
    Hunters first, then the Vampires, the Lord last (6 players: seats 1-4 Hunters, 5 Vampire,
    6 Lord)."""
    deck = role_deck(len(players))
    roles = {str(seat): role for seat, role in enumerate(deck, start=1)}
    options = {"roles": roles, "seed": 7, **options}
    game = services.game_create(host=players[0], options=options, name=NAMES[0])
    for i, user in enumerate(players[1:], start=1):
        services.game_join(code=game.code, user=user, name=NAMES[i])
    services.game_start(code=game.code, user=players[0])
    game.refresh_from_db()
    return game


def move(game: Game, seat: int, name: str, **args) -> None:
    player = game.players.get(seat=seat)
    services.action_apply(code=game.code, user=player.user, name=name, args=args)


def lord_examined_by_seat_1(game: Game) -> None:
    """Round 1: every Stake goes on the Lord (seat 6), who picks seat 1 to examine their role:
    seat 1, a Hunter, is Mesmerized (R6.1, R8.1)."""
    plans = {
        s: [("stake", 6), ("stake", s % 5 + 1), ("feast", (s + 1) % 5 + 1)] for s in range(1, 6)
    }
    plans[6] = [("stake", 1), ("stake", 2), ("feast", 3)]
    for seat, plan in plans.items():
        for token, target in plan:
            move(game, seat, "place_token", token=token, target=target)
    move(game, 6, "choose_examiner", target=1)


def play_to_the_end(game: Game) -> Game:
    """Every waiting seat makes the sensible bot's move, as its own user; a window nobody can
    answer runs out. Deterministic: the choices come from the game's seed."""
    rng = random.Random(game.seed)
    for _ in range(3000):
        game.refresh_from_db()
        if game.status != Game.Status.RUNNING:
            return game
        state = state_from_json(game.state)
        seats = waiting_for(state)
        choice = bot_move(rng, seats[0], engine.view(state, seats[0])) if seats else None
        if choice is None:
            services.game_expire(game_id=game.id, now=state.deadline + 1)
        else:
            move(game, seats[0], choice.name, **choice.args)
    raise AssertionError(f"{game.code} did not end")


def bot_play(players: int, seed: int, **options) -> tuple[engine.State, list, list, dict]:
    """A whole game of `players` sensible bots played in memory by the engine (relics and Last
    Wills on unless `options` say otherwise): its final state, every event, its replay steps
    and its options (as the API stores them)."""
    options = normalized({"relics": True, "last_wills": True, **options})
    options["expansion"] = players > 10
    rng = random.Random(f"{seed}:bots")
    now = 1_000_000.0
    state = engine.setup(engine_options(options), players, seed, now=now)
    events = list(engine.opening_events(state))
    steps = [{"name": "setup", "seat": None, "args": {}, "at": now}]
    while state.outcome is None:
        now += 1
        seats = waiting_for(state)
        move = bot_move(rng, seats[0], engine.view(state, seats[0])) if seats else None
        try:
            if move is None:
                raise engine.IllegalAction("nothing", "nothing to do: let the time run out")
            state, new = engine.apply(state, move, now=now)
            steps.append({"name": move.name, "seat": move.seat, "args": move.args, "at": now})
        except engine.IllegalAction:
            now = max(now, state.deadline or now)
            state, new = engine.timeout(state, now)
            steps.append({"name": "timeout", "seat": None, "args": {}, "at": now})
        events.extend(new)
    return state, events, steps, options


def bot_game(players: int, seed: int, host, **options) -> Game:
    """`bot_play`'s game stored through the replay import (one transaction, no timers, no
    phones: a whole 12-seat game costs a second or two), hosted by `host`; its seats are bots'."""
    _, _, steps, options = bot_play(players, seed, **options)
    data = {
        "format": FORMAT,
        "format_version": FORMAT_VERSION,
        "code": "BOTS",
        "options": options,
        "seed": seed,
        "players": [{"seat": s, "name": f"Bot {s}", "is_bot": True} for s in range(1, players + 1)],
        "actions": steps,
    }
    return replay_import(data, host=host)
