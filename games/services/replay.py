"""Replays: a game as JSON (options, seed, fixed roles, the ordered step log) and back.

A game is its seed and its steps: `engine.setup` at the start time, then every player's action,
every timeout and every deadline an organiser moved, each with the `now` it ran at (the replay
log, `games.models.Action`, written by the services' `GameWrite.advance`). Importing runs them
again through the engine and the same `advance` into a new game, which ends in the same state
(checked against the digest in the file). A replay holds every secret: only superusers export
or import one.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
from datetime import UTC, datetime

from django.db import IntegrityError, transaction

from games import engine, services
from games.domain.options import engine_options
from games.engine import IllegalAction
from games.models import Action, Game, Player, new_code

FORMAT = "staked-replay"
FORMAT_VERSION = 1


class ReplayError(Exception):
    """The file is not a replay, or its steps do not replay (the message says which)."""


def state_digest(state_json: dict | None) -> str | None:
    if state_json is None:
        return None
    canonical = json.dumps(state_json, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(canonical.encode()).hexdigest()


def replay_export(game: Game) -> dict:
    """The whole game as a JSON-ready dict. It reveals every role: superusers only."""
    steps = list(Action.objects.filter(game=game).order_by("seq"))
    if game.state is not None and (not steps or steps[0].name != "setup"):
        raise ReplayError(f"{game.code} started before the replay log existed: no replay.")
    return {
        "format": FORMAT,
        "format_version": FORMAT_VERSION,
        "code": game.code,
        "exported_at": datetime.now(UTC).isoformat(),
        "options": game.options,
        "seed": game.seed,
        "roles": game.options.get("roles"),  # the staff-fixed deal, if any
        "players": [
            {"seat": p.seat, "name": p.name, "is_bot": p.is_bot}
            for p in game.players.order_by("seat")
        ],
        "actions": [
            {"seq": s.seq, "name": s.name, "seat": s.seat, "args": s.args, "at": s.at}
            for s in steps
        ],
        "final": {
            "status": game.status,
            "round": game.round,
            "phase": game.phase,
            "state_sha256": state_digest(game.state),
        },
    }


def replay_import(data: dict, *, host, keep_running: bool = False) -> Game:
    """Replay `data` into a new game (a fresh code, seats without users, `host` as its host,
    `imported_from` naming the source).

    1. check the file's shape,
    2. create the game and its seats, then run every step through the engine and `advance`,
    3. compare the final state with the file's digest (a mismatch changes nothing),
    4. unless `keep_running`, freeze a still-running copy (status abandoned) so that no timer
       moves it on; its state stays exactly as replayed.
    """
    options, seed, players, steps = _checked(data)
    roles = services.fixed_roles(options)
    with transaction.atomic():  # any failure below leaves no trace
        for _ in range(10):
            try:
                with transaction.atomic():
                    game = Game.objects.create(
                        code=new_code(),
                        options=options,
                        seed=seed,
                        host=host,
                        imported_from=source_of(data),
                    )
                break
            except IntegrityError:  # a code already taken: draw another
                continue
        else:
            raise RuntimeError("could not find a free game code")
        # A new game, in this transaction: no one else sees it. Not live: the log already holds
        # every deadline the table's clock moved (games.services.clock).
        write = services.GameWrite(game, live=False)
        _replay(write, players, steps, roles)
        expected = (data.get("final") or {}).get("state_sha256")
        if expected and state_digest(game.state) != expected:
            raise ReplayError("The replay does not end in the exported state.")
        text = f"Replayed from game {data.get('code', '?')} ({len(steps)} steps)."
        if game.status == Game.Status.RUNNING and not keep_running:
            game.status = Game.Status.ABANDONED
            text += " Frozen: no timer runs."
        write.change([engine.Event("admin", text, game.round)])
    return game


def source_of(data: dict) -> str:
    """Where an imported game comes from, as its page says: "game TNP7AW, exported at ..."."""
    source = f"game {str(data.get('code', '?'))[:12]}"
    exported = data.get("exported_at")
    if isinstance(exported, str) and exported:
        source += f", exported {exported[:32]}"
    return source


def _replay(write: services.GameWrite, players: list[dict], steps: list[dict], roles) -> None:
    game = write.game
    for p in players:
        Player.objects.create(
            game=game, seat=p["seat"], name=p["name"], is_bot=bool(p.get("is_bot"))
        )
    state = None
    for i, step in enumerate(steps):
        name, seat, args, at = step["name"], step.get("seat"), step.get("args") or {}, step["at"]
        try:
            if name == "setup":
                if state is not None:
                    raise ReplayError(f"step {i}: a second setup")
                new = engine.setup(
                    engine_options(game.options), len(players), game.seed, roles=roles, now=at
                )
                game.status = Game.Status.RUNNING
                write.advance(None, new, engine.opening_events(new), step=(name, None, {}, at))
                state = new
                continue
            if state is None:
                raise ReplayError(f"step {i}: {name!r} before the setup")
            if name == "timeout":
                new, events = engine.timeout(state, at)
                if new is state:
                    raise ReplayError(f"step {i}: the timeout at {at} closes nothing")
            elif name == "deadline":
                new, events = dataclasses.replace(state, deadline=args.get("deadline")), []
            else:
                new, events = engine.apply(state, engine.Action(name, seat, args), now=at)
        except IllegalAction as e:
            raise ReplayError(f"step {i} ({name}): {e.code}: {e.detail}") from None
        except (TypeError, ValueError, KeyError, IndexError) as e:  # arguments of the wrong shape
            raise ReplayError(f"step {i} ({name}): {e!r}") from None
        write.advance(state, new, events, step=(name, seat, args, at))
        state = new
    # `advance` keeps `game` in memory up to date; reload the relations it changed in bulk.
    game.refresh_from_db()


def _checked(data) -> tuple[dict, int, list[dict], list[dict]]:
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise ReplayError("This is not a Staked! replay file.")
    if data.get("format_version") != FORMAT_VERSION:
        raise ReplayError(f"Unsupported replay format version {data.get('format_version')!r}.")
    options, seed = data.get("options"), data.get("seed")
    players, steps = data.get("players"), data.get("actions")
    if not isinstance(options, dict) or not isinstance(seed, int):
        raise ReplayError("The replay needs its options and an integer seed.")
    if not isinstance(players, list) or not isinstance(steps, list):
        raise ReplayError("The replay needs a list of players and a list of actions.")
    try:
        engine_options(options)
    except (KeyError, TypeError) as e:
        raise ReplayError(f"Bad options: {e}") from None
    seats = sorted(p.get("seat") for p in players if isinstance(p, dict))
    if seats != list(range(1, len(players) + 1)):
        raise ReplayError("Players must hold seats 1..N, once each.")
    for p in players:
        if not isinstance(p.get("name"), str) or not p["name"]:
            raise ReplayError("Every player needs a name.")
    for i, step in enumerate(steps):
        ok = (
            isinstance(step, dict)
            and isinstance(step.get("name"), str)
            and isinstance(step.get("at"), (int, float))
            and isinstance(step.get("args", {}), dict)
            and (step.get("seat") is None or isinstance(step.get("seat"), int))
        )
        if not ok:
            raise ReplayError(f"Step {i} is malformed.")
    return options, seed, sorted(players, key=lambda p: p["seat"]), steps


def loads(raw: bytes | str) -> dict:
    try:
        return json.loads(raw)
    except (ValueError, UnicodeDecodeError) as e:
        raise ReplayError(f"Not JSON: {e}") from None
