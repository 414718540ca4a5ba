"""The bodies of the games resource (games/api/games.py): a new game's options, a name to join
with, bots to seat, and the list of games."""

from __future__ import annotations

from rest_framework import serializers

from games.api.serializers import ROLE_CHOICES, name_text
from games.domain import quiet_hours
from games.domain.options import MAX_TIMER, MIN_TIMER, PRESETS, SPECTATORS


class OptionalNameIn(serializers.Serializer):
    name = name_text(required=False)


def _timer(help_text: str) -> serializers.IntegerField:
    return serializers.IntegerField(
        min_value=MIN_TIMER, max_value=MAX_TIMER, required=False, help_text=f"{help_text} (seconds)"
    )


class TimersIn(serializers.Serializer):
    mingling = _timer("Mingling, R3.3")
    relic = _timer("each relic window, R10.3")
    tiebreak = _timer("a tie vote, R5.5")
    choice = _timer("a mandatory choice (examiner, Last Will, ...)")
    reveal = serializers.IntegerField(
        min_value=0,
        max_value=MAX_TIMER,
        required=False,
        help_text="the role reveal before round 1, where each player taps Ready (seconds; 0 or "
        f"absent: none, round 1 starts at once; otherwise at least {MIN_TIMER})",
    )

    def validate_reveal(self, value):
        if 0 < value < MIN_TIMER:
            raise serializers.ValidationError(f"0 (no reveal) or at least {MIN_TIMER} seconds.")
        return value


class QuietHoursIn(serializers.Serializer):
    start = serializers.IntegerField(min_value=0, max_value=23, help_text="local hour, 0-23")
    end = serializers.IntegerField(
        min_value=0, max_value=23, help_text="local hour, 0-23; before `start`: past midnight"
    )

    def validate(self, attrs):
        if attrs["start"] == attrs["end"]:
            raise serializers.ValidationError({"end": ["Quiet hours end at another hour."]})
        return attrs


class GameCreateIn(serializers.Serializer):
    name = name_text(required=False, help_text="the host's name at this table")
    relics = serializers.BooleanField(required=False, default=False)
    last_wills = serializers.BooleanField(required=False, default=True)
    expansion = serializers.BooleanField(required=False, default=False, help_text="11–12 players")
    preset = serializers.ChoiceField(
        choices=sorted(PRESETS),
        required=False,
        default="live",
        help_text="timers: live (Mingling 3 min, relic 30 s, tie 60 s) or async (12 h, 1 h, 2 h)",
    )
    timers = TimersIn(required=False, help_text="custom values override the preset's")
    seed = serializers.IntegerField(
        min_value=0,
        max_value=2**62,
        required=False,
        help_text="Staff: the deal and every random choice replay from it. Others: mixed with a "
        "server secret, so that no player can compute the deal.",
    )
    spectators = serializers.BooleanField(
        required=False, default=SPECTATORS, help_text="spectators may watch"
    )
    den_chat = serializers.BooleanField(
        required=False,
        default=False,
        help_text="a private chat channel for the Vampires (and the Lord where R1.3 says so)",
    )
    spectator_chat = serializers.BooleanField(
        required=False, default=False, help_text="spectators may read the table talk"
    )
    time_zone = serializers.CharField(
        required=False,
        max_length=64,
        help_text="the table's IANA time zone (quiet hours and the deadline hour); default UTC",
    )
    quiet_hours = QuietHoursIn(
        required=False,
        allow_null=True,
        help_text="no window closes and no reminder is sent between these local hours; a "
        "deadline that would fall inside moves to their end",
    )
    deadline_hour = serializers.IntegerField(
        min_value=0,
        max_value=23,
        required=False,
        allow_null=True,
        help_text="slow games (preset async): Mingling closes at this local hour, at least half "
        "its timer after it opens",
    )
    roles = serializers.DictField(
        child=serializers.ChoiceField(choices=ROLE_CHOICES),
        required=False,
        help_text="Staff only (403 otherwise): seat -> role, a full R1.2 deck.",
    )
    relic_deck = serializers.ListField(
        child=serializers.CharField(max_length=40),
        required=False,
        help_text="Staff only (403 otherwise): the relic draw order.",
    )

    def validate_roles(self, value):
        if not all(k.isdigit() for k in value):
            raise serializers.ValidationError("keys are seat numbers")
        return value

    def validate_time_zone(self, value):
        if not quiet_hours.valid_zone(value):
            raise serializers.ValidationError("Not an IANA time zone (like Europe/Berlin).")
        return value

    def validate(self, attrs):
        if attrs.get("deadline_hour") is not None and attrs.get("preset") != "async":
            raise serializers.ValidationError(
                {"deadline_hour": ["A fixed deadline hour is for slow games (preset async)."]}
            )
        return attrs


class BotsIn(serializers.Serializer):
    count = serializers.IntegerField(min_value=1, max_value=11)


class GameListItemOut(serializers.Serializer):
    code = serializers.CharField()
    status = serializers.CharField()
    phase = serializers.CharField()
    round = serializers.IntegerField()
    players = serializers.IntegerField()
    my_seat = serializers.IntegerField(allow_null=True)
    your_move = serializers.BooleanField(
        help_text="true when the game waits on a move of yours now (your seat is in its "
        "`waiting_for`); false in others' games, lobbies and finished games"
    )
    deadline = serializers.DateTimeField(
        allow_null=True, help_text="when the open window closes (null: no timed window)"
    )
    options = serializers.DictField()
    updated_at = serializers.DateTimeField()


class GameListOut(serializers.Serializer):
    games = GameListItemOut(
        many=True,
        help_text="your own games first (all of them, on page 1), then open lobbies of others",
    )
    next = serializers.URLField(
        allow_null=True, help_text="the next page of open lobbies, or null on the last"
    )
