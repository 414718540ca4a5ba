"""Lists of games: a player's own games come first and complete, so that
nobody else's lobbies can push them off a list; the open lobbies of others come after, a page
at a time."""

from __future__ import annotations

from django.db.models import Case, IntegerField, Value, When

from games.domain import identity
from games.engine import state_from_json
from games.engine.view import waiting_for
from games.models import Game
from games.selectors.practice import practice_games

LOBBY_PAGE = 50  # open lobbies of others per page, unless the API's `limit` asks another size
LOBBY_PAGE_MAX = 100
HOME_FINISHED = 5  # finished games the home page still shows, newest first


def my_games(user) -> list[Game]:
    """Every game the user holds a seat at: lobbies and running games first, then finished
    ones; the most recently changed first within each."""
    if not user.is_authenticated:
        return []
    finished_last = Case(
        When(status=Game.Status.FINISHED, then=Value(1)),
        default=Value(0),
        output_field=IntegerField(),
    )
    return list(
        Game.objects.filter(players__user=user)
        .distinct()
        .order_by(finished_last, "-updated_at", "-id")
        .prefetch_related("players")
    )


def for_home(user, games: list[Game] | None = None) -> list[Game]:
    """The home page's "Your tables": every unfinished one, and the latest finished ones."""
    games = my_games(user) if games is None else games
    unfinished = [g for g in games if g.status != Game.Status.FINISHED]
    return unfinished + [g for g in games if g.status == Game.Status.FINISHED][:HOME_FINISHED]


def open_lobbies(user, *, page: int = 1, size: int = LOBBY_PAGE) -> tuple[list[Game], bool]:
    """One page of the lobbies the user could join (not seated there), newest first; and
    whether another page follows."""
    lobbies = Game.objects.filter(status=Game.Status.LOBBY).exclude(id__in=practice_games())
    if user.is_authenticated:
        lobbies = lobbies.exclude(players__user=user)
    start = (page - 1) * size
    rows = list(
        lobbies.order_by("-updated_at", "-id").prefetch_related("players")[start : start + size + 1]
    )
    return rows[:size], len(rows) > size


def waiting_on(game: Game) -> frozenset[int]:
    """The seats a running game waits on now (from its state: no query)."""
    if game.status != Game.Status.RUNNING or not game.state:
        return frozenset()
    return frozenset(waiting_for(state_from_json(game.state)))


def inbox(user, games: list[Game] | None = None) -> list[dict]:
    """The player's unfinished games ("an inbox across games"): those that wait on a
    move of theirs first, then by deadline (soonest first; none last), each with its seat and
    `your_move`. One query for the games and one for their seats, whatever their number
    (none when the caller passes `my_games(user)` it already has)."""
    rows = []
    for game in my_games(user) if games is None else games:
        if game.status not in (Game.Status.LOBBY, Game.Status.RUNNING):
            continue
        seat = identity.player_in(game.players.all(), user)
        if seat is None:
            continue
        rows.append({"game": game, "seat": seat, "your_move": seat.seat in waiting_on(game)})
    return sorted(rows, key=_inbox_order)


def _inbox_order(row: dict):
    game = row["game"]
    deadline = game.deadline.timestamp() if game.deadline else float("inf")
    return (not row["your_move"], deadline, -game.updated_at.timestamp())
