"""A finished game's story in words (games/history/story.py computes it): each turning point as
a line with its seats as placeholders, as the engine writes its own lines, so the API reads
"Seat 6 investigated seat 3" and the pages put names there; and each round as the replay page
shows it (the table with every revealed token, then what Dining did). Built only from the story
and the public log it came from: nothing here reads the database."""

from __future__ import annotations

from collections import defaultdict

from django.utils.safestring import SafeString

from games.engine.events import render
from games.engine.vocabulary import ROLE_NAMES, TOKEN_LABELS, EventKind, Team, TieKind
from games.presenters.game import token_order
from games.presenters.wording import for_people

K = EventKind
LOOKED = {  # how a player looked at a role: "{examiner} investigated {target}"
    "examination": "examined",
    "investigation": "investigated",
    "parting_glance": "used a Parting Glance on",
    "van_helsings_journal": "read Van Helsing's Journal on",
}
TIED_FOR = {
    TieKind.ELIMINATION: "for elimination",
    TieKind.ELECTION: "for Alpha Hunter",
    TieKind.EXAMINATION: "for the most Stakes",
    TieKind.INTERVENTION: "in the Ghost vote",
}
NOTHING = {
    TieKind.ELIMINATION: "nobody was Staked",
    TieKind.ELECTION: "nobody was elected",
    TieKind.EXAMINATION: "nobody was examined",
    TieKind.INTERVENTION: "nobody was Protected",
}
TEAM_WORDS = {Team.HUNTERS: "The Hunters win.", Team.VAMPIRES: "The Vampires win."}
# The round's public lines the replay shows under "At Dining", "Last Wills" and "Relics" (the
# rest, such as "Mingling is over", only in the round's whole log).
AT_DINING = (
    K.PROTECTED, K.INVESTIGATION, K.MOST_STAKED, K.EXAMINATION, K.TIE, K.TIE_RECOUNT,
    K.TIE_SETTLED, K.RELIC_SCALES, K.ELIMINATED, K.NO_ELIMINATION, K.RELIC_BANGLE,
    K.RELIC_CROSS, K.ALPHA_ELECTED, K.NO_ALPHA, K.GAME_OVER,
)  # fmt: skip
LAST_WILLS = (
    K.LAST_WILL, K.LAST_WILL_REDRAW, K.LAST_WILL_EFFECT, K.LAST_WILL_VOID, K.LAST_WILL_TIMEOUT,
)  # fmt: skip
RELICS = (K.RELIC_USED, K.RELIC_GIVEN, K.RELICS_READY, K.RELIC_TIMEOUT)


def point_line(point: dict, outcome: str = "") -> tuple[str, dict]:
    """A turning point as a template and its data (engine/events.py placeholders); `outcome`,
    the end's reason in the API's words, closes the decisive round."""
    kind, n = point["kind"], point["round"]
    if kind == "first_find":
        verb, role = LOOKED[point["how"]], ROLE_NAMES[point["role"]]
        text = f"Round {n}: {{examiner:Seat}} {verb} {{target:seat}} and saw {role}: "
        return text + "the first Vampire a Hunter found.", _seats(point, "examiner", "target")
    if kind == "mesmerism":
        verb = LOOKED[point["how"]]
        text = f"Round {n}: {{examiner:Seat}} {verb} {{target:seat}}, the Vampire Lord, and "
        if point["looks"] == 1:
            text += "was Mesmerized: a Hunter playing for the Vampires from then on."
        else:  # the Crown of Solomon may have spared an earlier look
            text += "ended the game Mesmerized, playing for the Vampires."
        return text, _seats(point, "examiner", "target")
    if kind == "closest_vote":
        tie = point["tie"]
        text = f"Round {n}, the closest vote: {{candidates:Seats}} were tied {TIED_FOR[tie]}; "
        how = point["decided_by"]
        if point["winner"] is None:
            text += f"nobody settled it, so {NOTHING[tie]}."
        elif how == "vote":
            text += "the vote went to {winner:seat}."
        elif how == "latest_ghost":
            text += "the votes split evenly and the latest Ghost chose {winner:seat}."
        else:
            text += "chance chose {winner:seat}."
        return text, _seats(point, "candidates", "winner")
    if kind == "first_vampire_down":
        fell = "was Staked" if point["cause"] == "dining" else "died"
        role = ROLE_NAMES[point["role"]]
        text = f"Round {n}: {{seat:Seat}}, {role}, {fell}: the first of the Vampires to fall."
        return text, _seats(point, "seat")
    if kind == "decisive":
        deaths, staked = point["deaths"], point["staked"]
        text = f"Round {n}, the decisive round: "
        if len(deaths) == 1:
            text += "{deaths:Seats} " + ("was Staked. " if staked == deaths else "died. ")
        elif deaths:
            text += "{deaths:Seats} died. "
        text += TEAM_WORDS[point["winner"]]
        if outcome:
            text += " " + outcome.removeprefix(TEAM_WORDS[point["winner"]]).strip()
        return text, _seats(point, "deaths")
    raise ValueError(f"no words for the turning point {kind!r}")


def _seats(point: dict, *keys: str) -> dict:
    return {k: point[k] for k in keys}


def point_text(point: dict, outcome: str = "") -> str:
    """The API's words: seats as "seat 5", as in the log's `text`."""
    template, data = point_line(point, outcome)
    return render(template, data)


def point_seats(point: dict) -> list[int]:
    """Every seat a turning point names, in seat order."""
    _, data = point_line(point)
    found: set[int] = set()
    for value in data.values():
        if isinstance(value, int):
            found.add(value)
        elif isinstance(value, list):
            found.update(value)
    return sorted(found)


def summary(points: list[dict], names: dict[int, str], outcome: str) -> list[dict]:
    """The turning points for the replay's first screen: each with its round and its words."""
    out = []
    for p in points:
        template, data = point_line(p, outcome)
        out.append(
            {"round": p["round"], "kind": p["kind"], "text": for_people("", names, data, template)}
        )
    return out


def round_screen(step: dict, seats: list[int], names: dict[int, str], lines: list[dict]) -> dict:
    """One round as the replay shows it: each seat as it was (living or a Ghost, the Alpha,
    Protected, who died, who was elected), the tokens it received with their owners and the
    Ghost votes, all revealed at Dining (R4.1, R7.2); then the round's public lines."""
    dining = step["dining"] or {"tokens": [], "unplaced": [], "ghost_votes": []}
    received: dict[int, list[dict]] = defaultdict(list)
    for t in dining["tokens"]:
        received[t["target"]].append(_token(t["token"], t["owner"], names))
    unplaced: dict[int, list[str]] = defaultdict(list)
    for u in dining["unplaced"]:
        unplaced[u["owner"]].append(TOKEN_LABELS[u["token"]])
    ghost_vote = {v["voter"]: v["target"] for v in dining["ghost_votes"]}
    died = {d["seat"] for d in step["deaths"]}
    living = set(step["living"])
    table = [
        {
            "seat": s,
            "name": names.get(s, "?"),
            "alive": s in living,
            "died": s in died,
            "alpha": s == step["alpha"],
            "protected": s == dining.get("protected"),
            "elected": s == step["alpha_elected"],
            "tokens": sorted(received[s], key=lambda t: (token_order(t["token"]), t["owner"])),
            "unplaced": unplaced[s],
            "ghost_vote": names.get(ghost_vote[s]) if s in ghost_vote else None,
        }
        for s in seats
    ]
    mine = [x for x in lines if x["round"] == step["round"]]
    return {
        "round": step["round"],
        "alpha": names.get(step["alpha"]) if step["alpha"] else None,
        "three_living": step["three_living"],
        "living": len(living),
        "ghosts": len(seats) - len(living),
        "revealed": step["dining"] is not None,
        "table": table,
        "at_dining": _said(mine, AT_DINING, names),
        "last_wills": _said(mine, LAST_WILLS, names),
        "relics": _said(mine, RELICS, names),
        "log": _said(mine, None, names),
    }


def _token(token: str, owner: int, names: dict[int, str]) -> dict:
    return {
        "token": token,
        "label": TOKEN_LABELS[token],
        "owner": owner,
        "owner_name": names.get(owner, "?"),
    }


def _said(lines: list[dict], kinds, names: dict[int, str]) -> list[SafeString]:
    return [
        for_people(x["text"], names, x["data"], x["template"])
        for x in lines
        if kinds is None or x["kind"] in kinds
    ]
