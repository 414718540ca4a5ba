"""HTML forms of the web pages. They check the shape of what a phone sent; whether a move is legal
is the engine's call (through games.services), never a form's."""

from __future__ import annotations

from django import forms

from games.domain import names, quiet_hours
from games.domain.options import MAX_TIMER, MIN_TIMER, PRESETS, REVEAL
from games.models import CODE_LENGTH

# The four timers (games.domain.options.PRESETS), each a number and a unit on the page: blank keeps
# the preset's. A post without a unit (older forms, scripts) means seconds.
TIMERS = [
    ("mingling", "Mingling"),
    ("relic", "Each relic window"),
    ("tiebreak", "A tie vote"),
    ("choice", "A choice (examiner, Last Will, ...)"),
]
UNITS = {"s": 1, "min": 60, "h": 3600}
UNIT_CHOICES = [("min", "minutes"), ("h", "hours"), ("s", "seconds")]
HOUR_CHOICES = [("", "—")] + [(str(h), f"{h:02d}:00") for h in range(24)]


def in_units(seconds: int) -> tuple[int, str]:
    """A timer in the largest unit that holds it whole: 7200 -> (2, "h"), 90 -> (90, "s")."""
    for unit in ("h", "min"):
        if seconds % UNITS[unit] == 0:
            return seconds // UNITS[unit], unit
    return seconds, "s"


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
        """Cleaned as everywhere a name enters (games.domain.names): invisible characters go."""
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
        """The form filled in with a game's current options. A timer the preset sets is left
        blank, so that choosing the other preset still changes it."""
        keys = ("preset", "last_wills", "relics", "expansion", "den_chat", "spectator_chat")
        initial = {k: options.get(k) for k in keys}
        preset = PRESETS.get(options.get("preset", "live"), {})
        for key, _ in TIMERS:
            seconds = options.get("timers", {}).get(key)
            if seconds is not None and seconds != preset.get(key):
                initial[key], initial[f"{key}_unit"] = in_units(seconds)
        initial["time_zone"] = options.get("time_zone", "")
        quiet = options.get("quiet_hours") or {}
        initial["quiet_start"] = "" if not quiet else str(quiet["start"])
        initial["quiet_end"] = "" if not quiet else str(quiet["end"])
        hour = options.get("deadline_hour")
        initial["deadline_hour"] = "" if hour is None else str(hour)
        return cls(initial=initial)

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
    # The timers: declared below the class (one number and one unit each, from TIMERS).
    time_zone = forms.CharField(
        label="The table's time zone",
        required=False,
        max_length=64,
        help_text="For quiet hours and the deadline hour. Your phone's zone unless you change it.",
        widget=forms.TextInput(attrs={"data-browser-zone": "", "autocomplete": "off"}),
    )
    quiet_start = forms.ChoiceField(label="Quiet from", choices=HOUR_CHOICES, required=False)
    quiet_end = forms.ChoiceField(label="Quiet until", choices=HOUR_CHOICES, required=False)
    deadline_hour = forms.ChoiceField(
        label="Mingling closes at (slow games)",
        choices=HOUR_CHOICES,
        required=False,
        help_text="Each day at this hour, at least half the Mingling timer after it opens.",
    )

    def clean(self):
        data = super().clean()
        for key, _ in TIMERS:
            value = data.get(key)
            if value is None:
                continue
            seconds = value * UNITS[data.get(f"{key}_unit") or "s"]
            if not MIN_TIMER <= seconds <= MAX_TIMER:
                self.add_error(
                    key,
                    f"Ensure this value is greater than or equal to {MIN_TIMER} seconds, "
                    "and at most 7 days.",
                )
            data[f"{key}_seconds"] = seconds
        zone = data.get("time_zone")
        if zone and not quiet_hours.valid_zone(zone):
            self.add_error("time_zone", "Not a time zone: a name like Europe/Berlin.")
        start, end = data.get("quiet_start"), data.get("quiet_end")
        if bool(start) != bool(end) or (start and start == end):
            self.add_error("quiet_end", "Give quiet hours a start and another end hour.")
        if data.get("deadline_hour") and data.get("preset") != "async":
            self.add_error(
                "deadline_hour", "A fixed hour is for slow games: choose the slow timers."
            )
        return data

    def timer_fields(self) -> list:
        """The timers' number and unit fields, in pairs, for the templates."""
        return [(label, self[key], self[f"{key}_unit"]) for key, label in TIMERS]

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
        timers = {key: data[f"{key}_seconds"] for key, _ in TIMERS if data.get(key) is not None}
        # A table opened (or changed) on the page has the role reveal before round 1, as long as
        # its preset says (games.domain.options.REVEAL); an API client asks for it with
        # timers.reveal.
        options["timers"] = {**timers, "reveal": REVEAL[data["preset"]]}
        if data.get("time_zone"):
            options["time_zone"] = data["time_zone"]
        if data.get("quiet_start"):
            options["quiet_hours"] = {
                "start": int(data["quiet_start"]),
                "end": int(data["quiet_end"]),
            }
        if data.get("deadline_hour"):
            options["deadline_hour"] = int(data["deadline_hour"])
        return options


for _key, _label in TIMERS:
    OptionsForm.base_fields[_key] = forms.IntegerField(
        label=f"{_label} timer (optional)", required=False, min_value=1, max_value=MAX_TIMER
    )
    OptionsForm.base_fields[f"{_key}_unit"] = forms.ChoiceField(
        label=f"{_label}: unit", choices=UNIT_CHOICES, required=False, initial="min"
    )


class CreateForm(OptionsForm):
    name = NameField()
    field_order = [
        "name",
        "preset",
        "last_wills",
        "relics",
        "expansion",
        "mingling",
    ]  # the rest after

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
