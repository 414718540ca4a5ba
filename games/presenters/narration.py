"""What the room screen says aloud: the spoken lines of `/t/{code}/`.

Built from the spectator view alone (`selectors.game_view(game, None)`), so the narrator can
only say what anyone watching the table could read: a role is named only once the rules make it
public (a Public Confession, the end of the game), a private result never, and nothing about the
tokens before the Dining reveals them.

Each line has a stable `id` ("r2-eliminated"): the page speaks each id once, in the order the
lines come, so a refresh that shows more of a Dining adds lines without repeating the first ones.
Lines follow the Dining in the order of R4.1 and stop where the game is waiting (an open tie),
so a later view only adds lines after the ones already said.
"""

from __future__ import annotations

import re
from typing import Any

from games.engine.common import ROLE_NAMES
from games.engine.events import render
from games.engine.vocabulary import Phase, TieKind
from games.presenters.wording import without_rule_ids
from relics.rules import BY_ID as RELICS

TEAM_NAMES = {"hunters": "Hunters", "vampires": "Vampires"}
TIE_SUBJECTS = {
    "elimination": "the most Stakes",
    "examination": "the most Stakes",
    "election": "the most Feasts",
    "intervention": "the Ghost vote",
}
DECIDERS = {
    "vote": "The vote",
    "latest_ghost": "The most recent Ghost",
    "random": "Chance",
}
RELIC_STAGES = {
    "pre": "before the tokens are placed",
    "post": "before the tokens are revealed",
}
# What the time left is for, per phase ("One minute left to vote.").
TIME_FOR = {
    Phase.ROLE_REVEAL: "to look at your role",
    Phase.MINGLING: "to place your tokens",
    Phase.TIEBREAK: "to vote",
    Phase.CHOOSE_EXAMINER: "to choose who examines",
    Phase.LAST_WILL: "for the Last Will",
    Phase.GIVE_RELIC: "to hand out the relic",
    Phase.RELIC_WINDOW: "for the relic",
    Phase.RELIC_CHOICE: "for the relic",
}

Line = dict[str, str]


def narration(view: dict[str, Any]) -> dict[str, Any]:
    """What the room screen's page carries for its narrator: the lines, and the time cues.
    `view` is the public view, with `last_will_lines` (selectors.last_will_lines) beside it."""
    return {"lines": lines(view), "timer": timer(view)}


def lines(view: dict[str, Any]) -> list[Line]:
    """Every line the public view can say now, in the order they happened."""
    names = {s["seat"]: s["name"] for s in view["seats"]}
    status = view["status"]
    if status == "lobby":
        return [_line("lobby", "The table is open: join on your phones.")]
    out: list[Line] = []
    dining = view.get("last_dining")
    if dining:
        said = {(s["round"], s["seat"]): s["lines"] for s in view.get("last_will_lines") or []}
        wills = [
            {**w, "lines": said.get((w["round"], w["seat"]))}
            for w in view.get("last_wills") or []
            if w.get("round") == dining["round"]
        ]
        out += _dining(dining, wills, view.get("tie"), view["seats"], names)
    if status == "abandoned":
        return [*out, _line("abandoned", "An organiser stopped this game.")]
    if status == "finished":
        return out + _end(view, names)
    return out + _phase(view, names)


def timer(view: dict[str, Any]) -> dict[str, Any] | None:
    """What to say at one minute and at ten seconds left in the open window.

    The page takes the deadline from its countdown (`data-deadline`) and says a cue when it sees
    the time left pass it: a window that opens with less time left (a 60 s tie vote) has no
    "one minute left"."""
    if view["status"] != "running" or not view.get("deadline"):
        return None
    what = TIME_FOR.get(view["phase"])
    minute = f"One minute left {what}." if what else "One minute left."
    return {
        "cues": [
            {"seconds": 60, "text": minute},
            {"seconds": 10, "text": "Ten seconds left."},
        ]
    }


# --- the current phase ----------------------------------------------------------------------


def _phase(view: dict, names: dict[int, str]) -> list[Line]:
    round_, phase = view["round"], view["phase"]
    if phase == Phase.ROLE_REVEAL:  # before round 1 (R2's ruling): nobody's role is said
        return [_line("role-reveal", "Look at your role on your phone, then tap Ready.")]
    if phase == Phase.MINGLING:
        return [_line(f"r{round_}-mingling", _mingling(view, names))]
    if phase == Phase.GIVE_RELIC:
        return [_line(f"r{round_}-give-relic", "The Sacred Relics are handed out.")]
    window = (view.get("relics") or {}).get("window")
    if phase == Phase.RELIC_WINDOW and window:
        relic, stage = window.get("relic", ""), window.get("stage", "")
        when = RELIC_STAGES.get(stage, "now")
        return [
            _line(
                f"r{round_}-relic-{stage}-{relic}",
                f"{_relic_name(relic)} may be used {when}.",
            )
        ]
    return []  # ties, choices and Last Wills are part of the Dining's lines


def _mingling(view: dict, names: dict[int, str]) -> str:
    seats = view["seats"]
    living = [s for s in seats if s["alive"]]
    words = [f"Round {view['round']}: Mingling. Place your tokens."]
    if len(living) == 3:
        words.append("Three players are left: one Stake and one Feast each.")
    alpha = next((s["seat"] for s in seats if s["alpha"]), None)
    if alpha is not None:
        words.append(f"{names[alpha]} is the Alpha Hunter.")
    if 3 < len(living) < len(seats):  # Ghosts, and not a three-living round (R9)
        words.append("Ghosts, vote to protect a living player.")
    return " ".join(words)


# --- the Dining, step by step (R4.1) -----------------------------------------------------------


def _dining(d: dict, wills: list, open_tie: dict | None, seats: list, names) -> list[Line]:
    r = d["round"]
    out = [_line(f"r{r}-dining", f"Dining, round {r}: the tokens are revealed.")]
    alive = {s["seat"]: s["alive"] for s in seats}
    ties = {t["kind"]: t for t in d.get("ties") or []}
    tie_open = (open_tie or {}).get("kind")

    def tie(kind: str) -> bool:
        """The tie's lines; True when the Dining waits on it (say nothing after it yet)."""
        if tie_open == kind:
            out.append(_tie_opened(r, open_tie, alive, names))
            return True
        if kind in ties:
            out.append(_tie_opened(r, ties[kind], None, names))
            out.append(_tie_result(r, ties[kind], names))
        return False

    if d.get("unplaced"):
        out.append(_line(f"r{r}-unplaced", _unplaced(d["unplaced"], names)))
    if tie("intervention"):
        return out
    if d.get("protected") is not None:
        out.append(_line(f"r{r}-protected", f"The Ghosts protect {names[d['protected']]}."))
    elif d.get("intervention"):
        out.append(_line(f"r{r}-protected", "Nobody is Protected."))
    if d.get("investigated") is not None:
        who = names[d["investigated"]]
        out.append(_line(f"r{r}-investigated", f"The Alpha Hunter investigates {who}."))

    if r == 1:
        if tie("examination"):
            return out
        out += _examination(d, "examination" in ties, names)
    else:
        if tie("elimination"):
            return out
        out += _elimination(d, wills, "elimination" in ties, tie_open, names)

    for w in wills:
        out += _will(r, w, names)

    if tie("election"):
        return out
    if d.get("alpha_elected") is not None:
        who = names[d["alpha_elected"]]
        out.append(_line(f"r{r}-alpha", f"{who} is elected Alpha Hunter for the next round."))
    elif d.get("complete"):
        out.append(_line(f"r{r}-alpha", "No Alpha Hunter is elected."))
    return out


def _examination(d: dict, tied: bool, names) -> list[Line]:
    r, examined, examiner = d["round"], d.get("examined"), d.get("examiner")
    if examined is None:
        return [_line(f"r{r}-examined", "Nobody had a Stake.")] if d.get("complete") else []
    who = names[examined]
    text = f"{who} chooses" if tied else f"{who} has the most Stakes and chooses"
    out = [_line(f"r{r}-examined", f"{text} who examines their role.")]
    if examiner is not None:
        out.append(_line(f"r{r}-examiner", f"{names[examiner]} examines {who}'s role."))
    return out


def _elimination(d: dict, wills: list, tied: bool, tie_open, names) -> list[Line]:
    r, eliminated = d["round"], d.get("eliminated")
    if eliminated is not None:
        who = names[eliminated]
        text = f"{who} is eliminated." if tied else f"{who} has the most Stakes and is eliminated."
        return [_line(f"r{r}-eliminated", text)]
    # Nobody: say so once the Dining has moved past the elimination.
    moved_on = (
        d.get("complete")
        or d.get("alpha_elected") is not None
        or wills
        or tie_open == TieKind.ELECTION
        or any(t["kind"] == TieKind.ELECTION for t in d.get("ties") or [])
    )
    return [_line(f"r{r}-eliminated", "Nobody is eliminated.")] if moved_on else []


def _will(r: int, w: dict, names) -> list[Line]:
    who, card = names[w["seat"]], w["card"]
    out = [
        _line(
            f"r{r}-will-{w['seat']}",
            f"{who} draws a Last Will: {card['name']}. “{card['text']}”",
        )
    ]
    if w.get("resolved"):
        if w.get("result"):
            out.append(_line(f"r{r}-will-{w['seat']}-result", _result(w, names)))
        elif w.get("targets"):
            chosen = _and([names[t] for t in w["targets"]])
            out.append(_line(f"r{r}-will-{w['seat']}-result", f"{who} chooses {chosen}."))
    return out


def _unplaced(unplaced: list, names) -> str:
    counts: dict[int, int] = {}
    for u in unplaced:
        counts[u["owner"]] = counts.get(u["owner"], 0) + 1
    parts = [
        f"{names[owner]} left {n} token{'s' if n > 1 else ''} unplaced"
        for owner, n in sorted(counts.items())
    ]
    return f"{_and(parts)}: each counts as a Stake against its owner."


def _tie_opened(r: int, tie: dict, alive: dict | None, names) -> Line:
    """'Ana and Ben are tied for the most Stakes. The Ghosts vote.' (who votes: while open)."""
    tied = _and([names[c] for c in tie["candidates"]])
    text = f"{tied} are tied for {TIE_SUBJECTS.get(tie['kind'], 'the vote')}."
    if alive is not None:
        if tie.get("decider") is not None:
            text += f" {names[tie['decider']]} decides."
        elif not any(alive.get(v) for v in tie["voters"]):
            text += " The Ghosts vote."
        else:
            text += " Everyone votes."
    return _line(f"r{r}-tie-{tie['kind']}", text)


def _tie_result(r: int, tie: dict, names) -> Line:
    how, result = tie.get("decided_by", "vote"), tie.get("result")
    key = f"r{r}-tie-{tie['kind']}-result"
    if result is None:
        return _line(key, "Still tied: nothing happens.")
    who = names[result]
    if how == "vote":
        return _line(key, f"The vote goes to {who}.")
    decider = DECIDERS.get(how) or _relic_name(how)
    return _line(key, f"{decider} decides: {who}.")


# --- the end --------------------------------------------------------------------------------


def _end(view: dict, names: dict[int, str]) -> list[Line]:
    """Game over, then every role: R1.4 makes them public now."""
    winner = TEAM_NAMES.get(view.get("winner") or "", "nobody")
    out = [_line("end", f"Game over: the {winner} win. {_without_rule_ids(view.get('outcome'))}")]
    roles = view.get("roles") or []
    vampires = [
        f"{names[r['seat']]} was {ROLE_NAMES[r['role']]}"
        for r in sorted(roles, key=lambda r: (r["role"] != "vampire_lord", r["seat"]))
        if r["role"] != "hunter"
    ]
    mesmerized = [names[r["seat"]] for r in roles if r.get("mesmerized")]
    words = [f"{'; '.join(vampires)}." if vampires else "There were no Vampires."]
    if mesmerized:
        words.append(f"{_and(mesmerized)} {'was' if len(mesmerized) == 1 else 'were'} Mesmerized.")
    words.append("Everyone else was a Hunter.")
    out.append(_line("end-roles", " ".join(words)))
    return out


# --- words ----------------------------------------------------------------------------------

_SEATS = re.compile(r"\b[Ss]eats? (\d+(?:, \d+)*(?: and \d+)?)\b")


def plain(text: str, names: dict[int, str]) -> str:
    """An engine log line as speech, from its words: 'Seat 5 looks at seat 1's role.' -> 'Eli
    looks at Ana's role.' The narrator no longer says anything this way (a Last Will's result is
    said from its lines' templates, `_result`); kept for what tests/test_narration.py checks with
    it (the private lines a bot game must never say)."""

    def named(match: re.Match) -> str:
        seats = [int(n) for n in re.findall(r"\d+", match.group(1))]
        return _and([names.get(s, f"seat {s}") for s in seats])

    return _without_rule_ids(_SEATS.sub(named, text))


def _result(w: dict, names: dict[int, str]) -> str:
    """A Last Will's result as speech: its lines' templates with each seat they name written as
    its player's name ("Eli looks at Ana's role."), from `last_will_lines`, never from
    the words of `result`; rule IDs are for developers, not for the room. A card resolved before
    those lines existed is said as written."""
    if not w.get("lines"):
        return _without_rule_ids(w["result"])

    def name(seat: int, capital: bool) -> str:
        return names.get(seat) or f"{'Seat' if capital else 'seat'} {seat}"

    said = [render(_without_rule_ids(line["template"]), line["data"], name) for line in w["lines"]]
    return " ".join(said)


def _without_rule_ids(text: str | None) -> str:
    return without_rule_ids(text or "").strip()  # "(R11, R12.3)" too: one rule for every reader


def _and(words: list[str]) -> str:
    if len(words) <= 1:
        return "".join(words)
    return f"{', '.join(words[:-1])} and {words[-1]}"


def _relic_name(relic_id: str) -> str:
    """'signet_ring' -> 'The Signet Ring' (the card's own name when the module is loaded)."""
    card = RELICS.get(relic_id)
    name = card.name if card else relic_id.replace("_", " ").title()
    return name if name.startswith("The ") else f"The {name}"


def _line(line_id: str, text: str) -> Line:
    return {"id": line_id, "text": text}
