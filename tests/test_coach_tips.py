"""The coach's strategy notes (games/presenters/coach_tips.py): each one only in its situation
(games/bots/situations.py, read from the learner's own view), with the simulator's figure,
behind the tap; and the role tip changes from round to round.

Views are made by hand (the helpers of tests/test_coach.py) where a situation is rare in bot
games; whole bot games at the practice table check the tips come up in real play too.
"""

from __future__ import annotations

import pytest

import relics.rules
from games.bots import situations
from games.presenters import coach, coach_tips
from tests.test_coach import me, played, running, seat_view, table

PLACE = "place_token"


def tips(v: dict) -> dict[str, dict]:
    """The strategy notes in `v`, by situation."""
    return {n["id"].split("-tip-")[1]: n for n in coach.notes(v) if "-tip-" in n["id"]}


def figure_words(situation: str, table_name: str, team: str) -> list[str]:
    """What the note must quote from the stored figures."""
    f = coach_tips.figures()["by_key"][(situation, table_name, team)]
    return [
        f"won {round(f['with']['rate'] * 100)}\u00a0% of such games",
        f"against {round(f['without']['rate'] * 100)}\u00a0%",
        f"({f['games']:,} simulated games each way)",
    ]


def place(tokens: list[str], targets: list[int]) -> list[dict]:
    by_token = {t: list(targets) for t in tokens}
    return [
        {
            "action": PLACE,
            "options": {"tokens": tokens, "targets": targets, "targets_by_token": by_token},
        }
    ]


def found(seat: int, role: str = "vampire", source: str = "investigation") -> dict:
    return {"seat": seat, "source": source, "round": 2, "role": role}


BEN_A_VAMPIRE = (found(2),)


def hunter_mingling(tokens=("stake", "stake", "feast"), knowledge=BEN_A_VAMPIRE, **mine) -> dict:
    alive = mine.pop("alive_seats", (True,) * 6)
    targets = [s for s, a in enumerate(alive, start=1) if a and s != 1]
    return running(
        3,
        "mingling",
        table(*alive),
        me(1, tokens=list(tokens), knowledge=list(knowledge), **mine),
        pending=place(list(tokens), targets) if tokens else [],
    )


def test_r4_2_coach_suggests_staking_the_vampire_your_investigation_found_only_with_a_stake():
    """R4.2: the Investigation shows the Alpha a role; the tip names that Vampire to the Hunter
    who found them, with the measured figure, behind the tap."""
    note = tips(hunter_mingling())[situations.STAKE_FOUND_VAMPIRE]
    assert note["private"]
    assert note["text"].startswith("You found that Ben is a Vampire, and you hold a Stake.")
    for words in figure_words(situations.STAKE_FOUND_VAMPIRE, "standard", "hunters"):
        assert words in note["text"]
    double = hunter_mingling(tokens=("double_stake", "feast"))
    assert "you hold a Double-Stake." in tips(double)[situations.STAKE_FOUND_VAMPIRE]["text"]
    # Not when no Stake is in hand, once one is on them, or when the round-1 look found them.
    assert situations.STAKE_FOUND_VAMPIRE not in tips(hunter_mingling(tokens=("feast",)))
    staked = hunter_mingling(tokens=("stake", "feast"), placed=[{"target": 2, "token": "stake"}])
    assert situations.STAKE_FOUND_VAMPIRE not in tips(staked)
    looked = hunter_mingling(knowledge=(found(2, source="examination"),))
    assert situations.STAKE_FOUND_VAMPIRE in tips(looked)


@pytest.mark.parametrize(
    "change",
    [
        {"knowledge": (found(2, role="hunter"),)},  # they found a Hunter
        {"knowledge": ()},  # they found nobody
        {"mesmerized": True},  # R8.3: a Mesmerized Hunter plays for the Vampires
        {"alive_seats": (True, False, True, True, True, True)},  # that Vampire is dead
    ],
    ids=["found-a-hunter", "found-nobody", "mesmerized", "vampire-dead"],
)
def test_the_staking_tip_is_not_said_outside_its_situation(change):
    assert situations.STAKE_FOUND_VAMPIRE not in tips(hunter_mingling(**change))


def test_the_staking_tip_waits_for_mingling():
    v = hunter_mingling()
    v["phase"], v["pending"] = (
        "tiebreak",
        [{"action": "tiebreak_vote", "options": {"targets": [2, 3]}}],
    )
    assert situations.STAKE_FOUND_VAMPIRE not in tips(v)


def vampire_mingling(
    role="vampire_lord", tokens=("stake", "stake", "feast"), knowledge=(), **extra
):
    targets = [2, 3, 4, 5, 6]
    return running(
        3,
        "mingling",
        table(*[True] * 6),
        me(1, role=role, tokens=list(tokens), knowledge=list(knowledge)),
        pending=place(list(tokens), targets) if tokens else [],
        **extra,
    )


MESMERIZED_DEV = {"seat": 4, "source": "mesmerism", "round": 2, "mesmerized": True}


def test_r8_2_coach_weighs_feasting_the_hunter_the_lord_mesmerized_only_with_the_feast_in_hand():
    """R8.1/R8.2: the Lord (and the Vampires) are told who is Mesmerized; a Feast makes the
    Alpha Hunter (R4.4)."""
    note = tips(vampire_mingling(knowledge=[MESMERIZED_DEV]))[situations.FEAST_MESMERIZED]
    assert note["private"] and note["text"].startswith("Dev is Mesmerized: they play for your side")
    for words in figure_words(situations.FEAST_MESMERIZED, "standard", "vampires"):
        assert words in note["text"]
    no_feast = vampire_mingling(tokens=("stake",), knowledge=[MESMERIZED_DEV])
    assert situations.FEAST_MESMERIZED not in tips(no_feast)
    assert situations.FEAST_MESMERIZED not in tips(vampire_mingling())  # nobody Mesmerized
    hunter = vampire_mingling(role="hunter", knowledge=[MESMERIZED_DEV])  # the victim's own view
    assert situations.FEAST_MESMERIZED not in tips(hunter)


def investigated_by(owner: int, target: int = 1) -> dict:
    return {
        "round": 2,
        "tokens": [{"owner": owner, "target": target, "token": "investigation"}],
        "investigated": target,
        "examined": None,
        "examiner": None,
    }


def test_r4_2_coach_weighs_a_stake_on_who_saw_the_vampires_role_only_after_that_dining():
    """R4.2: the log says who investigated whom, so the Vampire knows who saw its role."""
    v = vampire_mingling(role="vampire", last_dining=investigated_by(5))
    note = tips(v)[situations.STAKE_EXAMINER]
    assert note["private"]
    assert note["text"].startswith(
        "Eli saw your role at the last Dining, so they know what you are."
    )
    for words in figure_words(situations.STAKE_EXAMINER, "standard", "vampires"):
        assert words in note["text"]
    # Not when another was investigated, for the Lord (its examiner is Mesmerized), when the
    # looker is a known ally, or without a Stake in hand.
    assert situations.STAKE_EXAMINER not in tips(
        vampire_mingling(role="vampire", last_dining=investigated_by(5, target=3))
    )
    assert situations.STAKE_EXAMINER not in tips(vampire_mingling(last_dining=investigated_by(5)))
    ally = [{"seat": 5, "source": "night", "round": 1, "role": "vampire_lord"}]
    assert situations.STAKE_EXAMINER not in tips(
        vampire_mingling(role="vampire", knowledge=ally, last_dining=investigated_by(5))
    )
    assert situations.STAKE_EXAMINER not in tips(
        vampire_mingling(role="vampire", tokens=("feast",), last_dining=investigated_by(5))
    )


def ghost_voting(role: str, knowledge=(), alpha=None, vote=True, **extra) -> dict:
    pending = [{"action": "intervention_vote", "options": {"targets": [1, 2, 3, 4]}}]
    return running(
        3,
        "mingling",
        table(True, True, True, True, False, False, alpha=alpha),
        me(5, role=role, alive=False, knowledge=list(knowledge)),
        pending=pending if vote else [],
        **extra,
    )


LORD_AT_2 = [{"seat": 2, "source": "night", "round": 1, "role": "vampire_lord"}]


def test_r7_2_coach_tells_a_vampire_ghost_about_protecting_an_ally_only_while_it_votes():
    """R7.2: a Ghost's vote protects a living player; the Vampire knows its Lord (R1.3)."""
    note = tips(ghost_voting("vampire", LORD_AT_2))[situations.GHOST_PROTECTS_ALLY]
    assert note["private"] and note["text"].startswith("Your ally Ben is alive")
    for words in figure_words(situations.GHOST_PROTECTS_ALLY, "standard", "vampires"):
        assert words in note["text"]
    assert situations.GHOST_PROTECTS_ALLY not in tips(
        ghost_voting("vampire", LORD_AT_2, vote=False)
    )
    assert situations.GHOST_PROTECTS_ALLY not in tips(ghost_voting("hunter", [found(2)]))


def test_r7_2_coach_tells_a_hunters_ghost_about_protecting_the_alpha_only_when_it_may():
    """R7.2 and R3.5: the Alpha Hunter holds the Investigation; a Ghost may protect them."""
    note = tips(ghost_voting("hunter", alpha=3))[situations.GHOST_PROTECTS_ALPHA]
    assert note["private"]
    assert note["text"].startswith(
        "Cleo is the Alpha Hunter this round and holds the Investigation."
    )
    for words in figure_words(situations.GHOST_PROTECTS_ALPHA, "standard", "hunters"):
        assert words in note["text"]
    assert situations.GHOST_PROTECTS_ALPHA not in tips(ghost_voting("hunter"))  # no Alpha
    assert situations.GHOST_PROTECTS_ALPHA not in tips(ghost_voting("hunter", alpha=3, vote=False))
    known = ghost_voting("hunter", [found(3)], alpha=3)  # a Vampire Alpha they found
    assert situations.GHOST_PROTECTS_ALPHA not in tips(known)
    assert situations.GHOST_PROTECTS_ALPHA not in tips(ghost_voting("vampire", alpha=3))


def relic_card(relic: str, **state) -> dict:
    card = relics.rules.BY_ID[relic]
    base = {"id": relic, "name": card.name, "text": card.text, "negated": False}
    return {**base, "discarded": False, "acting_as": None, **state}


def with_relics(v: dict, window=None, choice=None) -> dict:
    """`v` at the relic table: the Sacred Relics' and the Last Wills' parts of the view."""
    v["relics"] = {"holdings": [], "window": window, "choice": choice}
    v["last_wills"] = []
    return v


def dagger_view(placed, tokens=("stake", "feast"), relic_state=None) -> dict:
    v = hunter_mingling(tokens=tokens, knowledge=(), placed=placed)
    v["me"]["relics"] = [relic_card("ceremonial_dagger", **(relic_state or {}))]
    v["pending"] = place(list(tokens), [2, 3, 4, 5, 6])  # R11: the Dagger's Stake may stack
    return with_relics(v)


def test_r11_coach_weighs_the_dagger_stack_only_for_its_holder_with_a_second_stake_in_hand():
    """R11: with the Ceremonial Dagger, both Stakes may go on one player."""
    on_ben = [{"target": 2, "token": "stake"}]
    note = tips(dagger_view(on_ben))[situations.DAGGER_STACK]
    assert note["private"] and "second Stake join the first, on Ben" in note["text"]
    for words in figure_words(situations.DAGGER_STACK, "relics", "hunters"):
        assert words in note["text"]
    assert situations.DAGGER_STACK not in tips(dagger_view([]))  # no Stake placed yet
    assert situations.DAGGER_STACK not in tips(dagger_view(on_ben, tokens=("feast",)))
    assert situations.DAGGER_STACK not in tips(dagger_view(on_ben, relic_state={"negated": True}))
    v = dagger_view(on_ben)
    v["me"]["relics"] = [relic_card("crown_of_solomon")]
    assert situations.DAGGER_STACK not in tips(v)


def relic_turn_view(relic: str, seat: int = 1, use: bool = True) -> dict:
    """Seat 1's view while `relic`'s turn is open for `seat`."""
    v = running(2, "relic_window", table(*[True] * 6), me(1), pending=[])
    if relic == "van_helsings_journal":
        v["phase"] = "relic_choice"
        with_relics(v, choice={"relic": relic, "seat": seat})
        options = {"targets": [4], "min": 1, "max": 1, "choice": relic}
        offer = {"action": "resolve_choice", "options": options}
    else:
        with_relics(v, window={"relic": relic, "seat": seat, "stage": "pre"})
        options = {"relic": relic, "targets": [2, 3], "min": 1, "max": 1}
        if relic == "ritual_bell":
            options["cards_by_seat"] = {"2": ["seers_orb"], "3": ["crown_of_solomon"]}
        if relic == "key_of_quick_passage":  # it names nobody
            options.update(targets=[], min=0, max=0)
        offer = {"action": "use_relic", "options": options}
    if seat == 1:
        v["pending"] = ([offer] if use else []) + [{"action": "pass", "options": {"targets": []}}]
    return v


TURN_RELICS = [
    r
    for r in situations.TURN_RELICS
    if r not in ("whisper_wick_candle", "bangle_of_oaths")  # their uses are listed as moves
]


@pytest.mark.parametrize("relic", TURN_RELICS)
def test_r10_3_coach_weighs_using_a_relic_only_in_its_holders_own_turn_with_a_use(relic):
    """R10.3: each holder's window (or the Journal's choice, R11) offers its use, or a pass."""
    note = tips(relic_turn_view(relic))[situations.relic_use(relic)]
    assert note["private"]
    assert note["text"].startswith(f"Your {relics.rules.BY_ID[relic].name} may act now.")
    for words in figure_words(situations.relic_use(relic), "relics", "hunters"):
        assert words in note["text"]
    assert tips(relic_turn_view(relic, seat=3)) == {}  # another holder's turn
    assert tips(relic_turn_view(relic, use=False)) == {}  # only a pass is offered


def test_r11_a_relic_the_looking_glass_copies_is_named_as_the_copy():
    """R11: the Hindsight Looking Glass acts as a Ghost's relic this round."""
    v = relic_turn_view("ritual_bell")
    v["me"]["relics"] = [relic_card("hindsight_looking_glass", acting_as="ritual_bell")]
    text = tips(v)[situations.relic_use("ritual_bell")]["text"]
    assert text.startswith(
        "Your Hindsight Looking Glass acts as the Ritual Bell this round: it may act now."
    )


def test_the_candle_and_the_bangle_tips_need_a_legal_move():
    for relic in ("whisper_wick_candle", "bangle_of_oaths"):
        v = relic_turn_view(relic)
        v["pending"][0]["options"] = {"relic": relic, "targets": [], "moves": []}
        assert tips(v) == {}
        v["pending"][0]["options"]["moves"] = [{"targets": [2, 3], "owners": [4, 5]}]
        assert situations.relic_use(relic) in tips(v)


def test_no_tip_at_a_table_the_figures_were_not_measured_for():
    """The figures are for the practice table (six seats): none at eight seats, and none
    with only one of the two modules."""
    v = hunter_mingling()
    v["seats"] += table(*[True] * 8)[6:]
    assert tips(v) == {}
    v = hunter_mingling()
    v["relics"] = {"holdings": [], "window": None, "choice": None}
    assert tips(v) == {}


@pytest.mark.parametrize("role", ["hunter", "vampire", "vampire_lord"])
def test_the_role_tip_changes_from_round_to_round(role):
    def role_note(round_: int) -> dict:
        v = running(round_, "mingling", table(*[True] * 6), me(1, role=role))
        return next(n for n in coach.notes(v) if n["id"].startswith("role"))

    first, second, third, fourth = (role_note(r) for r in (1, 2, 3, 4))
    assert len({first["text"], second["text"], third["text"]}) == 3
    assert len({first["id"], second["id"], third["id"]}) == 3
    assert fourth == first
    assert all(n["private"] for n in (first, second, third))


def test_the_tips_come_up_in_whole_bot_games_at_the_practice_table():
    """The engine's own views meet the situations: a learner sees these tips in real play (the
    bots' first game of each table happens to meet every situation without relics)."""
    met = {False: set(), True: set()}
    for relic_game in met:
        for state in played(0, 6, relic_game):
            for seat in range(1, 7):
                met[relic_game] |= set(tips(seat_view(state, seat)))
    assert met[False] == {
        situations.STAKE_FOUND_VAMPIRE,
        situations.FEAST_MESMERIZED,
        situations.STAKE_EXAMINER,
        situations.GHOST_PROTECTS_ALLY,
        situations.GHOST_PROTECTS_ALPHA,
    }
    assert any(s.startswith("use_") for s in met[True])
