"""A finished game's story, computed from what a spectator of the finished game may see: the
public log (each line's kind, round and data, never a line with an audience) and the end's public
roles (R1.4). Pure Python: no Django, no database; `selectors.story` hands it the lines and
`games/presenters/story.py` puts it in words.

Nothing here reads the engine's state or the replay steps: they hold secrets the end does not
make public (the card put back in the box, the tokens of a player Blood of the One killed before
Dining, every private line). A fact the story derives, such as "the first Vampire found", joins
two public facts: a public line (who examined whom) and a role the end revealed.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from games.engine.vocabulary import EventKind, LastWillId, RelicId, Role

K = EventKind
VAMPIRES = (Role.VAMPIRE, Role.VAMPIRE_LORD)
# The ties whose outcome a vote decided: the ones "the closest vote" compares.
VOTED = ("vote", "latest_ghost", "no_result", "random")


def rounds(lines: list[dict], seats: list[int]) -> list[dict]:
    """Each round of the game, from its public lines (oldest first): the table as it was
    (who lived, the Alpha Hunter), what Dining revealed (every token with its owner, the
    unplaced ones, the Ghosts' votes, who was Protected, the Investigation), the round-1
    examination, the ties, the deaths, the Last Wills, the relics used and the next Alpha."""
    dead: set[int] = set()
    out: list[dict] = []
    for number in sorted({line["round"] for line in lines if line["round"] >= 1}):
        step = _empty(number, [s for s in seats if s not in dead])
        open_ties: dict[str, dict] = {}
        for line in (x for x in lines if x["round"] == number):
            _read(step, line, open_ties)
        dead.update(d["seat"] for d in step["deaths"])
        out.append(step)
    return out


def _empty(number: int, living: list[int]) -> dict:
    return {
        "round": number,
        "alpha": None,
        "three_living": False,
        "living": living,
        "dining": None,
        "examination": None,
        "ties": [],
        "deaths": [],
        "last_wills": [],
        "relics": [],
        "alpha_elected": None,
    }


def _read(step: dict, line: dict, open_ties: dict[str, dict]) -> None:
    kind, data = line["kind"], line["data"]
    if kind == K.ROUND_STARTED:
        step["alpha"], step["three_living"] = data["alpha"], data["three_living"]
    elif kind == K.DINING:
        step["dining"] = {
            "tokens": [dict(t) for t in data["tokens"]],
            "unplaced": [dict(u) for u in data["unplaced"]],
            "ghost_votes": [dict(v) for v in data["intervention"]],
            "protected": None,
            "investigation": None,
        }
    elif kind == K.PROTECTED and step["dining"] is not None:
        step["dining"]["protected"] = data["seat"]
    elif kind == K.INVESTIGATION and step["dining"] is not None:
        step["dining"]["investigation"] = {
            k: data[k] for k in ("investigator", "target", "outcome")
        }
    elif kind == K.EXAMINATION:
        step["examination"] = {"examiner": data["examiner"], "target": data["target"]}
    elif kind == K.TIE:
        tie = open_ties.setdefault(data["kind"], {"candidates": data["candidates"], "voters": []})
        if not tie["voters"]:  # who voted first: a decider's later line for the tie keeps them
            tie["voters"] = data["voters"]
    elif kind == K.RELIC_SCALES:
        open_ties.setdefault(data["kind"], {"candidates": data["candidates"], "voters": []})
    elif kind == K.TIE_SETTLED:
        # A Ghosts' tie the latest Ghost's dial settled at once had no `tie` line: its
        # candidates are on this one, and its voters are the Ghosts who turned their dials.
        opened = open_ties.pop(data["kind"], None) or {
            "candidates": data.get("candidates", []),
            "voters": [v["voter"] for v in data["votes"]],
        }
        step["ties"].append(
            {
                "kind": data["kind"],
                "candidates": list(opened["candidates"]),
                "voters": list(opened["voters"]),
                "winner": data["winner"],
                "votes": [dict(v) for v in data["votes"]],
                "decided_by": data["decided_by"],
            }
        )
    elif kind == K.ELIMINATED:
        step["deaths"].append({"seat": data["seat"], "cause": data["cause"]})
    elif kind == K.LAST_WILL:
        step["last_wills"].append({"seat": data["seat"], "card": data["card"]})
    elif kind == K.RELIC_USED:
        step["relics"].append(
            {"seat": data["seat"], "relic": data["relic"], "target": data.get("target")}
        )
    elif kind == K.ALPHA_ELECTED:
        step["alpha_elected"] = data["seat"]


# --- turning points ------------------------------------------------------------------------


def examinations(lines: list[dict]) -> list[dict]:
    """Every examination the public log tells of, in order: who looked at whose role, when and
    how (the round-1 examination, an Investigation, a Parting Glance, Van Helsing's Journal).
    The result stayed private then; the end made every role public (R1.4)."""
    out = []
    for line in lines:
        kind, data = line["kind"], line["data"]
        found = None
        if kind == K.EXAMINATION:
            found = (data["examiner"], data["target"], "examination")
        elif kind == K.INVESTIGATION and data["outcome"] == "examined":
            found = (data["investigator"], data["target"], "investigation")
        elif (
            kind == K.LAST_WILL_EFFECT
            and data["card"] == LastWillId.PARTING_GLANCE
            and data.get("outcome") != "blocked"
        ):
            found = (data["seat"], data["target"], "parting_glance")
        elif kind == K.RELIC_USED and data["relic"] == RelicId.VAN_HELSINGS_JOURNAL:
            found = (data["seat"], data["target"], "van_helsings_journal")
        if found is not None:
            examiner, target, how = found
            out.append({"round": line["round"], "examiner": examiner, "target": target, "how": how})
    return out


def turning_points(lines: list[dict], steps: list[dict], roles: list[dict]) -> list[dict]:
    """The game's turning points, by round: the first Vampire a Hunter found, each Mesmerism,
    the closest vote, the first Vampire to fall, and the Dining that decided the game. Each is
    data (seats, roles, how); games/presenters/story.py says it in words. `steps` are the
    game's `rounds`."""
    role = {r["seat"]: r["role"] for r in roles}
    looks = examinations(lines)
    points = [
        _first_find(looks, role),
        *_mesmerisms(looks, roles),
        _closest_vote(steps),
    ]
    decisive = _decisive(steps, lines)
    first_down = _first_vampire_down(steps, role)
    if first_down is not None and (decisive is None or first_down["round"] != decisive["round"]):
        points.append(first_down)
    points.append(decisive)
    order = {k: i for i, k in enumerate(KINDS)}
    return sorted((p for p in points if p), key=lambda p: (p["round"], order[p["kind"]]))


KINDS = ("first_find", "mesmerism", "closest_vote", "first_vampire_down", "decisive")


def _first_find(looks: list[dict], role: dict[int, str]) -> dict | None:
    """The first time a Hunter (as dealt) looked at a Vampire's or the Lord's role."""
    for look in looks:
        if role[look["examiner"]] == Role.HUNTER and role[look["target"]] in VAMPIRES:
            return {"kind": "first_find", **look, "role": role[look["target"]]}
    return None


def _mesmerisms(looks: list[dict], roles: list[dict]) -> list[dict]:
    """Each player who ended the game Mesmerized, with their first look at the Lord (R8.1).
    `looks` counts how many times they looked: after one look, that one Mesmerized them; after
    several, the Crown of Solomon may have spared them the first, so the words say less."""
    lord = next((r["seat"] for r in roles if r["role"] == Role.VAMPIRE_LORD), None)
    out = []
    for r in roles:
        if not r["mesmerized"]:
            continue
        at_lord = [x for x in looks if x["examiner"] == r["seat"] and x["target"] == lord]
        if at_lord:
            first = at_lord[0]
            out.append({"kind": "mesmerism", **first, "looks": len(at_lord)})
    return out


def _closest_vote(steps: list[dict]) -> dict | None:
    """The tie whose vote was closest: one the votes left even (the latest Ghost chose, or
    nobody), else the smallest lead; the earliest of equals. None without a voted tie."""
    best, best_margin = None, None
    for step in steps:
        for tie in step["ties"]:
            if tie["decided_by"] not in VOTED or not tie["candidates"]:
                continue
            margin = _margin(tie)
            if best_margin is None or margin < best_margin:
                point = {**tie, "kind": "closest_vote", "tie": tie["kind"], "round": step["round"]}
                best, best_margin = point, margin
    return best


def _margin(tie: dict) -> int:
    if tie["decided_by"] != "vote":
        return 0  # the votes tied again: the latest Ghost chose, or nothing happened
    counts = sorted(Counter(v["target"] for v in tie["votes"]).values(), reverse=True) + [0, 0]
    return counts[0] - counts[1]


def _first_vampire_down(steps: list[dict], role: dict[int, str]) -> dict | None:
    for step in steps:
        for death in step["deaths"]:
            if role[death["seat"]] in VAMPIRES:
                return {
                    "kind": "first_vampire_down",
                    "round": step["round"],
                    "seat": death["seat"],
                    "role": role[death["seat"]],
                    "cause": death["cause"],
                }
    return None


def _decisive(steps: list[dict], lines: list[dict]) -> dict | None:
    """The round that ended the game (its `game_over` line): who died in it, and who won."""
    over = next((x for x in lines if x["kind"] == K.GAME_OVER), None)
    if over is None:
        return None
    step = next((s for s in steps if s["round"] == over["round"]), None)
    deaths = step["deaths"] if step else []
    return {
        "kind": "decisive",
        "round": over["round"],
        "winner": over["data"]["winner"],
        "deaths": [d["seat"] for d in deaths],
        "staked": [d["seat"] for d in deaths if d["cause"] == "dining"],
    }


def story(lines: list[dict], roles: list[dict]) -> dict[str, Any]:
    """The whole story: every round, then the turning points."""
    steps = rounds(lines, sorted(r["seat"] for r in roles))
    return {"rounds": steps, "turning_points": turning_points(lines, steps, roles)}
