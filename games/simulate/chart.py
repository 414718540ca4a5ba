"""The balance report's chart (docs/balance.svg), drawn by hand: no plotting library needed."""

from __future__ import annotations


def win_rate_chart(counts: list[int], plain: dict, relic: dict) -> str:
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
