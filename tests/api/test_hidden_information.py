"""Hidden information: whole games played through the API, and after every move a
check that no seat (and no spectator) receives anything it may not know.

The truth comes from the database (`Game.state` through `state_from_json`); what each seat is
entitled to is derived independently from the rules (R1.3 night information, its own
examinations, R8.2 mesmerism), then compared with its view, its event log, the response headers
and the error bodies of refused moves.
"""

from __future__ import annotations

import json
import random
import re
from collections import Counter

import pytest

from games import engine, services
from games.engine import state_from_json
from games.models import Event, Game
from tests.api.conftest import guest
from tests.conftest import examples

pytestmark = pytest.mark.django_db

VAMPIRE_SIDE = ("vampire", "vampire_lord")
ROLE_WORDS = re.compile(r"\b(hunters?|vampires?|vampire_lord|lord|mesmeri[sz]\w*)\b", re.I)
NIGHT_FACT = re.compile(r"seat (\d+) is (a Hunter|a Vampire|the Vampire Lord)")
ROLE_OF_NAME = {"a Hunter": "hunter", "a Vampire": "vampire", "the Vampire Lord": "vampire_lord"}
NAME_OF_ROLE = {role: name for name, role in ROLE_OF_NAME.items()}
PRIVATE_KINDS = {"night", "token_placed", "intervention_vote", "tie_vote", "examined", "mesmerized"}
# "vacation_until": public while a bot holds the seat for its player (vacation mode)
SEAT_KEYS = {
    "seat",
    "name",
    "alive",
    "alpha",
    "protected",
    "is_bot",
    "afk",
    "vacation_until",
    "placed_by",
}
# "tallies": the votes each tied player has, public once Dining revealed the tokens
TIE_KEYS = {"kind", "candidates", "voters", "voted", "decider", "tallies"}
# Always refused, whatever the phase: a seat probing the server for secrets.
PROBES = [
    ("tiebreak_vote", {"target": 99}),
    ("intervention_vote", {"target": 99}),
    ("choose_examiner", {"target": 99}),
    ("place_token", {"token": "investigation", "target": 99}),
    ("place_token", {"token": "stake", "target": "self"}),
    ("pass", {}),
]


def leaks_role(text: str) -> list[str]:
    """Role words in a text meant for someone who may not know roles ("Alpha Hunter" is a title,
    not a role)."""
    return ROLE_WORDS.findall(text.replace("Alpha Hunter", "Alpha"))


def confessions(state) -> list[dict]:
    """Roles made public by a Public Confession (R13): the only role words the public may read
    before the end."""
    return state.ext.get("last_wills", {}).get("revealed", [])


def without_confessions(text: str, state) -> str:
    """The text with every confession sentence taken out (R13 Public Confession)."""
    for c in confessions(state):
        text = text.replace(f"Seat {c['seat']} was {NAME_OF_ROLE[c['role']]}.", "")
    return text


def walk(node, path=""):
    """Every (path, key, value) of a JSON tree."""
    if isinstance(node, dict):
        for k, v in node.items():
            yield path, k, v
            yield from walk(v, f"{path}.{k}")
    elif isinstance(node, list):
        for i, v in enumerate(node):
            yield from walk(v, f"{path}[{i}]")


def team_by_the_rules(role: str, mesmerized: bool) -> str:
    """R1.4, written out here rather than asked of the engine: the Hunter team is the Hunters who
    are not Mesmerized; the Vampires, the Lord and Mesmerized Hunters are the Vampire team."""
    return "hunters" if role == "hunter" and not mesmerized else "vampires"


def winner_by_the_rules(state) -> str:
    """R12.1 (checked first), then R12.2 (Mesmerized players count as Hunters), from the living
    seats' roles alone; relics are off here, so R12.3 cannot end these games."""
    living = [p.role for p in state.players if p.alive]
    if not set(living) & set(VAMPIRE_SIDE):
        return "hunters"
    assert living.count("hunter") <= 1, f"over with no R12 condition met: {living}"
    return "vampires"


def truth_of(state) -> list[dict]:
    """Every seat's role, Mesmerism, team (R1.4) and whether it won (R12.4: every member of the
    winning team, living or Ghost), the last two derived from the rules above."""
    winner = winner_by_the_rules(state)
    return [
        {
            "seat": p.seat,
            "role": p.role,
            "mesmerized": p.mesmerized,
            "team": team_by_the_rules(p.role, p.mesmerized),
            "won": team_by_the_rules(p.role, p.mesmerized) == winner,
        }
        for p in state.players
    ]


class Referee:
    """Knows the truth; checks what every seat and a spectator receive after each move."""

    def __init__(self, t, n: int):
        self.t, self.n = t, n
        self.spectator = guest("Spectator")
        self.game_id = Game.objects.get(code=t.code).id
        self.views: dict[int, dict] = {}
        self.checks = 0

    # truth ---------------------------------------------------------------------------------
    def truth(self):
        game = Game.objects.get(id=self.game_id)
        return game, state_from_json(game.state)

    def entitled(self, state, seat: int) -> tuple[list, set[int]]:
        """What `seat` may know: its knowledge facts (as sorted tuples) and the Mesmerized seats
        it knows of, derived from the rules and the public log, not from the engine's view."""
        role = state.player(seat).role
        facts = []
        # R1.3 with R1.2's table: the Lord knows the Vampires at 7, 10, 11 and 12 players
        if role == "vampire" or (role == "vampire_lord" and self.n in (7, 10, 11, 12)):
            facts += [
                (p.seat, "night", p.role, None)
                for p in state.players
                if p.role in VAMPIRE_SIDE and p.seat != seat
            ]
        mesmerized = set()
        for e in Event.objects.filter(game_id=self.game_id, audience__isnull=True):
            if e.kind == "investigation" and e.data["outcome"] == "examined":
                examiner, target, source = e.data["investigator"], e.data["target"], e.kind
            elif e.kind == "examination":
                examiner, target, source = e.data["examiner"], e.data["target"], e.kind
            else:
                continue
            target_role = state.player(target).role
            if examiner == seat:
                facts.append((target, source, target_role, None))
            if target_role == "vampire_lord" and state.player(examiner).role == "hunter":
                mesmerized.add(examiner)  # R8.1
        assert {p.seat for p in state.players if p.mesmerized} == mesmerized
        if role in VAMPIRE_SIDE:
            known = set(mesmerized)  # R8.2: the Lord and the Vampires are told
        else:
            known = {seat} & mesmerized  # the victim is told; other Hunters are not
        facts += [(m, "mesmerism", None, True) for m in known]
        return sorted(facts, key=repr), known

    # checks --------------------------------------------------------------------------------
    def check_everyone(self):
        game, state = self.truth()
        rows = list(Event.objects.filter(game_id=self.game_id).order_by("seq"))
        for seat in range(1, self.n + 1):
            self.check_viewer(game, state, rows, seat, self.t.client(seat))
        self.check_viewer(game, state, rows, None, self.spectator)
        self.checks += 1

    def check_viewer(self, game, state, rows, seat, client):
        who = f"seat {seat}" if seat else "spectator"
        response = client.get(self.t.url())
        assert response.status_code == 200, (who, response.content)
        view = response.json()
        self.check_headers(response, game, who)
        self.check_view(view, game, state, seat, who)
        response = client.get(self.t.url("events/"))
        assert response.status_code == 200
        self.check_headers(response, game, who, etag=False)
        self.check_events(response.json(), state, rows, seat, who)
        if seat:
            self.views[seat] = view

    def check_headers(self, response, game, who, etag=True):
        if etag:
            assert response["ETag"] == f'"{game.version}"', who
        for name, value in response.items():
            assert not leaks_role(f"{name}: {value}"), (who, name, value)

    def check_view(self, view, game, state, seat, who):
        finished = state.outcome is not None
        assert view["version"] == game.version
        assert view["status"] == ("finished" if finished else "running")
        # roles only at the end, then every role (R1.4)
        truth_roles = truth_of(state) if finished else None
        assert view["roles"] == truth_roles, who
        # nothing outside `me` and `roles` names a role or a Mesmerism
        assert view.get("public_roles", []) == confessions(state), who
        public = {k: v for k, v in view.items() if k not in ("me", "roles", "public_roles")}
        for path, key, value in walk(public):
            assert key not in ("role", "mesmerized", "knowledge", "roles"), (who, path, key)
            if isinstance(value, str) and not finished:
                assert not leaks_role(without_confessions(value, state)), (who, path, key, value)
        assert "roles" not in view["options"] and "relic_deck" not in view["options"]
        # seats: placements (owners, never types) during Mingling only (R3.2)
        voted = {v.voter for v in state.intervention}
        ghosts_away = [g for g in state.ghosts[: state.round_ghosts] if g not in voted]
        if seat is None:  # a spectator sees what an away Ghost would
            away = bool(ghosts_away) and not state.three_living
        else:
            away = seat in ghosts_away and not state.three_living
        for s in view["seats"]:
            assert set(s) == SEAT_KEYS, (who, s)
            owners = sorted(p.owner for p in state.placements if p.target == s["seat"])
            if state.phase == "mingling" and not away:
                assert s["placed_by"] == owners, (who, s)
            else:
                assert s["placed_by"] == [], (who, s, state.phase)  # Ghosts are away (R3.2)
            assert s["alive"] == state.player(s["seat"]).alive
        # token types and the Ghosts' dials only once Dining reveals them (R4.1, R7.2)
        if state.dining is None:
            last = view["last_dining"]
            assert last is None or last["round"] < state.round, (who, last)
        else:
            assert view["last_dining"]["round"] == state.round
        # an open tie shows who voted, never for whom (R5)
        if view.get("tie") is not None:
            assert set(view["tie"]) <= TIE_KEYS, (who, view["tie"])
            assert all(isinstance(v, int) for v in view["tie"]["voted"])
        assert all(isinstance(s, int) for s in view["waiting_for"])
        if seat is None:
            assert "me" not in view and view["pending"] == [], who
            return
        # me: my own secrets, and exactly what I am entitled to learn
        me, mine = view["me"], state.player(seat)
        assert me["seat"] == seat and me["role"] == mine.role, who
        assert me["mesmerized"] == mine.mesmerized, who
        assert me["alive"] == mine.alive
        assert me["placed"] == [
            {"target": p.target, "token": p.token} for p in state.placements if p.owner == seat
        ]
        assert me["intervention_vote"] == next(
            (v.target for v in state.intervention if v.voter == seat), None
        )
        facts, _ = self.entitled(state, seat)
        got = sorted(
            ((k["seat"], k["source"], k.get("role"), k.get("mesmerized")) for k in me["knowledge"]),
            key=repr,
        )
        assert got == facts, (who, got, facts)
        assert view["pending"] == engine.pending(state, seat), who

    def check_events(self, body, state, rows, seat, who):
        finished = state.outcome is not None
        visible = [
            r for r in rows if r.audience is None or (seat is not None and seat in r.audience)
        ]
        # numbered among the events this viewer may see, with no gap
        assert [e["seq"] for e in body["events"]] == list(range(1, len(visible) + 1)), who
        facts, known = self.entitled(state, seat) if seat else ([], set())
        roles_known = {(f[0], f[2]) for f in facts if f[2]}
        for e, row in zip(body["events"], visible, strict=True):
            text = e["text"] + json.dumps(e["data"])
            if row.audience is None:
                if e["kind"] == "last_will_effect" and e["data"].get("role"):
                    confessed = {"seat": e["data"]["seat"], "role": e["data"]["role"]}
                    assert confessed in confessions(state), (who, e)
                    text = e["text"]
                if e["kind"] != "game_over":
                    assert not leaks_role(without_confessions(text, state)), (who, e)
                if e["kind"] != "dining":
                    assert "token" not in e["data"] and "tokens" not in e["data"], (who, e)
                continue
            assert e["kind"] in PRIVATE_KINDS, (who, e)
            if e["kind"] == "examined":
                assert (e["data"]["seat"], e["data"]["role"]) in roles_known, (who, e)
            elif e["kind"] == "night":
                named = NIGHT_FACT.findall(e["text"])
                assert named, (who, e)  # night information always names a seat (R1.3)
                for s, name in named:
                    assert (int(s), ROLE_OF_NAME[name]) in roles_known, (who, e)
            elif e["kind"] == "mesmerized":
                assert e["data"].get("seat", seat) in known, (who, e)
            elif not finished:
                assert not leaks_role(text), (who, e)

    def probe(self, seat: int, rng: random.Random):
        """A refused move: its error body tells nothing, and it changes nothing."""
        action, body = rng.choice(PROBES)
        body = {k: (seat if v == "self" else v) for k, v in body.items()}
        before = Game.objects.get(id=self.game_id)
        response = self.t.client(seat).post(self.t.url(f"actions/{action}/"), body, format="json")
        assert response.status_code in (400, 409), (seat, action, response.content)
        payload = response.json()
        assert set(payload) <= {"code", "detail", "errors"}
        assert not leaks_role(json.dumps(payload)), (seat, action, payload)
        for name, value in response.items():
            assert not leaks_role(f"{name}: {value}")
        after = Game.objects.get(id=self.game_id)
        assert (after.version, after.last_seq, after.state) == (
            before.version,
            before.last_seq,
            before.state,
        )


def play(t, n: int, seed: int, expire_chance: float = 0.04) -> Referee:
    """Play to the end with random legal moves chosen from each seat's `pending`."""
    rng = random.Random(seed)
    ref = Referee(t, n)
    ref.check_everyone()
    for _ in range(2000):
        game, state = ref.truth()
        if state.outcome is not None:
            break
        movers = [s for s in range(1, n + 1) if ref.views[s]["pending"]]
        if state.deadline is not None and (not movers or rng.random() < expire_chance):
            # let the open window run out (R3.4, R5.5, R7.5; a random examiner choice)
            assert services.game_expire(game_id=game.id, now=state.deadline + 1)
        else:
            assert movers, f"nobody may act and no window is open in {state.phase}"
            seat = rng.choice(movers)
            move = rng.choice(ref.views[seat]["pending"])
            options = move["options"]
            if move["action"] == "resolve_choice":
                targets = rng.sample(options["targets"], options.get("count", 1))
                body = {"choice": options["choice"], "targets": targets}
            else:
                body = {"target": rng.choice(options["targets"])}
            if move["action"] == "place_token":
                body["token"] = rng.choice(options["tokens"])
            before = game.last_seq
            view = t.act(seat, move["action"], **body)
            assert "me" in view and view["me"]["seat"] == seat
            receipts = Event.objects.filter(game=game, seq__gt=before, audience__isnull=False)
            for r in receipts:
                if r.kind in ("token_placed", "intervention_vote", "tie_vote"):
                    assert r.audience == [seat], (r.kind, r.audience)
        ref.check_everyone()
        for seat in rng.sample(range(1, n + 1), 2):
            ref.probe(seat, rng)
    else:
        pytest.fail("the game did not end")
    return ref


DEALS = [
    ("LVHHHH", 1),  # 6: the Lord does not know the Vampire (R1.2)
    ("HHLHVHH", 2),  # 7: the Lord knows
    ("HHVHHLHV", 4),  # 8: two Vampires
    ("HVHHLHVH", 3),  # 8: two Vampires, the Lord does not know them (`make test-long` only)
]


@pytest.mark.parametrize("deal,seed", DEALS[: examples(suite=2, long=4)])
def test_nobody_learns_a_secret_in_a_whole_game_played_through_the_api(table, deal, seed):
    # The core rules only: Last Wills (R13) reveal roles on purpose (Public Confession, Parting
    # Glance) and need their own entitlement model.
    t = table(deal, last_wills=False)
    ref = play(t, len(deal), seed)
    game, state = ref.truth()
    assert game.status == "finished" and state.outcome is not None
    truth = truth_of(state)
    dealt = {"H": "hunter", "V": "vampire", "L": "vampire_lord"}
    assert [r["role"] for r in truth] == [dealt[letter] for letter in deal]
    assert state.outcome.winner == winner_by_the_rules(state)
    for seat in range(1, len(deal) + 1):
        view = t.view(seat)
        assert view["roles"] == truth and view["winner"] == state.outcome.winner
    view = ref.spectator.get(t.url()).json()
    assert view["roles"] == truth and "me" not in view
    assert ref.checks > 20
    kinds = Counter(Event.objects.filter(game=game).values_list("kind", flat=True))
    assert kinds["dining"] >= 3 and kinds["tie_vote"] >= 1  # the game went through ties


def test_r8_2_mesmerism_is_told_to_the_victim_the_lord_and_the_vampires_only(table):
    t = table("LHHVHHHHV")  # 9 players: the Lord does not know the Vampires
    ref = Referee(t, 9)
    plans = {  # seat 1 (the Lord) is most staked and lets seat 2 (a Hunter) examine them
        1: "S2 S3 F4",
        2: "S1 S3 F4",
        3: "S1 S2 F4",
        4: "S1 S5 F6",
        5: "S1 S6 F4",
        6: "S1 S7 F4",
        7: "S1 S8 F4",
        8: "S1 S9 F4",
        9: "S1 S4 F5",
    }
    for seat, plan in plans.items():
        t.place(seat, plan)
        ref.check_everyone()
    t.act(1, "choose_examiner", target=2)
    ref.check_everyone()
    _, state = ref.truth()
    assert state.player(2).mesmerized
    assert t.view(2)["me"]["mesmerized"] is True
    assert t.view(2)["me"]["role"] == "hunter"  # R8.1: the card still reads Hunter
    for seat in (1, 4, 9):
        assert {"seat": 2, "source": "mesmerism", "round": 1, "mesmerized": True} in t.view(seat)[
            "me"
        ]["knowledge"]
    for seat in (3, 5, 6, 7, 8):
        assert t.view(seat)["me"]["knowledge"] == []


def test_r4_2_an_investigation_result_reaches_the_alpha_only(table):
    t = table("LVHHHH")
    ref = Referee(t, 6)
    for seat, plan in {  # seat 5 is elected Alpha for round 2
        1: "S3 S4 F5",
        2: "S3 S4 F5",
        3: "S4 S5 F6",
        4: "S3 S5 F6",
        5: "S3 S6 F4",
        6: "S3 S4 F5",
    }.items():
        t.place(seat, plan)
    t.act(3, "choose_examiner", target=4)
    ref.check_everyone()
    for seat, plan in {1: "S2 S3 F4", 2: "S1 S3 F4", 3: "S1 S2 F4", 4: "S1 S2 F3"}.items():
        t.place(seat, plan)
        ref.check_everyone()
    t.place(6, "S1 S2 F4")
    t.place(5, "D1 F4")
    ref.check_everyone()
    t.place(5, "I2")  # the Alpha investigates seat 2, a Vampire
    ref.check_everyone()
    assert {"seat": 2, "role": "vampire", "source": "investigation", "round": 2} in t.view(5)["me"][
        "knowledge"
    ]


def test_r5_a_tie_vote_stays_secret_until_the_tie_is_settled(table):
    t = table("LVHHHH")
    ref = Referee(t, 6)
    for seat, plan in {
        1: "S3 S4 F5",
        2: "S3 S4 F5",
        3: "S4 S5 F6",
        4: "S3 S5 F6",
        5: "S3 S4 F6",
        6: "S3 S4 F5",
    }.items():
        t.place(seat, plan)
    assert t.view(1)["phase"] == "tiebreak"
    voted = []
    for seat, target in [(1, 3), (2, 4), (3, 4), (4, 3), (5, 3)]:
        t.act(seat, "tiebreak_vote", target=target)
        voted.append(seat)
        ref.check_everyone()
        for other in range(1, 7):
            view = t.view(other)
            assert view["tie"]["voted"] == voted  # who has voted is public, not for whom
            assert "votes" not in view["tie"]
            log = t.client(other).get(t.url("events/")).json()["events"]
            mine = [e for e in log if e["kind"] == "tie_vote"]
            assert len(mine) == (1 if other in voted else 0)  # only my own dial
            assert all(e["kind"] != "tie_settled" for e in log)
    t.act(6, "tiebreak_vote", target=4)
    ref.check_everyone()
    settled = [
        e for e in t.client(2).get(t.url("events/")).json()["events"] if e["kind"] == "tie_settled"
    ]
    assert len(settled) == 1
    assert Counter(v["target"] for v in settled[0]["data"]["votes"]) == {3: 3, 4: 3}


def test_r13_a_public_confession_is_the_only_role_the_public_learns(table):
    """Seat 2, a Vampire, is staked in round 2 and its Last Will (stacked in the stored state) is
    a Public Confession: its role becomes public, in `public_roles` and one public event, and
    nothing else leaks."""
    t = table("LVHHHH")
    ref = Referee(t, 6)
    game = Game.objects.get(code=t.code)
    lw = {"deck": ["public_confession"], "discard": [], "deck_made": True}
    lw |= {"draws": [], "effects": [], "revealed": [], "owed": []}
    game.state["ext"] = {**game.state.get("ext", {}), "last_wills": lw}
    game.save(update_fields=["state"])
    for seat, plan in {
        1: "S3 S5 F6",
        2: "S3 S4 F5",
        3: "S2 S5 F6",
        4: "S2 S6 F5",
        5: "S2 S3 F4",
        6: "S2 S4 F5",
    }.items():
        t.place(seat, plan)
        ref.check_everyone()
    t.act(2, "choose_examiner", target=3)
    ref.check_everyone()
    for seat, plan in {1: "S3 S4 F5", 2: "S3 S4 F5", 3: "S2 S4 F1", 4: "S2 S3 F1"}.items():
        t.place(seat, plan)
    t.place(6, "S2 S3 F4")
    t.place(5, "D2 F4")
    t.place(5, "I3")
    ref.check_everyone()
    assert t.view(4)["public_roles"] == [{"seat": 2, "role": "vampire"}]
    assert Event.objects.filter(game=game, kind="last_will_effect", audience__isnull=True).count()
