"""`python manage.py coach_figures`: what the practice coach's strategy notes say, measured.

    python manage.py coach_figures [--games 3000] [--relic-games 2800] [--seed 1]
        [--workers N] [--out games/presenters/coach_figures.json] [--no-progress]

Plays the practice table (six seats, sensible bots) without modules and with the Sacred Relics
and the Last Wills, measures each situation of games/bots/situations.py on paired copies of the
games (games/simulate/counterfactual.py) and writes the figures the coach reads
(games/presenters/coach_tips.py). docs/balance.md says how long it takes and what it found.
"""

from __future__ import annotations

import json
import os
import time
from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from games import simulate
from games.presenters.coach_tips import FIGURES
from games.services.practice import SEATS
from games.simulate import counterfactual


class Command(BaseCommand):
    help = "Measure the practice coach's strategy tips with the simulator and store the figures."

    def add_arguments(self, parser):
        parser.add_argument("--games", type=int, default=3000, help="games without modules")
        parser.add_argument(
            "--relic-games", type=int, default=2800, help="games with relics and Last Wills"
        )
        parser.add_argument("--seed", type=int, default=1)
        parser.add_argument(
            "--workers", type=int, default=os.cpu_count() or 1, help="processes (default: cores)"
        )
        parser.add_argument("--out", default=str(FIGURES), help="the JSON file to write")
        parser.add_argument("--no-progress", action="store_true", help="no progress bar")

    def handle(self, *args, **opts):
        if min(opts["games"], opts["relic_games"], opts["workers"]) < 1:
            raise CommandError("--games, --relic-games and --workers must be at least 1.")
        started = time.perf_counter()
        tables, tips = {}, []
        for table, modules, games in (
            ("standard", False, opts["games"]),
            ("relics", True, opts["relic_games"]),
        ):
            config = simulate.Config(
                players=SEATS, games=games, relics=modules, last_wills=modules, seed=opts["seed"]
            )
            bar = None if opts["no_progress"] else simulate.ProgressBar(label=f"{table} ")
            pairs = counterfactual.run(config, workers=opts["workers"], progress=bar)
            tables[table] = {"games": games, "relics": modules, "last_wills": modules}
            tips += counterfactual.figures(pairs, table)
        data = {
            # from the options, not sys.argv: call_command (the tests) has the caller's argv
            "command": "python manage.py coach_figures "
            f"--games {opts['games']} --relic-games {opts['relic_games']} --seed {opts['seed']}",
            "players": SEATS,
            "strategy": config.strategy,
            "seed": opts["seed"],
            "tables": tables,
            "seconds": round(time.perf_counter() - started, 1),
            "workers": opts["workers"],
            "tips": tips,
        }
        Path(opts["out"]).write_text(json.dumps(data, indent=1) + "\n")
        self.stdout.write(counterfactual.markdown(data))
        self.stdout.write(f"{len(tips)} figures in {data['seconds']} s: wrote {opts['out']}.")
