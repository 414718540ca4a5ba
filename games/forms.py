"""HTML forms of the web pages. They check the shape of what a phone sent; whether a move is legal
is the engine's call (through games.services), never a form's."""

from __future__ import annotations

from django import forms

from games import names
from games.models import CODE_LENGTH
from games.options import MAX_TIMER, MIN_TIMER, PRESETS

PRESET_CHOICES = [
    ("live", "Live: everyone at one table (Mingling 3 min, ties 1 min)"),
    ("async", "Slow: play over a day (Mingling 12 h, ties 2 h)"),
]
assert {key for key, _ in PRESET_CHOICES} == set(PRESETS)


class NameField(forms.CharField):
    def __init__(self, **kwargs):
        kwargs.setdefault("max_length", 40)
        kwargs.setdefault("label", "Your name")
        kwargs.setdefault("strip", True)
        super().__init__(**kwargs)
        self.widget.attrs.update({"autocomplete": "nickname", "autocapitalize": "words"})

    def clean(self, value):
        """Cleaned as everywhere a name enters (games.names): invisible characters go."""
        value = super().clean(value)
        if value in self.empty_values:
            return value
        try:
            return names.valid(value)
        except names.NameRefused as exc:
            raise forms.ValidationError(str(exc), code="invalid") from None


class OptionsForm(forms.Form):
    """The game's options, when opening a table and, for the host, in the lobby."""

    def __init__(self, *args, **kwargs):
        kwargs.setdefault("auto_id", "options_%s")  # two forms on one page: ids stay unique
        super().__init__(*args, **kwargs)

    @classmethod
    def of(cls, options: dict) -> OptionsForm:
        """The form filled in with a game's current options."""
        mingling = options.get("timers", {}).get("mingling")
        keys = ("preset", "last_wills", "relics", "expansion", "den_chat", "spectator_chat")
        initial = {k: options.get(k) for k in keys}
        return cls(initial={**initial, "mingling": mingling})

    preset = forms.ChoiceField(
        label="Timers", choices=PRESET_CHOICES, initial="live", widget=forms.RadioSelect
    )
    last_wills = forms.BooleanField(
        label="Last Wills: the eliminated draw a parting card", required=False, initial=True
    )
    relics = forms.BooleanField(label="Sacred Relics (from round 2)", required=False)
    expansion = forms.BooleanField(label="Expansion: allow 11–12 players", required=False)
    den_chat = forms.BooleanField(
        label="The den: a private chat for the Vampires", required=False, initial=False
    )
    spectator_chat = forms.BooleanField(
        label="Spectators may read the table talk", required=False, initial=False
    )
    mingling = forms.IntegerField(
        label="Mingling timer (seconds, optional)",
        required=False,
        min_value=MIN_TIMER,
        max_value=MAX_TIMER,
    )

    def options(self) -> dict:
        """The options in the API's words (docs/api.md, `POST /api/v1/games/`)."""
        data = self.cleaned_data
        options = {
            "preset": data["preset"],
            "last_wills": data["last_wills"],
            "relics": data["relics"],
            "expansion": data["expansion"],
            "den_chat": data["den_chat"],
            "spectator_chat": data["spectator_chat"],
        }
        if data.get("mingling"):
            options["timers"] = {"mingling": data["mingling"]}
        return options


class CreateForm(OptionsForm):
    name = NameField()
    field_order = ["name", "preset", "last_wills", "relics", "expansion", "mingling"]

    def __init__(self, *args, **kwargs):
        kwargs.setdefault("auto_id", "create_%s")
        super().__init__(*args, **kwargs)


class JoinForm(forms.Form):
    name = NameField()
    code = forms.CharField(
        label="Game code",
        min_length=CODE_LENGTH,
        max_length=CODE_LENGTH,
        strip=True,
        widget=forms.TextInput(
            attrs={
                "autocapitalize": "characters",
                "autocomplete": "off",
                "spellcheck": "false",
                "inputmode": "text",
                "placeholder": "K7QXAC",
            }
        ),
    )

    def __init__(self, *args, **kwargs):
        kwargs.setdefault("auto_id", "join_%s")
        super().__init__(*args, **kwargs)

    def clean_code(self) -> str:
        return self.cleaned_data["code"].upper()


class SeatJoinForm(forms.Form):
    """Joining from an invite link: the code is in the address."""

    name = NameField()


def action_args(post) -> dict:
    """An action's arguments from a form post, in the API's words (docs/api.md, "Actions")."""
    args: dict = {}
    for key in ("token", "card", "choice", "relic"):
        if post.get(key):
            args[key] = post[key]
    if post.get("target"):
        args["target"] = post["target"]
    targets = [t for t in post.getlist("targets") if t]
    if targets:
        args["targets"] = targets
    owners = [o for o in post.getlist("owners") if o]
    if owners:
        args["owners"] = owners
    # The Whisper-Wick Candle's form names each token "seat:owner" (where it lies, whose it is).
    moves = [m.partition(":") for m in post.getlist("moves") if m]
    if moves:
        args["targets"] = [seat for seat, _, _ in moves]
        args["owners"] = [owner for _, _, owner in moves]
    # The Ritual Bell, Signet Ring and Hindsight Looking Glass name a card on a seat: "seat:card".
    if post.get("pick"):
        seat, _, card = post["pick"].partition(":")
        args["targets"] = [seat]
        if card:
            args["card"] = card
    return args
