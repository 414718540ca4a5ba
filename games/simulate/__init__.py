"""Whole games played by bots through the pure engine, many at once: the balance simulator.

Pure Python (no Django): `python manage.py simulate` is a thin shell around `run`.

    figures = run(Config(players=10, games=10_000, strategy="sensible", seed=1), workers=2)
    print(format_figures(figures))

Each game is played from its own seed (`seed * 1_000_003 + i` for game i) and the bots' choices
from an RNG derived from that seed, so a game is the same whichever worker plays it; the workers'
counts are sums, so the figures do not depend on `--workers` either.

The modules: `config` (what to play), `runner` (the game loop, on every core), `statistics`
(counts, rates and their intervals), `console` (the figures as text, the progress bar), `report`
(the Markdown balance report) and `chart` (its hand-drawn SVG); `counterfactual` measures what
one move is worth on paired copies of games (the coach's figures, `manage.py coach_figures`).
"""

from games.simulate.config import Config
from games.simulate.console import ProgressBar, format_figures
from games.simulate.report import balance_report
from games.simulate.runner import play, play_chunk, run
from games.simulate.statistics import Tally, figures, wilson

__all__ = [
    "Config",
    "ProgressBar",
    "Tally",
    "balance_report",
    "figures",
    "format_figures",
    "play",
    "play_chunk",
    "run",
    "wilson",
]
