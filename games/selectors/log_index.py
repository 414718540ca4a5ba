"""The game's log as one index: every event's (seq, audience, kind), oldest first.

Every phone's page, after every change, numbers the log lines its viewer may see and finds its
unread news in this index; so does the events API. Events are only ever appended, each with the
game's `last_seq` bumped in the same transaction (games/services/unit.py), so a game (its id,
code and creation time) and its `last_seq` name one index for good: this process reads it once,
and the table's other phones polling after the same change get it from memory instead of a
query over the whole log.

Only an index read outside any transaction is kept. Inside one (a move being applied, a test's
transaction) the rows may yet be rolled back, and a kept index of events that never committed
would be served to everyone once the game's `last_seq` reached that number again. And the index
is never the only word on who sees a line: the rows read by their seqs are checked against it
(`lines_of`), and a disagreement (a database restored, or failed over to a copy that lost writes,
while the web processes ran on) drops every kept index and has the reader read again."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from functools import lru_cache
from typing import TypeVar

from django.db import connection

from games.models import Event, Game

Entry = tuple[int, frozenset[int] | None, str]  # seq, the seats it is for (None: everyone), kind
T = TypeVar("T")
KEPT = 256  # indexes kept per process, the most recently read (a long game's: about 100 KB)


def log_index(game: Game) -> tuple[Entry, ...]:
    """Every event of `game` up to its `last_seq`, oldest first."""
    if connection.in_atomic_block or not connection.get_autocommit():
        return _read(game.pk, game.last_seq)
    return _kept(game.pk, game.code, game.created_at, game.last_seq)


def sees(seat: int | None, audience) -> bool:
    """Whether `seat` (None: the public) may see a line for `audience` (None: everyone)."""
    return audience is None or (seat is not None and seat in audience)


def lines_of(
    game: Game, seat: int | None, pick: Callable[[tuple[Entry, ...]], tuple[T, Iterable[int]]]
) -> tuple[T, dict[int, Event]]:
    """`pick(index)` -> (what it worked out, the seqs whose rows it needs); returns that and the
    rows by seq. The rows must all be there and be lines `seat` may see, as the index said; if
    not, every kept index is dropped and the index is read and picked again, once."""
    for _ in range(2):
        picked, seqs = pick(log_index(game))
        seqs = set(seqs)
        rows = {e.seq: e for e in Event.objects.filter(game=game, seq__in=seqs)} if seqs else {}
        if all(seq in rows and sees(seat, rows[seq].audience) for seq in seqs):
            return picked, rows
        forget()
    raise RuntimeError(f"the log of {game.code} disagrees with its rows")


def forget() -> None:
    """Drop every index this process kept."""
    _kept.cache_clear()


def _read(game_id: int, last_seq: int) -> tuple[Entry, ...]:
    rows = (
        Event.objects.filter(game_id=game_id, seq__lte=last_seq)
        .order_by("seq")
        .values_list("seq", "audience", "kind")
    )
    return tuple(
        (seq, frozenset(audience) if audience is not None else None, kind)
        for seq, audience, kind in rows
    )


@lru_cache(maxsize=KEPT)
def _kept(game_id: int, code: str, created_at, last_seq: int) -> tuple[Entry, ...]:
    """`_read`, kept. The code and creation time are in the key with the id: an id can be
    given again (a sequence reset, a database restored from a copy)."""
    return _read(game_id, last_seq)
