"""Counts over many games, and the figures made from them: rates with 95 % Wilson intervals."""

from __future__ import annotations

import math
from dataclasses import asdict, dataclass, field

import relics.rules
from games.simulate.config import Config

Z95 = 1.959964


@dataclass
class Tally:
    """Counts over a set of games; sums of integers, so merging is exact and order-free."""

    games: int = 0
    hunter_wins: int = 0
    rounds: int = 0
    moves: int = 0
    lord_examined_games: int = 0
    lord_examinations: int = 0
    mesmerized_games: int = 0
    mesmerized: int = 0
    illegal: int = 0  # moves the engine refused (0 for a correct strategy)
    reasons: dict[str, int] = field(default_factory=dict)
    relic_games: dict[str, int] = field(default_factory=dict)  # relic -> games it was in play
    relic_hunter_wins: dict[str, int] = field(default_factory=dict)

    def merge(self, other: Tally) -> None:
        for name in (
            "games",
            "hunter_wins",
            "rounds",
            "moves",
            "lord_examined_games",
            "lord_examinations",
            "mesmerized_games",
            "mesmerized",
            "illegal",
        ):
            setattr(self, name, getattr(self, name) + getattr(other, name))
        for name in ("reasons", "relic_games", "relic_hunter_wins"):
            mine = getattr(self, name)
            for key, n in getattr(other, name).items():
                mine[key] = mine.get(key, 0) + n


def record(tally: Tally, state, lord_seen: int, moves: int) -> None:
    """Add one finished game (its final state and what the loop saw of it) to `tally`."""
    hunters_won = state.outcome.winner == "hunters"
    mesmerized = sum(p.mesmerized for p in state.players)
    tally.games += 1
    tally.hunter_wins += hunters_won
    tally.rounds += state.round
    tally.moves += moves
    tally.lord_examinations += lord_seen
    tally.lord_examined_games += lord_seen > 0
    tally.mesmerized += mesmerized
    tally.mesmerized_games += mesmerized > 0
    reason = state.outcome.reason
    tally.reasons[reason] = tally.reasons.get(reason, 0) + 1
    holdings = relics.rules.data_of(state).holdings
    for relic in sorted({relics.rules.kind(h.card) for h in holdings}):
        tally.relic_games[relic] = tally.relic_games.get(relic, 0) + 1
        tally.relic_hunter_wins[relic] = tally.relic_hunter_wins.get(relic, 0) + hunters_won


def wilson(successes: int, n: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval for a proportion (95 % by default)."""
    if n == 0:
        return (0.0, 1.0)
    p = successes / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return (max(0.0, centre - half), min(1.0, centre + half))


def rate(successes: int, n: int) -> dict:
    """A rate as the figures write it: the count, the rate and its 95 % Wilson interval."""
    low, high = wilson(successes, n)
    return {
        "wins": successes,
        "rate": round(successes / n, 6) if n else None,
        "ci95": [round(low, 6), round(high, 6)],
    }


def paired_difference(only_a: int, only_b: int, n: int, z: float = Z95) -> dict:
    """The difference between two rates measured on the same `n` pairs (A's rate minus B's),
    from the pairs where only A succeeded and only B did, with its 95 % interval (the normal
    approximation for paired proportions). `n` is at least 1: only measured pairs count."""
    d = (only_a - only_b) / n
    half = z * math.sqrt(max(0.0, (only_a + only_b) / n - d * d) / n)
    return {
        "points": round(d * 100, 2),
        "ci95": [round((d - half) * 100, 2), round((d + half) * 100, 2)],
        "only_with": only_a,
        "only_without": only_b,
    }


def figures(config: Config, t: Tally, *, elapsed: float | None = None, workers: int = 1) -> dict:
    """The report as plain data (what `--json` writes). Only `timing` varies between runs."""
    n = t.games
    out = {
        "config": asdict(config),
        "games": n,
        "win_rate": {
            "hunters": rate(t.hunter_wins, n),
            "vampires": rate(n - t.hunter_wins, n),
        },
        "average_rounds": round(t.rounds / n, 4) if n else None,
        "average_moves": round(t.moves / n, 2) if n else None,
        "lord_examined": {
            "games": t.lord_examined_games,
            "rate": round(t.lord_examined_games / n, 6) if n else None,
            "per_game": round(t.lord_examinations / n, 4) if n else None,
        },
        "hunters_mesmerized": {
            "games": t.mesmerized_games,
            "rate": round(t.mesmerized_games / n, 6) if n else None,
            "per_game": round(t.mesmerized / n, 4) if n else None,
        },
        "end_reasons": dict(sorted(t.reasons.items())),
        "illegal_moves": t.illegal,
    }
    if config.relics:
        out["relics"] = _relic_effects(t)
    if elapsed is not None:
        out["timing"] = {
            "seconds": round(elapsed, 3),
            "games_per_s": round(n / elapsed, 1) if elapsed else None,
            "workers": workers,
        }
    return out


def _relic_effects(t: Tally) -> dict:
    """Hunters' win rate in games where each relic was in play vs games where it was not."""
    out = {}
    for relic in relics.rules.BY_ID:
        n_in = t.relic_games.get(relic, 0)
        w_in = t.relic_hunter_wins.get(relic, 0)
        n_out, w_out = t.games - n_in, t.hunter_wins - w_in
        rate_in = w_in / n_in if n_in else None
        rate_out = w_out / n_out if n_out else None
        out[relic] = {
            "games_in_play": n_in,
            "hunters_in_play": rate(w_in, n_in),
            "hunters_not_in_play": rate(w_out, n_out),
            "difference": (
                round(rate_in - rate_out, 6)
                if rate_in is not None and rate_out is not None
                else None
            ),
        }
    return out
