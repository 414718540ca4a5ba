"""What every log line carries besides its words: the `data` of each event kind, declared once.

`DATA[kind]` is the JSON schema (OpenAPI 3.0 dialect: `nullable`) of that kind's `data`: seats as
integers, roles, teams, tokens, tie kinds, relic and Last Will ids as the values of
`vocabulary.py`; never a display name (those are in the text only). The API publishes these
(`games/api/schema.py`), docs/api.md lists them (generated from here), and a test checks every
event of whole simulated games against them, undeclared properties forbidden.

An event's text is written from a template whose seats are placeholders into its data:
"{seat:Seat} is Staked!" with `seat=5` reads "Seat 5 is Staked!" in the API, and the pages put
the player's name in that place (`render`), so nothing ever reads a seat back out of the words.
Placeholders: `{path:seat}`, `{path:Seat}` (one seat, lower or capitalised), `{path:seats}`,
`{path:Seats}` (a list: "seats 2 and 5"); `path` is a data key, dotted into lists and objects
("votes.0.voter").
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from functools import lru_cache
from typing import Any

from .vocabulary import EventKind, LastWillId, RelicId, Role, Team, TieKind, Token

# --- the schema's building blocks -------------------------------------------------------------

SEAT = {"type": "integer", "minimum": 1, "maximum": 12, "format": "seat"}
SEATS = {"type": "array", "items": SEAT}
COUNT = {"type": "integer", "minimum": 0}
BOOL = {"type": "boolean"}


def enum(*words, description: str = "") -> dict:
    values = [w.value for words_ in words for w in words_]
    schema: dict[str, Any] = {"type": "string", "enum": values}
    if description:
        schema["description"] = description
    return schema


def values(*names: str) -> dict:
    return {"type": "string", "enum": list(names)}


def nullable(schema: dict) -> dict:
    return {**schema, "nullable": True}


def described(schema: dict, text: str) -> dict:
    return {**schema, "description": text}


def obj(required: dict | None = None, optional: dict | None = None) -> dict:
    required, optional = required or {}, optional or {}
    schema: dict[str, Any] = {
        "type": "object",
        "properties": {**required, **optional},
        "additionalProperties": False,
    }
    if required:
        schema["required"] = list(required)
    return schema


ROLE = enum(Role)
TEAM = enum(Team)
TOKEN = enum(Token)
TIE_KIND = enum(TieKind)
RELIC = enum(RelicId)
LAST_WILL = enum(LastWillId)
CAUSE = described(
    values("dining", *RelicId, *LastWillId), '"dining" (the Stake votes) or the card that killed'
)
VOTE = obj({"voter": SEAT, "target": SEAT})
DECIDED_BY = described(
    {"type": "string"},
    '"vote", "latest_ghost", "no_result" (a second tie, or a decider who did not choose in '
    'time), "random" (games stored before silence settled nothing), or the module that decided '
    '("relics", "scales_of_justice", ...)',
)
NONE = obj()

# --- one schema per event kind ----------------------------------------------------------------

K = EventKind
DATA: dict[str, dict] = {
    K.GAME_STARTED: obj({"players": COUNT}),
    K.NIGHT: obj({"learned": {"type": "array", "items": obj({"seat": SEAT, "role": ROLE})}}),
    K.READY: obj({"seat": SEAT}),
    K.REVEAL_OVER: obj({"reason": values("all_ready", "time_up")}),
    K.ROUND_STARTED: obj({"alpha": nullable(SEAT), "three_living": BOOL}),
    K.TOKEN_PLACED: obj({"token": TOKEN, "target": SEAT}),
    K.TOKENS_SET_ASIDE: obj({"tokens": {"type": "array", "items": TOKEN}}),
    K.INTERVENTION_VOTE: obj({"target": SEAT}),
    K.MINGLING_OVER: obj({"reason": values("time_up", "all_placed")}),
    K.DINING: obj(
        {
            "tokens": {
                "type": "array",
                "items": obj({"owner": SEAT, "target": SEAT, "token": TOKEN}),
            },
            "unplaced": {"type": "array", "items": obj({"owner": SEAT, "token": TOKEN})},
            "intervention": {"type": "array", "items": VOTE},
        }
    ),
    K.PROTECTED: obj({"seat": SEAT}),
    K.INVESTIGATION: obj(
        {
            "investigator": SEAT,
            "target": SEAT,
            "outcome": values("examined", "target_dead", "protected", "blocked"),
        }
    ),
    K.EXAMINED: obj({"seat": SEAT, "role": ROLE}),
    K.EXAMINATION: obj({"examiner": SEAT, "target": SEAT}),
    K.MESMERIZED: obj({"seat": SEAT}),
    K.MOST_STAKED: obj({"seat": SEAT}),
    K.ELIMINATED: obj({"seat": SEAT, "cause": CAUSE}),
    K.NO_ELIMINATION: NONE,
    K.ALPHA_ELECTED: obj({"seat": SEAT}),
    K.NO_ALPHA: NONE,
    K.TIE: obj(
        {"kind": TIE_KIND, "candidates": SEATS, "voters": SEATS, "decider": nullable(SEAT)},
        {"decided_by": DECIDED_BY},
    ),
    K.TIE_VOTE: obj({"target": SEAT}),
    K.TIE_RECOUNT: obj({"kind": TIE_KIND}),
    K.TIE_SETTLED: obj(
        {
            "kind": TIE_KIND,
            "winner": nullable(SEAT),
            "votes": {"type": "array", "items": VOTE},
            "decided_by": DECIDED_BY,
        },
        {"candidates": SEATS},  # in every line since it was added; older logs lack it
    ),
    K.GAME_OVER: obj({"winner": TEAM}),
    K.LAST_WILL: obj({"seat": SEAT, "card": LAST_WILL}),
    K.LAST_WILL_REDRAW: obj({"seat": SEAT, "card": LAST_WILL}),
    K.LAST_WILL_EFFECT: obj(
        {"card": LAST_WILL, "seat": described(SEAT, "the dead player whose Last Will it is")},
        {
            "target": SEAT,
            "targets": SEATS,
            "role": described(ROLE, "Public Confession: the dead player's role"),
            "same_side": described(BOOL, "Kindred or Not: the two targets' verdict"),
            "outcome": values("blocked", "protected", "survives", "falls"),
            "replaces": described(
                LAST_WILL, "Kingmaker, Overturned Table: the earlier such card it replaces"
            ),
            "replaces_seat": described(SEAT, "whose Last Will the replaced card was"),
        },
    ),
    K.LAST_WILL_VOID: obj({"seat": SEAT, "card": LAST_WILL}),
    K.LAST_WILL_TIMEOUT: obj({"seat": SEAT, "card": LAST_WILL}),
    K.RELICS_READY: NONE,
    K.RELIC_GIVEN: obj({"giver": SEAT, "target": SEAT, "relic": RELIC}),
    K.RELIC_RECEIVED: obj(
        {"relics": {"type": "array", "items": RELIC}},
        {"giver": SEAT},
    ),
    K.RELIC_USED: obj(
        {"relic": RELIC, "seat": described(SEAT, "who uses it")},
        {
            "target": SEAT,
            "targets": SEATS,
            "affects": described(RELIC, "the target's relic it negates, swaps or copies"),
            "moved": described(COUNT, "tokens moved"),
            "mesmerized": described(BOOL, "Blood of the One: the target's verdict"),
            "kept": described(BOOL, "Scales of Justice: a tied holder keeps them"),
        },
    ),
    K.RELIC_NEGATED: obj({"relic": RELIC}),
    K.RELIC_TIMEOUT: obj({"seat": SEAT}, {"relic": RELIC}),
    K.RELIC_BANGLE: obj(
        {"seat": SEAT, "outcome": values("returned", "dies_too", "claimed")},
        {"relic": described(RELIC, "the lone Bangle's replacement")},
    ),
    K.RELIC_CROSS: obj(
        {"round": COUNT, "seat": SEAT, "stake_votes": COUNT, "from_vampires": COUNT}
    ),
    K.RELIC_SCALES: obj({"seat": SEAT, "kind": TIE_KIND, "candidates": SEATS}),
}


# --- templates --------------------------------------------------------------------------------

PLACEHOLDER = re.compile(r"\{([a-z_]+(?:\.[a-z0-9_]+)*):([Ss]eats?)\}")


def lookup(data: dict, path: str) -> Any:
    value: Any = data
    for part in path.split("."):
        value = value[int(part)] if isinstance(value, (list, tuple)) else value[part]
    return value


def render(template: str, data: dict, name: Callable[[int, bool], str] | None = None) -> str:
    """`template` with its placeholders written: "seat 5", "Seats 2 and 5"; or, given `name`,
    each seat as `name(seat, capital)` ("Ana", "Ana and Ben"). Run for every line the engine
    writes, hence the cached split (a game has few distinct templates)."""
    pieces, single = _split(template)
    if single is not None and name is None:  # the common line: one seat (cached, like `_split`)
        value = data[single]
        if value.__class__ is int:
            return _one_seat(template, single, value)
    out = []
    for piece in pieces:
        if piece.__class__ is str:
            out.append(piece)
            continue
        path, capital = piece
        value = data[path[0]] if len(path) == 1 else lookup(data, ".".join(path))
        if value.__class__ is int and name is None:
            out.append(f"{'Seat' if capital else 'seat'} {value}")
            continue
        seats = sorted(value) if isinstance(value, (list, tuple)) else [value]
        if name is not None:
            words = [name(s, capital and i == 0) for i, s in enumerate(seats)]
            out.append(words[0] if len(words) == 1 else ", ".join(words[:-1]) + " and " + words[-1])
        elif len(seats) == 1:
            out.append(f"{'Seat' if capital else 'seat'} {seats[0]}")
        else:
            word = "Seats" if capital else "seats"
            out.append(f"{word} " + ", ".join(map(str, seats[:-1])) + f" and {seats[-1]}")
    return "".join(out)


@lru_cache(maxsize=8192)
def _one_seat(template: str, key: str, seat: int) -> str:
    return render(template, {key: [seat]})


@lru_cache(maxsize=4096)
def _split(template: str) -> tuple[tuple, str | None]:
    """`template` as its literal pieces (str) and its placeholders ((path parts, capitalised));
    and the data key of its one seat, if it names exactly one seat by a plain key."""
    pieces: list = []
    last = 0
    for match in PLACEHOLDER.finditer(template):
        pieces.append(template[last : match.start()])
        pieces.append((tuple(match.group(1).split(".")), match.group(2)[0] == "S"))
        last = match.end()
    pieces.append(template[last:])
    seats = [p for p in pieces if p.__class__ is not str]
    single = seats[0][0][0] if len(seats) == 1 and len(seats[0][0]) == 1 else None
    return tuple(p for p in pieces if p != ""), single


def parts(template: str, data: dict) -> Iterator[str | tuple[list[int], bool]]:
    """`template` cut into its words (str) and its seats: (seat numbers, capitalised) each."""
    last = 0
    for match in PLACEHOLDER.finditer(template):
        yield template[last : match.start()]
        value = lookup(data, match.group(1))
        seats = sorted(value) if isinstance(value, (list, tuple)) else [value]
        yield seats, match.group(2)[0] == "S"
        last = match.end()
    yield template[last:]


def line(event) -> dict[str, Any]:
    """One public line as data a reader renders without reading its words: its template (its
    text when it names no seat) and the seats it names, as `data` holds them, nothing else."""
    template = event.template or event.text
    keys = {match.group(1).split(".")[0] for match in PLACEHOLDER.finditer(template)}
    return {"template": template, "data": {k: event.data[k] for k in sorted(keys)}}


def named(template: str, data: dict) -> set[int]:
    """The seats a line's words name (its template's placeholders)."""
    return {s for part in parts(template, data) if part.__class__ is tuple for s in part[0]}


def seats_in(kind: str, data: dict) -> set[int]:
    """Every seat `data` names (the fields the schema marks as seats)."""
    schema = DATA.get(kind)
    found: set[int] = set()
    if schema is not None:
        _walk(schema, data, found)
    return found


def _walk(schema: dict, value: Any, found: set[int]) -> None:
    if value is None:
        return
    if schema.get("format") == "seat" and isinstance(value, int):
        found.add(value)
    elif schema.get("type") == "array" and isinstance(value, (list, tuple)):
        for item in value:
            _walk(schema["items"], item, found)
    elif schema.get("type") == "object" and isinstance(value, dict):
        for key, sub in schema.get("properties", {}).items():
            if key in value:
                _walk(sub, value[key], found)


def json_schema(schema: dict) -> dict:
    """`schema` in plain JSON Schema (a `nullable` one also takes null), for validators."""
    if isinstance(schema, list):
        return [json_schema(s) for s in schema]
    if not isinstance(schema, dict):
        return schema
    out = {k: json_schema(v) for k, v in schema.items() if k != "nullable"}
    return {"anyOf": [out, {"type": "null"}]} if schema.get("nullable") else out
