"""What the resources of the API v1 share: the game view's shape (`GameViewOut`, the answer of
every operation on one game, with its typed list of legal moves) and the checks of text every
request body uses. Each resource's own bodies sit beside it (accounts.py, games_serializers.py,
clock.py, events.py, seats.py); an action's arguments are games/domain/inputs.py. A malformed
request is a 400 `bad_request`; whether a well-formed action is legal is the engine's call."""

from __future__ import annotations

from django.core.validators import RegexValidator
from drf_spectacular.utils import PolymorphicProxySerializer, extend_schema_serializer
from rest_framework import serializers

from games.domain import offer_tokens
from games.engine.vocabulary import ActionName, LastWillId, Phase, RelicId, TieKind

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


class NameField(serializers.CharField):
    """A player's name: its control and format characters are removed, not refused
    (games/domain/names.py; staked/rest.py refuses them in every other string)."""

    cleans_control_characters = True


def name_text(**kwargs) -> serializers.CharField:
    return NameField(max_length=40, trim_whitespace=True, validators=[NOT_BLANK], **kwargs)


class ClockVoteOut(serializers.Serializer):
    proposal = serializers.ChoiceField(choices=["extend", "pause", "resume"])
    minutes = serializers.IntegerField(allow_null=True)
    by = serializers.IntegerField(help_text="the seat that proposed it")
    yes = serializers.ListField(child=serializers.IntegerField(), help_text="seats that agree")
    needed = serializers.IntegerField(help_text="yes votes it takes to pass")


class ClockOut(serializers.Serializer):
    paused = serializers.BooleanField(help_text="no window closes until it is resumed")
    paused_left = serializers.IntegerField(
        allow_null=True, help_text="paused: the seconds the window gets back on resume"
    )
    moved = serializers.BooleanField(
        help_text="the open window's deadline was extended (by the host, an organiser or a vote)"
    )
    vote = ClockVoteOut(allow_null=True, help_text="the table's open proposal, if any")
    stamp = serializers.CharField(
        help_text="send it back with a clock action (extend, vote): the deadline or the time "
        "kept this view showed, so that a repeat after the clock moved is refused (409 stale)"
    )
    voters = serializers.ListField(
        child=serializers.IntegerField(), help_text="the seats that vote: living, played by people"
    )


# --- response shapes, for the schema -----------------------------------------------------------


class SeatOut(serializers.Serializer):
    seat = serializers.IntegerField()
    name = serializers.CharField()
    alive = serializers.BooleanField()
    alpha = serializers.BooleanField()
    protected = serializers.BooleanField()
    is_bot = serializers.BooleanField()
    afk = serializers.BooleanField(
        help_text="flagged as away: missed 2 timed windows in a row in which it had a move, and "
        "away at least 5 minutes (live) or 12 hours (async) since its last move; its player keeps "
        "the seat with POST .../here/, and only now may the host hand it on"
    )
    vacation_until = serializers.DateTimeField(
        allow_null=True,
        help_text="while its player is on vacation (a bot plays the seat with its own view): when "
        "the seat is handed back; null otherwise",
    )
    placed_by = serializers.ListField(
        child=serializers.IntegerField(),
        help_text="During Mingling: owners of the tokens on this seat, never their types (R3.2); "
        "empty for a Ghost who has not cast their intervention vote.",
    )


# --- pending: the typed list of legal moves (games/engine/offers.py, docs/api.md) ---------------

RELIC_IDS = [str(r) for r in RelicId]
TIE_KINDS = [str(k) for k in TieKind]
CHOICE_IDS = [str(w) for w in LastWillId] + [
    str(RelicId.FALSE_IDOL),
    str(RelicId.VAN_HELSINGS_JOURNAL),
]


def _seat_list(help_text: str, **kwargs) -> serializers.ListField:
    return serializers.ListField(child=serializers.IntegerField(), help_text=help_text, **kwargs)


class OptionsOut(serializers.Serializer):
    """What every offer has: the seats it may name, and how many one move names."""

    targets = _seat_list(
        "the seats you may name, in `targets` (always a list; empty when the move names none)"
    )
    min = serializers.IntegerField(min_value=0, help_text="one move names at least this many")
    max = serializers.IntegerField(min_value=0, help_text="one move names at most this many")


class SeatOptionsOut(OptionsOut):
    """intervention_vote, tiebreak_vote, choose_examiner: one seat of `targets`."""


class PlaceTokenOptionsOut(OptionsOut):
    """Send one `token` of `tokens` and one seat of `targets_by_token[token]`."""

    tokens = serializers.ListField(
        child=serializers.ChoiceField(choices=TOKEN_CHOICES),
        help_text="the tokens you may place now (each has a seat to go on)",
    )
    targets_by_token = serializers.DictField(
        child=serializers.ListField(child=serializers.IntegerField()),
        help_text="token -> the seats it may go on (`targets` is their union; a Ceremonial "
        "Dagger lets a Stake go beside another of your Stakes, R11)",
    )


class GiveRelicOptionsOut(OptionsOut):
    """Give the relic you drew to one seat of `targets` (players who have none yet)."""

    cards = serializers.ListField(
        child=serializers.ChoiceField(choices=RELIC_IDS),
        required=False,
        help_text="only when you drew several: the relic ids you may give; name one as `card` "
        "(the other goes back to the box, R10.2)",
    )


class RelicMoveOut(serializers.Serializer):
    """One legal use of the Whisper-Wick Candle (`targets` and `owners`) or the Bangle of Oaths
    (`owners`)."""

    targets = _seat_list("the Candle: the two seats whose tokens swap", required=False)
    owners = _seat_list(
        "the owner of the token moved from each seat (the Candle: in the order "
        "of `targets`; the Bangle: 1 or 2 owners)"
    )


@extend_schema_serializer(deprecate_fields=["owners", "owners_by_seat", "count"])
class UseRelicOptionsOut(OptionsOut):
    """Your relic's use (send `relic`): name `min`..`max` seats of `targets`, or, where `moves`
    is given, send one of them; the Bell, Ring and Glass also name a `card` of `cards_by_seat`."""

    relic = serializers.ChoiceField(choices=RELIC_IDS, help_text="send it as `relic`")
    cards_by_seat = serializers.DictField(
        child=serializers.ListField(child=serializers.ChoiceField(choices=RELIC_IDS)),
        required=False,
        help_text="Ritual Bell, Signet Ring, Hindsight Looking Glass: seat (a string) -> the "
        "relics there you may target; send one as `card` with that seat in `targets`",
    )
    moves = RelicMoveOut(
        many=True,
        required=False,
        help_text="Whisper-Wick Candle, Bangle of Oaths: every legal move, exactly; send one "
        "as it is (with `relic`)",
    )
    partner = serializers.IntegerField(
        required=False, help_text="Bangle of Oaths: the seat the tokens move to"
    )
    discard = serializers.BooleanField(
        required=False,
        help_text="Scales of Justice: true when deciding discards the Scales (you are not tied)",
    )
    owners = _seat_list("Bangle of Oaths: the owners in `moves` (older form)", required=False)
    owners_by_seat = serializers.DictField(
        child=serializers.ListField(child=serializers.IntegerField()),
        required=False,
        help_text="Whisper-Wick Candle: the owners in `moves` by seat (older form)",
    )
    count = serializers.IntegerField(required=False, help_text="older name of `min` and `max`")


@extend_schema_serializer(deprecate_fields=["count"])
class ResolveChoiceOptionsOut(OptionsOut):
    """A Last Will (mandatory) or a relic's choice (with a `pass` beside it): send `choice` and
    `min`..`max` seats of `targets`."""

    choice = serializers.ChoiceField(
        choices=CHOICE_IDS, help_text="the Last Will or relic id of the choice: send it as `choice`"
    )
    count = serializers.IntegerField(required=False, help_text="older name of `min` and `max`")


class PassOptionsOut(OptionsOut):
    """`pass` names nothing: `targets` is empty, `min` and `max` 0; send `{}`."""


class ReadyOptionsOut(OptionsOut):
    """`ready` (the role reveal) names nothing: `targets` is empty, `min` and `max` 0; send
    `{}`."""


PENDING_OPTIONS = {
    ActionName.READY: ReadyOptionsOut,
    ActionName.PLACE_TOKEN: PlaceTokenOptionsOut,
    ActionName.INTERVENTION_VOTE: SeatOptionsOut,
    ActionName.TIEBREAK_VOTE: SeatOptionsOut,
    ActionName.CHOOSE_EXAMINER: SeatOptionsOut,
    ActionName.GIVE_RELIC: GiveRelicOptionsOut,
    ActionName.USE_RELIC: UseRelicOptionsOut,
    ActionName.PASS: PassOptionsOut,
    ActionName.RESOLVE_CHOICE: ResolveChoiceOptionsOut,
}


def _pending_entry(name: str, options: type[serializers.Serializer]) -> type:
    title = "".join(part.capitalize() for part in name.split("_"))
    fields = {
        "action": serializers.ChoiceField(choices=[name], help_text="the action's route name"),
        "options": options(),
        "__doc__": f"`{name}` may be made now, with these options.",
    }
    return type(f"{title}PendingOut", (serializers.Serializer,), fields)


PendingOut = PolymorphicProxySerializer(
    component_name="PendingOut",
    serializers={
        str(name): _pending_entry(str(name), cls) for name, cls in PENDING_OPTIONS.items()
    },
    resource_type_field_name="action",
    many=True,
    help_text="every action you may take now, each with its legal options; [] means wait",
)


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


class MyPlacementOut(serializers.Serializer):
    target = serializers.IntegerField()
    token = serializers.CharField()


class MyVacationOut(serializers.Serializer):
    until = serializers.DateTimeField(help_text="the seat is handed back to you then")
    on = serializers.BooleanField(help_text="begun: a bot plays your seat now")

    def get_fields(self):
        return {
            "from": serializers.DateTimeField(help_text="a bot takes the seat then"),
            **super().get_fields(),
        }


class MeOut(serializers.Serializer):
    seat = serializers.IntegerField()
    role = serializers.ChoiceField(choices=ROLE_CHOICES, required=False)
    mesmerized = serializers.BooleanField(required=False)
    alive = serializers.BooleanField(required=False)
    tokens = serializers.ListField(child=serializers.CharField(), required=False)
    placed = MyPlacementOut(many=True, required=False, help_text="your tokens placed this round")
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
    vacation = MyVacationOut(
        allow_null=True,
        required=False,
        help_text="your announced absence (POST/DELETE .../vacation/), or null; the table sees it "
        "only once it begins (`seats[].vacation_until`)",
    )


class RoleOut(serializers.Serializer):
    seat = serializers.IntegerField()
    role = serializers.ChoiceField(choices=ROLE_CHOICES)
    mesmerized = serializers.BooleanField()
    team = serializers.ChoiceField(
        choices=["hunters", "vampires"], help_text="R1.4, Mesmerism included"
    )
    won = serializers.BooleanField()


class SeatCountOut(serializers.Serializer):
    seat = serializers.IntegerField()
    count = serializers.IntegerField()


class TieOut(serializers.Serializer):
    """An open tie vote (R5, R7.4): who is tied, who votes, who has voted (never for whom)."""

    kind = serializers.ChoiceField(choices=TIE_KINDS)
    candidates = serializers.ListField(child=serializers.IntegerField())
    voters = serializers.ListField(child=serializers.IntegerField())
    voted = serializers.ListField(child=serializers.IntegerField())
    decider = serializers.IntegerField(
        allow_null=True, help_text="the one seat that settles it alone (e.g. the Alpha), or null"
    )
    tallies = SeatCountOut(
        many=True, allow_null=True, help_text="the votes each candidate has from Dining (R4)"
    )


class PlacementOut(serializers.Serializer):
    owner = serializers.IntegerField()
    target = serializers.IntegerField()
    token = serializers.CharField()


class UnplacedOut(serializers.Serializer):
    owner = serializers.IntegerField()
    token = serializers.CharField()


class VoteOut(serializers.Serializer):
    voter = serializers.IntegerField()
    target = serializers.IntegerField()


class TieResultOut(serializers.Serializer):
    kind = serializers.ChoiceField(choices=TIE_KINDS)
    candidates = serializers.ListField(child=serializers.IntegerField())
    votes = VoteOut(many=True)
    result = serializers.IntegerField(allow_null=True)
    decided_by = serializers.CharField(
        help_text="vote, latest_ghost, random, no_result, or the relic that settled it"
    )


class LastWillCardOut(serializers.Serializer):
    id = serializers.CharField()
    name = serializers.CharField()
    text = serializers.CharField()


class LastWillOut(serializers.Serializer):
    """A Last Will drawn (R13): whose, which card, whom it named, what it did."""

    round = serializers.IntegerField()
    seat = serializers.IntegerField()
    card = LastWillCardOut()
    targets = serializers.ListField(child=serializers.IntegerField())
    resolved = serializers.BooleanField()
    result = serializers.CharField(allow_null=True)
    same_side = serializers.BooleanField(
        required=False, help_text="Kindred or Not, once resolved: the two named are on one side"
    )


class EffectOut(serializers.Serializer):
    card = serializers.CharField()
    name = serializers.CharField()
    seat = serializers.IntegerField(help_text="the seat it acts on")
    by = serializers.IntegerField(help_text="the seat whose Last Will it was")


class PublicRoleOut(serializers.Serializer):
    seat = serializers.IntegerField()
    role = serializers.ChoiceField(choices=ROLE_CHOICES)


class DeckOut(serializers.Serializer):
    hunters = serializers.IntegerField()
    vampires = serializers.IntegerField()
    vampire_lord = serializers.IntegerField()
    lord_knows_vampires = serializers.BooleanField()


class CrossOut(serializers.Serializer):
    """The Cross of Saint John decided this Dining (R11): the Hunters won at once."""

    round = serializers.IntegerField()
    seat = serializers.IntegerField(help_text="who held it")
    stake_votes = serializers.IntegerField(help_text="the Stake votes placed on them")
    from_vampires = serializers.IntegerField(help_text="how many came from the Vampire side")


class DiningOut(serializers.Serializer):
    """The latest revealed Dining (R4): public once revealed; roles found stay private."""

    round = serializers.IntegerField()
    tokens = PlacementOut(many=True)
    unplaced = UnplacedOut(many=True)
    intervention = VoteOut(many=True)
    protected = serializers.IntegerField(allow_null=True)
    investigated = serializers.IntegerField(allow_null=True)
    examined = serializers.IntegerField(allow_null=True)
    examiner = serializers.IntegerField(allow_null=True)
    eliminated = serializers.IntegerField(allow_null=True)
    alpha_elected = serializers.IntegerField(allow_null=True)
    ties = TieResultOut(many=True)
    complete = serializers.BooleanField()
    deaths = serializers.ListField(child=serializers.IntegerField())
    settled = serializers.IntegerField(help_text="how many of `deaths` have had their aftermath")
    last_will = LastWillOut(
        allow_null=True, required=False, help_text="Last Wills on: the first drawn this Dining"
    )
    cross = CrossOut(required=False, help_text="relic games: when the Cross decided this Dining")


class MarkerOut(serializers.Serializer):
    relic = serializers.ChoiceField(choices=RELIC_IDS, help_text="the relic that marked it")
    round = serializers.IntegerField()


class HoldingOut(serializers.Serializer):
    """One relic on the table, face up (R10.2a), with its markers (R10.4)."""

    seat = serializers.IntegerField()
    relic = serializers.ChoiceField(choices=RELIC_IDS)
    name = serializers.CharField()
    discarded = serializers.BooleanField()
    negated = serializers.BooleanField()
    acting_as = serializers.ChoiceField(
        choices=RELIC_IDS, allow_null=True, help_text="the relic it copies (Hindsight), or null"
    )
    markers = MarkerOut(many=True)


class WindowTieOut(serializers.Serializer):
    kind = serializers.ChoiceField(choices=TIE_KINDS)
    candidates = serializers.ListField(child=serializers.IntegerField())


class RelicWindowOut(serializers.Serializer):
    """The open relic window: whose relic may act now, and until when."""

    relic = serializers.ChoiceField(choices=RELIC_IDS, help_text="the relic acting")
    stage = serializers.CharField(help_text="pre (before Mingling), post (after it) or tie")
    deadline = serializers.DateTimeField(allow_null=True, help_text="when the window closes")
    seat = serializers.IntegerField(help_text="its holder")
    tie = WindowTieOut(required=False, help_text="a Dining tie's window: the tie")


class RelicChoiceOut(serializers.Serializer):
    relic = serializers.ChoiceField(choices=RELIC_IDS)
    seat = serializers.IntegerField()


class RelicsOut(serializers.Serializer):
    in_play = serializers.ListField(
        child=serializers.ChoiceField(choices=RELIC_IDS), help_text="every relic dealt, by id"
    )
    holdings = HoldingOut(many=True)
    window = RelicWindowOut(allow_null=True)
    choice = RelicChoiceOut(allow_null=True, help_text="a relic's choice being made, or null")
    giver = serializers.IntegerField(allow_null=True, help_text="who gives relics now (R10.2)")
    public = serializers.ListField(
        child=serializers.DictField(), help_text="reserved: always empty in this version"
    )


class GameViewOut(serializers.Serializer):
    code = serializers.CharField()
    status = serializers.ChoiceField(choices=["lobby", "running", "finished", "abandoned"])
    version = serializers.IntegerField(
        help_text="+1 on every change of the game, anyone's move included (If-Match takes it "
        "too, but `offer` is the one to send with a move)"
    )
    offer = serializers.RegexField(
        rf"^{offer_tokens.PATTERN}$",
        allow_null=True,
        help_text="what you may do now, as one token: send it as If-Match with a move, which is "
        "then made only while this offer stands (409 stale otherwise). It moves when your "
        "`pending` or your hand changes, or the round or phase does; never for other seats' "
        "moves that leave your choices as they were. null when you have no seat or the game "
        "is not running",
    )
    stream_url = serializers.URLField(
        help_text="Server-Sent Events of this game's changes (the stream operation): wait on it "
        "instead of polling"
    )
    round = serializers.IntegerField()
    phase = serializers.ChoiceField(
        choices=PHASES,
        help_text="what the game waits for now: lobby, role_reveal (before round 1, when the "
        "game has `timers.reveal`), mingling (R3), tiebreak (R5.5), "
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
    pending = PendingOut
    waiting_for = serializers.ListField(
        child=serializers.IntegerField(), help_text="seats the game waits on"
    )
    tie = TieOut(allow_null=True, required=False, help_text="an open tie vote")
    last_dining = DiningOut(allow_null=True, help_text="the latest revealed Dining")
    winner = serializers.ChoiceField(choices=["hunters", "vampires"], allow_null=True)
    outcome = serializers.CharField(allow_null=True, required=False)
    roles = RoleOut(many=True, allow_null=True, help_text="filled only when the game is finished")
    deck = DeckOut(required=False, allow_null=True, help_text="lobby: the R1.2 deck for this count")
    relics = RelicsOut(required=False, help_text="relic games: the relics on the table (R10.2a)")
    last_wills = LastWillOut(
        many=True, required=False, help_text="Last Wills drawn in the latest Dining"
    )
    effects = EffectOut(
        many=True, required=False, help_text="Last Will effects in force this round"
    )
    public_roles = PublicRoleOut(
        many=True, required=False, help_text="roles made public (Public Confession)"
    )
    clock = ClockOut(
        required=False, help_text="a running game: paused or not, and the table's open vote"
    )
