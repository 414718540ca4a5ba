"""Whole games played by bots through the pure engine, many at once: the balance simulator.

Pure Python (no Django): `python manage.py simulate` is a thin shell around `run`.

    figures = run(Config(players=10, games=10_000, strategy="sensible", seed=1), workers=2)
    print(format_figures(figures))

Each game is played from its own seed (`seed * 1_000_003 + i` for game i) and the bots' choices
from an RNG derived from that seed, so a game is the same whichever worker plays it; the workers'
counts are sums, so the figures do not depend on `--workers` either.
"""

from __future__ import annotations

import math
import multiprocessing
import os
import random
import sys
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass, field

import relics.rules  # noqa: F401 - registers the Sacred Relics module
from games import strategies
from games.engine import IllegalAction, Options, apply, setup, timeout, view
from games.engine.state import Action
from games.engine.view import waiting_for
from games.strategies.randomly import random_choice

MAX_STEPS = 20_000  # a safety net: no real game comes near it
CHUNK = 50  # games per task handed to a worker
Z95 = 1.959964


@dataclass(frozen=True)
class Config:
    players: int = 10
    games: int = 1000
    relics: bool = False
    last_wills: bool = False
    strategy: str = strategies.DEFAULT
    seed: int = 0

    def game_seed(self, i: int) -> int:
        return self.seed * 1_000_003 + i

    def options(self) -> Options:
        return Options(relics=self.relics, last_wills=self.last_wills, expansion=self.players > 10)


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


# --- one game ----------------------------------------------------------------------------------


def play(config: Config, i: int, tally: Tally) -> None:
    """Play game `i` of `config` to the end and add it to `tally`."""
    seed = config.game_seed(i)
    rng = random.Random(f"{seed}:bots")
    choose = strategies.get(config.strategy)
    state = setup(config.options(), config.players, seed)
    memo: dict = {}  # the bots' own notes for this game (see games/strategies)
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
            choice = choose(rng, seen, memo) or random_choice(rng, seen["pending"], seen)
            if choice is None:  # nothing to do after all: let the window's timer run out
                state, events = timeout(state, state.deadline or 0.0)
                continue
            try:
                state, events = apply(state, Action(choice[0], seat, choice[1]))
            except IllegalAction:
                tally.illegal += 1
                fallback = random_choice(rng, seen["pending"], seen)
                try:
                    state, events = apply(state, Action(fallback[0], seat, fallback[1]))
                except IllegalAction:
                    state, events = timeout(state, state.deadline or 0.0)
            moves += 1
        for e in events:
            if e.kind == "examined" and e.data.get("role") == "vampire_lord":
                lord_seen += 1
    else:
        raise RuntimeError(f"game {seed} did not end in {MAX_STEPS} steps")
    _count(tally, state, lord_seen, moves)


def _count(tally: Tally, state, lord_seen: int, moves: int) -> None:
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
    holdings = (state.ext.get("relics") or {}).get("holdings") or ()
    for relic in sorted({relics.rules.kind(h["card"]) for h in holdings}):
        tally.relic_games[relic] = tally.relic_games.get(relic, 0) + 1
        tally.relic_hunter_wins[relic] = tally.relic_hunter_wins.get(relic, 0) + hunters_won


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
    jobs = [(config, s, min(s + CHUNK, config.games)) for s in range(0, config.games, CHUNK)]
    total = Tally()
    started = time.perf_counter()
    if workers == 1 or len(jobs) == 1:
        results = map(play_chunk, jobs)
        pool = None
    else:
        ctx = multiprocessing.get_context("fork" if sys.platform == "linux" else "spawn")
        pool = ctx.Pool(workers)
        results = pool.imap_unordered(play_chunk, jobs)
    try:
        for part in results:
            total.merge(part)
            if progress:
                progress(total.games, config.games)
    finally:
        if pool is not None:
            pool.close()
            pool.join()
    elapsed = time.perf_counter() - started
    return figures(config, total, elapsed=elapsed, workers=workers)


def wilson(successes: int, n: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval for a proportion (95 % by default)."""
    if n == 0:
        return (0.0, 1.0)
    p = successes / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return (max(0.0, centre - half), min(1.0, centre + half))


def _rate(successes: int, n: int) -> dict:
    low, high = wilson(successes, n)
    return {
        "wins": successes,
        "rate": round(successes / n, 6) if n else None,
        "ci95": [round(low, 6), round(high, 6)],
    }


def figures(config: Config, t: Tally, *, elapsed: float | None = None, workers: int = 1) -> dict:
    """The report as plain data (what `--json` writes). Only `timing` varies between runs."""
    n = t.games
    out = {
        "config": asdict(config),
        "games": n,
        "win_rate": {
            "hunters": _rate(t.hunter_wins, n),
            "vampires": _rate(n - t.hunter_wins, n),
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
            "hunters_in_play": _rate(w_in, n_in),
            "hunters_not_in_play": _rate(w_out, n_out),
            "difference": (
                round(rate_in - rate_out, 6)
                if rate_in is not None and rate_out is not None
                else None
            ),
        }
    return out


# --- text -----------------------------------------------------------------------------------------


def format_figures(f: dict) -> str:
    c = f["config"]
    mods = [m for m in ("relics", "last_wills") if c[m]] or ["no modules"]
    lines = [
        f"{f['games']} games · {c['players']} players · strategy {c['strategy']} · "
        f"{', '.join(m.replace('_', ' ') for m in mods)} · seed {c['seed']}",
    ]
    for team in ("hunters", "vampires"):
        r = f["win_rate"][team]
        lo, hi = r["ci95"]
        lines.append(
            f"  {team.capitalize():<9} win {r['rate']:7.2%}  (95 % CI {lo:.2%} – {hi:.2%})"
        )
    lines.append(f"  Average rounds:           {f['average_rounds']:.2f}")
    le, hm = f["lord_examined"], f["hunters_mesmerized"]
    lines.append(
        f"  Lord examined:            {le['rate']:.2%} of games ({le['per_game']:.2f} per game)"
    )
    lines.append(
        f"  Hunters Mesmerized:       {hm['rate']:.2%} of games ({hm['per_game']:.2f} per game)"
    )
    if f["illegal_moves"]:
        lines.append(f"  Illegal moves refused:    {f['illegal_moves']}")
    if "relics" in f:
        lines.append("  Relic → Hunters' win rate in play vs not (difference):")
        ranked = sorted(f["relics"].items(), key=lambda kv: -(kv[1]["difference"] or 0))
        for relic, r in ranked:
            if r["difference"] is None:
                lines.append(f"    {relic:<24} never in play")
                continue
            lines.append(
                f"    {relic:<24} {r['hunters_in_play']['rate']:7.2%} vs "
                f"{r['hunters_not_in_play']['rate']:7.2%}  ({r['difference'] * 100:+.2f} pts, "
                f"in {r['games_in_play']} games)"
            )
    if "timing" in f:
        t = f["timing"]
        lines.append(
            f"  {t['seconds']:.1f} s, {t['games_per_s']:.1f} games/s on {t['workers']} worker(s)"
        )
    return "\n".join(lines)


class ProgressBar:
    """A one-line progress bar on a stream (stderr): `[#####-----] 500/1000 games  12 s`."""

    def __init__(self, stream=sys.stderr, width: int = 30, label: str = ""):
        self.stream, self.width, self.label = stream, width, label
        self.started = time.perf_counter()

    def __call__(self, done: int, total: int) -> None:
        filled = self.width * done // max(total, 1)
        elapsed = time.perf_counter() - self.started
        rate = done / elapsed if elapsed else 0.0
        self.stream.write(
            f"\r{self.label}[{'#' * filled}{'-' * (self.width - filled)}] {done}/{total} games "
            f"{rate:6.1f}/s {elapsed:5.0f} s"
        )
        if done >= total:
            self.stream.write("\n")
        self.stream.flush()


# --- the balance report (docs/balance.md + its chart) -------------------------------------------


def balance_report(runs: list[dict], *, command: str, notes: str | None = None) -> tuple[str, str]:
    """Markdown (tables by player count, with and without relics) and an SVG line chart of the
    Hunters' win rate by player count; `notes`, hand-written Markdown, ends the report."""
    plain = {r["config"]["players"]: r for r in runs if not r["config"]["relics"]}
    relic = {r["config"]["players"]: r for r in runs if r["config"]["relics"]}
    counts = sorted(set(plain) | set(relic))
    first = runs[0]["config"]
    lines = [
        "# Balance: who wins with the sensible bots",
        "",
        f"Produced by `{command}`",
        "",
        f"Strategy `{first['strategy']}` for every seat, {first['games']} games per row, "
        f"Last Wills {'on' if first['last_wills'] else 'off'}, seed {first['seed']}; "
        "the same command gives the same figures on any number of workers. "
        "Intervals are 95 % Wilson score intervals. Bots know only their own seat's view "
        "(see the guide page *How the bots play*), so these are the odds of a table of "
        "careful players who never talk, not of real people.",
        "",
        "![Hunters' win rate by player count](balance.svg)",
        "",
        "| Players | Relics | Hunters win | 95 % CI | Avg rounds | Lord examined | "
        "Hunter Mesmerized |",
        "|---:|:---:|---:|:---:|---:|---:|---:|",
    ]
    for n in counts:
        for label, table in (("no", plain), ("yes", relic)):
            r = table.get(n)
            if r is None:
                continue
            h = r["win_rate"]["hunters"]
            lo, hi = h["ci95"]
            lines.append(
                f"| {n} | {label} | {h['rate']:.1%} | {lo:.1%} – {hi:.1%} | "
                f"{r['average_rounds']:.2f} | {r['lord_examined']['rate']:.1%} | "
                f"{r['hunters_mesmerized']['rate']:.1%} |"
            )
    effects = _relic_totals(list(relic.values()))
    if effects:
        lines += [
            "",
            "## How each relic moves the Hunters' win rate (all player counts, relics on)",
            "",
            "Hunters' win rate in games where the relic was dealt, against games where it was "
            "not (one card per player comes out of the 16, so each relic sits out some games). "
            "Smaller tables deal fewer relics and favour the Vampires, so the difference is "
            "taken within each player count and averaged (weighted by the games the relic was "
            "in play); the two rate columns pool all player counts.",
            "",
            "| Relic | In play | Not in play | Difference | Games in play |",
            "|---|---:|---:|---:|---:|",
        ]
        for relic_id, e in sorted(effects.items(), key=lambda kv: -kv[1]["difference"]):
            lines.append(
                f"| {relics.rules.BY_ID[relic_id].name} | {e['in']:.1%} | {e['out']:.1%} | "
                f"{round(e['difference'] * 100, 1) or 0.0:+.1f} pts | {e['games']} |"
            )
    if notes:
        lines += ["", notes.strip()]
    timing = [r["timing"] for r in runs if "timing" in r]
    if timing:
        seconds = sum(t["seconds"] for t in timing)
        lines += [
            "",
            f"The whole report took {seconds:.0f} s on {timing[0]['workers']} worker(s).",
        ]
    return "\n".join(lines) + "\n", _chart(counts, plain, relic)


def _relic_totals(runs: list[dict]) -> dict[str, dict]:
    """Pooled rates, and the in-play minus not-in-play difference stratified by player count."""
    sums: dict[str, list[float]] = {}
    for r in runs:
        for relic_id, e in r.get("relics", {}).items():
            s = sums.setdefault(relic_id, [0, 0, 0, 0, 0.0, 0])
            s[0] += e["games_in_play"]
            s[1] += e["hunters_in_play"]["wins"]
            s[2] += r["games"] - e["games_in_play"]
            s[3] += e["hunters_not_in_play"]["wins"]
            if e["difference"] is not None:
                s[4] += e["difference"] * e["games_in_play"]
                s[5] += e["games_in_play"]
    out = {}
    for relic_id, (n_in, w_in, n_out, w_out, weighted, weight) in sums.items():
        if n_in and n_out and weight:
            out[relic_id] = {
                "games": n_in,
                "in": w_in / n_in,
                "out": w_out / n_out,
                "difference": weighted / weight,
            }
    return out


def _chart(counts: list[int], plain: dict, relic: dict) -> str:
    """A small hand-made SVG line chart: x = players, y = Hunters' win rate, with 95 % CIs."""
    width, height, left, right, top, bottom = 640, 360, 60, 150, 40, 50
    plot_w, plot_h = width - left - right, height - top - bottom
    low_n, high_n = min(counts), max(counts)

    def x(n):
        return left + (n - low_n) * plot_w / max(1, high_n - low_n)

    def y(rate):
        return top + (1 - rate) * plot_h

    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
        f'viewBox="0 0 {width} {height}" font-family="sans-serif" font-size="12" '
        'role="img" aria-label="Hunters\' win rate by player count">',
        f'<rect width="{width}" height="{height}" fill="white"/>',
        f'<text x="{left}" y="22" font-size="15" font-weight="bold">'
        "Hunters' win rate by player count (sensible bots)</text>",
    ]
    for pct in range(0, 101, 10):
        yy = y(pct / 100)
        dash = ' stroke-dasharray="4 3"' if pct == 50 else ""
        colour = "#888" if pct == 50 else "#e4e4e4"
        parts.append(
            f'<line x1="{left}" y1="{yy:.1f}" x2="{left + plot_w}" y2="{yy:.1f}" '
            f'stroke="{colour}"{dash}/>'
        )
        parts.append(f'<text x="{left - 8}" y="{yy + 4:.1f}" text-anchor="end">{pct} %</text>')
    for n in counts:
        parts.append(
            f'<text x="{x(n):.1f}" y="{top + plot_h + 20}" text-anchor="middle">{n}</text>'
        )
    parts.append(
        f'<text x="{left + plot_w / 2:.1f}" y="{height - 8}" text-anchor="middle">players</text>'
    )
    series = [("no relics", plain, "#1f6feb"), ("with relics", relic, "#d1242f")]
    for i, (label, table, colour) in enumerate(series):
        points = [(n, table[n]["win_rate"]["hunters"]) for n in counts if n in table]
        if not points:
            continue
        offset = -3 if i == 0 else 3  # keep the two series' whiskers apart
        for n, h in points:
            lo, hi = h["ci95"]
            parts.append(
                f'<line x1="{x(n) + offset:.1f}" y1="{y(lo):.1f}" x2="{x(n) + offset:.1f}" '
                f'y2="{y(hi):.1f}" stroke="{colour}" stroke-opacity="0.5" stroke-width="2"/>'
            )
        path = " ".join(f"{x(n) + offset:.1f},{y(h['rate']):.1f}" for n, h in points)
        parts.append(
            f'<polyline points="{path}" fill="none" stroke="{colour}" stroke-width="2.5"/>'
        )
        for n, h in points:
            parts.append(
                f'<circle cx="{x(n) + offset:.1f}" cy="{y(h["rate"]):.1f}" r="3.5" '
                f'fill="{colour}"><title>{n} players, {label}: {h["rate"]:.1%}</title></circle>'
            )
        ly = top + 20 + 22 * i
        lx = left + plot_w + 16
        parts.append(
            f'<line x1="{lx}" y1="{ly}" x2="{lx + 24}" y2="{ly}" stroke="{colour}" '
            'stroke-width="2.5"/>'
        )
        parts.append(f'<text x="{lx + 30}" y="{ly + 4}">{label}</text>')
    parts.append(f'<text x="{left + plot_w + 16}" y="{top + 76}" fill="#555">bars: 95 % CI</text>')
    parts.append("</svg>")
    return "\n".join(parts) + "\n"
