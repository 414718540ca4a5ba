"""`python manage.py simulate`: bots play whole games through the pure engine (no database).

    python manage.py simulate --players 10 --games 10000 [--relics] [--last-wills]
        [--strategy sensible] [--seed N] [--workers N] [--json FILE] [--bench]
    python manage.py simulate --players 6-12 --games 2000 --last-wills --report docs/balance.md
        [--notes docs/balance-notes.md]

A thin shell over the games/simulate/ package, which does the work.
"""

from __future__ import annotations

import json
import os
import shlex
import sys
from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from games import simulate
from games.bots import strategies


def player_counts(text: str) -> list[int]:
    """ "10", "6-12" or "6,8,10"."""
    counts: list[int] = []
    try:
        for part in text.split(","):
            low, _, high = part.partition("-")
            counts.extend(range(int(low), int(high or low) + 1))
    except ValueError:
        raise CommandError(f"--players takes 10, 6-12 or 6,8,10; not {text!r}.") from None
    if not counts or any(not 6 <= n <= 12 for n in counts):
        raise CommandError("Staked! is for 6–12 players.")
    return counts


class Command(BaseCommand):
    help = "Simulate whole games between bots (engine only) and report the balance figures."

    def add_arguments(self, parser):
        parser.add_argument("--players", default="10", help="10, a range 6-12 or a list 6,8,10")
        parser.add_argument("--games", type=int, default=1000, help="games per player count")
        parser.add_argument("--relics", action="store_true", help="play with Sacred Relics")
        parser.add_argument("--last-wills", action="store_true", help="play with Last Wills")
        parser.add_argument(
            "--strategy", default=strategies.DEFAULT, choices=sorted(strategies.STRATEGIES)
        )
        parser.add_argument("--seed", type=int, default=0)
        parser.add_argument(
            "--workers", type=int, default=os.cpu_count() or 1, help="processes (default: cores)"
        )
        parser.add_argument("--json", metavar="FILE", help="also write the figures as JSON")
        parser.add_argument(
            "--bench", action="store_true", help="end with a machine-readable BENCH line"
        )
        parser.add_argument(
            "--report",
            metavar="FILE",
            help="write a Markdown balance report (and FILE's .svg chart), each player count "
            "with and without relics",
        )
        parser.add_argument(
            "--notes",
            metavar="FILE",
            help="with --report: end the report with this hand-written Markdown (why rows moved)",
        )
        parser.add_argument("--no-progress", action="store_true", help="no progress bar")

    def handle(self, *args, **opts):
        if opts["games"] < 1 or opts["workers"] < 1:
            raise CommandError("--games and --workers must be at least 1.")
        counts = player_counts(opts["players"])
        relic_settings = (False, True) if opts["report"] else (opts["relics"],)
        runs = []
        for relics in relic_settings:
            for players in counts:
                config = simulate.Config(
                    players=players,
                    games=opts["games"],
                    relics=relics,
                    last_wills=opts["last_wills"],
                    strategy=opts["strategy"],
                    seed=opts["seed"],
                )
                label = f"{players}p{' relics' if relics else ''} "
                bar = (
                    None
                    if opts["no_progress"]
                    else simulate.ProgressBar(_Raw(self.stderr), label=label)
                )
                figures = simulate.run(config, workers=opts["workers"], progress=bar)
                runs.append(figures)
                self.stdout.write(simulate.format_figures(figures))
                self.stdout.write("")
        if opts["json"]:
            data = runs[0] if len(runs) == 1 else {"runs": runs}
            Path(opts["json"]).write_text(json.dumps(data, indent=2) + "\n")
        if opts["report"]:
            command = "python manage.py simulate " + " ".join(shlex.quote(a) for a in sys.argv[2:])
            notes = Path(opts["notes"]).read_text() if opts["notes"] else None
            markdown, svg = simulate.balance_report(runs, command=command, notes=notes)
            path = Path(opts["report"])
            path.write_text(markdown)
            path.with_suffix(".svg").write_text(svg)
            self.stdout.write(f"Wrote {path} and {path.with_suffix('.svg')}.")
        if opts["bench"]:
            ten = [r for r in runs if r["config"]["players"] == 10] or runs
            rate = ten[0]["timing"]["games_per_s"]
            self.stdout.write(
                f"BENCH simulate games_per_s_10p={rate} workers={ten[0]['timing']['workers']}"
            )


class _Raw:
    """The command's stderr without its automatic line endings (the bar redraws one line)."""

    def __init__(self, wrapper):
        self.wrapper = wrapper

    def write(self, text: str) -> None:
        self.wrapper.write(text, ending="")

    def flush(self) -> None:
        self.wrapper.flush()
