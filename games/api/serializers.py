"""Request validation (a malformed request is a 400 `bad_request` from here) and the response
shapes the OpenAPI schema documents. Whether a well-formed action is legal is the engine's call."""

from __future__ import annotations

from django.core.validators import RegexValidator
from rest_framework import serializers

from games.accounts import USERNAME_PATTERN
from games.engine.vocabulary import Phase
from games.options import MAX_TIMER, MIN_TIMER, PRESETS, SPECTATORS

ROLE_CHOICES = ["hunter", "vampire", "vampire_lord"]
# The phases a client sees: the lobby's, then the engine's but the two it only passes through
# within one move, never resting there ("dining", "relics").
PHASES = ["lobby", *(str(p) for p in Phase if p not in (Phase.DINING, Phase.RELICS))]
TOKEN_CHOICES = ["stake", "feast", "double_stake", "investigation"]


# Blank and all-space text is refused; the pattern says so in the schema too (a client that
# follows the schema never sends what the server refuses).
NOT_BLANK = RegexValidator(r"\S", "This field may not be blank.")


def text(max_length: int = 40, **kwargs) -> serializers.CharField:
    return serializers.CharField(
        max_length=max_length, trim_whitespace=True, validators=[NOT_BLANK], **kwargs
    )


class NameIn(serializers.Serializer):
    name = text()


class OptionalNameIn(serializers.Serializer):
    name = text(required=False)


class RegisterIn(serializers.Serializer):
    username = serializers.RegexField(USERNAME_PATTERN, help_text="3–40 letters, digits or .@+-_")
    password = serializers.CharField(min_length=8, max_length=128, write_only=True)
    name = text(required=False)


class TokenIn(serializers.Serializer):
    """DRF's AuthTokenSerializer's fields, with the schema saying that neither may be empty."""

    username = text(150)
    password = serializers.CharField(
        min_length=1, max_length=128, trim_whitespace=False, write_only=True
    )


class TokenOut(serializers.Serializer):
    token = serializers.CharField()
    user_id = serializers.IntegerField()
    name = serializers.CharField()


def _timer(help_text: str) -> serializers.IntegerField:
    return serializers.IntegerField(
        min_value=MIN_TIMER, max_value=MAX_TIMER, required=False, help_text=f"{help_text} (seconds)"
    )


class TimersIn(serializers.Serializer):
    mingling = _timer("Mingling, R3.3")
    relic = _timer("each relic window, R10.3")
    tiebreak = _timer("a tie vote, R5.5")
    choice = _timer("a mandatory choice (examiner, Last Will, ...)")


class GameCreateIn(serializers.Serializer):
    name = text(required=False, help_text="the host's name at this table")
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


class BotsIn(serializers.Serializer):
    count = serializers.IntegerField(min_value=1, max_value=11)


# --- response shapes, for the schema -----------------------------------------------------------


class SeatOut(serializers.Serializer):
    seat = serializers.IntegerField()
    name = serializers.CharField()
    alive = serializers.BooleanField()
    alpha = serializers.BooleanField()
    protected = serializers.BooleanField()
    is_bot = serializers.BooleanField()
    afk = serializers.BooleanField(
        help_text="flagged as away: missed 2 timed windows in a row; the host may hand the seat on"
    )
    placed_by = serializers.ListField(
        child=serializers.IntegerField(),
        help_text="During Mingling: owners of the tokens on this seat, never their types (R3.2); "
        "empty for a Ghost who has not cast their intervention vote.",
    )


class PendingOut(serializers.Serializer):
    action = serializers.CharField()
    options = serializers.DictField(help_text="the legal options, e.g. tokens and targets")


class KnowledgeOut(serializers.Serializer):
    seat = serializers.IntegerField()
    source = serializers.CharField(
        help_text="night | investigation | examination | mesmerism | ..."
    )
    round = serializers.IntegerField()
    role = serializers.CharField(required=False)
    mesmerized = serializers.BooleanField(required=False)


class RelicCardOut(serializers.Serializer):
    id = serializers.CharField(help_text="the relic id (as `use_relic` takes it)")
    name = serializers.CharField(help_text="its display name")
    text = serializers.CharField(help_text="what the card says")
    negated = serializers.BooleanField()
    discarded = serializers.BooleanField()
    acting_as = serializers.CharField(
        allow_null=True, help_text="the relic id it acts as, if not its own"
    )


class DrawnRelicOut(serializers.Serializer):
    id = serializers.CharField(help_text="the relic id (give_relic's `card`)")
    name = serializers.CharField()


class MeOut(serializers.Serializer):
    seat = serializers.IntegerField()
    role = serializers.ChoiceField(choices=ROLE_CHOICES, required=False)
    mesmerized = serializers.BooleanField(required=False)
    alive = serializers.BooleanField(required=False)
    tokens = serializers.ListField(child=serializers.CharField(), required=False)
    placed = serializers.ListField(child=serializers.DictField(), required=False)
    intervention_vote = serializers.IntegerField(allow_null=True, required=False)
    relic = RelicCardOut(
        allow_null=True, required=False, help_text="relic games: your first relic (or null)"
    )
    relics = RelicCardOut(
        many=True, required=False, help_text="relic games: every relic you hold or held"
    )
    drawn = DrawnRelicOut(
        many=True,
        required=False,
        help_text="give_relic: the relics you drew and now give (R10.2); only while you give",
    )
    knowledge = KnowledgeOut(many=True, required=False)


class RoleOut(serializers.Serializer):
    seat = serializers.IntegerField()
    role = serializers.ChoiceField(choices=ROLE_CHOICES)
    mesmerized = serializers.BooleanField()
    team = serializers.ChoiceField(
        choices=["hunters", "vampires"], help_text="R1.4, Mesmerism included"
    )
    won = serializers.BooleanField()


class GameViewOut(serializers.Serializer):
    code = serializers.CharField()
    status = serializers.ChoiceField(choices=["lobby", "running", "finished", "abandoned"])
    version = serializers.IntegerField(help_text="+1 on every change; send it as If-Match")
    round = serializers.IntegerField()
    phase = serializers.ChoiceField(
        choices=PHASES,
        help_text="what the game waits for now: lobby, mingling (R3), tiebreak (R5.5), "
        "choose_examiner (R6), give_relic (R10.2), relic_window (R10.3, R11), relic_choice, "
        "last_will (R13), finished",
    )
    deadline = serializers.DateTimeField(
        allow_null=True, help_text="when the open window closes (UTC)"
    )
    options = serializers.DictField()
    host_seat = serializers.IntegerField(allow_null=True)
    rematch = serializers.CharField(
        allow_null=True, help_text="the code of the rematch lobby this game's players opened"
    )
    seats = SeatOut(many=True)
    me = MeOut(required=False, help_text="absent for spectators")
    pending = PendingOut(many=True, help_text="every action you may take now; [] means wait")
    waiting_for = serializers.ListField(
        child=serializers.IntegerField(), help_text="seats the game waits on"
    )
    tie = serializers.DictField(
        allow_null=True, required=False, help_text="an open tie: kind, candidates, voters, voted"
    )
    last_dining = serializers.DictField(allow_null=True, help_text="the latest revealed Dining")
    winner = serializers.ChoiceField(choices=["hunters", "vampires"], allow_null=True)
    outcome = serializers.CharField(allow_null=True, required=False)
    roles = RoleOut(many=True, allow_null=True, help_text="filled only when the game is finished")
    deck = serializers.DictField(
        required=False, allow_null=True, help_text="lobby: the R1.2 deck for this count"
    )
    relics = serializers.DictField(
        required=False,
        help_text="relic games: in_play (names), the open window, the giver, public facts",
    )
    last_wills = serializers.ListField(
        child=serializers.DictField(),
        required=False,
        help_text="Last Wills drawn in the latest Dining",
    )
    effects = serializers.ListField(
        child=serializers.DictField(),
        required=False,
        help_text="Last Will effects in force this round",
    )
    public_roles = serializers.ListField(
        child=serializers.DictField(),
        required=False,
        help_text="roles made public (Public Confession)",
    )


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


class SeatLinkOut(serializers.Serializer):
    url = serializers.URLField(
        help_text="opens your seat on any browser, once; keep it secret (it signs in as you, "
        "at this game only)"
    )
    expires_at = serializers.DateTimeField()


class GameListOut(serializers.Serializer):
    games = GameListItemOut(
        many=True,
        help_text="your own games first (all of them, on page 1), then open lobbies of others",
    )
    next = serializers.URLField(
        allow_null=True, help_text="the next page of open lobbies, or null on the last"
    )


class EventOut(serializers.Serializer):
    seq = serializers.IntegerField()
    round = serializers.IntegerField()
    kind = serializers.CharField()
    text = serializers.CharField()
    data = serializers.DictField()


class EventListOut(serializers.Serializer):
    events = EventOut(many=True)
    more = serializers.BooleanField(help_text="true: ask again with after=<last seq>")


class SeatClaimIn(serializers.Serializer):
    token = text(64, help_text="from the host's handover link")
    name = text(required=False)


class SeatInviteOut(serializers.Serializer):
    seat = serializers.IntegerField()
    token = serializers.CharField(help_text="one use; POST it to /games/{code}/claim/")
    url = serializers.URLField(help_text="the page link that does the same")
