"""The game's own sentences as a player reads them (/docs/voice.md): no rule IDs, and a
person by their name, never by a seat number.

The engine and the services write their lines for the log and the API with rule IDs ("(R4.4)")
and seat numbers ("Seat 5 is Staked!"); those stay as they are for developers, the API and the
rules pages. Every page a player reads passes them through `for_people` first, which writes each
seat the line names from the line's template and data (games/engine/events.py), never from its
words.
"""

from __future__ import annotations

import re

from django.utils.html import conditional_escape, escape, format_html
from django.utils.safestring import SafeString, mark_safe

from games.domain import names as player_names
from games.engine.events import parts

# "(R4.4)", "(R10.2a)", "(R3.1, R3.2)", a bare " R11"; "(face-up, R10.2a)" keeps "(face-up)".
_RULE = r"R\d+(?:\.\d+)*[a-z]?"
_RULES = rf"{_RULE}(?:\s*[,;/]\s*{_RULE})*"
_RULE_ID = re.compile(rf"\s*\({_RULES}\)|,\s*{_RULES}(?=\))|\s+\b{_RULE}\b")


def without_rule_ids(text: str) -> str:
    """`text` without the rule IDs the engine cites."""
    return _RULE_ID.sub("", text)


def for_people(
    text: str,
    names: dict[int, str],
    data: dict | None = None,
    template: str = "",
    reader: int | None = None,
) -> SafeString:
    """One of the game's lines as HTML for a player: rule IDs dropped, each seat its template
    names shown as its player's name (in its own element, games.domain.names.as_html). A line about
    a seat that keeps the name of who sat there then (`data["seat"]` and `data["name"]`)
    shows that name, not the seat's player's today; a service line that quotes a name shows it the
    same way. A line without a template (one that names no seat, or one written before templates)
    reads as written.

    Given the `reader` (the seat whose own page it is), that seat is "you": "Dev looks at your
    Secret Role", "You get 1 automatic Stake vote" (`to_reader`). A shared page (the public log,
    the room screen) has no reader and names everyone."""
    data = data or {}
    named = data.get("name")
    if isinstance(named, str) and isinstance(data.get("seat"), int):
        names = {**names, data["seat"]: named}
    if template:
        pieces = list(parts(without_rule_ids(template), data))
        if reader is not None:
            pieces = to_reader(pieces, reader)
        out = []
        for part in pieces:
            if isinstance(part, str):
                out.append(escape(part))
            elif isinstance(part, SafeString):
                out.append(part)
            else:
                seats, capital = part
                out.append(joined([_named(s, names, capital) for s in seats]))
        return mark_safe("".join(out))
    text = without_rule_ids(text)
    if isinstance(named, str):
        before, slot, after = text.partition(player_names.quoted(named))
        if slot:
            return format_html("{}{}{}", before, player_names.as_html(named), after)
    return escape(text)


# The third person's verb after "You" (a line about a seat, read by that seat).
SECOND_PERSON = {"is": "are", "was": "were", "has": "have", "does": "do", "can": "can"}
YOU = ("you", "You")
_VERB = re.compile(r"^(\s+)([a-z]+)\b")


def to_reader(pieces: list, reader: int) -> list:
    """A line's pieces (`parts`) with the reader's seat as "you": "Seat 5's" -> "your", a
    sentence's subject "Seat 5 gets" -> "You get" (and "their" after it -> "your"); in a list
    of several seats, "Ana and you"."""
    out: list = []
    subject = False
    for piece in pieces:
        if isinstance(piece, str) and not isinstance(piece, SafeString):
            if piece.startswith("'s") and out and _is_you(out[-1]):
                out[-1] = mark_safe("your" if out[-1] == "you" else "Your")
                piece = piece[2:]
            elif subject:
                piece = _second_person(piece)
            subject = False
            out.append(piece)
            continue
        seats, capital = piece
        if reader not in seats:
            out.append(piece)
        elif len(seats) == 1:
            out.append(mark_safe("You" if capital else "you"))
            subject = capital
        else:
            others = [s for s in seats if s != reader]
            out += [(others, capital), mark_safe(" and you")] if others else [mark_safe("you")]
    return out


def _is_you(piece) -> bool:
    return isinstance(piece, SafeString) and piece in YOU


def _second_person(rest: str) -> str:
    """What follows a "You" that starts a sentence: its verb, and "their" up to the full stop."""
    found = _VERB.match(rest)
    if found:
        space, verb = found.groups()
        if verb in SECOND_PERSON:
            verb = SECOND_PERSON[verb]
        elif verb.endswith(("ches", "shes", "sses", "xes")):
            verb = verb[:-2]
        elif verb.endswith("s") and not verb.endswith("ss"):
            verb = verb[:-1]
        rest = space + verb + rest[found.end() :]
    sentence, stop, after = rest.partition(".")
    return re.sub(r"\btheir\b", "your", sentence) + stop + after


def _named(seat: int, names: dict[int, str], capital: bool) -> SafeString | str:
    if seat in names:
        return player_names.as_html(names[seat])
    return f"{'Seat' if capital else 'seat'} {seat}"


TIE_UNITS = {"elimination": "Stake", "examination": "Stake", "election": "Feast"}


def joined(parts: list) -> SafeString:
    """ "Ana", "Ana and Ben", "Ana, Ben and Cleo" (each part already HTML-safe)."""
    parts = [conditional_escape(p) for p in parts]
    if len(parts) <= 1:
        return mark_safe("".join(parts))
    return mark_safe(", ".join(parts[:-1]) + " and " + parts[-1])


def tie_sentence(tie: dict, names: dict[int, str]) -> SafeString:
    """ "Ana and Ben are tied with 3 Stakes each.": never a number beside a name, which reads as
    a count (a seat number did)."""
    who = joined([player_names.as_html(names.get(s, "?")) for s in tie["candidates"]])
    counts = {t["count"] for t in tie.get("tallies") or []}
    unit = TIE_UNITS.get(tie["kind"])
    if unit and len(counts) == 1:
        (count,) = counts
        return format_html("{} are tied with {} {}{} each.", who, count, unit, "s" * (count != 1))
    return format_html("{} are tied.", who)
