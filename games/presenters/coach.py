"""The coach of a practice game: a few short notes on what is happening now and what
the player could consider, built from that player's own view alone.

The input is the seat's view as its page gets it (`selectors.game_view`: the engine's per-seat
view, names added), never the state: the coach knows what the player's phone shows and nothing
more. A note is {"id", "text", "private"}. `private` notes speak of the player's own secrets
(their role, what they learned) and the page keeps them behind a tap (docs/voice.md, "Secrets").
Each note's `id` names its moment ("r2-mingling-place"), so a page can tell a new note from one
already shown. The role tip changes from round to round, and the strategy notes, each said only
in its situation with the simulator's figure, come from `coach_tips`. Pure Python: no Django, so
it is tested on views made by the engine alone.
"""

from __future__ import annotations

from typing import Any

from games.presenters import coach_tips
from games.presenters.narration import (  # one wording for the table and the coach
    TEAM_NAMES,
    TIE_SUBJECTS,
)

Note = dict[str, Any]

ROLE_WORDS = {"hunter": "a Hunter", "vampire": "a Vampire", "vampire_lord": "the Vampire Lord"}
SOURCES = {
    "night": "you were shown at the start",
    "investigation": "your Investigation",
    "examination": "you looked at their role",
    "mesmerism": "you saw the examination",
    "last_will": "your Last Will",
    "van_helsing": "Van Helsing's Journal",
}
# A few tips per role, one a round in turn, so the note says something new each round.
ROLE_TIPS = {
    "hunter": (
        "You are a Hunter: find the Vampires. A Stake on a Vampire helps your team; a Feast "
        "makes someone Alpha Hunter, who gets the Investigation, so give Feasts to players you "
        "trust.",
        "You are a Hunter. Read the last Dining: players who put their Stakes on the same "
        "player, or Feasts on each other, may be Vampires working together.",
        "You are a Hunter. When you are the Alpha Hunter, put your Investigation on the player "
        "you trust least: it shows you their role, privately.",
    ),
    "vampire": (
        "You are a Vampire: your team wins when at most one Hunter is left alive. Play like a "
        "Hunter would, and keep the Investigation away from yourself and the other Vampires.",
        "You are a Vampire. Feasts make the Alpha Hunter, who investigates: a Feast on a player "
        "of your side keeps the Investigation in friendly hands.",
        "You are a Vampire. Everyone sees who placed on whom: Stakes that follow the table's "
        "suspicions draw less attention than a Stake nobody else placed.",
    ),
    # In the order of the rounds they fit: round 1's examination comes first.
    "vampire_lord": (
        "You are the Vampire Lord: a Hunter who looks at your role is Mesmerized and joins your "
        "team. With the most Stakes in round 1 you choose who looks: Stakes on you in this round "
        "are not always bad news.",
        "You are the Vampire Lord. A Hunter who investigates you as the Alpha Hunter is "
        "Mesmerized: being investigated can help you, so do not shy away from it.",
        "You are the Vampire Lord. The table reads Feasts as trust: place yours as a Hunter "
        "would, on a player others trust.",
    ),
}
MESMERIZED_TIPS = (
    "You are Mesmerized: your role still reads Hunter, but you now win with the Vampires. "
    "Help them without being seen to.",
    "You are Mesmerized: you win with the Vampires now. Keep placing tokens like a Hunter, but "
    "keep your Stakes off the Vampires you know.",
)


def notes(view: dict[str, Any]) -> list[Note]:
    """What the coach says to the viewer of `view` now; [] for a spectator or a lobby."""
    me = view.get("me")
    if me is None or view.get("status") not in ("running", "finished"):
        return []
    names = {s["seat"]: s["name"] for s in view["seats"]}
    if view["status"] == "finished":
        return _end(view, me)
    return [*_moment(view, me, names), *_secrets(view, me, names)]


# --- what is happening, and what to do -------------------------------------------------------


def _moment(view: dict, me: dict, names: dict[int, str]) -> list[Note]:
    phase, round_ = view["phase"], view["round"]
    actions = {p["action"]: p["options"] for p in view.get("pending") or []}
    if phase == "role_reveal":
        return [_note("reveal", _reveal(actions))]
    if phase == "mingling":
        return _mingling(view, me, names, actions)
    if phase == "tiebreak" and view.get("tie"):
        return [_note(f"r{round_}-tie", _tie(view["tie"], me, names, actions))]
    if phase == "choose_examiner":
        return [_note(f"r{round_}-examiner", _examiner(view, names, actions))]
    if phase == "last_will":
        return [_note(f"r{round_}-last-will", _last_will(view, names, actions))]
    if phase == "give_relic":
        return [_note(f"r{round_}-give-relic", _give_relic(view, names, actions))]
    if phase in ("relic_window", "relic_choice"):
        return [_note(f"r{round_}-{phase}", _relic_turn(view, names, actions))]
    return [_note(f"r{round_}-{phase}-wait", _waiting(view, names))]


def _reveal(actions: dict) -> str:
    if "ready" in actions:
        return (
            "This is your Secret Role, and what it tells you about the others. Read it, then tap "
            "Ready: round 1 begins when everyone is ready."
        )
    return "You are ready. Round 1 begins when everyone is."


def _mingling(view: dict, me: dict, names: dict[int, str], actions: dict) -> list[Note]:
    round_ = view["round"]
    living = [s for s in view["seats"] if s["alive"]]
    three = len(living) == 3
    out = []
    if round_ > 1 and not three:
        recap = _recap(view, me, names)
        if recap:
            out.append(_note(f"r{round_}-recap", recap))
    if not me["alive"]:
        out.append(_note(f"r{round_}-ghost", _ghost(view, me, names, actions, three)))
        return out
    if "place_token" in actions:
        words = [f"You have {_hand(me['tokens'])} to place."]
        if three:
            words.append("Three players are left: no Alpha Hunter and no Ghost vote this round.")
        elif round_ == 1:
            words.append(
                "Nobody is eliminated in round 1: the player with the most Stakes picks someone "
                "to look at their role; the most Feasts makes the Alpha Hunter for round 2."
            )
        else:
            words.append(
                "The player with the most Stakes is eliminated; the most Feasts makes next "
                "round's Alpha Hunter."
            )
        if "double_stake" in me["tokens"]:
            words.append("Your Double-Stake counts as 2 Stakes.")
        if "investigation" in me["tokens"]:
            words.append(
                "Your Investigation shows you, privately, the role of the player it is on."
            )
        out.append(_note(f"r{round_}-mingling-place", " ".join(words)))
        out.append(_note(f"r{round_}-mingling-consider", _consider(view, me, names)))
    else:
        out.append(
            _note(
                f"r{round_}-mingling-placed",
                "Your tokens are placed. When everyone is done, the Dining turns every token "
                "face up and counts them.",
            )
        )
    return out


def _consider(view: dict, me: dict, names: dict[int, str]) -> str:
    """What the table shows so far: who placed tokens on the player (never which token)."""
    mine = next(s for s in view["seats"] if s["seat"] == me["seat"])
    on_me = [names[o] for o in mine.get("placed_by") or []]
    words = ["Everyone sees who placed on whom, never which token."]
    if on_me:
        words.append(f"{_and(on_me)} put a token on you: a Stake, or a Feast?")
    words.append("A token left in your hand at the end counts as a Stake against you.")
    return " ".join(words)


def _recap(view: dict, me: dict, names: dict[int, str]) -> str:
    """Last round's Dining in a sentence or two, and what it means now."""
    d = view.get("last_dining") or {}
    words = []
    out = d.get("eliminated")
    if out == me["seat"]:
        words.append("You were eliminated last round.")
    elif out is not None:
        words.append(f"{names[out]} was eliminated: a Ghost now, who votes to protect a player.")
    alpha = next((s["seat"] for s in view["seats"] if s["alpha"]), None)
    if alpha == me["seat"]:
        words.append("You are the Alpha Hunter this round.")
    elif alpha is not None:
        words.append(f"{names[alpha]} is the Alpha Hunter this round.")
    return " ".join(words)


def _ghost(view: dict, me: dict, names: dict[int, str], actions: dict, three: bool) -> str:
    words = ["You are a Ghost: you still win or lose with your team."]
    if "intervention_vote" in actions:
        words.append(
            "Vote to protect one living player: the player with the most Ghost votes can't be "
            "eliminated, elected or investigated this round. You see who placed tokens on whom "
            "once you have voted."
        )
    elif three:
        words.append("With three players left there is no Ghost vote, but Ghosts break ties.")
    elif me.get("intervention_vote") is not None:
        words.append(f"You voted to protect {names[me['intervention_vote']]}.")
    else:
        words.append("The living are placing their tokens.")
    return " ".join(words)


def _tie(tie: dict, me: dict, names: dict[int, str], actions: dict) -> str:
    tied = _and([names[c] for c in tie["candidates"]])
    text = f"{tied} are tied for {TIE_SUBJECTS.get(tie['kind'], 'the vote')}."
    if "tiebreak_vote" in actions:
        if tie.get("decider") == me["seat"]:
            return (
                f"{text} The tie vote is tied too: you decide. If you don't choose in time, "
                "nothing happens for this tie."
            )
        if len(tie["voters"]) == 1:
            return f"{text} Your vote breaks the tie: choose one of them."
        return f"{text} Everyone who votes helps break it: choose one of them."
    voters = [names[v] for v in tie["voters"] if v not in (tie.get("voted") or [])]
    return f"{text} Waiting for {_and(voters)} to break the tie." if voters else text


def _examiner(view: dict, names: dict[int, str], actions: dict) -> str:
    if "choose_examiner" in actions:
        return (
            "You had the most Stakes: choose a player who looks at your role. Only they will "
            "know it; the table sees who looked."
        )
    examined = (view.get("last_dining") or {}).get("examined")
    who = names.get(examined, "The player with the most Stakes")
    return f"{who} had the most Stakes and chooses who looks at their role."


def _last_will(view: dict, names: dict[int, str], actions: dict) -> str:
    will = next((w for w in view.get("last_wills") or [] if not w.get("resolved")), None)
    if will is None:
        return _waiting(view, names)
    card = will["card"]["name"]
    if "resolve_choice" in actions:
        count = actions["resolve_choice"].get("count", 1)
        whom = "two players" if count == 2 else "a player"
        return f"You drew a Last Will: {card}. Choose {whom} for it."
    return f"{names[will['seat']]} drew a Last Will: {card}. Waiting for their choice."


def _give_relic(view: dict, names: dict[int, str], actions: dict) -> str:
    if "give_relic" in actions:
        return (
            "You drew a Sacred Relic: give it to another player who has none. Relics lie face "
            "up, so everyone will see who holds which."
        )
    giver = (view.get("relics") or {}).get("giver")
    who = f" It is {names[giver]}'s turn." if giver in names else ""
    return (
        "The Sacred Relics are handed out: each player in turn draws one and gives it to "
        f"someone who has none.{who}"
    )


def _relic_turn(view: dict, names: dict[int, str], actions: dict) -> str:
    if "use_relic" in actions or "resolve_choice" in actions:
        return "Your relic may act now: use it, or pass. Its card says what it does."
    relics = view.get("relics") or {}
    turn = relics.get("window") or relics.get("choice") or {}
    if turn.get("seat") == (view.get("me") or {}).get("seat"):  # the form offers nothing
        return "It is your relic's turn, but it has nothing it may act on now."
    who = names.get(turn.get("seat"))
    return f"{who} may use their relic now." if who else _waiting(view, names)


def _waiting(view: dict, names: dict[int, str]) -> str:
    waiting = [names[s] for s in view.get("waiting_for") or [] if s in names]
    return f"Waiting for {_and(waiting)}." if waiting else "The table is moving on."


# --- the player's own secrets (behind a tap) ---------------------------------------------------


def _secrets(view: dict, me: dict, names: dict[int, str]) -> list[Note]:
    tips = MESMERIZED_TIPS if me.get("mesmerized") else ROLE_TIPS.get(me.get("role"), ())
    turn = max(view["round"] - 1, 0) % len(tips) if tips else 0
    facts = []
    for k in me.get("knowledge") or []:
        if k["seat"] == me["seat"] or k["seat"] not in names:
            continue
        source = SOURCES.get(k["source"], k["source"])
        if "role" in k:
            facts.append(f"{names[k['seat']]} is {ROLE_WORDS[k['role']]} ({source}).")
        if k.get("mesmerized"):
            facts.append(f"{names[k['seat']]} is Mesmerized ({source}).")
    facts = list(dict.fromkeys(facts))  # a fact learned twice is said once
    out = (
        [_note("role" if turn == 0 else f"role-{turn + 1}", tips[turn], private=True)]
        if tips
        else []
    )
    if facts:
        out.append(_note(f"known-{len(facts)}", "You know: " + " ".join(facts), private=True))
    return [*out, *coach_tips.notes(view, names)]


# --- the end ---------------------------------------------------------------------------------


def _end(view: dict, me: dict) -> list[Note]:
    winner = TEAM_NAMES.get(view.get("winner") or "", "nobody")
    mine = next((r for r in view.get("roles") or [] if r["seat"] == me["seat"]), None)
    words = [f"Game over: the {winner} win."]
    if mine:
        team = TEAM_NAMES.get(mine["team"], mine["team"])
        result = "you won" if mine["won"] else "you lost"
        words.append(f"You were {ROLE_WORDS[mine['role']]} on the {team}' side: {result}.")
    words.append("Every role is shown now: look back at who placed which token.")
    return [_note("end", " ".join(words))]


# --- words -----------------------------------------------------------------------------------


def _hand(tokens: list[str]) -> str:
    """['stake', 'stake', 'feast'] -> '2 Stakes and a Feast'."""
    counts: dict[str, int] = {}
    for t in tokens:
        counts[t] = counts.get(t, 0) + 1
    words = {
        "stake": ("a Stake", "Stakes"),
        "double_stake": ("a Double-Stake", "Double-Stakes"),
        "feast": ("a Feast", "Feasts"),
        "investigation": ("an Investigation", "Investigations"),
    }
    parts = []
    for token in ("stake", "double_stake", "feast", "investigation"):
        n = counts.get(token, 0)
        if n:
            one, many = words[token]
            parts.append(one if n == 1 else f"{n} {many}")
    return _and(parts) or "no token"


def _and(words: list[str]) -> str:
    if len(words) <= 1:
        return "".join(words)
    return f"{', '.join(words[:-1])} and {words[-1]}"


def _note(note_id: str, text: str, *, private: bool = False) -> Note:
    return {"id": note_id, "text": text, "private": private}
