"""The room screen's spoken lines (games/presenters/narration.py), from the public view
alone.

Whole games played by the sensible bots on the engine check what no line may ever say (a living
player's role, who is Mesmerized, a private result, the tokens of a Mingling still going on) and
that the lines of successive views keep one order, so the screen says them as they happened.
The wording of each step is checked on views made by hand.
"""

from __future__ import annotations

import random
import re

import pytest

import relics.rules  # noqa: F401 - registers the Sacred Relics module
from games.bots.moves import bot_move
from games.engine import Options, Timers, apply, setup, timeout, view
from games.engine.last_wills import result_lines
from games.engine.view import waiting_for
from games.presenters import narration

NAMES = ["Ana", "Ben", "Cleo", "Dev", "Eli", "Fay", "Gus", "Hana"]
ROLE_WORDS = re.compile(r"Hunter|Vampire|Lord|Mesmeri", re.IGNORECASE)
CONFESSION = re.compile(r"^(\w+) was (a Hunter|a Vampire|the Vampire Lord)\.$")


def public_view(state) -> dict:
    """The spectator view as the room screen gets it (selectors.game_view adds these, and
    display.py the Last Wills' lines)."""
    v = view(state, None)
    v["status"] = "finished" if state.outcome else "running"
    for s in v["seats"]:
        s["name"] = NAMES[s["seat"] - 1]
    v["last_will_lines"] = result_lines(state)
    return v


def played(seed: int, players: int, relics: bool):
    """Every (state, public view, new events) of one bot game, from the deal to the end."""
    timers = Timers(reveal=30 if seed % 2 else 0)  # odd seeds: the role reveal first (R2)
    state = setup(Options(relics=relics, last_wills=True, timers=timers), players, seed, now=0.0)
    rng, now = random.Random(seed), 0.0
    yield state, public_view(state), []
    while state.outcome is None:
        seats = waiting_for(state)
        move = bot_move(rng, seats[0], view(state, seats[0])) if seats else None
        if move is None:
            state, events = timeout(state, state.deadline or now)
        else:
            state, events = apply(state, move, now=now)
        now += 1.0
        yield state, public_view(state), events


GAMES = [
    (seed, players, relics) for seed in range(6) for players, relics in ((6, False), (8, True))
]


@pytest.mark.parametrize(("seed", "players", "relics"), GAMES)
def test_no_spoken_line_names_a_secret_in_a_whole_bot_game(seed, players, relics):
    private_texts: list[str] = []
    names = dict(enumerate(NAMES, start=1))
    said_before_the_end = mingling_views = 0
    for state, v, events in played(seed, players, relics):
        private_texts += [narration.plain(e.text, names) for e in events if e.audience]
        spoken = narration.lines(v)
        ids = [line["id"] for line in spoken]
        assert len(ids) == len(set(ids)), ids
        living = {names[s["seat"]] for s in v["seats"] if s["alive"]}
        for line in spoken:
            text = line["text"]
            # R1.4: roles and Mesmerism are told to the room only when the game is over.
            if state.outcome is None:
                said_before_the_end += 1
                words = re.sub(r"“[^”]*”", "", text).replace("Alpha Hunter", "")
                confessed = CONFESSION.match(text)
                if confessed:  # a Public Confession: the Ghost's own role, made public
                    assert confessed.group(1) not in living, text
                else:
                    assert not ROLE_WORDS.search(words), text
            # A private result (an examination, an Investigation) is never said.
            assert not any(p and p in text for p in private_texts), text
            assert "Secret Role:" not in text
        if v["phase"] == "mingling":
            # The tokens of this round stay face down: only last round's Dining is told.
            this_round = [i for i in ids if i.startswith(f"r{v['round']}-")]
            assert all(i == f"r{v['round']}-mingling" or "-relic-" in i for i in this_round)
            mingling_views += 1
    # the checks above had something to check: lines said mid-game, Mingling, private lines
    assert said_before_the_end and mingling_views and private_texts


@pytest.mark.parametrize(("seed", "players", "relics"), GAMES)
def test_each_view_lists_its_lines_in_the_order_they_were_first_said(seed, players, relics):
    order: dict[str, int] = {}
    texts: dict[str, str] = {}
    for _, v, _ in played(seed, players, relics):
        spoken = narration.lines(v)
        for line in spoken:
            order.setdefault(line["id"], len(order))
            texts.setdefault(line["id"], line["text"])
        positions = [order[line["id"]] for line in spoken]
        assert positions == sorted(positions), [line["id"] for line in spoken]
    assert "end" in order and "end-roles" in order
    assert any(i.endswith("-eliminated") for i in order)


def seats(*alive: bool, alpha: int | None = None) -> list[dict]:
    return [
        {"seat": i, "name": NAMES[i - 1], "alive": a, "alpha": i == alpha}
        for i, a in enumerate(alive, start=1)
    ]


def dining(round_: int, **values) -> dict:
    base = {
        "round": round_,
        "tokens": [],
        "unplaced": [],
        "intervention": [],
        "protected": None,
        "investigated": None,
        "examined": None,
        "examiner": None,
        "eliminated": None,
        "alpha_elected": None,
        "ties": [],
        "complete": False,
    }
    return {**base, **values}


def running(round_: int, phase: str, table: list[dict], **extra) -> dict:
    return {
        "status": "running",
        "round": round_,
        "phase": phase,
        "deadline": None,
        "seats": table,
        "tie": None,
        "last_dining": None,
        **extra,
    }


def texts(v: dict) -> list[str]:
    return [line["text"] for line in narration.lines(v)]


def test_a_dining_says_protected_eliminated_and_last_will_in_order():
    will = {
        "round": 3,
        "seat": 2,
        "card": {"id": "dying_accusation", "name": "Dying Accusation", "text": "A living..."},
        "targets": [4],
        "resolved": True,
        "result": "Seat 4 gets 1 automatic Stake vote next round.",
    }
    said = [
        {"template": "{target:Seat} gets 1 automatic Stake vote next round.", "data": {"target": 4}}
    ]
    d = dining(
        3,
        intervention=[{"voter": 6, "target": 1}],
        protected=1,
        investigated=3,
        eliminated=2,
        alpha_elected=4,
        complete=True,
    )
    v = running(
        4,
        "mingling",
        seats(True, False, True, True, True, False),
        last_dining=d,
        last_wills=[will],
        last_will_lines=[{"round": 3, "seat": 2, "lines": said}],
    )
    assert texts(v) == [
        "Dining, round 3: the tokens are revealed.",
        "The Ghosts protect Ana.",
        "The Alpha Hunter investigates Cleo.",
        "Ben has the most Stakes and is eliminated.",
        "Ben draws a Last Will: Dying Accusation. “A living...”",
        "Dev gets 1 automatic Stake vote next round.",
        "Dev is elected Alpha Hunter for the next round.",
        "Round 4: Mingling. Place your tokens. Ghosts, vote to protect a living player.",
    ]


def test_an_open_tie_is_the_last_line_until_it_is_settled():
    table = seats(True, True, True, False, True, True)
    tie = {"kind": "elimination", "candidates": [1, 2], "voters": [4], "voted": [], "decider": None}
    d = dining(2, investigated=3)
    v = running(2, "tiebreak", table, last_dining=d, tie=tie)
    assert texts(v)[-1] == "Ana and Ben are tied for the most Stakes. The Ghosts vote."

    settled = {"kind": "elimination", "candidates": [1, 2], "votes": [], "result": 2}
    d = dining(2, investigated=3, eliminated=2, ties=[{**settled, "decided_by": "vote"}])
    after = narration.lines(running(2, "last_will", table, last_dining=d))
    assert [line["id"] for line in after][-3:] == [
        "r2-tie-elimination",
        "r2-tie-elimination-result",
        "r2-eliminated",
    ]
    assert [line["text"] for line in after][-2:] == ["The vote goes to Ben.", "Ben is eliminated."]


@pytest.mark.parametrize(
    ("decider", "alive", "expected"),
    [
        (None, [True] * 6, "Everyone votes."),
        (None, [True, True, True, True, False, False], "The Ghosts vote."),
        (3, [True] * 6, "Cleo decides."),
    ],
    ids=["no-ghosts", "ghosts", "one-decider"],
)
def test_an_open_tie_says_who_votes(decider, alive, expected):
    voters = [5, 6] if not all(alive) else [1, 2, 3, 4, 5, 6]
    tie = {"kind": "election", "candidates": [1, 2], "voters": voters, "decider": decider}
    d = dining(3, eliminated=4)
    v = running(3, "tiebreak", seats(*alive), last_dining=d, tie=tie)
    assert texts(v)[-1] == f"Ana and Ben are tied for the most Feasts. {expected}"


@pytest.mark.parametrize(
    ("how", "result", "expected"),
    [
        ("latest_ghost", 2, "The most recent Ghost decides: Ben."),
        ("no_result", None, "Still tied: nothing happens."),
        ("scales_of_justice", 1, "The Scales of Justice decides: Ana."),
    ],
)
def test_a_settled_tie_says_how_it_was_settled(how, result, expected):
    tie = {"kind": "intervention", "candidates": [1, 2], "votes": [], "result": result}
    d = dining(3, ties=[{**tie, "decided_by": how}], protected=result, complete=True)
    lines = texts(running(4, "mingling", seats(*[True] * 6), last_dining=d))
    assert lines[1] == "Ana and Ben are tied for the Ghost vote."
    assert lines[2] == expected


def test_round_one_says_who_had_the_most_stakes_and_who_examines_never_the_role():
    d = dining(1, examined=3, examiner=5)
    lines = texts(running(1, "choose_examiner", seats(*[True] * 6), last_dining=d))
    assert lines[1:] == [
        "Cleo has the most Stakes and chooses who examines their role.",
        "Eli examines Cleo's role.",
    ]


def test_unplaced_tokens_count_against_their_owners():
    unplaced = [
        {"owner": 2, "token": "stake"},
        {"owner": 2, "token": "feast"},
        {"owner": 5, "token": "stake"},
    ]
    d = dining(2, unplaced=unplaced)
    assert texts(running(2, "dining", seats(*[True] * 6), last_dining=d))[1] == (
        "Ben left 2 tokens unplaced and Eli left 1 token unplaced: "
        "each counts as a Stake against its owner."
    )


def test_nobody_eliminated_is_said_once_the_dining_has_moved_past_it():
    v = running(2, "tiebreak", seats(*[True] * 6), last_dining=dining(2))
    assert "Nobody is eliminated." not in texts(v)
    tie = {"kind": "election", "candidates": [1, 2], "voters": [1, 2, 3], "decider": None}
    v = running(2, "tiebreak", seats(*[True] * 6), last_dining=dining(2), tie=tie)
    assert texts(v)[-2:] == [
        "Nobody is eliminated.",
        "Ana and Ben are tied for the most Feasts. Everyone votes.",
    ]


def test_three_living_players_and_the_alpha_are_announced_with_the_round():
    table = seats(True, False, True, False, True, False, alpha=3)
    assert texts(running(5, "mingling", table)) == [
        "Round 5: Mingling. Place your tokens. Three players are left: one Stake and one Feast "
        "each. Cleo is the Alpha Hunter."
    ]


def test_the_end_reveals_every_role_and_who_was_mesmerized():
    roles = [
        {"seat": 1, "role": "hunter", "mesmerized": True},
        {"seat": 2, "role": "vampire", "mesmerized": False},
        {"seat": 3, "role": "hunter", "mesmerized": False},
        {"seat": 4, "role": "vampire_lord", "mesmerized": False},
    ]
    v = {
        **running(4, "finished", seats(True, False, True, True)),
        "status": "finished",
        "winner": "vampires",
        "outcome": "At most one living player is a Hunter (R12.2).",
        "roles": roles,
    }
    assert texts(v) == [
        "Game over: the Vampires win. At most one living player is a Hunter.",
        "Dev was the Vampire Lord; Ben was a Vampire. Ana was Mesmerized. "
        "Everyone else was a Hunter.",
    ]


def test_the_lobby_and_a_stopped_game_have_a_line_each():
    assert texts({"status": "lobby", "seats": seats(True)}) == [
        "The table is open: join on your phones."
    ]
    stopped = {**running(2, "mingling", seats(*[True] * 6)), "status": "abandoned"}
    assert texts(stopped) == ["An organiser stopped this game."]


def test_a_relic_window_names_the_relic_and_when():
    relics = {"window": {"relic": "signet_ring", "stage": "pre", "deadline": None}}
    v = running(2, "relic_window", seats(*[True] * 6), relics=relics)
    assert texts(v) == ["The Signet Ring may be used before the tokens are placed."]


def test_the_time_cues_at_one_minute_and_ten_seconds_name_what_the_time_is_for():
    v = running(2, "tiebreak", seats(*[True] * 6), deadline="2026-11-29T12:00:00Z")
    assert narration.timer(v)["cues"] == [
        {"seconds": 60, "text": "One minute left to vote."},
        {"seconds": 10, "text": "Ten seconds left."},
    ]
    assert narration.timer(running(2, "mingling", seats(True))) is None  # no deadline
    assert narration.timer({"status": "lobby", "deadline": None}) is None


def test_log_lines_are_spoken_with_names_and_without_rule_ids():
    names = {1: "Ana", 2: "Ben", 5: "Eli"}
    assert narration.plain("Seat 5 looks at seat 1's Secret Role.", names) == (
        "Eli looks at Ana's Secret Role."
    )
    assert narration.plain("Seats 1, 2 and 5 are tied (R5.3).", names) == (
        "Ana, Ben and Eli are tied."
    )


def test_r13_a_last_wills_result_is_said_from_its_lines_not_from_its_words():
    will = {
        "round": 2,
        "seat": 2,
        "card": {"id": "kingmaker", "name": "Kingmaker", "text": "..."},
        "targets": [4],
        "resolved": True,
        "result": "Words no reader parses.",
    }
    said = {
        "template": "{seat:Seat} makes {target:seat} the next Alpha Hunter (R13).",
        "data": {"seat": 2, "target": 4},
    }
    d = dining(2, eliminated=2, complete=True)
    table = seats(True, False, True, True, True, False)
    v = running(3, "mingling", table, last_dining=d, last_wills=[will])
    assert "Words no reader parses." in texts(v)  # a card resolved before its lines: as written
    v["last_will_lines"] = [{"round": 2, "seat": 2, "lines": [said]}]
    assert "Ben makes Dev the next Alpha Hunter." in texts(v)
    assert not any("Words" in text for text in texts(v))
