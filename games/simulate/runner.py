"""The game loop: one game played to the end by bots, then many games on every core."""

from __future__ import annotations

import multiprocessing
import os
import random
import sys
import time
from collections.abc import Callable, Iterator

import relics.rules  # noqa: F401 - registers the Sacred Relics module
from games.bots import strategies
from games.bots.strategies.randomly import random_choice
from games.engine import IllegalAction, apply, opening_events, setup, timeout, view
from games.engine.state import Action, Event, State
from games.engine.view import waiting_for
from games.simulate.config import Config
from games.simulate.statistics import Tally, figures, record

MAX_STEPS = 20_000  # a safety net: no real game comes near it
CHUNK = 50  # games per task handed to a worker


# --- one game ----------------------------------------------------------------------------------


def play(
    config: Config, i: int, tally: Tally, listen: Callable[[list[Event]], None] | None = None
) -> None:
    """Play game `i` of `config` to the end and add it to `tally`; `listen`, if given, hears
    every event of the game (its opening lines first)."""
    seed = config.game_seed(i)
    rng = random.Random(f"{seed}:bots")
    choose = strategies.get(config.strategy)
    state = setup(config.options(), config.players, seed)
    if listen is not None:
        listen(opening_events(state))
    memo: dict = {}  # the bots' own notes for this game (see games/bots/strategies)
    lord_seen = moves = 0
    for _ in range(MAX_STEPS):
        if state.outcome is not None:
            break
        seats = waiting_for(state)
        if not seats:
            state, events = timeout(state, state.deadline or 0.0)
        else:
            seat = seats[rng.randrange(len(seats))]
            seen = view(state, seat)  # the bot's whole world: computed once per move
            state, events, moved = move(state, rng, seat, seen, choose, memo, tally)
            if not moved:  # the window's timer ran out: its lines are heard, not counted
                if listen is not None:
                    listen(events)
                continue
            moves += 1
        if listen is not None:
            listen(events)
        for e in events:
            if e.kind == "examined" and e.data.get("role") == "vampire_lord":
                lord_seen += 1
    else:
        raise RuntimeError(f"game {seed} did not end in {MAX_STEPS} steps")
    record(tally, state, lord_seen, moves)


def move(
    state: State, rng: random.Random, seat: int, seen: dict, choose, memo: dict, tally: Tally
) -> tuple[State, list[Event], bool]:
    """`seat` moves by `choose` from its view `seen` (a random legal move if the strategy has
    none, another if the engine refuses it); False when it had nothing to do after all and the
    window's timer ran out instead."""
    choice = choose(rng, seen, memo) or random_choice(rng, seen["pending"], seen)
    if choice is None:  # nothing to do after all: let the window's timer run out
        state, events = timeout(state, state.deadline or 0.0)
        return state, events, False
    try:
        state, events = apply(state, Action(choice[0], seat, choice[1]))
    except IllegalAction:
        tally.illegal += 1
        fallback = random_choice(rng, seen["pending"], seen)
        try:
            state, events = apply(state, Action(fallback[0], seat, fallback[1]))
        except IllegalAction:
            state, events = timeout(state, state.deadline or 0.0)
    return state, events, True


def play_chunk(job: tuple[Config, int, int]) -> Tally:
    config, start, stop = job
    tally = Tally()
    for i in range(start, stop):
        play(config, i, tally)
    return tally


# --- many games, on every core -------------------------------------------------------------------


def run(
    config: Config,
    *,
    workers: int | None = None,
    progress: Callable[[int, int], None] | None = None,
) -> dict:
    """Play `config.games` games on `workers` processes; return the figures (see `figures`)."""
    workers = max(1, workers or os.cpu_count() or 1)
    total = Tally()
    started = time.perf_counter()
    for part in in_parallel(play_chunk, config, workers):
        total.merge(part)
        if progress:
            progress(total.games, config.games)
    elapsed = time.perf_counter() - started
    return figures(config, total, elapsed=elapsed, workers=workers)


def in_parallel(chunk: Callable, config: Config, workers: int | None) -> Iterator:
    """`chunk((config, start, stop))` for every CHUNK games of `config`, on `workers`
    processes; the results as they come (in any order: merge them as sums)."""
    workers = max(1, workers or os.cpu_count() or 1)
    jobs = [(config, s, min(s + CHUNK, config.games)) for s in range(0, config.games, CHUNK)]
    if workers == 1 or len(jobs) == 1:
        yield from map(chunk, jobs)
        return
    ctx = multiprocessing.get_context("fork" if sys.platform == "linux" else "spawn")
    pool = ctx.Pool(workers)
    try:
        yield from pool.imap_unordered(chunk, jobs)
    finally:
        pool.close()
        pool.join()
