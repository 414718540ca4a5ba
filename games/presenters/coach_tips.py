"""The coach's strategy notes: when the learner's own view is in a situation the simulator
measured (games/bots/situations.py), the move it measured and what it was worth, with the
number.

The figures are data (coach_figures.json beside this module), written by
`python manage.py coach_figures` (docs/balance.md, "The coach's figures"): for each situation,
table and team, the learner's side's win rate in paired simulated games where the seat made
the move and where it did not. A tip is said only in its situation, tested on the same view the
page shows, so it names nobody the learner does not already know about, and only a move their
form offers now. Every tip speaks of the learner's side, so it sits behind the tap with the
other notes about their secrets (docs/voice.md, "Secrets").
"""

from __future__ import annotations

import functools
import json
from pathlib import Path
from typing import Any

from games.bots import situations
from games.engine.vocabulary import Team, Token
from relics.rules import BY_ID

FIGURES = Path(__file__).with_name("coach_figures.json")
PERCENT = "\u00a0%"  # "71 %", never split across two lines
TEAM_PEOPLE = {Team.HUNTERS: "Hunters", Team.VAMPIRES: "Vampires"}


@functools.cache
def figures() -> dict[str, Any]:
    """The stored figures, indexed by (situation, table, team)."""
    data = json.loads(FIGURES.read_text())
    data["by_key"] = {(t["situation"], t["table"], t["team"]): t for t in data["tips"]}
    return data


def notes(view: dict, names: dict[int, str]) -> list[dict]:
    """The tips whose situation the viewer is in now, each with its figure."""
    table = _table(view)
    if table is None or view.get("status") != "running":
        return []
    team = situations.team_of(view)
    out = []
    for situation in situations.SITUATIONS:
        subject = situations.find(situation, view)
        figure = figures()["by_key"].get((situation, table, team))
        if subject is None or figure is None:
            continue
        lead, act, who, didnt = _words(situation, subject, view, names, team)
        note_id = f"r{view['round']}-tip-{situation}"
        out.append({"id": note_id, "text": _said(lead, act, who, didnt, figure), "private": True})
    return out


def _table(view: dict) -> str | None:
    """Which measured table this game is: the practice table without modules, or with the
    Sacred Relics and the Last Wills; None for any other game."""
    if len(view["seats"]) != figures()["players"]:
        return None
    relics, wills = "relics" in view, "last_wills" in view
    if relics != wills:
        return None
    return "relics" if relics else "standard"


def _words(situation: str, subject, view: dict, names: dict[int, str], team: str) -> tuple:
    """(what the learner knows now, the move, who made it, what the others did)."""
    people = TEAM_PEOPLE[team]
    if situation == situations.STAKE_FOUND_VAMPIRE:
        name, token = names[subject], _stake_word(view, subject)
        lead = f"You found that {name} is a Vampire, and you hold {token}."
        return lead, f"Stake {name}", people, "didn't"
    if situation == situations.FEAST_MESMERIZED:
        name = names[subject]
        lead = f"{name} is Mesmerized: they play for your side now, and you hold your Feast."
        return lead, f"Put your Feast on {name}", people, "didn't"
    if situation == situations.STAKE_EXAMINER:
        name = names[subject]
        lead = f"{name} saw your role at the last Dining, so they know what you are."
        return lead, f"Stake {name}", people, "didn't"
    if situation == situations.GHOST_PROTECTS_ALLY:
        name = names[subject]
        lead = f"Your ally {name} is alive, and you vote to protect a player."
        return (
            lead,
            f"Protect {name}",
            "Ghosts on your side",
            "protected a player they did not know as an ally",
        )
    if situation == situations.GHOST_PROTECTS_ALPHA:
        name = names[subject]
        lead = f"{name} is the Alpha Hunter this round and holds the Investigation."
        return lead, f"Protect {name}", "Ghosts on your side", "protected someone else"
    if situation == situations.DAGGER_STACK:
        name = names[subject]
        lead = f"Your Ceremonial Dagger lets your second Stake join the first, on {name}."
        return lead, f"Put both Stakes on {name}", people, "spread them"
    return _relic_lead(view, subject), "Use it", people, "passed"


def _relic_lead(view: dict, relic: str) -> str:
    """The relic whose turn it is: the learner's own card, or the Hindsight Looking Glass
    acting as a Ghost's relic this round."""
    name = BY_ID[relic].name
    copy = next((c for c in view["me"].get("relics") or () if c.get("acting_as") == relic), None)
    if copy is not None and copy["id"] != relic:
        the = "" if name.startswith(("The ", "Van Helsing's")) else "the "  # "the The ..."
        return f"Your {copy['name']} acts as {the}{name} this round: it may act now."
    return f"Your {name} may act now."


def _said(lead: str, act: str, who: str, didnt: str, figure: dict) -> str:
    """The tip in words: the advice the figure supports (its difference's 95 % interval
    above 0, below 0, or across it), then the figure."""
    made, avoided = _percent(figure["with"]["rate"]), _percent(figure["without"]["rate"])
    low, high = figure["difference"]["ci95"]
    if low > 0:
        advice = f"{act}:"
    elif high < 0:
        advice = f"Think twice before you {act[0].lower()}{act[1:]}:"
    else:
        advice = f"{act}, or not: it changes little."
    return (
        f"{lead} {advice} {who} who did won {made} of such games, against {avoided} for those "
        f"who {didnt} ({figure['games']:,} simulated games each way)."
    )


def _stake_word(view: dict, seat: int) -> str:
    token = situations.stake_token(view, seat)
    return "a Double-Stake" if token == Token.DOUBLE_STAKE else "a Stake"


def _percent(rate: float) -> str:
    return f"{round(rate * 100)}{PERCENT}"
