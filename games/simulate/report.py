"""The balance report (docs/balance.md): Markdown tables by player count, relics off and on."""

from __future__ import annotations

import relics.rules
from games.simulate.chart import win_rate_chart


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
    return "\n".join(lines) + "\n", win_rate_chart(counts, plain, relic)


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
