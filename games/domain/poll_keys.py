"""The cache keys the cheap polls read and every saved change writes (games.services.effects):
the game's version, whether spectators may watch, and the open window's deadline. Kept apart
from the writers so that a selector or the poll middleware can read them without a service."""

from __future__ import annotations

# The poll keys expire soon: a version written back by a race (two commits' hooks, or a refill
# from an old read) is forgotten within a minute instead of holding pages on "no change".
POLL_KEY_SECONDS = 60


def version_key(code: str) -> str:
    return f"game:{code}:version"


def deadline_key(code: str) -> str:
    """The open window's deadline as of a version: `(version, epoch seconds or None)`. The cheap
    polls answer "no change" only while it is the current version's and not yet past (a
    poll that finds the window overdue goes on to the view, which closes it)."""
    return f"game:{code}:deadline"


def poll_fresh(entry, version: int, now: float) -> bool:
    """Whether the deadline entry read with the poll key lets the cheap poll answer: it is the
    entry of `version`, and that version's window (if any) is not overdue at `now`."""
    if not isinstance(entry, tuple) or len(entry) != 2 or entry[0] != version:
        return False
    return entry[1] is None or now < entry[1]


def open_key(code: str) -> str:
    """Whether spectators may watch: the poll's fast path may answer only where they may."""
    return f"game:{code}:open"
