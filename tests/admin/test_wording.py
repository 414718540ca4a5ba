"""The admin in an organiser's words: phases by their names, never as stored; a window's round
said once; a deadline ahead "is due"; one full stop; no rule IDs in the log lines."""

from __future__ import annotations

import re
import time
from datetime import UTC, datetime, timedelta

import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse

from games.models import Event, Game
from games.services import action_apply, game_expire
from games.services import organiser as admin_services
from tests.admin.conftest import confirm, stamp_on
from tests.factories import running_game

pytestmark = pytest.mark.django_db

LIST = reverse("admin:games_game_changelist")
# Seats 1-5 place every token and Stake seat 6, who places nothing (R3.4: its own tokens are
# Stakes against it): seat 6 has the most Stakes and owes the round-1 examiner choice (R6.1).
ROUND_1_WITHOUT_6 = {1: "S6 S3 F4", 2: "S6 S3 F4", 3: "S6 S4 F5", 4: "S6 S3 F5", 5: "S6 S3 F4"}
TOKENS = {"S": "stake", "F": "feast"}
STORED = re.compile(r"\b[a-z]+_[a-z_]+\b")  # "role_reveal", "choose_examiner"


def url(name: str, game: Game) -> str:
    return reverse(f"admin:games_game_{name}", args=[game.id])


def at_the_round_1_examination() -> Game:
    """A game whose Mingling closed: seat 6 chooses who examines their role (choose_examiner),
    a window whose name says its round ("Round 1 examination"), due in about an hour."""
    game = running_game(6)
    for seat, plan in ROUND_1_WITHOUT_6.items():
        for word in plan.split():
            args = {"token": TOKENS[word[0]], "target": int(word[1:])}
            action_apply(code=game.code, user=game.users[seat - 1], name="place_token", args=args)
    assert game_expire(game_id=game.id, now=time.time() + 3600)
    game.refresh_from_db()
    assert (game.phase, game.round) == ("choose_examiner", 1)
    return game


def filter_links(html: str, title: str) -> list[str]:
    """The link texts of one of the list's filters (its <details> block)."""
    start = html.index(f"By {title}")
    block = html[start : html.index("</details>", start)]
    return [text.strip() for text in re.findall(r"<a [^>]*>([^<]*)</a>", block)]


def test_the_phase_filter_names_each_phase_as_players_do_and_still_filters(root_client):
    mingling = running_game(6)
    revealing = running_game(6, reveal=30)
    assert revealing.phase == "role_reveal"
    examining = at_the_round_1_examination()
    html = root_client.get(LIST).content.decode()
    links = filter_links(html, "phase")
    assert links == ["All", "Role reveal", "Mingling", "Round 1 examination"]  # the game's order
    assert not STORED.search(" ".join(links))
    counted = filter_links(root_client.get(LIST, {"_facets": "1"}).content.decode(), "phase")
    assert counted[1:] == ["Role reveal (1)", "Mingling (1)", "Round 1 examination (1)"]
    picked = root_client.get(LIST, {"phase__exact": "role_reveal"}).content.decode()
    assert revealing.code in picked
    assert mingling.code not in picked and examining.code not in picked


def test_a_stale_page_is_refused_with_the_windows_named_in_words(root_client):
    game = running_game(6, reveal=30)
    shown = stamp_on(root_client, url("extend", game))
    assert game_expire(game_id=game.id, now=time.time() + 60)  # the reveal ends: Mingling
    refused = root_client.post(url("extend", game), {"stamp": shown, "minutes": 5})
    assert refused.status_code == 409
    note = re.search(r'<p class="errornote">(.*?)</p>', refused.content.decode(), re.S).group(1)
    assert note == (
        "The window this page showed (the Role reveal window of round 1) is closed; the game "
        "is at the Mingling window of round 1 now. Nothing was done: look again."
    )
    assert not STORED.search(note)


def test_the_round_1_examination_window_is_named_with_its_round_once(root_client):
    game = at_the_round_1_examination()
    for page in ("expire", "extend"):
        html = root_client.get(url(page, game)).content.decode()
        assert "The Round 1 examination window " in html
        assert "of round 1" not in html
    bulk = root_client.post(LIST, {"action": "expire_windows", "_selected_action": [game.id]})
    assert "The Round 1 examination window closes now" in bulk.content.decode()


def test_a_deadline_still_ahead_is_due_and_one_past_was_due(root_client):
    ahead = running_game(6)  # Mingling, 3 minutes
    html = root_client.get(url("expire", ahead)).content.decode()
    assert re.search(r"it is due [^<]* UTC \(in [23]\sminutes\)", html)
    assert "was due" not in html
    stuck = running_game(6)
    Game.objects.filter(id=stuck.id).update(deadline=datetime.now(UTC) - timedelta(minutes=5))
    html = root_client.get(url("expire", stuck)).content.decode()
    assert re.search(r"it was due [^<]* UTC \(5\sminutes ago\)", html)
    assert "is due" not in html


def test_the_message_after_a_seat_handover_ends_with_one_full_stop(root_client):
    game = running_game(6)
    get_user_model().objects.create_user("nina", first_name="Nina")
    done = confirm(root_client, url("replace_seat", game), {"seat": 3}, follow=True)
    html = done.content.decode()
    assert f"{game.code}: Seat 3: “p2” (user {game.users[2].username}) left; " in html
    assert "“Bot 3” (a bot) took over.<" in html
    assert ".." not in html.replace("...", "")
    expired = confirm(root_client, url("expire", game), follow=True).content.decode()
    assert f"{game.code}: Window expired.<" in expired


def test_the_admins_log_lines_cite_no_rule_ids(root_client, staff_client):
    game = at_the_round_1_examination()
    line = Event.objects.get(game=game, kind="most_staked")
    assert "(R6.1)" in line.text  # as the engine writes it, for the API and developers
    words = "Seat 6 has the most Stakes and chooses who examines their role."
    for client in (root_client, staff_client):
        for page in (url("change", game), url("log", game)):
            html = client.get(page).content.decode()
            assert words in html, page
            assert not re.search(r"\(R\d", html), page
    admin_services.window_expire(code=game.code, by="olga")
    assert not re.search(r"\(R\d", root_client.get(url("log", game)).content.decode())
