"""One row per seat of a finished game: what the history pages and `/api/v1/me/...` read.

Derived data, never the truth: `records.results_record` writes the rows of a finished game from
its final state (through `engine.view`) the first time someone's history needs them, so games
finished before this app existed are counted too, and nothing in the game's own write path
changes. A row can always be deleted and written again from the game."""

from __future__ import annotations

from django.db import models

from games.models import Game, Player


class SeatResult(models.Model):
    # Whose game it is follows the seat: `player.user` is whoever held it when the game ended.
    player = models.OneToOneField(Player, on_delete=models.CASCADE, related_name="result")
    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="results")
    role = models.CharField(max_length=20)  # as dealt: "hunter", "vampire", "vampire_lord"
    team = models.CharField(max_length=10)  # at the end: a Mesmerized Hunter's is "vampires"
    won = models.BooleanField()
    mesmerized = models.BooleanField()
    # Examinations of this seat that showed the Vampire Lord (Investigation, round-1
    # examination, Parting Glance, Van Helsing's Journal): R8.1's trigger, counted.
    lord_examinations = models.PositiveSmallIntegerField(default=0)
    finished_at = models.DateTimeField()

    class Meta:
        ordering = ["-finished_at", "-game_id"]
        indexes = [models.Index(fields=["finished_at"], name="seatresult_finished")]

    def __str__(self) -> str:
        result = "won" if self.won else "lost"
        return f"{self.game.code} seat {self.player.seat}: {self.role}, {result}"


class SharedReplay(models.Model):
    """A finished game's replay its host shared with anyone who has the link
    (games/history/sharing.py). Without a row, or with `public` off, who may read the replay
    stays as the table's options say: anyone where spectators were allowed, else its players."""

    game = models.OneToOneField(
        Game, on_delete=models.CASCADE, primary_key=True, related_name="shared_replay"
    )
    public = models.BooleanField(default=False)
    changed_at = models.DateTimeField(auto_now=True)

    def __str__(self) -> str:
        return f"{self.game.code} replay {'public' if self.public else 'private'}"
