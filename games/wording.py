"""The game's own sentences as a player reads them (issue 14, /docs/voice.md): no rule IDs, and a
person by their name, never by a seat number.

The engine and the services write their lines for the log and the API with rule IDs ("(R4.4)")
and seat numbers ("Seat 5 is Staked!"); those stay as they are for developers, the API and the
rules pages. Every page a player reads passes them through `for_people` first.
"""

from __future__ import annotations

import re

from django.utils.html import escape, format_html
from django.utils.safestring import SafeString, mark_safe

from games import names as player_names

# "(R4.4)", "(R10.2a)", "(R3.1, R3.2)", "(face-up, R10.2a)", and a bare trailing " R11".
_RULE = r"R\d+(?:\.\d+)*[a-z]?"
_RULE_ID = re.compile(rf"\s*\((?:[^()]*?,\s*)?{_RULE}(?:\s*[,;/]\s*{_RULE})*\)|\s+\b{_RULE}\b")
# "seat 5", "Seat 5's", "seat 5 (Eli)": the name replaces the seat (and a name already after it).
_SEAT = re.compile(r"\b[Ss]eat (\d+)(?:\s*\([^()]*\))?('s)?")


def without_rule_ids(text: str) -> str:
    """`text` without the rule IDs the engine cites."""
    return _RULE_ID.sub("", text)


def for_people(text: str, names: dict[int, str], data: dict | None = None) -> SafeString:
    """One of the game's lines as HTML for a player: rule IDs dropped, each seat of the table
    shown as its player's name (in its own element, games.names.as_html). A service line that
    quotes a name (`data["name"]`) shows that name the same way."""
    text = without_rule_ids(text)
    named = (data or {}).get("name")
    if isinstance(named, str):
        before, slot, after = text.partition(player_names.quoted(named))
        if slot:
            return format_html("{}{}{}", before, player_names.as_html(named), after)
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
    text = without_rule_ids(text)

    def name(match: re.Match) -> str:
        seat = int(match.group(1))
        if seat not in names:
            return match.group(0)
        return player_names.quoted(names[seat]) + (match.group(2) or "")

    return _SEAT.sub(name, text)
