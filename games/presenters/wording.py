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
    text: str, names: dict[int, str], data: dict | None = None, template: str = ""
) -> SafeString:
    """One of the game's lines as HTML for a player: rule IDs dropped, each seat its template
    names shown as its player's name (in its own element, games.domain.names.as_html). A line about
    a seat that keeps the name of who sat there then (`data["seat"]` and `data["name"]`)
    shows that name, not the seat's player's today; a service line that quotes a name shows it the
    same way. A line without a template (one that names no seat, or one written before templates)
    reads as written."""
    data = data or {}
    named = data.get("name")
    if isinstance(named, str) and isinstance(data.get("seat"), int):
        names = {**names, data["seat"]: named}
    if template:
        out = []
        for part in parts(without_rule_ids(template), data):
            if isinstance(part, str):
                out.append(escape(part))
                continue
            seats, capital = part
            out.append(joined([_named(s, names, capital) for s in seats]))
        return mark_safe("".join(out))
    text = without_rule_ids(text)
    if isinstance(named, str):
        before, slot, after = text.partition(player_names.quoted(named))
        if slot:
            return format_html("{}{}{}", before, player_names.as_html(named), after)
    return escape(text)


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
