"""How relic_states_before_records.json was made: run on main at 7ea5c8d (the relics' data as
dicts, before the records of relics/rules/holdings.py), from a checkout of that commit:

    PYTHONPATH=. python tests/relics/data/make_relic_states.py relic_states.json

Random relic games (6-12 players, Last Wills on or off) until one state shows each feature of
the module's data (`WANT`); each is saved as that code saved it (`to_json`), with the public
view, the view and offers of one seat it waits on (or seat 1), as that code showed them, and the
state its timeout led to."""

import json
import random
import sys

from games.engine import Action, IllegalAction, Options, apply, pending, setup, timeout, view
from games.engine.serialize import to_json
from games.engine.view import waiting_for
from tests.engine.table import random_args
from tests.relics.test_properties_relics import relic_args

WANT = [
    "giving_drawn2",
    "giving",
    "window_pre",
    "window_post",
    "window_reveal",
    "window_tie",
    "copy",
    "markers",
    "negated",
    "key_used",
    "choice_idol",
    "choice_journal",
    "pending_deaths",
    "cross",
    "offered",
    "done_round",
    "discarded",
]
found = {}


def features(state):
    d = state.ext.get("relics") or {}
    out = set()
    if not d:
        return out
    g = d.get("giving")
    if state.phase == "give_relic" and g:
        out.add("giving")
        if len(g["drawn"]) > 1:
            out.add("giving_drawn2")
    w = d.get("window")
    if state.phase == "relic_window" and w:
        out.add("window_" + w["stage"])
    if d.get("copy") and d["copy"]["round"] == state.round:
        out.add("copy")
    if d.get("markers"):
        out.add("markers")
    if any(n["round"] == state.round for n in d.get("negated", [])):
        out.add("negated")
    if d.get("key_used"):
        out.add("key_used")
    c = d.get("choice")
    if state.phase == "relic_choice" and c:
        out.add("choice_idol" if c["relic"] == "false_idol" else "choice_journal")
    if d.get("pending_deaths"):
        out.add("pending_deaths")
    if d.get("cross"):
        out.add("cross")
    if d.get("offered"):
        out.add("offered")
    if "done_round" in d:
        out.add("done_round")
    if any(h["discarded"] for h in d.get("holdings", [])):
        out.add("discarded")
    return out


def record(state, feat):
    waiting = sorted(waiting_for(state))[:1] or [1]
    seats = [None, *waiting]
    found[feat] = {
        "feature": feat,
        "state": to_json(state),
        "views": {str(s): json.loads(json.dumps(view(state, s))) for s in seats},
        "after_timeout": to_json(timeout(state, state.deadline)[0])
        if state.deadline is not None
        else None,
        "pending": {str(s): json.loads(json.dumps(pending(state, s))) for s in waiting},
    }


for seed in range(3000):
    if len(found) == len(WANT):
        break
    rng = random.Random(seed)
    n = rng.choice([6, 7, 8, 9, 10, 11, 12])
    state = setup(
        Options(relics=True, last_wills=rng.random() < 0.6, expansion=n > 10), n, seed, now=0.0
    )
    steps = 0
    while state.outcome is None and steps < 3000:
        steps += 1
        for f in features(state):
            if f not in found:
                record(state, f)
        seats = waiting_for(state)
        if not seats or rng.random() < 0.05:
            state, _ = timeout(state, state.deadline)
            continue
        seat = rng.choice(sorted(seats))
        entries = pending(state, seat)
        if not entries:
            continue
        entry = rng.choice(entries)
        if entry["action"] in ("give_relic", "use_relic", "pass", "resolve_choice"):
            args = relic_args(rng, state, entry)
        else:
            args = random_args(rng, entry)
        if args is None:
            continue
        try:
            state, _ = apply(state, Action(entry["action"], seat, args), now=0.0)
        except IllegalAction:
            continue
    if state.outcome is not None:
        for f in features(state):
            if f not in found:
                record(state, f)
print(sorted(found), file=sys.stderr)
print("missing", sorted(set(WANT) - set(found)), file=sys.stderr)
out, seen = [], {}
for f in WANT:
    key = json.dumps(found[f]["state"], sort_keys=True)
    if key in seen:
        seen[key]["features"].append(f)
        continue
    entry = dict(found[f], features=[f])
    del entry["feature"]
    seen[key] = entry
    out.append(entry)
json.dump(out, open(sys.argv[1], "w"), indent=None, sort_keys=True)
