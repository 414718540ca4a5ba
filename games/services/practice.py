"""Practice games ("Learn by playing"): one person against five sensible bots, on the
same pages as a real game, with the coach (games/presenters/coach.py) explaining each moment.

**Decisions** made here:
- A practice game is an ordinary game whose options say `practice: true` (the key the history
  already leaves out of a player's figures, games/history/selectors.py); the API's options never
  take that key, so only `practice_start` makes one. No new column: the flag is fixed at
  creation, like every option.
- Standard rules first (no relics, no Last Wills); the second practice game offers both.
- Generous timers (half an hour to place tokens, ten minutes elsewhere) rather than none: a
  practice game left on a phone still ends one day, and a slow learner is never rushed.
- A role reveal, as in a game opened from the web page: the learner reads their role and taps
  Ready (the bots are ready at once), so the first thing a practice game shows is who you are.
- Nobody else may watch, and the game never appears among the open tables.
- Built only from public functions of games.services: create, add the bots, start.
"""

from __future__ import annotations

from games import services
from games.models import Game

SEATS = 6  # the smallest table (R1.2): four Hunters, a Vampire and the Vampire Lord
TIMERS = {
    "mingling": 30 * 60,
    "relic": 10 * 60,
    "tiebreak": 10 * 60,
    "choice": 10 * 60,
    "reveal": 10 * 60,
}


def practice_options(*, more: bool) -> dict:
    """Standard rules, or (`more`) with the Sacred Relics and the Last Wills."""
    return {
        "practice": True,
        "preset": "live",
        "timers": TIMERS,
        "relics": more,
        "last_wills": more,
        "expansion": False,
        "spectators": False,
        "bot_strategy": "sensible",
    }


def practice_start(*, user, name: str, more: bool = False) -> Game:
    """A running practice game: `user` at seat 1, five bots at the other seats."""
    game = services.game_create(host=user, options=practice_options(more=more), name=name)
    services.game_add_bots(code=game.code, user=user, count=SEATS - 1, named=True)
    return services.game_start(code=game.code, user=user)
