"""A chat message, kept with its game. Chat is not game state: writing one never bumps
`Game.version`; the pages see new messages through their own poll (games/chat/views.py)."""

from __future__ import annotations

from django.conf import settings
from django.db import models

from games.models import Game, Player

MAX_LENGTH = 500


class Message(models.Model):
    class Channel(models.TextChoices):
        TABLE = "table"
        GHOSTS = "ghosts"
        DEN = "den"

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="chat_messages")
    channel = models.CharField(max_length=8, choices=Channel.choices)
    # Numbered per game and channel, so the numbers in one channel say nothing about the others.
    number = models.PositiveIntegerField()
    author = models.ForeignKey(Player, null=True, on_delete=models.SET_NULL, related_name="+")
    author_name = models.CharField(max_length=40)  # kept if the author leaves the lobby
    text = models.CharField(max_length=MAX_LENGTH)
    created_at = models.DateTimeField(auto_now_add=True)
    hidden = models.BooleanField(default=False)
    hidden_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
    )
    hidden_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["game", "channel", "number"]
        constraints = [
            models.UniqueConstraint(
                fields=["game", "channel", "number"], name="chat_message_unique_number"
            )
        ]

    def __str__(self) -> str:
        return f"{self.game.code} {self.channel} #{self.number}"
