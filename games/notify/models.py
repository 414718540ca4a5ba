"""Who wants reminders and how, the phones that accept Web Push, and what was already sent."""

from __future__ import annotations

from django.conf import settings
from django.core.validators import EmailValidator
from django.db import models


def default_lead_minutes() -> int:
    return settings.REMINDER_LEAD_MINUTES


def default_digest_hour() -> int:
    return 8  # 08:00 in the player's own time zone


class ReminderAddress(EmailValidator):
    """An address reminders may go to: Django's check, without a domain literal
    (`a@[127.0.0.1]`, `a@[IPv6:::1]`) or `localhost`, which it accepts. Reminders go to a
    person's mailbox at a named domain; an IP literal only points the mail server at a host of
    the sender's choosing (the inside of the network included). Used by the reminders page and
    `PUT /api/v1/me/notifications/` alike."""

    message = "Enter an address at a named domain (no IP address, no localhost)."

    def __init__(self):
        super().__init__(message=self.message, allowlist=[])

    def validate_domain_part(self, domain_part):
        return not domain_part.startswith("[") and super().validate_domain_part(domain_part)


reminder_address = ReminderAddress()


class EmailMode(models.TextChoices):
    EACH_WINDOW = "each_window", "An e-mail for each window"
    DAILY_DIGEST = "daily_digest", "One daily digest"


class Preferences(models.Model):
    """One player's choice of channels. No row: no reminders at all."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="notify_preferences"
    )
    push_enabled = models.BooleanField(default=True)  # on every phone subscribed below
    email = models.EmailField(blank=True)
    email_enabled = models.BooleanField(default=False)
    # When the owner of `email` opened its confirmation link (games/notify/confirm.py); None:
    # not confirmed, and no reminder goes there. A new address starts unconfirmed.
    email_confirmed_at = models.DateTimeField(null=True, blank=True)
    confirmation_sent_at = models.DateTimeField(null=True, blank=True)
    # Minutes before a deadline for "deadline soon"; 0 turns that reminder off.
    lead_minutes = models.PositiveSmallIntegerField(default=default_lead_minutes)
    # The IANA time zone last seen from this player's browser (games.presenters.times): the
    # e-mails say deadlines in it. Empty: not known yet, and the e-mails say "UTC".
    time_zone = models.CharField(max_length=64, blank=True, default="")
    # E-mail once per window (every "your move", "deadline soon", "deadline moved"), or one daily
    # digest at `digest_hour` o'clock in `time_zone` instead (push is not affected).
    email_mode = models.CharField(max_length=12, choices=EmailMode.choices, default="each_window")
    digest_hour = models.PositiveSmallIntegerField(default=default_digest_hour)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        verbose_name_plural = "preferences"

    def __str__(self) -> str:
        return f"reminders of {self.user}"

    @property
    def email_confirmed(self) -> bool:
        return bool(self.email) and self.email_confirmed_at is not None

    @property
    def email_per_window(self) -> bool:
        """Whether the per-window e-mails go out (not with the daily digest on)."""
        return self.email_mode != EmailMode.DAILY_DIGEST


# What a player sets, the one list: the writer (games.notify.preferences.preferences_save) saves
# these; the API's PreferencesSerializer reads and takes them all (then what it adds, read-only);
# the reminders page's form takes all but the time zone, which the pages keep in step with the
# browser (preferences.time_zone_seen). The rest of Preferences is the server's own.
SETTINGS = (
    "push_enabled",
    "email",
    "email_enabled",
    "lead_minutes",
    "email_mode",
    "digest_hour",
    "time_zone",
)


class PushSubscription(models.Model):
    """A browser's Web Push subscription (PushSubscription.toJSON()). Deleted when the push
    service answers 404/410: the browser dropped it."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="push_subscriptions"
    )
    endpoint = models.URLField(max_length=1000, unique=True)
    p256dh = models.CharField(max_length=100)  # the browser's P-256 key, base64url
    auth = models.CharField(max_length=50)  # the shared 16-byte secret, base64url
    created_at = models.DateTimeField(auto_now_add=True)
    last_error = models.TextField(blank=True)
    last_error_at = models.DateTimeField(null=True, blank=True)

    def __str__(self) -> str:
        return f"push subscription {self.pk} of {self.user}"


class NotificationLog(models.Model):
    """A reminder claimed for a player in one window: the unique row is what stops repeats."""

    class Kind(models.TextChoices):
        MOVE = "move"
        DEADLINE = "deadline"
        AWAY = "away"  # the seat was flagged as away: once per flag
        MOVED = "moved"  # the deadline moved (extended, paused, resumed): once per move

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    game = models.ForeignKey("games.Game", on_delete=models.CASCADE, related_name="+")
    window = models.CharField(max_length=64)  # services.window_key
    kind = models.CharField(max_length=10, choices=Kind.choices)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["user", "game", "window", "kind"], name="notify_log_once_per_window"
            )
        ]

    def __str__(self) -> str:
        return f"{self.kind} reminder to {self.user} in {self.window}"


class DigestLog(models.Model):
    """The daily digest claimed for a player on one local date (in their time zone then): the
    unique row is what stops a second digest that day, from a second sweep or a second beat."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    day = models.DateField()  # the player's local date
    games = models.PositiveSmallIntegerField(default=0)  # how many it listed (0: none sent)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["user", "day"], name="notify_digest_once_a_day")
        ]

    def __str__(self) -> str:
        return f"digest to {self.user} on {self.day}"
