"""Engine benchmark: random complete games per second on one core, and the median `apply`.

    python -m games.engine.bench [--games N]

The last line is machine-readable:
    BENCH engine games_per_s_10p=<n> apply_median_us=<n>
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from . import Action, IllegalAction, Options, apply, pending, setup, timeout
from .view import waiting_for

TIMEOUT_CHANCE = 0.03  # now and then, let a window's timer run out instead of acting


def random_game(players: int, seed: int, timings: list[int] | None = None):
    """Play one game of random legal moves to the end; return the final state."""
    rng = random.Random(seed)
    state = setup(Options(expansion=players > 10), players, seed)
    while state.outcome is None:
        seats = waiting_for(state)
        if not seats or rng.random() < TIMEOUT_CHANCE:
            state, _ = timeout(state, state.deadline)
            continue
        seat = pick(rng, seats)
        action = random_action(rng, seat, pending(state, seat))
        started = time.perf_counter_ns()
        try:
            state, _ = apply(state, action, now=0.0)
        except IllegalAction:
            continue  # a combination the options allow only for other tokens; try again
        if timings is not None:
            timings.append(time.perf_counter_ns() - started)
    return state


def pick(rng: random.Random, items):
    """`rng.choice`, uniform too, without its rejection loop: the driver's cost is not the
    engine's."""
    return items[int(rng.random() * len(items))]


def random_action(rng: random.Random, seat: int, actions: list[dict]) -> Action:
    chosen = pick(rng, actions)
    options = chosen["options"]
    if "count" in options:  # a choice of several seats at once (resolve_choice)
        args = {
            "choice": options["choice"],
            "targets": rng.sample(options["targets"], options["count"]),
        }
    else:
        args = {"target": pick(rng, options["targets"])}
    if "tokens" in options:
        args["token"] = pick(rng, options["tokens"])
    return Action(chosen["action"], seat, args)


def games_per_second(players: int, games: int) -> float:
    started = time.perf_counter()
    for seed in range(games):
        random_game(players, seed)
    return games / (time.perf_counter() - started)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=500, help="games per player count")
    args = parser.parse_args()
    rates = {}
    for players in (6, 10, 12):
        rates[players] = games_per_second(players, args.games)
        print(f"{players:>2} players: {rates[players]:8.1f} random complete games/s (one core)")
    timings: list[int] = []
    for seed in range(200):
        random_game(10, seed, timings)
    median_us = statistics.median(timings) / 1000
    print(f"median apply (10 players, {len(timings)} actions): {median_us:.1f} µs")
    print(f"BENCH engine games_per_s_10p={rates[10]:.1f} apply_median_us={median_us:.1f}")


if __name__ == "__main__":
    main()
