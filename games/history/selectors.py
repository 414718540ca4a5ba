"""The history's reads: a player's counted games, their figures, and a finished game's public
log. Abandoned games never count (they did not end), and neither do practice games
(`options.practice`): both are counted apart, so the pages can say what was left out."""

from __future__ import annotations

from django.db.models import Count, Q, QuerySet, Sum
from django.http import HttpRequest
from django.urls import reverse

from games.domain import identity
from games.history.models import SeatResult
from games.models import Event, Game
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


def public_log(game: Game, round_: int) -> list[Event]:
    """One round of the game's public log: the lines a spectator read, never an event with an
    audience (the same gate as the game's own log)."""
    return list(game.events.filter(round=round_, audience__isnull=True).order_by("seq"))


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
