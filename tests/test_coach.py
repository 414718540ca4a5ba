"""The practice game's coach (games/presenters/coach.py), from the seat's own view alone.

Whole games played by the sensible bots on the engine check, for every seat at every step, that
no note names a secret the seat's view does not hold (another player's role or Mesmerism), and
that the notes about the player's own secrets sit behind a tap (`private`). The wording of each
moment is checked on views made by the engine or by hand.
"""

from __future__ import annotations

import random
import re

import pytest

import relics.rules  # noqa: F401 - registers the Sacred Relics module
from games.bots.moves import bot_move
from games.engine import Action, Options, apply, setup, timeout, view
from games.engine.view import waiting_for
from games.presenters import coach

NAMES = ["Ana", "Ben", "Cleo", "Dev", "Eli", "Fay", "Gus", "Hana"]
ROLE_WORDS = re.compile(r"Hunter|Vampire|Lord|Mesmeri", re.IGNORECASE)
ROLE_PHRASES = ("a Hunter", "a Vampire", "the Vampire Lord")


def seat_view(state, seat: int) -> dict:
    """The seat's view as its page gets it (selectors.game_view adds the status and names)."""
    v = view(state, seat)
    v["status"] = "finished" if state.outcome else "running"
    for s in v["seats"]:
        s["name"] = NAMES[s["seat"] - 1]
    return v


def played(seed: int, players: int, relics: bool):
    """Every state of one bot game, from the deal to the end."""
    state = setup(Options(relics=relics, last_wills=relics), players, seed, now=0.0)
    rng, now = random.Random(seed), 0.0
    yield state
    while state.outcome is None:
        seats = waiting_for(state)
        move = bot_move(rng, seats[0], view(state, seats[0])) if seats else None
        if move is None:
            state, _ = timeout(state, state.deadline or now)
        else:
            state, _ = apply(state, move, now=now)
        now += 1.0
        yield state


def known_to(v: dict) -> tuple[dict[str, str], set[str]]:
    """The roles (by name) and the Mesmerized players this view holds: the seat's own, what it
    learned, what was made public (a Public Confession), and every role once the game is over."""
    names = {s["seat"]: s["name"] for s in v["seats"]}
    me = v["me"]
    roles = {names[me["seat"]]: me["role"]}
    mesmerized = {names[me["seat"]]} if me["mesmerized"] else set()
    for k in me["knowledge"]:
        if "role" in k:
            roles[names[k["seat"]]] = k["role"]
        if k.get("mesmerized"):
            mesmerized.add(names[k["seat"]])
    for r in v.get("public_roles") or []:
        roles[names[r["seat"]]] = r["role"]
    for r in v.get("roles") or []:
        roles[names[r["seat"]]] = r["role"]
        if r["mesmerized"]:
            mesmerized.add(names[r["seat"]])
    return roles, mesmerized


def sentences(text: str) -> list[str]:
    return [s for s in re.split(r"(?<=[.:?!])\s+", text) if s]


GAMES = [
    (seed, players, relics)
    for seed in range(4)
    for players, relics in ((6, False), (6, True), (8, True))
]


@pytest.mark.parametrize(("seed", "players", "relics"), GAMES)
def test_no_note_names_a_secret_its_seat_does_not_know_in_a_whole_bot_game(seed, players, relics):
    moments = 0
    for state in played(seed, players, relics):
        everyone = [NAMES[p.seat - 1] for p in state.players]
        for seat in range(1, players + 1):
            v = seat_view(state, seat)
            roles, mesmerized = known_to(v)
            me = NAMES[seat - 1]
            for note in coach.notes(v):
                moments += 1
                text = note["text"]
                for name in everyone:
                    if name == me or name in roles:
                        continue
                    # R1.3/R4.2/R6.1: another player's role is the seat's only once it learned it.
                    for phrase in ROLE_PHRASES:
                        assert f"{name} is {phrase}" not in text, text
                        assert f"{name} was {phrase}" not in text, text
                for sentence in sentences(text.replace("Alpha Hunter", "")):
                    named = [n for n in everyone if n != me and re.search(rf"\b{n}\b", sentence)]
                    if not named or not ROLE_WORDS.search(sentence):
                        continue
                    for name in named:
                        if "Mesmeri" in sentence:  # R8.2: told to those who saw it only
                            assert name in mesmerized, sentence
                        else:
                            assert name in roles, sentence
                # A strategy note speaks of the seat's side: behind the tap, like its role.
                if "-tip-" in note["id"]:
                    assert note["private"], text
                # The seat's own secrets are shown on purpose, behind a tap (docs/voice.md).
                if v["status"] == "running":
                    own = ROLE_PHRASES + ("Mesmerized", "You know")
                    if any(f"You are {p}" in text for p in own) or "You know" in text:
                        assert note["private"], text
    assert moments > 0


def test_every_seat_gets_a_note_at_every_moment_of_a_whole_game():
    for state in played(3, 6, relics=True):
        for seat in range(1, 7):
            v = seat_view(state, seat)
            shown = [n for n in coach.notes(v) if not n["private"]]
            assert shown, (v["round"], v["phase"], seat)
            ids = [n["id"] for n in coach.notes(v)]
            assert len(ids) == len(set(ids)), ids


def twin_notes(roles: dict[int, str], seat: int) -> list[list[dict]]:
    """The notes `seat` reads at every step of round 1 and the start of round 2, every seat
    placing its tokens by the same plan whatever the deal."""
    state = start(seed=4, roles=roles)
    seen = [coach.notes(seat_view(state, seat))]
    for s in range(1, 7):
        for token, step in (("stake", 1), ("stake", 2), ("feast", 3)):
            target = (s + step - 1) % 6 + 1
            state, _ = apply(state, Action("place_token", s, {"token": token, "target": target}))
            seen.append(coach.notes(seat_view(state, seat)))
    while state.round == 1:
        waiting = waiting_for(state)
        pending = view(state, waiting[0])["pending"][0]
        target = pending["options"]["targets"][0]
        state, _ = apply(state, Action(pending["action"], waiting[0], {"target": target}))
        seen.append(coach.notes(seat_view(state, seat)))
    return seen


def test_two_deals_a_hunter_cannot_tell_apart_give_that_hunter_the_same_notes():
    """Seats 2 and 5 swap roles (a Vampire and a Hunter): seat 1, a Hunter who learns nothing
    in round 1, must read the same notes word for word in both games."""
    twin = {**HUNTER_AT_1, 2: "hunter", 5: "vampire"}
    for seat in (1, 4):
        assert twin_notes(HUNTER_AT_1, seat) == twin_notes(twin, seat)
    assert twin_notes(HUNTER_AT_1, 2) != twin_notes(twin, 2)  # the Vampire's own notes differ


def test_a_spectator_and_a_lobby_get_no_note():
    state = setup(Options(), 6, 1, now=0.0)
    spectator = view(state, None)
    spectator["status"] = "running"
    assert coach.notes(spectator) == []
    assert coach.notes({"status": "lobby", "seats": [], "me": {"seat": 1}}) == []


def start(seed: int = 1, roles: dict[int, str] | None = None):
    return setup(Options(relics=False, last_wills=False), 6, seed, roles=roles, now=0.0)


HUNTER_AT_1 = {1: "hunter", 2: "vampire", 3: "vampire_lord", 4: "hunter", 5: "hunter", 6: "hunter"}


def test_round_one_explains_the_hand_the_examination_and_the_alpha_election():
    notes = coach.notes(seat_view(start(roles=HUNTER_AT_1), 1))
    assert notes[0] == {
        "id": "r1-mingling-place",
        "text": "You have 2 Stakes and a Feast to place. Nobody is eliminated in round 1: the "
        "player with the most Stakes picks someone to look at their role; the most Feasts makes "
        "the Alpha Hunter for round 2.",
        "private": False,
    }
    assert notes[1]["text"].startswith("Everyone sees who placed on whom, never which token.")
    assert [n["id"] for n in notes if n["private"]] == ["role"]
    assert next(n for n in notes if n["private"])["text"].startswith("You are a Hunter")


def test_a_token_placed_on_the_player_is_pointed_out_never_its_type():
    state = start(roles=HUNTER_AT_1)
    state, _ = apply(state, Action("place_token", 2, {"token": "feast", "target": 1}), now=1.0)
    text = coach.notes(seat_view(state, 1))[1]["text"]
    assert "Ben put a token on you: a Stake, or a Feast?" in text
    assert "Feast on you" not in text


def test_a_vampire_is_told_privately_who_the_other_vampires_are():
    notes = coach.notes(seat_view(start(roles=HUNTER_AT_1), 2))
    private = [n["text"] for n in notes if n["private"]]
    assert private[0].startswith("You are a Vampire:")
    assert private[1] == "You know: Cleo is the Vampire Lord (you were shown at the start)."
    hunter = coach.notes(seat_view(start(roles=HUNTER_AT_1), 4))
    assert not any("You know" in n["text"] for n in hunter)


def table(*alive: bool, alpha: int | None = None, placed_by=None) -> list[dict]:
    return [
        {
            "seat": i,
            "name": NAMES[i - 1],
            "alive": a,
            "alpha": i == alpha,
            "protected": False,
            "placed_by": (placed_by or {}).get(i, []),
        }
        for i, a in enumerate(alive, start=1)
    ]


def me(seat: int, **values) -> dict:
    base = {
        "seat": seat,
        "role": "hunter",
        "mesmerized": False,
        "alive": True,
        "tokens": [],
        "placed": [],
        "intervention_vote": None,
        "knowledge": [],
    }
    return {**base, **values}


def running(round_: int, phase: str, seats: list[dict], mine: dict, **extra) -> dict:
    return {
        "status": "running",
        "round": round_,
        "phase": phase,
        "seats": seats,
        "pending": [],
        "waiting_for": [],
        "tie": None,
        "last_dining": None,
        "me": mine,
        **extra,
    }


def public(v: dict) -> list[str]:
    return [n["text"] for n in coach.notes(v) if not n["private"]]


def test_the_alpha_hunter_hears_what_the_double_stake_and_investigation_do():
    hand = ["double_stake", "feast", "investigation"]
    pending = [{"action": "place_token", "options": {"tokens": hand, "targets": [1, 3]}}]
    last = {"round": 2, "eliminated": 5}
    v = running(
        3,
        "mingling",
        table(True, True, True, True, False, True, alpha=2),
        me(2, tokens=hand),
        pending=pending,
        last_dining=last,
    )
    notes = public(v)
    assert notes[0] == (
        "Eli was eliminated: a Ghost now, who votes to protect a player. You are the Alpha "
        "Hunter this round."
    )
    assert notes[1].startswith("You have a Double-Stake, a Feast and an Investigation to place.")
    assert "Your Double-Stake counts as 2 Stakes." in notes[1]
    assert "Your Investigation shows you, privately, the role of the player it is on." in notes[1]


def test_a_ghost_is_asked_to_protect_a_living_player():
    pending = [{"action": "intervention_vote", "options": {"targets": [1, 2, 3, 4]}}]
    v = running(
        3,
        "mingling",
        table(True, True, True, True, False, False),
        me(5, alive=False),
        pending=pending,
    )
    assert public(v)[-1].startswith(
        "You are a Ghost: you still win or lose with your team. Vote to protect one living player"
    )
    voted = running(
        3,
        "mingling",
        table(True, True, True, True, False, False),
        me(5, alive=False, intervention_vote=2),
    )
    assert public(voted)[-1].endswith("You voted to protect Ben.")


def test_three_players_left_hear_the_smaller_hand():
    pending = [{"action": "place_token", "options": {"tokens": ["feast", "stake"], "targets": [2]}}]
    v = running(
        5,
        "mingling",
        table(True, True, True, False, False, False),
        me(1, tokens=["stake", "feast"]),
        pending=pending,
    )
    assert public(v)[0] == (
        "You have a Stake and a Feast to place. Three players are left: no Alpha Hunter and no "
        "Ghost vote this round."
    )


@pytest.mark.parametrize(
    ("pending", "decider", "expected"),
    [
        # Two Ghosts vote: one vote does not break it alone (the coach said so when all voted).
        (True, None, "Everyone who votes helps break it: choose one of them."),
        (
            True,
            5,
            "The tie vote is tied too: you decide. If you don't choose in time, nothing happens "
            "for this tie.",
        ),
        (False, None, "Waiting for Fay to break the tie."),
    ],
    ids=["voter", "decider", "watcher"],
)
def test_a_tie_says_who_breaks_it(pending, decider, expected):
    tie = {
        "kind": "elimination",
        "candidates": [1, 2],
        "voters": [5, 6],
        "voted": [5],
        "decider": decider,
    }
    actions = [{"action": "tiebreak_vote", "options": {"targets": [1, 2]}}] if pending else []
    seats = table(True, True, True, True, False, False)
    v = running(3, "tiebreak", seats, me(5, alive=False), tie=tie, pending=actions)
    assert public(v)[0] == f"Ana and Ben are tied for the most Stakes. {expected}"


def test_round_one_examination_says_who_chooses():
    seats = table(*[True] * 6)
    pending = [{"action": "choose_examiner", "options": {"targets": [1, 2, 4, 5, 6]}}]
    mine = running(1, "choose_examiner", seats, me(3), pending=pending)
    assert public(mine)[0].startswith("You had the most Stakes: choose a player who looks")
    other = running(1, "choose_examiner", seats, me(1), last_dining={"round": 1, "examined": 3})
    assert public(other)[0] == "Cleo had the most Stakes and chooses who looks at their role."


def test_a_last_will_names_its_card_and_who_chooses():
    will = {
        "round": 3,
        "seat": 2,
        "card": {"id": "dying_accusation", "name": "Dying Accusation", "text": "..."},
        "targets": [],
        "resolved": False,
        "result": None,
    }
    seats = table(True, False, True, True, True, True)
    v = running(3, "last_will", seats, me(1), last_wills=[will])
    assert public(v)[0] == "Ben drew a Last Will: Dying Accusation. Waiting for their choice."
    pending = [{"action": "resolve_choice", "options": {"targets": [1, 3], "count": 1}}]
    v = running(3, "last_will", seats, me(2, alive=False), last_wills=[will], pending=pending)
    assert public(v)[0] == "You drew a Last Will: Dying Accusation. Choose a player for it."


def test_a_mesmerized_player_is_told_privately_they_play_for_the_vampires():
    v = running(2, "mingling", table(*[True] * 6), me(4, mesmerized=True))
    private = [n for n in coach.notes(v) if n["private"]]
    assert private[0]["text"].startswith("You are Mesmerized: you win with the Vampires now.")


def test_the_end_says_who_won_and_the_players_own_side():
    roles = [
        {"seat": s, "role": r, "mesmerized": s == 4, "team": t, "won": t == "vampires"}
        for s, r, t in [
            (1, "hunter", "hunters"),
            (2, "vampire", "vampires"),
            (3, "vampire_lord", "vampires"),
            (4, "hunter", "vampires"),
            (5, "hunter", "hunters"),
            (6, "hunter", "hunters"),
        ]
    ]
    v = {
        "status": "finished",
        "seats": table(*[True] * 6),
        "winner": "vampires",
        "roles": roles,
        "me": me(4, mesmerized=True),
    }
    assert coach.notes(v) == [
        {
            "id": "end",
            "text": "Game over: the Vampires win. You were a Hunter on the Vampires' side: you "
            "won. Every role is shown now: look back at who placed which token.",
            "private": False,
        }
    ]


def test_a_lone_tie_voter_breaks_it_and_a_relic_with_nothing_to_do_is_not_offered():
    """The coach says only what the form offers: one voter decides; a relic window whose holder
    the form offers nothing is not "may use their relic now"."""
    tie = {"kind": "elimination", "candidates": [1, 2], "voters": [5], "voted": [], "decider": None}
    actions = [{"action": "tiebreak_vote", "options": {"targets": [1, 2]}}]
    seats = table(True, True, True, True, False, False)
    v = running(3, "tiebreak", seats, me(5, alive=False), tie=tie, pending=actions)
    assert public(v)[0].endswith("Your vote breaks the tie: choose one of them.")
    relics = {"window": {"seat": 2, "relic": "ritual_bell"}}
    v = running(2, "relic_window", table(True, True, True, True, True, True), me(2), relics=relics)
    assert public(v)[0] == "It is your relic's turn, but it has nothing it may act on now."
    v = running(2, "relic_window", table(True, True, True, True, True, True), me(3), relics=relics)
    assert public(v)[0] == "Ben may use their relic now."
