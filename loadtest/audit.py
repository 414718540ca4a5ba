"""What a game's own records prove after a run: replayed through the engine, step by step.

A game's replay log (`games_action`: every move, every timeout, with the `now` it ran at) is read
straight from the deployment's database and played again through the pure engine, from the seed:

- it must end in the state the game saved (nothing was applied that is not in the log, nothing in
  the log was lost);
- every timeout must have closed a window whose deadline had passed (`at >= deadline`): a timer
  that acted twice, or early, could not pass this, since the window it closed the second time
  would not have been due yet; how late each timeout ran is measured;
- `moves_exactly_once` checks the moves clients made against it: every acknowledged move is in the
  log exactly once, at the version its answer gave, and every move in the log is one a client
  sent (once, whatever its retries).
"""

from __future__ import annotations

import dataclasses
import json
import sqlite3
from dataclasses import dataclass, field

from games import engine
from games.domain.options import engine_options
from games.engine import Action, to_json


@dataclass
class Step:
    seq: int
    name: str
    seat: int | None
    args: dict
    at: float


@dataclass
class Audit:
    code: str
    status: str
    steps: list[Step]
    timeouts: int = 0
    late: list[float] = field(default_factory=list)  # seconds after its deadline, per timeout
    problems: list[str] = field(default_factory=list)

    @property
    def finished(self) -> bool:
        return self.status == "finished"

    @property
    def moves(self) -> list[Step]:
        return [s for s in self.steps if s.name not in ("setup", "timeout", "deadline")]


def audit_game(conn, code: str) -> Audit:
    """Replay game `code` from `conn`: a psycopg connection to the deployment's PostgreSQL, or a
    sqlite3 one to an embedded run's database."""

    def query(sql: str, *params):
        if isinstance(conn, sqlite3.Connection):
            sql = sql.replace("%s", "?")
        return conn.execute(sql, params)

    game_id, status, options, seed, saved = query(
        "SELECT id, status, options, seed, state FROM games_game WHERE code = %s", code
    ).fetchone()
    seats = query("SELECT count(*) FROM games_player WHERE game_id = %s", game_id).fetchone()[0]
    rows = query(
        "SELECT seq, name, seat, args, at FROM games_action WHERE game_id = %s ORDER BY seq",
        game_id,
    ).fetchall()
    steps = [Step(seq, name, seat, _json(args), at) for seq, name, seat, args, at in rows]
    audit = Audit(code, status, steps)
    options = _json(options)
    roles = options.get("roles")
    roles = {int(k): v for k, v in roles.items()} if roles else None
    state = None
    for step in steps:
        if step.name == "setup":
            state = engine.setup(engine_options(options), seats, seed, roles=roles, now=step.at)
        elif step.name == "timeout":
            audit.timeouts += 1
            if state.deadline is None or step.at < state.deadline:
                audit.problems.append(f"step {step.seq}: a timeout before its window was due")
                return audit
            audit.late.append(step.at - state.deadline)
            new, _ = engine.timeout(state, step.at)
            if new is state:
                audit.problems.append(f"step {step.seq}: a timeout that closed nothing")
                return audit
            state = new
        elif step.name == "deadline":
            state = dataclasses.replace(state, deadline=step.args.get("deadline"))
        else:
            state, _ = engine.apply(state, Action(step.name, step.seat, step.args), now=step.at)
    if state is not None and to_json(state) != _json(saved):
        audit.problems.append("the replayed log does not end in the saved state")
    if state is not None and status == "finished" and state.outcome is None:
        audit.problems.append("finished, but the replayed game is not over")
    return audit


def _json(value):
    return json.loads(value) if isinstance(value, str | bytes) else value


@dataclass
class Intent:
    """One move a client meant to make, with every attempt it sent (each with `If-Match`)."""

    seat: int
    name: str
    args: dict
    attempts: list[int] = field(default_factory=list)  # the If-Match version of each attempt
    outcomes: list[str] = field(default_factory=list)  # status codes, or the network error
    acked_seq: int | None = None  # the version a 200 answer gave: the step it made

    def matches(self, step: Step) -> bool:
        return (
            step.seat == self.seat
            and step.name == self.name
            and _same(step.args, self.args)
            and step.seq - 1 in self.attempts
        )


def _same(a: dict, b: dict) -> bool:
    return json.dumps(a, sort_keys=True) == json.dumps(b, sort_keys=True)


def moves_exactly_once(audit: Audit, intents: list[Intent]) -> list[str]:
    """Problems (none: good) between the moves clients made and the moves in the log."""
    problems = []
    claimed: dict[int, Intent] = {}
    for intent in intents:
        found = [s for s in audit.moves if intent.matches(s)]
        if len(found) > 1:
            problems.append(f"{intent} was applied {len(found)} times: {[s.seq for s in found]}")
        if intent.acked_seq is not None and [s.seq for s in found] != [intent.acked_seq]:
            problems.append(f"{intent} was acknowledged at {intent.acked_seq}, found {found}")
        for step in found:
            claimed[step.seq] = intent
    for step in audit.moves:
        if step.seq not in claimed:
            problems.append(f"step {step} was made by no client")
    return problems
