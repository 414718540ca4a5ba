"""What a move is worth: paired games where one seat made the move, or did not.

A game is played by the sensible bots. The first time a seat's view is in one of the
situations (games/bots/situations.py), the game is copied twice at that very moment: in one
copy that seat makes the move whenever it is in the situation, in the other it never does
(games/bots/strategies/counterfactual.py); every other seat, and that seat everywhere else,
plays sensibly, and both copies draw the same random numbers. Each copy is played to its end,
and the seat's own win counted (a Hunter Mesmerized later wins with the Vampires, R8.3). The
game itself goes on, and each situation is measured at most once per game.

Pure Python (no Django); `python manage.py coach_figures` is its shell.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass, field

from games.bots import situations
from games.bots.strategies import sensible
from games.bots.strategies.counterfactual import variant
from games.engine import setup, timeout, view
from games.engine.state import State
from games.engine.table import team
from games.engine.view import waiting_for
from games.simulate.config import Config
from games.simulate.runner import MAX_STEPS, in_parallel, move
from games.simulate.statistics import Tally, paired_difference, rate

Key = tuple[str, str]  # (situation, the seat's team)


@dataclass
class Pairs:
    """Counts of paired copies by situation and team; sums of integers, so merging is exact."""

    games: int = 0
    counts: dict[Key, list[int]] = field(default_factory=dict)  # [pairs, won made, won not]

    def add(self, key: Key, made: bool, avoided: bool) -> None:
        c = self.counts.setdefault(key, [0, 0, 0, 0, 0])
        c[0] += 1
        c[1] += made
        c[2] += avoided
        c[3] += made and not avoided  # only the move won
        c[4] += avoided and not made  # only leaving it won

    def merge(self, other: Pairs) -> None:
        self.games += other.games
        for key, theirs in other.counts.items():
            mine = self.counts.setdefault(key, [0, 0, 0, 0, 0])
            for i, n in enumerate(theirs):
                mine[i] += n


def measure(config: Config, i: int, pairs: Pairs) -> None:
    """Play game `i` of `config` with the sensible bots, measuring each situation the first
    time a seat meets it."""
    seed = config.game_seed(i)
    rng = random.Random(f"{seed}:bots")
    state = setup(config.options(), config.players, seed)
    left = list(situations.SITUATIONS)

    def fork(state: State, seat: int, seen: dict) -> None:
        for situation in [s for s in left if situations.find(s, seen) is not None]:
            left.remove(situation)
            drawn = rng.getstate()
            won = []
            for made in (True, False):
                copy = random.Random()
                copy.setstate(drawn)
                focal = variant(situation, made)
                end = _play(
                    state, copy, lambda s, f=focal: f if s == seat else sensible.choose, seat
                )
                won.append(_won(end, seat))
            pairs.add((situation, situations.team_of(seen)), *won)

    _play(state, rng, lambda s: sensible.choose, None, fork)
    pairs.games += 1


def _play(
    state: State,
    rng: random.Random,
    strategy_of: Callable[[int], Callable],
    first: int | None,
    before: Callable[[State, int, dict], None] | None = None,
) -> State:
    """Play `state` to its end, each seat by `strategy_of(seat)`; `first`, if given, moves
    first (the seat already drawn when the game was copied); `before` hears each move's seat
    and view before it is made."""
    memo: dict = {}
    ignored = Tally()  # refused moves are counted by the balance report, not here
    for _ in range(MAX_STEPS):
        if state.outcome is not None:
            return state
        seats = waiting_for(state)
        if not seats:
            state, _ = timeout(state, state.deadline or 0.0)
            continue
        seat = first if first is not None else seats[rng.randrange(len(seats))]
        first = None
        seen = view(state, seat)
        if before is not None:
            before(state, seat, seen)
        state, _, _ = move(state, rng, seat, seen, strategy_of(seat), memo, ignored)
    raise RuntimeError(f"a game did not end in {MAX_STEPS} steps")


def _won(state: State, seat: int) -> bool:
    return team(state.player(seat)) == state.outcome.winner


def measure_chunk(job: tuple[Config, int, int]) -> Pairs:
    config, start, stop = job
    pairs = Pairs()
    for i in range(start, stop):
        measure(config, i, pairs)
    return pairs


def run(
    config: Config,
    *,
    workers: int | None = None,
    progress: Callable[[int, int], None] | None = None,
) -> Pairs:
    """Play `config.games` games on `workers` processes, measuring every situation met."""
    total = Pairs()
    for part in in_parallel(measure_chunk, config, workers):
        total.merge(part)
        if progress:
            progress(total.games, config.games)
    return total


def figures(pairs: Pairs, table: str) -> list[dict]:
    """One entry per situation and team: what the situation and the move are, the pairs
    measured, the win rates with and without the move with their 95 % Wilson intervals, and the
    paired difference (points) with its 95 % interval."""
    out = []
    for (situation, side), (n, made, avoided, only_made, only_avoided) in sorted(
        pairs.counts.items()
    ):
        about, move = situations.ABOUT[situation]
        out.append(
            {
                "situation": situation,
                "table": table,
                "team": side,
                "about": about,
                "move": move,
                "games": n,
                "with": rate(made, n),
                "without": rate(avoided, n),
                "difference": paired_difference(only_made, only_avoided, n),
            }
        )
    return out


def markdown(data: dict) -> str:
    """The stored figures as the Markdown table of docs/balance.md ("The coach's figures")."""
    lines = [
        "| Situation | Table | Side | Pairs | With the move | 95 % CI | Without | 95 % CI | "
        "Difference (95 % CI) |",
        "|---|---|---|---:|---:|:---:|---:|:---:|:---:|",
    ]
    for tip in data["tips"]:
        made, avoided, d = tip["with"], tip["without"], tip["difference"]
        lines.append(
            f"| `{tip['situation']}` | {tip['table']} | {tip['team']} | {tip['games']:,} | "
            f"{made['rate']:.1%} | {_interval(made['ci95'])} | {avoided['rate']:.1%} | "
            f"{_interval(avoided['ci95'])} | {d['points']:+.1f} pts "
            f"({d['ci95'][0]:+.1f} to {d['ci95'][1]:+.1f}) |"
        )
    return "\n".join(lines) + "\n"


def _interval(ci: list[float]) -> str:
    return f"{ci[0]:.1%} – {ci[1]:.1%}"
