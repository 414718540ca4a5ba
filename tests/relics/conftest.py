"""Helpers for the Sacred Relics tests (R10–R11): a relic game with a fixed deal and a fixed relic
deck, played through round 1 and the distribution so that chosen seats hold chosen relics.

    t = relic_table("LVHHHH", {1: "ritual_bell", 2: "signet_ring", ...})   # round 2 begins
    holdings(t)  -> {seat: [relic ids]}

The first giver is the Alpha elected in round 1 (`elect`; seat 1 when None), then clockwise.
Each giver gives to the next seat clockwise; the last giver draws two cards and gives the first
giver's relic, the other (`spare`) goes to the box. The staff option `relic_deck` fixes the order.
"""

from __future__ import annotations

from collections import Counter

import relics.rules  # noqa: F401 - registers the Sacred Relics module
from games.engine import pending
from relics.rules import CARDS, kind
from tests.engine.table import Table
from tests.engine.test_r5_ties import rig

ROLES = {
    6: "LVHHHH",
    7: "LVHHHHH",
    8: "LVVHHHHH",
    9: "LVVHHHHHH",
    10: "LVVHHHHHHH",
    11: "LVVHHHHHHHH",
    12: "LVVHHHHHHHHH",
}
ALL = [kind(c) for c in CARDS]  # 16 cards, the Bangle twice


def giver_order(n: int, alpha: int | None) -> list[int]:
    first = alpha or 1
    return [(first - 1 + i) % n + 1 for i in range(n)]


def deck_for(order: list[int], wanted: dict[int, str], spare: str) -> tuple[str, ...]:
    """The draw order that makes giver order[i] give `wanted[order[i+1]]` to order[i+1], and the
    last giver draw wanted[order[0]] and `spare`."""
    return tuple(wanted[s] for s in order[1:]) + (wanted[order[0]], spare)


def default_spare(wanted: dict[int, str]) -> str:
    left = Counter(ALL) - Counter(wanted.values())
    return next(r for r in ALL if left[r] and r != "bangle_of_oaths")


def round_one(t: Table, *, kill: int = 3, elect: int | None = 4, examiner: int | None = None):
    """Round 1: `kill` has the most Stakes and is examined by `examiner`; `elect` is elected
    (None: everyone leaves their Feast unplaced, so nobody is elected, R4.6)."""
    plan = rig(t.state, most_stakes=kill, most_feasts=elect)
    if elect is None:
        plan = {s: " ".join(w for w in p.split() if w[0] != "F") for s, p in plan.items()}
    t.mingle(plan)
    if examiner is None:
        examiner = next(s for s in t.state.living if s not in (kill, 1, 2))
    t.do(kill, "choose_examiner", target=examiner)
    return t


def give_all(t: Table, wanted: dict[int, str]) -> Table:
    """Every giver gives the top card to the next seat clockwise (the last to the first)."""
    order = t.state.ext["relics"]["giving"]["order"]
    n = len(order)
    for i, giver in enumerate(order):
        assert t.state.phase == "give_relic"
        target = order[(i + 1) % n]
        if i == n - 1:
            t.do(giver, "give_relic", target=target, card=wanted[target])
        else:
            t.do(giver, "give_relic", target=target)
    return t


def relic_table(
    roles: str = "LVHHHH",
    wanted: dict[int, str] | None = None,
    *,
    elect: int | None = 4,
    kill: int = 3,
    examiner: int | None = None,
    spare: str | None = None,
    seed: int = 1,
    windows: bool = False,
    **options,
) -> Table:
    """Round 2 of a relic game in which seat s holds wanted[s] (every seat must be named).
    `windows`: leave round 2's pre-mingling windows open (default: everyone passes)."""
    n = len(roles)
    wanted = wanted or dict(zip(range(1, n + 1), ALL, strict=False))
    assert set(wanted) == set(range(1, n + 1))
    order = giver_order(n, elect)
    deck = deck_for(order, wanted, spare or default_spare(wanted))
    t = Table(roles, seed=seed, relics=True, relic_deck=deck, **options)
    round_one(t, kill=kill, elect=elect, examiner=examiner)
    give_all(t, wanted)
    if not windows:
        pass_windows(t)
    return t


def data(t: Table) -> dict:
    return t.state.ext["relics"]


def holdings(t: Table, *, discarded: bool = False) -> dict[int, list[str]]:
    out: dict[int, list[str]] = {}
    for h in data(t)["holdings"]:
        if discarded or not h["discarded"]:
            out.setdefault(h["seat"], []).append(kind(h["card"]))
    return out


def window(t: Table) -> dict | None:
    return data(t)["window"] if t.state.phase == "relic_window" else None


# Windows that follow one another without a move in between: before Mingling; after it (the
# post-mingling slots, then Blood of the One's last call once the tokens are revealed, R11).
STAGE_GROUPS = {"pre": "pre", "post": "after", "reveal": "after", "tie": "tie"}


def pass_windows(t: Table) -> list[tuple[int, str]]:
    """Every open window of this round and stage passes; returns (seat, relic) in the order
    they opened. Stops at the next round's or stage's first window (the post-mingling slots and
    the last call after the reveal count as one stage)."""
    seen = []
    start = (t.state.round, STAGE_GROUPS[window(t)["stage"]] if window(t) else None)
    while t.state.phase == "relic_window":
        w = data(t)["window"]
        if (t.state.round, STAGE_GROUPS[w["stage"]]) != start:
            break
        seen.append((w["seat"], w["as"]))
        t.do(w["seat"], "pass")
    return seen


def use(t: Table, seat: int, relic: str, **args) -> Table:
    return t.do(seat, "use_relic", relic=relic, **args)


def mingle(t: Table, plan: dict[int, str], ghosts: dict[int, int] | None = None) -> Table:
    """Place every token of `plan` (Mingling ends when all is placed, else the timer runs out)."""
    return t.mingle(plan, ghosts=ghosts)


def offers(t: Table, seat: int, action: str) -> list[dict]:
    return [p["options"] for p in pending(t.state, seat) if p["action"] == action]


def relic_count(state) -> int:
    """Cards held (discarded ones included) + box + deck (+ an open draw)."""
    d = state.ext.get("relics") or {}
    giving = d.get("giving") or {}
    return (
        len(d.get("holdings", []))
        + len(d.get("box", []))
        + len(d.get("deck", []))
        + len(giving.get("drawn", []))
    )


def settle_choices(t: Table) -> Table:
    """Decline every open passive choice (Van Helsing, False Idol) and pass every window."""
    while t.state.phase in ("relic_choice", "relic_window"):
        d = data(t)
        if t.state.phase == "relic_window" and d["window"]["stage"] == "pre":
            break
        seat = d["choice"]["seat"] if t.state.phase == "relic_choice" else d["window"]["seat"]
        t.do(seat, "pass")
    return t


def play(t: Table, kill: int, elect: int | None = None, *, ghosts=None, seed=0) -> Table:
    """One whole round from its pre-mingling windows: everyone passes every relic window and
    choice; `kill` has the most Stakes, `elect` the most Feasts; Ghosts' dials as given."""
    round_ = t.state.round
    pass_windows(t)
    protected = Counter(ghosts.values()).most_common(1)[0][0] if ghosts else None
    plan = rig(t.state, most_stakes=kill, most_feasts=elect, protected=protected, seed=seed)
    t.mingle(plan, ghosts=ghosts)
    while t.state.round == round_ and t.state.outcome is None:
        settle_choices(t)
        if t.state.round != round_ or t.state.outcome is not None:
            break
        assert t.state.phase not in ("mingling", "tiebreak"), t.state.phase
    return t
