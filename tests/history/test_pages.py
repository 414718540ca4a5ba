"""The pages: `/me/games` (your finished games, your figures, and a guest's way to
keep them) and `/g/{code}/replay/` (a finished game's public log, round by round, then every
role). A replay shows what a spectator read, never an event with an audience."""

from __future__ import annotations

import re

import pytest
from django.test import Client

from games import services
from games.history.models import SharedReplay
from games.models import Event
from games.presenters.wording import for_people
from games.services import organiser as admin_services
from games.services import seat_links
from tests.history.tables import lord_examined_by_seat_1, play_to_the_end, table, users

pytestmark = pytest.mark.django_db


def signed_in(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def page(client: Client, url: str, status: int = 200) -> str:
    response = client.get(url)
    assert response.status_code == status, (url, response.status_code)
    return response.content.decode()


def test_without_a_game_the_page_says_how_to_get_one():
    html = page(Client(), "/me/games")
    assert "Play a game on this phone first" in html
    assert "Nothing" not in html and "Register" not in html


def test_your_games_lists_each_finished_game_and_the_figures():
    players = users(6)
    game = table(players)
    lord_examined_by_seat_1(game)
    game = play_to_the_end(game)
    html = page(signed_in(players[0]), "/me/games")
    assert f'data-code="{game.code}"' in html
    assert f'href="/g/{game.code}/replay/"' in html
    chip = '<span class="role-chip hunter">Hunter</span> <span class="badge mesmerized">'
    assert f"You were a {chip}" in html
    assert "with the Vampires" in html  # R8.3: a Mesmerized Hunter plays for them
    assert 'data-figure="games">1<' in html
    assert re.search(r'data-figure="lord-examinations">[1-9]\d*×<', html)
    assert 'With <bdi class="name">Ben</bdi>, <bdi class="name">Cleo</bdi>' in html
    assert "abandoned games (stopped before the end) and practice games never do" in html


def test_the_page_says_how_many_games_it_left_out():
    players = users(6)
    play_to_the_end(table(players))
    stopped = table(players)
    admin_services.game_abandon(code=stopped.code, by="test")
    play_to_the_end(table(players, practice=True))
    html = page(signed_in(players[3]), "/me/games")
    assert "Not counted here: 1 abandoned game and 1 practice game." in html
    assert 'data-figure="games">1<' in html


def test_a_guest_registers_on_the_page_and_keeps_their_games_and_this_phone():
    guest = services.guest_create(name="Ana")
    others = users(5)
    game = play_to_the_end(table([guest, *others]))
    phone = signed_in(guest)
    assert "Keep your games" in page(phone, "/me/games")
    response = phone.post("/me/games/register", {"username": "ana.k", "password": "correct-horse"})
    assert response.status_code == 302 and response["Location"] == "/me/games?registered=1"
    html = page(phone, "/me/games?registered=1")  # still signed in, as the same user
    assert "Registered as <strong>ana.k</strong>" in html
    assert f'data-code="{game.code}"' in html and "Keep your games" not in html
    guest.refresh_from_db()
    assert guest.username == "ana.k" and guest.check_password("correct-horse")


@pytest.mark.parametrize(
    ("form", "error"),
    [
        ({"username": "a b", "password": "correct-horse"}, "no spaces"),
        ({"username": "anak", "password": "short"}, "at least 8"),
        ({"username": "TAKEN", "password": "correct-horse"}, "That username is taken."),
    ],
    ids=["bad-username", "short-password", "taken"],
)
def test_a_refused_registration_says_why_and_changes_nothing(form, error):
    users(1)[0].__class__.objects.create_user("taken", password="pw-taken-123")
    guest = services.guest_create(name="Ana")
    phone = signed_in(guest)
    response = phone.post("/me/games/register", form)
    assert response.status_code in (400, 409)
    assert error in response.content.decode()
    guest.refresh_from_db()
    assert guest.username.startswith("guest-") and not guest.has_usable_password()


def test_r1_4_the_replay_opens_on_the_story_then_shows_each_rounds_public_lines_then_roles():
    """The first step is the story's turning points (the end made every role public, R1.4);
    each round's step holds every public line of that round and no private one, and names no
    role; the last step shows every role."""
    players = users(6)
    game = table(players)
    lord_examined_by_seat_1(game)
    game = play_to_the_end(game)
    outsider = Client()
    first = page(outsider, f"/g/{game.code}/replay/")
    assert 'data-step="summary"' in page(outsider, f"/g/{game.code}/replay/?round=summary")
    assert 'data-step="summary"' in first and 'href="?round=1" rel="next"' in first
    assert 'Round 1: <bdi class="name">Ana</bdi> examined' in first  # the Mesmerism
    assert "role-chip" not in first  # the roles table only at the end
    names = {p.seat: p.name for p in game.players.all()}
    rounds = {
        n: page(outsider, f"/g/{game.code}/replay/?round={n}") for n in range(1, game.round + 1)
    }
    assert 'Round 1 <span class="muted">of' in rounds[1]
    assert 'href="?round=2" rel="next"' in rounds[1]
    events = list(Event.objects.filter(game=game, round__gte=1))
    assert any(e.audience for e in events), "a game this long has private lines"
    for e in events:
        line = str(for_people(e.text, names, e.data, e.template))
        if e.audience is None:  # every public line, in its own round's step
            assert line in rounds[e.round], line
        else:
            assert all(line not in html for html in rounds.values()), line
    assert not any("Secret Role:" in html or "Mesmerized" in html for html in rounds.values())
    assert not any("role-chip" in html for html in rounds.values())
    end = page(outsider, f"/g/{game.code}/replay/?round=end")
    assert end.count('class="role-chip') == 6
    assert "Vampire Lord" in end and "Mesmerized" in end
    assert f"The {game.state['outcome']['winner'].capitalize()} win!" in end


def test_only_a_finished_game_has_a_replay():
    players = users(6)
    running = table(players)
    stopped = table(players)
    admin_services.game_abandon(code=stopped.code, by="test")
    for code in (running.code, stopped.code, "ZZZZZZ"):
        page(Client(), f"/g/{code}/replay/", 404)
    finished = play_to_the_end(table(players))
    page(Client(), f"/g/{finished.code}/replay/?round=99", 404)
    page(Client(), f"/g/{finished.code}/replay/?round=0", 404)


def test_without_spectators_only_the_players_see_the_replay():
    players = users(6)
    game = play_to_the_end(table(players, spectators=False))
    page(Client(), f"/g/{game.code}/replay/", 404)
    page(signed_in(players[4]), f"/g/{game.code}/replay/")


def test_the_home_page_and_the_end_screen_link_here():
    players = users(6)
    game = play_to_the_end(table(players))
    phone = signed_in(players[0])
    assert 'href="/me/games"' in page(phone, "/")
    assert 'href="/me/games"' not in page(Client(), "/")
    end = page(phone, f"/g/{game.code}/")
    assert f'href="/g/{game.code}/replay/"' in end and 'href="/me/games"' in end


def test_the_replay_and_the_end_screen_show_one_roles_table():
    """One include (templates/games/_roles.html) fed by one presenter (roles_revealed): the
    replay's last step and a player's end screen show the same table, and neither cites rules."""
    players = users(6)
    game = table(players)
    lord_examined_by_seat_1(game)
    game = play_to_the_end(game)
    end_screen = page(signed_in(players[0]), f"/g/{game.code}/")
    replay_end = page(Client(), f"/g/{game.code}/replay/?round=end")

    def roles_table(html: str) -> str:
        return re.search(r'<table class="roles">.*?</table>', html, re.S).group(0)

    assert roles_table(end_screen) == roles_table(replay_end)
    assert roles_table(replay_end).count('<bdi class="name">') == 6
    outcome = re.search(r"win!</h2>\s*<p>(.*?)</p>", replay_end, re.S).group(1)
    assert outcome and not re.search(r"\(R\d", outcome)


def test_the_host_shares_a_private_tables_replay_from_the_page_and_can_stop():
    """Spectators off: only the players read the replay, until the host's switch (shown to the
    host only) shares it with anyone who has the link."""
    players = users(6)
    game = play_to_the_end(table(players, spectators=False))
    url = f"/g/{game.code}/replay/"
    host, seated = signed_in(players[0]), signed_in(players[3])
    page(Client(), url, 404)
    assert 'id="share"' not in page(seated, url)
    assert 'data-shared="off"' in page(host, url)

    shared = host.post(f"/g/{game.code}/replay/share", {"public": "on", "round": "2"})
    assert shared.status_code == 302
    assert shared["Location"] == f"{url}?round=2#share"
    assert 'data-step="2"' in page(Client(), f"{url}?round=2")  # anyone with the link
    assert 'data-shared="on"' in page(host, url)

    host.post(f"/g/{game.code}/replay/share", {"public": "off", "round": "summary"})
    page(Client(), url, 404)


@pytest.mark.parametrize(
    ("who", "public", "status", "code"),
    [("seated", "on", 403, "forbidden"), ("host", "maybe", 400, "bad_request")],
    ids=["not-the-host", "bad-input"],
)
def test_a_refused_share_says_why_with_its_code_and_changes_nothing(who, public, status, code):
    players = users(6)
    game = play_to_the_end(table(players, spectators=False))
    phone = signed_in(players[0] if who == "host" else players[2])
    response = phone.post(f"/g/{game.code}/replay/share", {"public": public, "round": "summary"})
    assert response.status_code == status
    assert f'data-refusal="{code}"' in response.content.decode()
    assert not SharedReplay.objects.exists()
    page(Client(), f"/g/{game.code}/replay/", 404)


def test_a_host_on_a_seat_link_device_is_sent_to_their_own_device_to_share():
    """A browser a seat link signed in plays that seat only (games/web/middleware/seat_scope.py):
    the host's switch there would be refused, so the page says where it is instead."""
    players = users(6)
    game = play_to_the_end(table(players, spectators=False))
    phone = signed_in(players[0])
    session = phone.session
    seat_links.signed_in(session, game.players.get(seat=1))
    session.save()
    html = page(phone, f"/g/{game.code}/replay/")
    assert "open this replay on the device you first played on" in html
    assert "/replay/share" not in html


def test_a_share_from_an_unknown_step_goes_back_to_the_story_and_a_refusal_still_says_why():
    players = users(6)
    game = play_to_the_end(table(players, spectators=False))
    host, seated = signed_in(players[0]), signed_in(players[2])
    url = f"/g/{game.code}/replay/share"
    refused = seated.post(url, {"public": "on", "round": "<b>99"})
    assert refused.status_code == 403 and 'data-refusal="forbidden"' in refused.content.decode()
    shared = host.post(url, {"public": "on", "round": "1&x=<b>"})
    assert shared["Location"] == f"/g/{game.code}/replay/?round=summary#share"
