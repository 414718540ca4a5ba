"""The game's own sentences as a player reads them (issue 14, /docs/voice.md): no rule IDs, and a
person by their name, never by a seat number.

The engine and the services write their lines for the log and the API with rule IDs ("(R4.4)")
and seat numbers ("Seat 5 is Staked!"); those stay as they are for developers, the API and the
rules pages. Every page a player reads passes them through `for_people` first.
"""

from __future__ import annotations

import re

from django.utils.html import conditional_escape, escape, format_html
from django.utils.safestring import SafeString, mark_safe

from games import names as player_names

# "(R4.4)", "(R10.2a)", "(R3.1, R3.2)", a bare " R11"; "(face-up, R10.2a)" keeps "(face-up)".
_RULE = r"R\d+(?:\.\d+)*[a-z]?"
_RULES = rf"{_RULE}(?:\s*[,;/]\s*{_RULE})*"
_RULE_ID = re.compile(rf"\s*\({_RULES}\)|,\s*{_RULES}(?=\))|\s+\b{_RULE}\b")
# "seat 5", "Seat 5's", "seat 5 (Eli)": the name replaces the seat (and a name already after it).
_SEAT = re.compile(r"\b[Ss]eat (\d+)(?:\s*\([^()]*\))?('s)?")
# "seats 3 and 4", "seats 1, 2 or 5": each number becomes a seat, then a name.
_SEATS = re.compile(r"\b[Ss]eats (\d+(?:(?:, | and | or )\d+)+)\b")


def _one_by_one(text: str) -> str:
    return _SEATS.sub(lambda m: re.sub(r"(\d+)", r"seat \1", m.group(1)), text)


def without_rule_ids(text: str) -> str:
    """`text` without the rule IDs the engine cites."""
    return _RULE_ID.sub("", text)


def for_people(text: str, names: dict[int, str], data: dict | None = None) -> SafeString:
    """One of the game's lines as HTML for a player: rule IDs dropped, each seat of the table
    shown as its player's name (in its own element, games.names.as_html). A service line that
    quotes a name (`data["name"]`) shows that name the same way. A line about a seat that keeps
    the name of who sat there then (`data["seat"]` and `data["name"]`, issue 20) shows that
    name, not the seat's player's today."""
    text = _one_by_one(without_rule_ids(text))
    data = data or {}
    named = data.get("name")
    if isinstance(named, str):
        before, slot, after = text.partition(player_names.quoted(named))
        if slot:
            return format_html("{}{}{}", before, player_names.as_html(named), after)
        if isinstance(data.get("seat"), int):
            names = {**names, data["seat"]: named}
    out, last = [], 0
    for match in _SEAT.finditer(text):
        seat = int(match.group(1))
        if seat not in names:
            continue
        out.append(escape(text[last : match.start()]))
        out.append(player_names.as_html(names[seat]))
        out.append(escape(match.group(2) or ""))
        last = match.end()
    out.append(escape(text[last:]))
    return mark_safe("".join(out))


def plain(text: str, names: dict[int, str]) -> str:
    """`for_people` as plain text (a name in quotes), for announcements and titles."""
    text = _one_by_one(without_rule_ids(text))

    def name(match: re.Match) -> str:
        seat = int(match.group(1))
        if seat not in names:
            return match.group(0)
        return player_names.quoted(names[seat]) + (match.group(2) or "")

    return _SEAT.sub(name, text)


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
