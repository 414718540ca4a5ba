"""The clock's stamp: what a player's view showed of the open window's clock, sent back with a
clock action (the host's extend, a vote) so that a double tap or a retried request acts once.

It is the deadline the view showed, or, paused, the time kept for the resume (an extension
while paused grows that instead): `"1767261600.000"`, `"paused:5400.000"`, or `"none"` where no
window is timed. A vote that passes, an extension, a pause, a resume and a new window all change
it; a vote that is still open does not, so the table's yes votes all count. All of it is public
(every view shows the deadline and the time kept), and the admin's own stamp
(games.services.organiser.stamp) works the same way.
"""

from __future__ import annotations

from games.models import Game


def clock_stamp(game: Game) -> str:
    left = (game.clock or {}).get("paused_left")
    if left is not None:
        return f"paused:{float(left):.3f}"
    deadline = (game.state or {}).get("deadline")
    return "none" if deadline is None else f"{float(deadline):.3f}"
