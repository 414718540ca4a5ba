"""The arguments of each player action (docs/api.md), checked alike by the two faces: the API's
`POST .../actions/{name}/` (games.api.actions) and the game page's forms (games.web.game). A
malformed argument is a 400 `bad_request` here; whether a well-formed action is legal is the
engine's call.
"""

from __future__ import annotations

from drf_spectacular.utils import extend_schema_serializer
from rest_framework import serializers

from games.engine.vocabulary import ActionName

TOKEN_CHOICES = ["stake", "feast", "double_stake", "investigation"]


def _seats(help_text: str, max_length: int = 4, min_length: int = 0) -> serializers.ListField:
    return serializers.ListField(
        child=serializers.IntegerField(),
        required=False,
        min_length=min_length,
        max_length=max_length,
        help_text=help_text,
    )


DEPRECATED_TARGET = "Deprecated: send `targets` (a list). Still accepted; never both."


@extend_schema_serializer(deprecate_fields=["target"])
class SeatsIn(serializers.Serializer):
    """Seats are named in `targets`, a list, even for one seat. The older `target` (one seat)
    is still accepted but deprecated; sending both is a 400 `bad_request`."""

    # Some actions took `target`, others a list. The engine still gets what it always
    # took: `target` for a one-seat action, `targets` for the others.

    one_seat = False  # True: exactly one seat, handed to the engine as `target`
    target = serializers.IntegerField(required=False, help_text=DEPRECATED_TARGET)

    def validate(self, attrs):
        if "target" in attrs and "targets" in attrs:
            raise serializers.ValidationError(
                {"target": ["Send 'targets' or the deprecated 'target', not both."]}
            )
        if not self.one_seat:
            if "target" in attrs:
                attrs["targets"] = [attrs.pop("target")]
            return attrs
        if "targets" in attrs:
            attrs["target"] = attrs.pop("targets")[0]
        if "target" not in attrs:  # named `target`: the pages' forms say "Choose a target"
            raise serializers.ValidationError({"target": ["Name a seat: 'targets': [seat]."]})
        return attrs


class TargetIn(SeatsIn):
    one_seat = True
    targets = _seats("exactly one seat number", max_length=1, min_length=1)


class PlaceTokenIn(TargetIn):
    token = serializers.CharField(
        max_length=20, help_text=f"one of your tokens: {' | '.join(TOKEN_CHOICES)}"
    )


class GiveRelicIn(TargetIn):
    card = serializers.CharField(
        max_length=40,
        required=False,
        help_text="which relic you give, if you hold several (a relic id)",
    )


@extend_schema_serializer(deprecate_fields=["target", "token"])
class UseRelicIn(SeatsIn):
    relic = serializers.CharField(max_length=40, help_text="the relic id, as in me.relic.id")
    targets = _seats("the seats the relic acts on, as its card says (0 to 4)")
    owners = serializers.ListField(
        child=serializers.IntegerField(),
        required=False,
        max_length=2,
        help_text="Candle: the owner of the token taken from each target seat; Bangle: the owners "
        "of the (up to 2) tokens moved from your seat",
    )
    card = serializers.CharField(
        max_length=40,
        required=False,
        help_text="which relic of the target seat, if it holds several",
    )
    # No relic names a token, and no offer or rule reads this: accepted for v1, and ignored.
    token = serializers.CharField(
        max_length=20,
        required=False,
        help_text="Deprecated: no relic names a token; accepted in v1 and ignored.",
    )


class EmptyIn(serializers.Serializer):
    pass


class ResolveChoiceIn(SeatsIn):
    choice = serializers.CharField(
        max_length=40, help_text="the choice offered in pending.options (a card or option id)"
    )
    targets = _seats("the seats the choice names (0 to 4)")


ACTIONS = {  # one input per action of the engine's vocabulary (a test checks none is missing)
    ActionName.READY: EmptyIn,
    ActionName.PLACE_TOKEN: PlaceTokenIn,
    ActionName.INTERVENTION_VOTE: TargetIn,
    ActionName.TIEBREAK_VOTE: TargetIn,
    ActionName.CHOOSE_EXAMINER: TargetIn,
    ActionName.GIVE_RELIC: GiveRelicIn,
    ActionName.USE_RELIC: UseRelicIn,
    ActionName.PASS: EmptyIn,
    ActionName.RESOLVE_CHOICE: ResolveChoiceIn,
}
