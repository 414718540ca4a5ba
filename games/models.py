"""Game persistence. `Game.state` (the engine's JSON) and `Game.version` are the truth of a running
game; `Player` rows and `Event` rows are written in the same transaction by `games.services`, the
only writer. Never read a projection (Player.alive, Game.phase) back into the engine."""

from __future__ import annotations

import secrets

from django.conf import settings
from django.db import models
from django.utils import timezone

from games.engine.table import max_players

# No 0/O, 1/I/L, 2/Z, 5/S, 8/B: codes are read aloud and typed on phones.
CODE_ALPHABET = "ACDEFGHJKMNPQRTUVWXY34679"
CODE_LENGTH = 6
# A seat that misses this many timed windows in a row, windows in which it had to act, may be
# flagged to the table as away, once it has also been away long enough
# (games.domain.options.away_after; Player.afk; games.services.away counts the misses,
# games.services.seats offers the host's remedies).
AFK_AFTER = 2


def new_code() -> str:
    return "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))


class Game(models.Model):
    class Status(models.TextChoices):
        LOBBY = "lobby"
        RUNNING = "running"
        FINISHED = "finished"
        ABANDONED = "abandoned"

    code = models.CharField(max_length=CODE_LENGTH, unique=True)
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.LOBBY)
    options = models.JSONField(default=dict)  # as created, in the API's words
    seed = models.BigIntegerField()
    state = models.JSONField(null=True, blank=True)  # the engine's state; None in the lobby
    version = models.PositiveIntegerField(default=0)  # +1 on every change, lobby included
    last_seq = models.PositiveIntegerField(default=0)  # the seq of this game's latest Event
    deadline = models.DateTimeField(null=True, blank=True)  # the open window's, from the state
    phase = models.CharField(max_length=32, default="lobby")  # projection, for admin and lists
    round = models.PositiveSmallIntegerField(default=0)  # projection
    host = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    # The lobby a finished game's players opened with one tap (games.services.seats.rematch_open).
    rematch = models.ForeignKey(
        "self", null=True, blank=True, on_delete=models.SET_NULL, related_name="rematch_of"
    )
    # Set when the game was replayed from an exported file (games/services/replay.py): the source
    # game's code and when it was exported. Empty for a game played here.
    imported_from = models.CharField(max_length=120, blank=True, default="")
    # The table's clock (games.services.clock, docs/slow-games.md "Moving a deadline"): `window`,
    # the reminders' key of the open window as it opened (a moved deadline keeps it);
    # `paused_left`, the seconds the open window had left when it was paused (absent: running);
    # `vote`, the open proposal to extend or pause.
    clock = models.JSONField(default=dict, blank=True)
    # The next moment a seat's vacation begins or ends (games.services.vacation), or None: what
    # the sweeper and a read look at, on the row they already have (the players' times decide).
    vacation_due = models.DateTimeField(null=True, blank=True, db_index=True)
    # Bumped by the host's "New room-screen link" (games.services.lobby.room_key_renew): the
    # room screen's key of a game without spectators (games.domain.room_screen) changes, and a
    # screen opened with the old one stops on its next poll.
    display_epoch = models.PositiveIntegerField(default=0)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        indexes = [models.Index(fields=["status", "deadline"], name="game_status_deadline")]

    def __str__(self) -> str:
        return self.code

    @property
    def seat_limit(self) -> int:
        """How many can sit down: 10, or 12 with the expansion (R1.2)."""
        return max_players(bool(self.options.get("expansion")))


class Player(models.Model):
    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="players")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="seats",
    )
    seat = models.PositiveSmallIntegerField()
    name = models.CharField(max_length=40)
    is_bot = models.BooleanField(default=False)
    alive = models.BooleanField(default=True)  # projection of the state
    # Timed windows in a row that closed with this seat still owing a move (games.services.seats).
    missed_windows = models.PositiveSmallIntegerField(default=0)
    # Flagged to the table as away: AFK_AFTER missed windows in a row *and* away for
    # the preset's minimum since `present_at` (games.services.away). Only then may the host hand
    # the seat on; the player's page offers one tap to come back.
    afk = models.BooleanField(default=False)
    # The last sign that this seat's player is here: a move of their own the table waited on, the
    # "I'm still here" tap, or taking the seat over. None: not since the game started.
    present_at = models.DateTimeField(null=True, blank=True)
    # The one-time link the host made to hand this seat to a new friend; None when there is none.
    claim_token = models.CharField(max_length=64, null=True, blank=True, unique=True)
    # When this seat's player last loaded the game (a page or an API view), to the minute: for the
    # organisers' "who is waiting on whom" (games.services.seats.seen). None: never, or a new
    # player.
    last_seen_at = models.DateTimeField(null=True, blank=True)
    # The game's Event seqs of the private news this seat tapped "Got it" on (games.services.news):
    # kept here, not in a browser, so the seat's second device agrees.
    news_read = models.JSONField(default=list, blank=True)
    # Bumped by "Sign out other devices" (games.services.seat_links): every link made before, used
    # or not, stops working, and every browser a link signed in is signed out on its next request.
    link_epoch = models.PositiveIntegerField(default=0)
    # "Since you last looked" (games.services.news.look): the game's last Event seq this
    # seat's page showed and when; the seq the card summarises from, pinned when the player came
    # back to news (None: no card); and the Dining reveal this seat has seen animate (played once).
    # The cache holds the live marks; these are their copy, written at most once a minute (a
    # page is a read: docs/slow-games.md "Coming back"), read when the cache lost them.
    looked_seq = models.PositiveIntegerField(default=0)
    looked_at = models.DateTimeField(null=True, blank=True)
    since_seq = models.PositiveIntegerField(null=True, blank=True)
    # When the player had last looked before "Since you last looked" was pinned: the card's time,
    # which must not move with each later look (`looked_at` does).
    since_at = models.DateTimeField(null=True, blank=True)
    reveal_seen = models.CharField(max_length=80, blank=True, default="")
    # Vacation mode (games.services.vacation): the absence this seat's player announced,
    # from-to (None: none), and whether it has begun (a bot holds the seat until `vacation_until`,
    # then hands it back). The stored times are the authority; timers and the sweeper follow them.
    vacation_from = models.DateTimeField(null=True, blank=True)
    vacation_until = models.DateTimeField(null=True, blank=True)
    vacation_on = models.BooleanField(default=False)
    joined_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["seat"]
        constraints = [
            models.UniqueConstraint(fields=["game", "seat"], name="player_unique_seat"),
            models.UniqueConstraint(fields=["game", "user"], name="player_unique_user"),
        ]

    def __str__(self) -> str:
        return f"{self.game.code} seat {self.seat} ({self.name})"


class Event(models.Model):
    """One log line. `audience` None is public; otherwise the list of seats that may see it."""

    # Lines the services write beside the engine's: the lobby, organisers, and who seems away.
    # A replay re-runs the engine only, so it does not write these again.
    SERVICE_KINDS = (
        "lobby",
        "admin",
        "clock",  # the host or the table moved the deadline (games.services.deadlines)
        "afk",
        "afk_back",
        "rematch",
        "seat_bot",
        "seat_claimed",
        "seat_invite",
        "vacation",  # a bot holds a seat while its player is away (games.services.vacation)
        "vacation_back",
    )

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="events")
    seq = models.PositiveIntegerField()
    round = models.PositiveSmallIntegerField(default=0)
    kind = models.CharField(max_length=32)
    text = models.TextField()
    # `text` with its seats as placeholders into `data` (games/engine/events.py): the pages write
    # each seat's name there. Empty when the line names no seat, and in lines written before.
    template = models.TextField(blank=True, default="")
    data = models.JSONField(default=dict, blank=True)
    audience = models.JSONField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["seq"]
        constraints = [models.UniqueConstraint(fields=["game", "seq"], name="event_unique_seq")]

    def __str__(self) -> str:
        return f"{self.game.code} #{self.seq} {self.kind}"


class Action(models.Model):
    """The replay log: one row per engine step, in order, kept by `services.unit`.

    `name` is "setup", a player's action (docs/api.md), "timeout", or "deadline" (an organiser moved
    the open window's deadline: `args["deadline"]`). `at` is the `now` the step ran at: with the
    seed, these rows replay a game exactly (games/services/replay.py). `args` may hold secrets (a
    token's target during Mingling): only superusers ever see this log.
    """

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="actions")
    seq = models.PositiveIntegerField()  # the game's version this step produced
    seat = models.PositiveSmallIntegerField(null=True, blank=True)  # None: not a player's move
    name = models.CharField(max_length=40)
    args = models.JSONField(default=dict, blank=True)
    at = models.FloatField()  # epoch seconds: the engine's `now`

    class Meta:
        ordering = ["seq"]
        constraints = [models.UniqueConstraint(fields=["game", "seq"], name="action_unique_seq")]

    def __str__(self) -> str:
        return f"{self.game.code} step {self.seq} {self.name}"


class SeatLinkUse(models.Model):
    """A "continue on another device" link that was used (games.services.seat_links): each link
    signs in once; its random nonce is kept here so a second use is refused. Rows older than the
    links' lifetime are deleted daily (games.tasks.prune; an expired link is refused by its age)."""

    nonce = models.CharField(max_length=32, unique=True)
    # SET_NULL: a player who leaves a lobby loses the row, the used nonce must stay (else the
    # same link would open the seat again once they sit down at that seat number).
    player = models.ForeignKey(Player, null=True, on_delete=models.SET_NULL, related_name="+")
    used_at = models.DateTimeField(auto_now_add=True)

    def __str__(self) -> str:
        return f"seat link used for {self.player_id}"


class ApiToken(models.Model):
    """An API token (`Authorization: Token <token>`), kept only as its SHA-256 digest.

    The token itself is shown once, when it is issued (games/api/auth.py); the database, the
    admin and the logs only ever hold the digest and the first few characters (`prefix`, enough to
    tell two tokens apart). A user has one per device that signed in; each can be revoked.
    """

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="api_tokens"
    )
    digest = models.CharField(max_length=64, unique=True)
    prefix = models.CharField(max_length=8)
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["-created_at"]
        verbose_name = "API token"

    def __str__(self) -> str:
        return f"{self.prefix}… ({self.user})"
