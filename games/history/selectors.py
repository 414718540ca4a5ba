"""The history's reads: a player's counted games, their figures, and a finished game's story
(its replay). Abandoned games never count (they did not end), and neither do practice games
(`options.practice`): both are counted apart, so the pages can say what was left out."""

from __future__ import annotations

from django.db.models import Count, Q, QuerySet, Sum
from django.http import HttpRequest
from django.urls import reverse

from games.domain import identity
from games.domain.errors import GameError
from games.domain.options import spectators_allowed
from games.history import records
from games.history import story as stories
from games.history.models import SeatResult, SharedReplay
from games.models import Game
from games.selectors import game as game_selectors
from games.selectors.practice import practice_games

ROLES = ("hunter", "vampire", "vampire_lord")  # in the order of R1.2
OTHER_TEAM = {"hunters": "vampires", "vampires": "hunters"}


def counted(user) -> QuerySet[SeatResult]:
    """The user's finished games that count, newest first."""
    return (
        SeatResult.objects.filter(player__in=identity.players_of(user))
        .exclude(game__in=practice_games())
        .select_related("game", "player")
    )


def left_out(user) -> dict[str, int]:
    """How many of the user's games are not counted, and why."""
    abandoned = (
        identity.players_of(user)
        .filter(game__status=Game.Status.ABANDONED)
        .exclude(game__in=practice_games())
        .count()
    )
    practice = SeatResult.objects.filter(player__user=user, game__in=practice_games()).count()
    return {"abandoned": abandoned, "practice": practice}


def figures(user) -> dict:
    """Games, wins and win rates (overall and by role as dealt), times Mesmerized, and times
    an examination showed the user the Vampire Lord."""
    rows = counted(user)
    totals = rows.aggregate(
        games=Count("id"),
        wins=Count("id", filter=Q(won=True)),
        mesmerized=Count("id", filter=Q(mesmerized=True)),
        lord_examinations=Sum("lord_examinations"),
    )
    per_role = rows.values("role").annotate(games=Count("id"), wins=Count("id", filter=Q(won=True)))
    played = {r["role"]: (r["games"], r["wins"]) for r in per_role}
    return {
        "games": totals["games"],
        "wins": totals["wins"],
        "win_rate": rate(totals["wins"], totals["games"]),
        "by_role": [
            {"role": role, "games": games, "wins": wins, "win_rate": rate(wins, games)}
            for role in ROLES
            for games, wins in [played.get(role, (0, 0))]
        ],
        "mesmerized": totals["mesmerized"],
        "lord_examinations": totals["lord_examinations"] or 0,
        "left_out": left_out(user),
    }


def rate(wins: int, games: int) -> float | None:
    """Wins per game, to three places; None (not 0) when there is no game to divide by."""
    return round(wins / games, 3) if games else None


def replay_game(code: str) -> Game | None:
    """A game with a public replay: finished ones only (R1.4: its roles are public now)."""
    return Game.objects.filter(code=code.upper(), status=Game.Status.FINISHED).first()


def replay_public(game: Game) -> bool:
    """Whether the host shared the replay with anyone who has the link (sharing.py)."""
    return SharedReplay.objects.filter(game=game, public=True).exists()


def replay_readable(game: Game, user) -> bool:
    """Who may read a finished game's replay and its story: anyone where the table let
    spectators watch or the host shared the replay publicly; otherwise its seated players."""
    if spectators_allowed(game.options) or replay_public(game):
        return True
    return identity.seat_of(game, user) is not None


def story(game: Game) -> dict:
    """A finished game's story (games/history/story.py) and what its pages show beside it,
    read from what a spectator of the finished game sees: the public view at the end (every
    role, R1.4) and the public log, numbered as a spectator numbers it. Never a line with an
    audience, never the state's secrets nor the replay steps. The same for every reader."""
    view = game_selectors.game_view(game, None)
    lines, _ = game_selectors.events_seen_by(game, None, limit=game.last_seq + 1)
    return {
        "code": game.code,
        "view": view,
        "lines": lines,
        "finished_at": records.finished_at(game),
        "public": replay_public(game),
        **stories.story(lines, view["roles"]),
    }


def game_row(request: HttpRequest, result: SeatResult) -> dict:
    """One finished game as the player who sat at `result`'s seat sees it in their history (the
    API's `MyGameOut`; the page adds labels). Everything here is public once the game is over."""
    game = result.game
    return {
        "code": game.code,
        "finished_at": result.finished_at,
        "rounds": game.round,
        "seat": result.player.seat,
        "name": result.player.name,
        "role": result.role,
        "team": result.team,
        "mesmerized": result.mesmerized,
        "won": result.won,
        "winner": result.team if result.won else OTHER_TEAM[result.team],
        "players": [
            {"seat": p.seat, "name": p.name, "is_bot": p.is_bot}
            for p in sorted(game.players.all(), key=lambda p: p.seat)
        ],
        "replay_url": request.build_absolute_uri(reverse("replay", args=[game.code])),
    }


def story_game(code: str, user) -> Game:
    """The finished game whose story `user` may read, or the API's refusal: an unknown code is
    `404 not_found`; a table `user` may not read is `403 forbidden`, whatever its state (so a
    stranger learns nothing of it); an unfinished game is `404 not_finished`."""
    game = game_selectors.game_get(code)
    if not replay_readable(game, user):
        raise GameError("forbidden", "The host does not allow spectators at this table.", 403)
    if game.status != Game.Status.FINISHED:
        raise GameError("not_finished", "Only a finished game has a story.", 404)
    return game
