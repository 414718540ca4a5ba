"""Six phones play a whole game through the pages alone, in a real browser (Chromium).

The deal is random, as at a real table: each phone reads its own role from its own card, and the
test plans the votes from what the phones know together. Round 1 is a planned double tie (Stakes
and Feasts), settled by everyone's dials; then the table stakes a Vampire each round, a Ghost
turns the Ghost dial, and the game runs to the end screen.

Every phone is checked at every phase (tests/browser/phone_checks.py): each Mingling as
it opens, round 1's Mingling again half placed, each tie vote, the examiner's choice and the end
screen; screenshots six-<phase>-<role>.png.
"""

from __future__ import annotations

import re

import pytest

from tests.browser.pages import Phone, seat_six
from tests.browser.phone_checks import check_every_phone

try:
    from playwright.sync_api import expect
except ImportError:  # conftest.py skips the browser tests (or fails them in CI) with the reason
    expect = None

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

ROUND_1_TIE = {  # Stakes: seats 3 and 4 tie on 4; Feasts: seats 5 and 6 tie on 2
    1: [("stake", 3), ("stake", 4), ("feast", 5)],
    2: [("stake", 3), ("stake", 4), ("feast", 5)],
    3: [("stake", 4), ("stake", 5), ("feast", 6)],
    4: [("stake", 3), ("stake", 5), ("feast", 6)],
    5: [("stake", 4), ("stake", 6), ("feast", 3)],
    6: [("stake", 3), ("stake", 5), ("feast", 4)],
}
STAKES_TIE_VOTES = [3, 3, 4, 3, 4, 3]  # seats 1-6 settle the Stakes tie: seat 3


@pytest.mark.long(71)
def test_six_phones_create_join_and_play_a_whole_game_to_the_end_screen(phones, artifacts):
    table = seat_six(phones(6), artifacts=artifacts)
    roles = {p.seat: p.my_role() for p in table}
    assert sorted(roles.values()).count("hunter") == 4
    assert sorted(roles.values()).count("vampire") == 1
    assert sorted(roles.values()).count("vampire_lord") == 1

    # The Secret Role card shows only while held.
    ana = table[0]
    ana.check_role_card_hold()

    code = ana.code
    check_every_phone(code, table, "six-1-mingling", artifacts, roles, {1, 2, 3, 4, 5, 6})

    # --- round 1: half the table places, then nobody may see anybody else's secrets ----------
    for phone in table[:3]:
        for token, target in ROUND_1_TIE[phone.seat]:
            phone.place(token, target)
    for phone in table:
        phone.wait_for_placements(3)
        phone.check_hidden_information(roles)
    check_every_phone(code, table, "six-1-mingling-waiting", artifacts, roles, {4, 5, 6})
    dev = table[3]
    dev.choose_token("stake")
    dev.choose_target(3)
    dev.check_fits_the_phone()
    dev.screenshot(artifacts / "mingling.png")
    dev.confirm()
    for token, target in ROUND_1_TIE[4][1:]:
        dev.place(token, target)
    for phone in table[4:]:
        for token, target in ROUND_1_TIE[phone.seat]:
            phone.place(token, target)

    # The Stakes tie (seats 3 and 4): with no Ghosts, every living player turns a dial (R5.3).
    # It reads as names and the count that tied them, never a number beside a name.
    expect(ana.page.locator("#game .tie-who")).to_have_text(
        "Cleo and Dev are tied with 4 Stakes each."
    )
    ana.check_words_for_people()
    ana.screenshot(artifacts / "tie-vote.png")
    everyone = {p.seat for p in table}
    check_every_phone(code, table, "six-1-stakes-tie", artifacts, roles, everyone)
    for phone, vote in zip(table, STAKES_TIE_VOTES, strict=True):
        phone.dial("tiebreak_vote", vote)
    cleo = table[2]
    check_every_phone(code, table, "six-1-choose-examiner", artifacts, roles, {3})
    cleo.dial("choose_examiner", 2)  # the most-staked player picks who examines them (R6.1)
    check_every_phone(code, table, "six-1-feasts-tie", artifacts, roles, everyone)
    for phone in table:  # then the Feasts tie (seats 5 and 6)
        phone.dial("tiebreak_vote", 6)
    for phone in table:
        phone.wait_for_round(2)
    ana.open_dining()  # the recap says it first; every step of the Dining is a tap away
    assert "is elected Alpha Hunter" in ana.text("#game .dining")
    assert table[5].is_alpha()

    # --- later rounds: stake a Vampire each round until the game ends -------------------------
    ghosts: list[int] = []
    protected_last: int | None = None
    round_no = 2
    while True:
        living = [p.seat for p in table if p.seat not in ghosts]
        alpha = next((p.seat for p in table if p.seat in living and p.is_alpha()), None)
        target, shield, favourite, dump = picks(roles, living, alpha, ghosts, protected_last)
        movers = set(living) | set(ghosts)
        check_every_phone(code, table, f"six-{round_no}-mingling", artifacts, roles, movers)
        for ghost in ghosts:  # each Ghost turns the Ghost dial (R7.2)
            table[ghost - 1].dial("intervention_vote", shield)
        for seat in living:
            for token, on in plan(seat, living, alpha, target, favourite, dump):
                table[seat - 1].place(token, on)
        if round_no == 2:
            ana.wait_for_dining(round_no)
            ana.wait_for_reveal()
            ana.check_fits_the_phone()
            ana.screenshot(artifacts / "dining.png", selector="#game .dining")
        ghosts.append(target)
        protected_last = shield
        if all([phone.round_over(round_no) for phone in table]):
            break
        round_no += 1
        assert round_no < 8, "the game should have ended by now"

    # --- the end screen: every role, who was Mesmerized, who won ------------------------------
    check_every_phone(code, table, "six-end", artifacts, roles)
    for phone in table:
        phone.open_section("log")  # the log is a tap away at the end too
        phone.check_words_for_people()  # the opened log included
        end = phone.text("#game .end")
        assert "The Hunters win!" in end
        for seat, role in roles.items():
            label = {"hunter": "Hunter", "vampire": "Vampire", "vampire_lord": "Vampire Lord"}
            assert re.search(rf"{table[seat - 1].name}\s+{label[role]}", end), (seat, end)
    assert "You won." in ana.text("#game .end") or "You lost" in ana.text("#game .end")
    ana.open_dining()  # who won is said first; the last Dining's every step is a tap away
    ana.wait_for_reveal()
    ana.check_fits_the_phone()
    ana.screenshot(artifacts / "end.png", full_page=True)


def picks(roles: dict[int, str], living: list[int], alpha, ghosts: list[int], protected_last):
    """This round's (target, shield, favourite, dump): stake a Vampire (the Lord last), the
    Ghosts protect a Hunter (not the same one twice), the table feasts another Hunter."""
    vampires = [s for s in living if roles[s] == "vampire"]
    target = vampires[0] if vampires else next(s for s in living if roles[s] == "vampire_lord")
    hunters = [s for s in living if roles[s] == "hunter" and s != alpha]
    shield = next((s for s in hunters[1:] if s != protected_last), None) if ghosts else None
    favourite = next(s for s in hunters if s != shield)
    dump = shield or next(s for s in living if s not in (target, favourite))
    return target, shield, favourite, dump


def plan(seat: int, living: list[int], alpha, target: int, favourite: int, dump: int):
    """Everyone stakes `target` and feasts `favourite`; second Stakes go to `dump` (the
    Protected player when there is one), so that nobody else comes close: no tie to settle.
    An Alpha who is the target (the deal made the round-2 Alpha the Vampire) puts its
    Double-Stake on neither `dump` nor `favourite`: on `dump` it would outvote the target."""
    others = [s for s in living if s != seat]

    def pick(*avoid):
        return next(s for s in others if s not in avoid)

    if seat == alpha:
        stake_on = target if seat != target else pick(dump, favourite)
        return [
            ("double_stake", stake_on),
            ("feast", favourite),
            ("investigation", pick(stake_on, favourite)),
        ]
    if seat == target:
        return [("stake", dump), ("stake", pick(dump, favourite)), ("feast", favourite)]
    feast_on = favourite if seat != favourite else pick(target, dump)
    second = dump if seat != dump else pick(target, feast_on)
    if second == feast_on:
        second = pick(target, feast_on)
    return [("stake", target), ("stake", second), ("feast", feast_on)]


def test_an_unchanged_poll_swaps_nothing_and_htmx_comes_from_our_static_files(phones):
    (ana,) = [Phone(p, "Ana") for p in phones(1)]
    ana.open_table()
    assert ana.page.evaluate("htmx.version").startswith("2.")
    polls = []
    ana.page.on("response", lambda r: polls.append(r.status) if "/changed?v=" in r.url else None)
    ana.page.evaluate("window.__game = document.getElementById('game')")
    ana.page.wait_for_timeout(4500)
    assert polls and set(polls) == {204}, polls
    assert ana.page.evaluate("window.__game === document.getElementById('game')")


@pytest.mark.long(24)
def test_an_illegal_tap_shows_the_rule_and_changes_nothing(phones, artifacts):
    table = seat_six(phones(6))
    ben = table[1]
    stale = ben.page.context.new_page()  # the same phone, a second tab that stopped polling
    stale.route("**/changed?v=*", lambda route: route.abort())
    stale.goto(ben.page.url)
    ben.place("stake", 4)
    tab = Phone(stale, "Ben")
    tab.seat = ben.seat
    before = tab.version()
    tab.choose_token("feast")
    tab.choose_target(4)
    tab.confirm(expect=400)
    alert = stale.locator("#game [role=alert]").inner_text()
    assert "You may not place two of your tokens on the same player." in alert
    tab.check_words_for_people()
    # Nothing changed: the Feast is still in hand, and the answer shows the game as it is.
    assert tab.version() == before + 1  # Ben's Stake, which the stale tab had not seen
    assert "Feast" in stale.locator("#me-things .hand").first.text_content()  # in the pill
