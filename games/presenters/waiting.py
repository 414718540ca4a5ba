"""Whom the table waits for, and why: "Waiting for Ana to decide whether to use the
Ritual Bell", never an anonymous "Waiting…". Built from the viewer's own view (`waiting_for` is
public) and the public relic board."""

from __future__ import annotations

from django.utils.html import format_html
from django.utils.safestring import SafeString

from games.domain.names import as_html
from games.presenters.wording import joined

# What the waited-for players are doing, by phase ({who} is one name or several).
DOING = {
    "role_reveal": "to look at their role",
    "mingling": "to place their tokens",
    "tiebreak": "to vote in the tie",
    "choose_examiner": "who had the most Stakes, to choose who examines their role",
    "last_will": "to carry out their Last Will",
    "give_relic": "to hand out a Sacred Relic",
    "relic_choice": "to choose what their relic does",
}


def reason(view: dict, names: dict[int, str], relic_board: dict | None) -> SafeString | None:
    """One sentence about the wait, or None when nobody is waited for."""
    seats = [s for s in view.get("waiting_for") or [] if s in names]
    if not seats:
        return None
    who = joined([as_html(names[s]) for s in seats])
    window = (relic_board or {}).get("window")
    if view["phase"] == "relic_window" and window:
        return format_html("Waiting for {} to decide whether to use the {}.", who, window["name"])
    doing = DOING.get(view["phase"])
    ghosts = {s["seat"] for s in view["seats"] if not s.get("alive", True)}
    if view["phase"] == "mingling" and ghosts & set(seats):
        doing = "to finish their moves (a Ghost casts a Ghost vote)"
    if view["phase"] == "choose_examiner":
        return format_html("Waiting for {}, {}.", who, doing)
    if doing:
        return format_html("Waiting for {} {}.", who, doing)
    return format_html("Waiting for {}.", who)
