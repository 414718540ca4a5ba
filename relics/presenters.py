"""How the Sacred Relics show on the game page (games/web/game.py): the public relic board, my relic
cards, and the form of each relic choice the engine offers in `pending`.

Presentation only. What may be done comes from `pending`, what is known from the viewer's own
engine view. Holdings are public (R10.2a: the cards lie face-up), so the board says who holds
which relic, whose window is open, and each seat on the table shows its relics.
"""

from __future__ import annotations

import json
from collections import Counter

from games.engine.vocabulary import ActionName
from relics.rules import BY_ID, POST, PRE

STAGES = (("pre", "Before Mingling", PRE), ("post", "After Mingling", POST))

# use_relic: what the form asks, in the player's words (title from the card's name).
USE = {
    "ritual_bell": ("Whose relic do you silence this round?", "Ring the Bell"),
    "signet_ring": ("Whose relic do you take in exchange for the Ring?", "Swap relics"),
    "hindsight_looking_glass": ("Which Ghost's relic do you copy this round?", "Copy it"),
    "blood_of_the_one": ("Name a living player: if Mesmerized, they die.", "Name them"),
    "scales_of_justice": ("Settle this tie yourself, or pass: the vote decides.", "Settle it"),
    "whisper_wick_candle": ("Pick two tokens on two different seats: they swap.", "Swap them"),
    "bangle_of_oaths": (
        "Pick up to 2 tokens on your seat (by who placed them): they move to the other Bangle "
        "holder's seat.",
        "Move them",
    ),
    "key_of_quick_passage": (
        "Discard the Key: every token on your seat is ignored this round.",
        "Discard the Key",
    ),
}
# The relics that target a card (R11 ruling: `card` names which one when a seat holds several):
# the form offers each targetable card by name, "seat:card" (games.web.forms.action_args).
PICKS_A_CARD = ("ritual_bell", "signet_ring", "hindsight_looking_glass")
STAGE_LABELS = {
    "pre": "Before Mingling",
    "post": "After Mingling",
    "reveal": "Blood of the One's last call, the tokens revealed",
    "tie": "a Dining tie, before its vote",
}
TIE_WORDS = {"elimination": "elimination", "election": "Alpha Hunter"}
CHOICES = {  # resolve_choice offered by a relic (a timed, optional choice)
    "false_idol": ("You were killed: you may hand The False Idol to a living player.", "Give it"),
    "van_helsings_journal": ("You may examine the eliminated player's role.", "Examine"),
}


def card(relic_id: str) -> dict:
    relic = BY_ID[relic_id]
    return {"id": relic.id, "name": relic.name, "text": relic.text, "kind": relic.kind}


def holders(view: dict) -> dict[int, list[dict]]:
    """seat -> the relics on its seating tile (R10.2a), as the table shows them."""
    out: dict[int, list[dict]] = {}
    for h in (view.get("relics") or {}).get("holdings") or []:
        copy = h.get("acting_as")
        out.setdefault(h["seat"], []).append(
            {
                **h,
                "text": BY_ID[h["relic"]].text,
                "acting_as": BY_ID[copy].name if copy else None,
                "markers": [BY_ID[m["relic"]].name for m in h.get("markers") or []],
            }
        )
    return out


def _window(window: dict, names: dict[int, str]) -> dict:
    stage = window["stage"]
    board_ = PRE if stage == "pre" else POST if stage == "post" else None
    tie = window.get("tie")
    return {
        **window,
        "name": BY_ID[window["relic"]].name,
        "stage_label": STAGE_LABELS.get(stage, stage),
        "slot": board_.index(window["relic"]) + 1 if board_ else None,
        "holder": names.get(window.get("seat"), ""),
        "tie": {
            "kind": TIE_WORDS.get(tie["kind"], tie["kind"]),
            "candidates": [{"seat": s, "name": names.get(s, "")} for s in tie["candidates"]],
        }
        if tie
        else None,
    }


def board(view: dict, names: dict[int, str]) -> dict | None:
    """The public board: the slots in order, the open window and its holder, and who holds
    which relic (R10.2a)."""
    relics = view.get("relics")
    if relics is None:
        return None
    window = relics.get("window")
    in_play = Counter(relics.get("in_play") or [])  # relic ids
    stages = [
        {
            "stage": stage,
            "label": label,
            "slots": [
                {
                    "slot": n,
                    **card(rid),
                    "in_play": in_play[rid],
                    "active": bool(window and window["stage"] == stage and window["relic"] == rid),
                    "holders": [
                        {"seat": h["seat"], "name": names.get(h["seat"], "")}
                        for h in relics.get("holdings") or []
                        if h["relic"] == rid and not h["discarded"]
                    ],
                }
                for n, rid in enumerate(ids, start=1)
            ],
        }
        for stage, label, ids in STAGES
    ]
    timed = {rid for _, _, ids in STAGES for rid in ids}
    passive = [
        {"name": r.name, "text": r.text, "count": in_play[r.id]}
        for r in BY_ID.values()
        if r.id not in timed and in_play[r.id]
    ]
    giver = relics.get("giver")
    choice = relics.get("choice")
    by_seat = holders(view)
    return {
        "stages": stages,
        "passive": passive,
        "in_play": sum(in_play.values()),
        "window": _window(window, names) if window else None,
        "choice": {
            **card(choice["relic"]),
            "seat": choice["seat"],
            "holder": names.get(choice["seat"], ""),
        }
        if choice
        else None,
        "giver": {"seat": giver, "name": names.get(giver, "")} if giver else None,
        "holdings": [
            {"seat": seat, "name": names.get(seat, ""), "relics": by_seat[seat]}
            for seat in sorted(by_seat)
        ],
        "deadline": view.get("deadline"),
    }


def mine(me: dict | None) -> list[dict]:
    """My relic cards with their text (a Hindsight Looking Glass says what it copies)."""
    out = []
    for r in (me or {}).get("relics") or []:
        copy = r.get("acting_as")
        out.append({**r, **card(r["id"]), "acting_as": BY_ID[copy].name if copy else None})
    return out


def action(pending: dict, view: dict, names: dict[int, str]) -> dict:
    """What a relic action's form needs beyond views.action_form's common part ({} for others)."""
    name, options = pending["action"], pending.get("options", {})
    me = view.get("me") or {}
    if name == ActionName.GIVE_RELIC:
        drawn = [card(c["id"]) for c in me.get("drawn") or []]
        return {"template": "give_relic", "label": "Give your relic", "drawn": drawn}
    if name == ActionName.RESOLVE_CHOICE and options.get("choice") in CHOICES:
        help_, button = CHOICES[options["choice"]]
        return {
            "template": "relic_choice",
            "relic": card(options["choice"]),
            "help": help_,
            "button": button,
        }
    if name == ActionName.PASS:
        window = (view.get("relics") or {}).get("window")
        usable = any(p["action"] == ActionName.USE_RELIC for p in view.get("pending") or ())
        if window and window.get("seat") == me.get("seat") and not usable:
            # A use the rules would refuse is not offered (e.g. no Ghost's relic to copy)
            relic = BY_ID[window["relic"]].name
            return {"hint": f"Nothing can be done with the {relic} now: pass."}
        return {}
    if name != ActionName.USE_RELIC:
        return {}
    relic = options.get("relic")
    help_, button = USE[relic]
    out = {
        "template": f"use_relic_{relic}",
        "relic": card(relic),
        "label": f"Use the {BY_ID[relic].name}",
        "help": help_,
        "button": button,
    }
    if relic in PICKS_A_CARD:  # one choice per card on the table that may be targeted
        out["picks"] = [
            {
                "value": f"{seat}:{rid}",
                "seat": int(seat),
                "name": names.get(int(seat), ""),
                "relic": BY_ID[rid].name,
            }
            for seat, rids in sorted(
                options.get("cards_by_seat", {}).items(), key=lambda i: int(i[0])
            )
            for rid in rids
        ]
    if relic == "scales_of_justice":
        tie = ((view.get("relics") or {}).get("window") or {}).get("tie") or {}
        out["tie"] = TIE_WORDS.get(tie.get("kind"), "this tie")
        out["discard"] = options.get("discard", True)
    if relic == "whisper_wick_candle":
        out["tokens_by_seat"] = [
            {
                "seat": int(seat),
                "name": names.get(int(seat), ""),
                # One checkbox per token, "seat:owner": where it lies and whose it is.
                "tokens": [
                    {"value": f"{seat}:{o}", "owner": o, "name": names.get(o, "")} for o in owners
                ],
            }
            for seat, owners in sorted(
                options.get("owners_by_seat", {}).items(), key=lambda i: int(i[0])
            )
        ]
    if relic == "whisper_wick_candle":  # the legal pairs, for the page to offer only those
        out["pairs"] = json.dumps(
            [
                [f"{a}:{oa}", f"{b}:{ob}"]
                for m in options.get("moves") or ()
                for (a, b), (oa, ob) in [(m["targets"], m["owners"])]
            ]
        )
    if relic == "bangle_of_oaths":
        out["owners"] = [{"seat": o, "name": names.get(o, "")} for o in options.get("owners", [])]
        out["max_owners"] = max((len(m["owners"]) for m in options.get("moves") or ()), default=0)
        partner = options.get("partner")
        out["partner"] = {"seat": partner, "name": names.get(partner, "")} if partner else None
    return out
