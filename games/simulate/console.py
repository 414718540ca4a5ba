"""The figures as a person reads them in a terminal, and the progress bar drawn while they come."""

from __future__ import annotations

import sys
import time


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
