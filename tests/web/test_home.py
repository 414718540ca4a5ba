"""Home: open a table, join one by code, and a phone that comes back is recognised."""

import pytest
from django.contrib.auth import get_user_model

from games.models import Game, Player
from tests.web.conftest import Phone, alert_text

pytestmark = pytest.mark.django_db


def test_home_offers_to_open_or_join_a_table_and_links_the_rules():
    html = Phone("Ana").client.get("/").content.decode()
    assert 'action="/new"' in html and 'action="/join"' in html
    assert 'href="/rules/"' in html
    assert 'name="preset"' in html and 'name="last_wills"' in html


def test_opening_a_table_makes_a_guest_logs_them_in_and_seats_them_as_host():
    ana = Phone("Ana")
    response = ana.client.post("/new", {"name": "Ana", "preset": "async", "last_wills": "on"})
    assert response.status_code == 302
    code = response["Location"].split("/")[2]
    game = Game.objects.get(code=code)
    host = Player.objects.get(game=game, seat=1)
    assert host.name == "Ana" and game.host_id == host.user_id
    assert game.options["preset"] == "async" and game.options["timers"]["mingling"] == 12 * 3600
    assert game.options["last_wills"] is True and game.options["relics"] is False
    user = get_user_model().objects.get(id=host.user_id)
    assert user.username.startswith("guest-") and not user.has_usable_password()
    assert "Start the game" in ana.page(code)


def test_the_table_talk_options_can_be_chosen_when_opening_a_table():
    ana = Phone("Ana")
    html = ana.client.get("/").content.decode()
    assert 'name="den_chat"' in html and 'name="spectator_chat"' in html
    response = ana.client.post("/new", {"name": "Ana", "preset": "live", "den_chat": "on"})
    game = Game.objects.get(code=response["Location"].split("/")[2])
    assert game.options["den_chat"] is True and game.options["spectator_chat"] is False
    response = ana.client.post("/new", {"name": "Ana", "preset": "live", "spectator_chat": "on"})
    game = Game.objects.get(code=response["Location"].split("/")[2])
    assert game.options["den_chat"] is False and game.options["spectator_chat"] is True


def test_a_custom_mingling_timer_is_kept_and_a_bad_one_is_refused_in_words():
    ana = Phone("Ana")
    response = ana.client.post("/new", {"name": "Ana", "preset": "live", "mingling": "45"})
    game = Game.objects.get(code=response["Location"].split("/")[2])
    assert game.options["timers"]["mingling"] == 45
    response = ana.client.post("/new", {"name": "Ana", "preset": "live", "mingling": "3"})
    assert response.status_code == 400
    assert "greater than or equal to 10" in response.content.decode()


def test_a_returning_phone_is_recognised_and_sees_its_tables():
    ana = Phone("Ana")
    response = ana.client.post("/new", {"name": "Ana", "preset": "live"})
    code = response["Location"].split("/")[2]
    html = ana.client.get("/").content.decode()
    assert "Welcome back, <strong>Ana</strong>" in html
    assert f'href="/g/{code}/"' in html
    assert 'value="Ana"' in html  # the name is filled in for the next table
    ana.client.post("/new", {"name": "Ana", "preset": "live"})
    assert get_user_model().objects.count() == 1  # the same guest, not a new one


def test_joining_by_code_seats_the_phone_in_the_next_seat():
    ana, ben = Phone("Ana"), Phone("Ben")
    code = ana.client.post("/new", {"name": "Ana", "preset": "live"})["Location"].split("/")[2]
    response = ben.client.post("/join", {"name": "Ben", "code": code.lower()})
    assert response.status_code == 302 and response["Location"] == f"/g/{code}/"
    assert Player.objects.get(game__code=code, seat=2).name == "Ben"
    assert "Waiting for the host" in ben.page(code)


def test_joining_a_code_that_does_not_exist_says_so_and_makes_no_guest():
    response = Phone("Ben").client.post("/join", {"name": "Ben", "code": "ACDEFG"})
    assert response.status_code == 404
    assert "No game has the code" in alert_text(response.content.decode())
    assert get_user_model().objects.count() == 0


def test_joining_without_a_name_asks_for_one():
    response = Phone("Ben").client.post("/join", {"name": "  ", "code": "ACDEFG"})
    assert response.status_code == 400
    assert "This field is required" in response.content.decode()


def test_joining_a_started_game_shows_the_rule(table):
    t = table("LVHHHH")
    response = Phone("Gus").client.post("/join", {"name": "Gus", "code": t.code})
    assert response.status_code == 409
    assert "already started" in alert_text(response.content.decode())


@pytest.mark.parametrize(
    "page", ["", "setup/", "round/", "dining/", "ghosts/", "lord/", "relics/", "last-wills/"]
)
def test_every_rules_page_renders_and_links_back_to_the_game(page):
    response = Phone("Ana").client.get(f"/rules/{page}?game=ACDEFG")
    assert response.status_code == 200
    assert 'href="/g/ACDEFG/"' in response.content.decode()


def test_the_rules_back_link_takes_only_a_game_code():
    html = Phone("Ana").client.get("/rules/?game=//evil.example").content.decode()
    assert "evil" not in html


def test_an_unknown_rules_page_is_404():
    assert Phone("Ana").client.get("/rules/nope/").status_code == 404
