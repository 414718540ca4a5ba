"""Eight phones play a whole game with Sacred Relics and Last Wills through the pages alone, in a
real browser (Chromium, 390x844, touch), and every phone is checked at every phase.

A staff member deals the roles, fixes the relic draw and the seed (games/domain/options.py `roles`,
`relic_deck`, `seed`: the Last Will draws follow from it) and leaves; the phones sit down by the
invite link and Ana starts. From there on every move is a tap on a page, as people play it:

- round 1: Cleo (the Vampire Lord) has the most Stakes and has Dev examine her card: Dev is
  Mesmerized (the news takes over Dev's phone). Eli and Gus tie for the Feasts; all eight vote,
  Eli is elected. The relics go round the table from Eli (R10.2), one give at a time.
- round 2: Ana rings the Ritual Bell on Ben's Key of Quick Passage; Alpha Eli investigates Ben;
  Fay (a Vampire) is Staked and her Last Will, a Grudge, gives Ana 2 automatic Stakes; Gus, whose
  Stakes were not on Fay, reads Van Helsing's Journal on her.
- round 3: Ana passes on the Bell; Fay, a Ghost, casts her Ghost vote for Cleo; Ben uses the Key;
  Hana (the other Vampire) is Staked and her Last Will, a Sealed Reliquary, silences Ana's Bell.
- round 4: no relic window (the Bell is negated, the Key spent); both Ghosts vote for Dev; Cleo
  is Staked, her Last Will is a Toast to Dev; Ben and Gus tie for the Feasts and the three
  Ghosts settle it (R5.2); no Vampire is left: the Hunters win.

test_whole_game_eight_plan.py plays the same plan on the engine alone (fast), so this test
cannot wait for a move the game does not offer.

At every phase (each step of PLAN below, and the end screen; round 1's and round 3's Mingling
again once all but one seat has placed: the waiting reasons, without and with Ghosts) every
seat goes through tests/browser/phone_checks.py's `check_seat`: control or waiting reason and
news on the first screen, no horizontal overflow, no rule ID, tap targets of 44x44 px.
axe-core (about half a second a page here) runs at every phase on one phone per kind of screen
(its control, Ghost or not, with news or not): `check_every_phone`.
Screenshots: one per phase per role (<round>-<phase>-<role>.png in tests/artifacts/).
"""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model

from games import services
from games.models import Game
from tests.browser.pages import NAMES, Phone, start_round_one
from tests.browser.phone_checks import check_every_phone

try:
    from playwright.sync_api import expect
except ImportError:  # conftest.py skips the browser tests (or fails them in CI) with the reason
    expect = None

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

EIGHT = [*NAMES, "Gus", "Hana"]
ROLES = "HHLHHVHV"  # Cleo (3) is the Lord, Fay (6) and Hana (8) the Vampires
LETTERS = {"H": "hunter", "V": "vampire", "L": "vampire_lord"}
ROLE_OF = {seat: LETTERS[r] for seat, r in enumerate(ROLES, start=1)}
SEED = 1  # with this plan: Fay draws a Grudge, Hana a Sealed Reliquary, Cleo a Toast
GIVERS = [5, 6, 7, 8, 1, 2, 3, 4]  # R10.2: from the new Alpha (Eli), clockwise
RELICS = {
    1: "ritual_bell",  # pre-Mingling window
    2: "key_of_quick_passage",  # post-Mingling window
    3: "cross_of_saint_john",
    4: "crown_of_solomon",
    5: "seers_orb",
    6: "ceremonial_dagger",
    7: "van_helsings_journal",  # a choice after an elimination (relic_choice)
    8: "effigy_of_innocence",
}
SPARE = "scales_of_justice"  # the last giver's second card: back to the box
OPTIONS = {
    "roles": {str(seat): role for seat, role in ROLE_OF.items()},
    "relics": True,
    # Giver GIVERS[i] draws the card of GIVERS[i+1]; the last giver draws Eli's and the spare.
    "relic_deck": [RELICS[s] for s in GIVERS[1:]] + [RELICS[GIVERS[0]], SPARE],
    "last_wills": True,
    # With the role reveal a table opened on the page has (games.domain.options.REVEAL), long enough
    # for every phone to be checked during it.
    "timers": {"mingling": 1800, "relic": 1800, "tiebreak": 1800, "choice": 1800, "reveal": 1800},
}
TOKENS = {"S": "stake", "F": "feast", "D": "double_stake", "I": "investigation"}


def tokens(plans: dict[int, str]) -> list[tuple[int, str, dict]]:
    return [
        (seat, "place_token", {"token": TOKENS[w[0]], "target": int(w[1:])})
        for seat, plan in plans.items()
        for w in plan.split()
    ]


def gives() -> list[tuple[str, str, list]]:
    steps = []
    for i, giver in enumerate(GIVERS):
        args = {"target": GIVERS[(i + 1) % len(GIVERS)]}
        if i == len(GIVERS) - 1:  # the last giver drew two: Eli's relic and the spare
            args["card"] = RELICS[GIVERS[0]]
        steps.append(("give_relic", f"1-give-relic-{i + 1}", [(giver, "give_relic", args)]))
    return steps


# (phase, name, moves): at the start of each step the game waits on exactly the seats that move.
PLAN = [
    (  # Stakes: Cleo 6; Feasts: Eli and Gus 4 each
        "mingling",
        "1-mingling",
        tokens(
            {
                1: "S3 S4 F5",
                2: "S3 S6 F7",
                3: "S1 S2 F5",
                4: "S3 S8 F7",
                5: "S3 S2 F7",
                6: "S3 S4 F5",
                7: "S1 S3 F5",
                8: "S3 S5 F7",
            }
        ),
    ),
    ("choose_examiner", "1-choose-examiner", [(3, "choose_examiner", {"target": 4})]),
    (
        "tiebreak",
        "1-tie",
        [(s, "tiebreak_vote", {"target": v}) for s, v in enumerate([5, 7, 5, 5, 5, 5, 7, 7], 1)],
    ),
    *gives(),
    (
        "relic_window",
        "2-ritual-bell",
        [(1, "use_relic", {"relic": "ritual_bell", "targets": [2], "card": RELICS[2]})],
    ),
    (  # Alpha Eli: Double-Stake, Feast, Investigation. Fay is Staked, Gus elected
        "mingling",
        "2-mingling",
        tokens(
            {
                1: "S6 S8 F2",
                2: "S6 S3 F7",
                3: "S1 S2 F4",
                4: "S2 S8 F7",
                5: "D6 F7 I2",
                6: "S1 S2 F8",
                7: "S3 S8 F2",
                8: "S1 S5 F6",
            }
        ),
    ),
    ("last_will", "2-last-will", [(6, "resolve_choice", {"targets": [1]})]),  # Grudge: Ana
    ("relic_choice", "2-van-helsing", [(7, "resolve_choice", {"targets": [6]})]),
    ("relic_window", "3-ritual-bell", [(1, "pass", {})]),
    (  # Alpha Gus; Fay protects Cleo; Ana has the Grudge's 2 Stakes; Hana is Staked
        "mingling",
        "3-mingling",
        [(6, "intervention_vote", {"target": 3})]
        + tokens(
            {
                1: "S8 S3 F5",
                2: "S8 S4 F5",
                3: "S2 S5 F4",
                4: "S2 S5 F3",
                5: "S8 S4 F2",
                7: "D8 F5 I1",
                8: "S2 S5 F3",
            }
        ),
    ),
    ("relic_window", "3-key", [(2, "use_relic", {"relic": "key_of_quick_passage"})]),
    ("last_will", "3-last-will", [(8, "resolve_choice", {"targets": [1]})]),  # Reliquary: Ana
    (  # Alpha Eli; the Ghosts protect Dev; Cleo is Staked
        "mingling",
        "4-mingling",
        [(6, "intervention_vote", {"target": 4}), (8, "intervention_vote", {"target": 4})]
        + tokens(
            {
                1: "S3 S4 F2",
                2: "S3 S4 F7",
                3: "S1 S2 F4",
                4: "S1 S2 F3",
                5: "D3 F7 I2",
                7: "S3 S1 F2",
            }
        ),
    ),
    ("last_will", "4-last-will", [(3, "resolve_choice", {"targets": [4]})]),  # Toast: Dev
    (  # Ben and Gus tie for the Feasts: the three Ghosts vote (R5.2), Gus is elected
        "tiebreak",
        "4-tie",
        [(3, "tiebreak_vote", {"target": 7}), (6, "tiebreak_vote", {"target": 7})]
        + [(8, "tiebreak_vote", {"target": 2})],
    ),
]
WINNER = "hunters"
HALF_PLACED = ("1-mingling", "3-mingling")  # checked again: the waiting reasons, no Ghost / Ghosts
SEEN = {  # what one phone shows as a step opens (the plan's story, read on the page)
    "1-tie": (4, "#game .news-takeover", "You are Mesmerized"),  # Dev examined Cleo's card
    "2-mingling": (2, '[data-my-relic="key_of_quick_passage"]', "negated this round"),
    "2-last-will": (6, 'form[data-action="resolve_choice"]', "Your Last Will: Grudge"),
    "2-van-helsing": (7, 'form[data-action="resolve_choice"]', "Van Helsing's Journal"),
    "3-mingling": (6, 'form[data-action="intervention_vote"]', "Your Ghost vote"),
    "3-last-will": (8, 'form[data-action="resolve_choice"]', "Your Last Will: Sealed Reliquary"),
    "4-last-will": (3, 'form[data-action="resolve_choice"]', "Your Last Will: Toast to a Friend"),
    "4-tie": (8, "#game .tie-who", "Ben and Gus are tied"),
}


# --- the table ----------------------------------------------------------------------------------


def seat_eight(pages) -> tuple[str, list[Phone]]:
    """A staff member deals and leaves; the eight phones sit down by the invite link."""
    staff = get_user_model().objects.create_user("staffer", password="pw-staffer-1", is_staff=True)
    game = services.game_create(host=staff, options={**OPTIONS, "seed": SEED}, name="Staff")
    table = [Phone(page, name) for page, name in zip(pages, EIGHT, strict=True)]
    for seat, phone in enumerate(table, start=1):
        phone.join_by_link(f"/g/{game.code}/")
        phone.seat = seat
    services.game_leave(code=game.code, user=staff)
    return game.code, table


def start(code: str, table: list[Phone], artifacts) -> None:
    """Ana taps Start; every phone shows its role reveal (checked like every other phase), each
    taps Ready, and the last Ready opens round 1's Mingling on every phone."""
    ana = table[0]
    ana.page.reload()
    ana.page.get_by_role("button", name="Start the game").click()
    for phone in table:
        phone.page.wait_for_selector('form[data-action="ready"]')
    everyone = {p.seat for p in table}
    check_every_phone(code, table, "1-role_reveal", artifacts, ROLE_OF, everyone)
    start_round_one(table)


# --- moves, as taps ---------------------------------------------------------------------------


def place(phone: Phone, form, token: str, target: int) -> None:
    """Phone.place, but a token or player tapped just as a live refresh replaced the form (the
    new form came without it: eight phones refresh on every move) is tapped again, as a person
    who sees the choice gone does, before Confirm: else the form cannot be sent."""
    chosen = (
        f'input[name="token"][value="{token}"]:checked',
        f'input[name="target"][value="{target}"]:checked',
    )
    for _ in range(3):
        if form.locator(chosen[0]).count() == 0:
            phone.choose_token(token)
        if form.locator(chosen[1]).count() == 0:
            phone.choose_target(target)
        if all(form.locator(c).count() == 1 for c in chosen):
            break
    phone.confirm()


def tap(phone: Phone, action: str, args: dict) -> None:
    page = phone.page
    page.wait_for_selector(f'form[data-action="{action}"]')
    phone.read_takeover_news()
    form = page.locator(f'form[data-action="{action}"]')
    if action == "place_token":
        place(phone, form, args["token"], args["target"])
        return
    if action in ("tiebreak_vote", "choose_examiner", "intervention_vote"):
        phone.dial(action, args["target"])
        return
    if action == "give_relic":
        if "card" in args:
            form.locator(f'label:has(input[name="card"][value="{args["card"]}"])').click()
        phone.choose_target(args["target"], action)
    elif action == "use_relic" and "card" in args:  # a relic that names a relic: one chip
        (seat,) = args["targets"]
        form.locator(f'label:has(input[name="pick"][value="{seat}:{args["card"]}"])').click()
    elif action == "resolve_choice":
        for seat in args["targets"]:
            form.locator(f'label:has(input[name="targets"][value="{seat}"])').click()
    phone.confirm(action)


@pytest.mark.long(217)
def test_eight_phones_play_a_whole_relic_and_last_will_game_checked_at_every_phase(
    phones, artifacts
):
    code, table = seat_eight(phones(8))
    start(code, table, artifacts)
    by_seat = {p.seat: p for p in table}
    for phase, name, moves in PLAN:
        movers = {seat for seat, _, _ in moves}
        for phone in table:
            expect(phone.page.locator("#game .status-bar .phase")).to_have_attribute(
                "data-phase", phase
            )
        if name in SEEN:
            seat, selector, words = SEEN[name]
            expect(by_seat[seat].page.locator(selector).first).to_contain_text(words)
            if name == "1-tie":
                by_seat[seat].screenshot(artifacts / "1-tie-hunter-mesmerized.png")
        check_every_phone(code, table, name, artifacts, ROLE_OF, movers)
        for i, (seat, action, args) in enumerate(moves):
            if name in HALF_PLACED and i == len(moves) - 3:  # all but the last seat placed
                check_every_phone(code, table, f"{name}-waiting", artifacts, ROLE_OF, {seat})
            tap(by_seat[seat], action, args)

    # --- the end screen: every role, who won ----------------------------------------------------
    for phone in table:
        expect(phone.page.locator("#game.status-finished")).to_have_count(1)
    check_every_phone(code, table, "end", artifacts, ROLE_OF)
    for phone in table:
        end = phone.text("#game .end")
        assert "The Hunters win!" in end
        won = ROLES[phone.seat - 1] == "H" and phone.seat != 4  # Dev plays with the Vampires
        assert ("You won." in end) == won, (phone.name, end)
    assert Game.objects.get(code=code).state["outcome"]["winner"] == WINNER
