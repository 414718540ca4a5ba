"""The arguments of each player action (API.md), checked alike by the two faces: the API's
`POST .../actions/{name}/` (games.api.views) and the game page's forms (games.views). A malformed
argument is a 400 `bad_request` here; whether a well-formed action is legal is the engine's call.
"""

from __future__ import annotations

from rest_framework import serializers

from games.engine.vocabulary import ActionName

TOKEN_CHOICES = ["stake", "feast", "double_stake", "investigation"]


class TargetIn(serializers.Serializer):
    target = serializers.IntegerField(help_text="a seat number")


class PlaceTokenIn(TargetIn):
    token = serializers.CharField(max_length=20, help_text="|".join(TOKEN_CHOICES))


class GiveRelicIn(TargetIn):
    card = serializers.CharField(max_length=40, required=False)


class UseRelicIn(serializers.Serializer):
    relic = serializers.CharField(max_length=40, help_text="the relic id, as in me.relic.id")
    targets = serializers.ListField(child=serializers.IntegerField(), required=False, max_length=4)
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
    token = serializers.CharField(max_length=20, required=False)


class EmptyIn(serializers.Serializer):
    pass


class ResolveChoiceIn(serializers.Serializer):
    choice = serializers.CharField(max_length=40)
    targets = serializers.ListField(child=serializers.IntegerField(), required=False, max_length=4)


ACTIONS = {  # one input per action of the engine's vocabulary (a test checks none is missing)
    ActionName.PLACE_TOKEN: PlaceTokenIn,
    ActionName.INTERVENTION_VOTE: TargetIn,
    ActionName.TIEBREAK_VOTE: TargetIn,
    ActionName.CHOOSE_EXAMINER: TargetIn,
    ActionName.GIVE_RELIC: GiveRelicIn,
    ActionName.USE_RELIC: UseRelicIn,
    ActionName.PASS: EmptyIn,
    ActionName.RESOLVE_CHOICE: ResolveChoiceIn,
}
