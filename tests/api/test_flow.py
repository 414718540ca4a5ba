"""A first round through the real routes."""

import pytest

pytestmark = pytest.mark.django_db


def test_r6_1_round_one_through_the_api(table):
    t = table("LVHHHH")
    view = t.view(3)
    assert view["status"] == "running" and view["phase"] == "mingling"
    assert view["me"]["role"] == "hunter"
    assert {p["action"] for p in view["pending"]} == {"place_token"}
    plans = {
        1: "S3 S4 F5",
        2: "S3 S4 F5",
        3: "S4 S5 F6",
        4: "S3 S5 F6",
        5: "S3 S6 F4",
        6: "S3 S4 F5",
    }
    for seat, plan in plans.items():
        t.place(seat, plan)
    view = t.view(3)
    assert view["phase"] == "choose_examiner"
    assert view["pending"][0]["action"] == "choose_examiner"
    view = t.act(3, "choose_examiner", target=1)
    assert view["round"] == 2 and view["phase"] == "mingling"
    assert view["last_dining"]["alpha_elected"] == 5
