"""No seat's page shows another seat's role, or the type of another seat's token, before Dining.

Two checks: the markers every secret carries in the HTML (`data-secret-role`, token classes),
and a differential one — two games whose secrets differ while everything public is the same
must render byte-identical pages for a seat that is entitled to know none of the difference.
"""

import re

import pytest

from tests.secrets_on_page import token_types_outside_my_own
from tests.web.conftest import TOKENS

pytestmark = pytest.mark.django_db

DEAL = "LVVHHHHH"  # 8 players: the Lord does not know the Vampires (R1.2)
HUNTERS = [4, 5, 6, 7, 8]
KNOWS = {2: {"1", "3"}, 3: {"1", "2"}}  # the night information of each Vampire (R1.3)


def _secret_roles(html: str) -> set[str]:
    return set(re.findall(r'data-secret-role="([^"]+)"', html))


def test_before_dining_no_seat_sees_another_seats_role_or_token_types(table):
    t = table(DEAL)
    t.play({1: "S3 S4 F5", 2: "S3 F4", 3: "S1 F2", 4: "S2", 5: "S1 S2 F3", 6: "F1", 7: "S6"})
    for seat in range(1, 9):
        html = t.page(seat)
        roles = _secret_roles(html)
        own = {r for r in roles if r.startswith(f"{seat}:")}
        assert len(own) == 1, (seat, roles)
        others = roles - own
        assert others == KNOWS.get(seat, set()), (seat, others)
        if seat in KNOWS:
            assert '<bdi class="name">Ana</bdi> is the Vampire Lord' in html
        assert token_types_outside_my_own(html) == [], seat
    for seat in HUNTERS:
        html = t.page(seat)
        assert "vampire_lord" not in html and "Vampire Lord" not in html, seat
        assert 'role-vampire"' not in html and "is a Vampire" not in html, seat


def test_a_seat_page_is_the_same_whatever_the_secrets_it_may_not_know(table):
    """Same public state, different hidden roles and token types: seat 3 sees no difference."""
    plans_a = {1: "S3 S4 F5", 2: "S4 F5", 4: "S5 F6", 5: "S4", 6: "F4"}
    plans_b = {1: "F3 S4 S5", 2: "F4 S5", 4: "F5 S6", 5: "F4", 6: "S4"}  # same owners, targets
    pages, owners = [], []
    for deal, plans in (("LVHVHHHH", plans_a), ("HHHLVVHH", plans_b)):
        t = table(deal)
        t.play(plans)
        pages.append(_normalized(t.page(3), t.code))
        owners.append(_normalized(t.page(1), t.code))
    assert pages[0] == pages[1]
    assert owners[0] != owners[1]  # the check can see a difference: seat 1's own role and tokens


def _normalized(html: str, code: str) -> str:
    html = html.replace(code, "CODE")
    html = re.sub(r'value="[A-Za-z0-9]{64}"', 'value="CSRF"', html)
    html = re.sub(r'"X-CSRFToken": "[A-Za-z0-9]+"', '"X-CSRFToken": "CSRF"', html)
    html = re.sub(r"&amp;p=[\w:-]+", "&amp;p=POLL", html)  # bound to the phone's session
    html = re.sub(r'data-(deadline|now)="[^"]+"', "", html)
    # the clock's stamp is the open window's deadline (games/domain/clock_stamps.py)
    html = re.sub(r'name="stamp" value="[^"]+"', 'name="stamp" value="STAMP"', html)
    html = re.sub(r"until \d\d:\d\d:\d\d UTC", "", html)
    html = re.sub(r"closed? \w{3} \d+ \w{3} \d\d:\d\d( UTC)?( \(in [^)]+\))?", "", html)
    # the table-talk poll's stamp: it changes with each table message, and starts at random
    html = re.sub(r"\?s=[0-9a-f]+&amp;", "?s=STAMP&amp;", html)
    return html


def test_an_away_ghost_sees_no_placements_until_their_dial_is_turned(table):
    from tests.web.test_play import ROUND_1, ROUND_2

    t = table("LVHHHH")
    t.play(ROUND_1)
    t.phone(3).act(t.code, "choose_examiner", target="4")
    t.play(ROUND_2)
    t.phone(1).place(t.code, "S4")
    assert "Tokens from:" not in t.page(2)  # seat 2 is a Ghost who has not voted (R3.2)
    assert "Tokens from:" in t.page(3)
    t.phone(2).act(t.code, "intervention_vote", target="3")
    assert "Tokens from:" in t.page(2)


def test_the_lobby_never_shows_a_fixed_deal(lobby):
    t = lobby("LVHHHH")
    for seat in range(1, 7):
        html = t.page(seat)
        assert "vampire_lord" not in html and "roles" not in html


def test_token_letters_cover_every_token():
    assert set(TOKENS.values()) == {"stake", "feast", "double_stake", "investigation"}
