"""Organisers run games from the admin without surprises. One test (or more) per
problem found, named `test_<n>_...`; the browser drives the same pages in
tests/browser/test_admin.py."""

from __future__ import annotations

import io
import json
import re
import time

import pytest
from django.contrib.admin.models import LogEntry
from django.contrib.auth import get_user_model
from django.contrib.auth.models import Permission
from django.core.management import call_command
from django.urls import reverse

from games.management.commands.organisers import GROUP, PERMISSIONS, organisers_group
from games.models import Action, Event, Game, Player
from games.presenters.wording import without_rule_ids
from games.selectors import game as selectors
from games.services import game_create, game_join
from games.services import organiser as admin_services
from games.services.seats import seen
from tests.admin.conftest import (
    SECRET_WORDS,
    bulk,
    client_for,
    confirm,
    play,
    stamp_on,
)
from tests.factories import running_game

pytestmark = pytest.mark.django_db

LIST = reverse("admin:games_game_changelist")


def url(name: str, game: Game) -> str:
    return reverse(f"admin:games_game_{name}", args=[game.id])


def change_url(game: Game) -> str:
    return url("change", game)


def public_lines(game: Game) -> list[Event]:
    return list(Event.objects.filter(game=game, audience__isnull=True).order_by("seq"))


def seat_row(html: str, seat: int) -> str:
    """The seats table's row of `seat` (games/admin/display.py)."""
    rows = re.findall(r"<tr[^>]*><td>(\d+)</td>(.*?)</tr>", html, re.S)
    return next(row for number, row in rows if int(number) == seat)


# --- 1. "Export replay" downloads ----------------------------------------------------------


def test_1_export_replay_is_a_link_to_its_own_page_not_a_form_inside_the_change_form(
    root_client,
):
    """A <form> inside the change form is dropped by the HTML parser: its button submitted the
    change form ("changed successfully", no file). The export now has a page of its own."""
    game = running_game(6)
    html = root_client.get(change_url(game)).content.decode()
    export = url("export", game)
    assert f'href="{export}"' in html
    assert f'action="{export}"' not in html
    asked = root_client.get(export).content.decode()
    assert re.search(r'<form method="post">', asked) and "Download the replay" in asked
    response = root_client.post(export)
    assert response["Content-Disposition"] == f'attachment; filename="staked-{game.code}.json"'
    assert json.loads(response.content)["code"] == game.code


# --- 2. bulk actions ask first ----------------------------------------------------------------


def test_2_bulk_abandon_shows_what_happens_to_each_game_and_changes_nothing_until_yes(
    root_client,
):
    host = get_user_model().objects.create_user("host")
    lobby = game_create(host=host, options={}, name="Host")
    running = running_game(6)
    finished = running_game(6)
    Game.objects.filter(id=finished.id).update(status=Game.Status.FINISHED)
    page = root_client.post(
        LIST, {"action": "abandon_games", "_selected_action": [lobby.id, running.id, finished.id]}
    )
    html = page.content.decode()
    assert page.status_code == 200 and "Yes, I’m sure" in html and "No, take me back" in html
    assert "The lobby (1 seated) closes with no game. This cannot be undone." in html
    assert "The game ends in round 1 with no winner and its timers stop." in html
    assert "Nothing: the game is already finished." in html
    assert Game.objects.filter(status=Game.Status.ABANDONED).count() == 0

    done = bulk(root_client, LIST, "abandon_games", [lobby.id, running.id], follow=True)
    assert f"{lobby.code}: abandoned." in done.content.decode()
    assert Game.objects.filter(status=Game.Status.ABANDONED).count() == 2


def test_2_bulk_expire_names_each_window_and_when_it_was_due(root_client):
    slow = running_game(6, mingling=12 * 3600)
    page = root_client.post(LIST, {"action": "expire_windows", "_selected_action": [slow.id]})
    html = page.content.decode()
    assert "The Mingling window of round 1 closes now" in html
    assert "UTC (in 11" in html  # due in about 12 hours: the page says so before it acts
    slow.refresh_from_db()
    assert slow.phase == "mingling" and slow.version == 6


# --- 3. a stale confirmation is refused ---------------------------------------------------------


def test_3_two_tabs_on_one_expire_page_close_one_window_not_two(root_client):
    game = play(running_game(6), 3)
    first = stamp_on(root_client, url("expire", game))
    second = stamp_on(root_client, url("expire", game))
    assert root_client.post(url("expire", game), {"stamp": first}).status_code == 302
    game.refresh_from_db()
    version, phase = game.version, game.phase
    refused = root_client.post(url("expire", game), {"stamp": second})
    assert refused.status_code == 409
    html = refused.content.decode()
    assert "The window this page showed (the Mingling window of round 1) is closed" in html
    assert "Nothing was done" in html
    game.refresh_from_db()
    assert (game.version, game.phase) == (version, phase)
    assert Action.objects.filter(game=game, name="timeout").count() == 1
    # The page shown again describes the game as it is now, with a fresh stamp.
    assert f'value="{admin_services.stamp(game)}"' in html.replace("&amp;", "&")


def test_3_a_stale_extend_abandon_or_seat_replacement_is_refused(root_client):
    game = running_game(6)
    extend = stamp_on(root_client, url("extend", game))
    abandon = stamp_on(root_client, url("abandon", game))
    replace = stamp_on(root_client, url("replace_seat", game))
    assert root_client.post(url("extend", game), {"stamp": extend, "minutes": 5}).status_code == 302
    game.refresh_from_db()
    version = game.version
    again = root_client.post(url("extend", game), {"stamp": extend, "minutes": 5})
    assert again.status_code == 409 and b"The deadline this page showed has moved" in again.content
    assert root_client.post(url("abandon", game), {"stamp": abandon}).status_code == 409
    moved = root_client.post(url("replace_seat", game), {"stamp": replace, "seat": 3})
    assert moved.status_code == 409
    game.refresh_from_db()
    assert game.version == version and game.status == Game.Status.RUNNING
    assert not game.players.get(seat=3).is_bot


def test_3_moves_inside_the_window_do_not_make_a_page_stale(root_client):
    """The stamp is the window and the seats, not the version: a live game's moves would
    otherwise refuse every confirmation."""
    game = running_game(6)
    confirmed = stamp_on(root_client, url("extend", game))
    play(game, 2)
    response = root_client.post(url("extend", game), {"stamp": confirmed, "minutes": 5})
    assert response.status_code == 302


def test_3_a_lobby_that_changed_seats_is_not_abandoned_on_an_old_page(root_client):
    host = get_user_model().objects.create_user("host")
    lobby = game_create(host=host, options={}, name="Host")
    confirmed = stamp_on(root_client, url("abandon", lobby))
    game_join(code=lobby.code, user=get_user_model().objects.create_user("late"), name="Late")
    refused = root_client.post(url("abandon", lobby), {"stamp": confirmed})
    assert refused.status_code == 409 and b"The seats changed" in refused.content
    lobby.refresh_from_db()
    assert lobby.status == Game.Status.LOBBY


def test_3_a_bulk_confirmation_is_refused_for_a_game_that_moved_on(root_client):
    game = play(running_game(6), 3)
    page = root_client.post(LIST, {"action": "expire_windows", "_selected_action": [game.id]})
    stamp = re.search(rf'name="stamp-{game.id}" value="([^"]*)"', page.content.decode())
    admin_services.window_expire(code=game.code, by="another tab")
    response = root_client.post(
        LIST,
        {
            "action": "expire_windows",
            "_selected_action": [game.id],
            "post": "yes",
            f"stamp-{game.id}": stamp.group(1).replace("&amp;", "&"),
        },
        follow=True,
    )
    assert "is closed" in response.content.decode()
    assert Action.objects.filter(game=game, name="timeout").count() == 1


# --- 5. the Organisers group --------------------------------------------------------------------


def test_5_the_organisers_group_holds_exactly_what_running_games_needs():
    group = organisers_group()
    held = {(p.content_type.app_label, p.codename) for p in group.permissions.all()}
    assert held == set(PERMISSIONS)
    group.permissions.add(Permission.objects.get(codename="delete_game"))
    call_command("organisers", stdout=io.StringIO())  # run again: exactly the list again
    assert {p.codename for p in group.permissions.all()} == {c for _, c in PERMISSIONS}


def test_5_an_organiser_runs_a_game_and_moderates_its_table_talk(organiser, organiser_client):
    from games.chat.models import Message

    assert organiser.is_staff and not organiser.is_superuser
    assert organiser.groups.filter(name=GROUP).exists()
    game = a_game_in_round_two()
    message = Message.objects.create(
        game=game, channel="table", number=1, author_name="p1", text="rude words"
    )
    assert organiser_client.get(LIST).status_code == 200
    html = organiser_client.get(change_url(game)).content.decode()
    for player in game.players.all():
        assert player.name in html  # the seats, without view_player
    assert without_rule_ids(public_lines(game)[-1].text) in html  # the log, without view_event
    assert "Expire window now" in html
    assert confirm(organiser_client, url("expire", game)).status_code == 302
    player = game.players.get(seat=2)
    user_page = reverse("admin:auth_user_change", args=[player.user_id])
    assert organiser_client.get(user_page).status_code == 200
    chat = reverse("admin:chat_message_changelist")
    assert "rude words" in organiser_client.get(chat).content.decode()
    bulk(organiser_client, chat, "hide_messages", [message.id])
    message.refresh_from_db()
    assert message.hidden
    # ... and nothing beyond running games.
    assert organiser_client.post(url("delete", game)).status_code == 403
    assert organiser_client.get(reverse("admin:auth_group_changelist")).status_code == 403
    assert organiser_client.get(reverse("admin:games_apitoken_changelist")).status_code == 403
    assert organiser_client.post(user_page, {"username": "x"}).status_code == 403


# --- 6. who is waiting on whom ------------------------------------------------------------------


def test_6_the_seats_show_who_the_game_waits_on_missed_windows_and_last_seen(root_client):
    game = play(running_game(6), 4)  # seats 1 and 2 have placed their tokens
    waiting = set(selectors.game_view(game, None)["waiting_for"])
    assert waiting and 1 not in waiting
    Player.objects.filter(game=game, seat=5).update(missed_windows=2, afk=True)
    client_for(game.users[3]).get(reverse("game", args=[game.code]))  # seat 4 opens the page
    html = root_client.get(change_url(game)).content.decode()
    assert "Seats: who the game is waiting on" in html
    for seat in range(1, 7):
        row = seat_row(html, seat)
        assert ('class="waiting">waiting<' in row) == (seat in waiting), seat
    assert "2 (away)" in seat_row(html, 5)
    assert "never" in seat_row(html, 3) and "never" not in seat_row(html, 4)
    assert "UTC" in re.search(r'title="([^"]*)"', seat_row(html, 4)).group(1)
    form = root_client.get(url("replace_seat", game)).content.decode()
    assert "5: p4 (away: 2 windows missed" in form


def test_6_the_waiting_column_shows_only_what_the_spectator_view_shows(root_client):
    """The column is the spectator view's `waiting_for`, never the engine's own list (which may
    name a seat the public may not know is waited on: a Ghost's vote during Mingling, R3.2), in
    each phase up to a Mingling with a Ghost at the table."""
    from games.engine import state_from_json
    from games.services import game_expire

    game = running_game(6)
    seen_phases = set()
    for _ in range(40):
        game.refresh_from_db()
        state = state_from_json(game.state)
        public = set(selectors.game_view(game, None)["waiting_for"])
        html = root_client.get(change_url(game)).content.decode()
        shown = {s for s in range(1, 7) if 'class="waiting">waiting<' in seat_row(html, s)}
        assert shown == public, (game.phase, shown, public)
        seen_phases.add((game.phase, bool(state.ghosts)))
        if ("mingling", True) in seen_phases or game.status != Game.Status.RUNNING:
            break
        version = game.version
        play(game, 1)
        if game.version == version and game.deadline:  # nobody moves: the timer runs out
            game_expire(game_id=game.id, now=state_from_json(game.state).deadline)
    assert ("mingling", True) in seen_phases, seen_phases


def test_6_last_seen_is_written_at_most_once_a_minute_per_seat(django_assert_num_queries):
    from django.core.cache import cache

    cache.clear()
    game = running_game(6)
    seen(game, 2)
    first = game.players.get(seat=2).last_seen_at
    assert first is not None
    Player.objects.filter(game=game, seat=2).update(last_seen_at=None)
    with django_assert_num_queries(0):  # within the minute: one cache add, no write
        seen(game, 2)
    assert game.players.get(seat=2).last_seen_at is None
    seen(game, 3)  # another seat is its own
    assert game.players.get(seat=3).last_seen_at is not None


def test_6_an_api_view_marks_the_seat_seen(db):
    from django.core.cache import cache
    from rest_framework.test import APIClient

    cache.clear()
    game = running_game(6)
    client = APIClient()
    client.force_authenticate(user=game.users[2])
    assert client.get(f"/api/v1/games/{game.code}/").status_code == 200
    assert game.players.get(seat=3).last_seen_at is not None
    assert game.players.get(seat=4).last_seen_at is None


# --- 7. seat replacement names ------------------------------------------------------------------


def test_7_a_seat_given_to_a_bot_takes_a_name_no_other_seat_has(root_client):
    game = running_game(7)
    Player.objects.filter(game=game, seat=7).update(name="Bot 2")
    assert confirm(root_client, url("replace_seat", game), {"seat": 2}).status_code == 302
    names = list(game.players.values_list("name", flat=True))
    assert len(set(names)) == len(names)
    assert game.players.get(seat=2).name == "Bot 1"


def test_7_a_seat_given_to_a_person_without_a_name_takes_their_name(root_client):
    game = running_game(6)
    confirm(root_client, url("replace_seat", game), {"seat": 2})  # first a bot: "Bot 2"
    get_user_model().objects.create_user("nina", first_name="Nina")
    response = confirm(root_client, url("replace_seat", game), {"seat": 2, "username": "nina"})
    assert response.status_code == 302
    assert game.players.get(seat=2).name == "Nina"
    get_user_model().objects.create_user("other-nina", first_name="nina")
    clash = confirm(
        root_client, url("replace_seat", game), {"seat": 3, "username": "other-nina"}, follow=True
    )
    assert "already called “nina”" in clash.content.decode()
    assert game.players.get(seat=3).name == "p2"


def test_7_the_log_and_the_history_name_who_left_and_who_took_over(root_client):
    game = running_game(6)
    get_user_model().objects.create_user("nina", first_name="Nina")
    confirm(root_client, url("replace_seat", game), {"seat": 3})
    confirm(root_client, url("replace_seat", game), {"seat": 3, "username": "nina"})
    lines = [e.text for e in public_lines(game)[-2:]]
    assert lines == [
        "“p2” left seat 3; a bot, “Bot 3”, plays it now.",
        "“Bot 3” left seat 3; “Nina” plays it now.",
    ]
    history = [e.get_change_message() for e in LogEntry.objects.order_by("id")]
    assert history[-2:] == [
        f"Seat 3: “p2” (user {game.users[2].username}) left; “Bot 3” (a bot) took over.",
        "Seat 3: “Bot 3” (a bot) left; “Nina” (user nina) took over.",
    ]
    page = root_client.get(url("history", game)).content.decode()
    assert "“Nina” (user nina) took over" in page


# --- 8. links -----------------------------------------------------------------------------------


def test_8_a_game_links_to_its_page_room_screen_chat_history_and_players(root_client):
    game = running_game(6)
    html = root_client.get(change_url(game)).content.decode()
    assert f'href="/g/{game.code}/"' in html  # its page, and "View on site"
    assert "View on site" in html
    assert f'href="/t/{game.code}/' in html
    chat = reverse("admin:chat_message_changelist") + f"?game__id__exact={game.id}"
    assert f'href="{chat}"' in html
    assert root_client.get(chat).status_code == 200
    for user in game.users:
        assert reverse("admin:auth_user_change", args=[user.id]) in html


def test_8_a_user_page_lists_their_games(root_client):
    game, other = running_game(6), running_game(6)
    user = game.users[2]
    html = root_client.get(reverse("admin:auth_user_change", args=[user.id])).content.decode()
    assert f">{game.code}</a>: seat 3 as p2 (Running)" in html
    assert other.code not in html


def test_8_the_host_shows_by_name_and_the_winner_is_a_column_and_a_field(root_client):
    game = running_game(6)
    html = root_client.get(change_url(game)).content.decode()
    assert "p0 at seat 1" in html
    state = dict(game.state, outcome={"winner": "hunters", "reason": "The Lord is dead."})
    Game.objects.filter(id=game.id).update(status=Game.Status.FINISHED, state=state)
    listing = root_client.get(LIST).content.decode()
    assert '<td class="field-winner_shown">Hunters</td>' in listing
    assert "Hunters" in root_client.get(change_url(game)).content.decode()
    assert root_client.get(f"{LIST}?o=6").status_code == 200  # sorted by winner


# --- 9. layout (the browser checks the widths: tests/browser/test_admin.py) ---------------------


def test_9_options_are_a_readable_list_and_times_name_their_timezone(root_client):
    game = running_game(6)
    html = root_client.get(change_url(game)).content.decode()
    assert '<ul class="staked-options">' in html and "Timers: live (Mingling 3 min" in html
    assert '"last_wills"' not in html and "{&quot;" not in html
    assert re.search(r"\d{2}:\d{2} UTC", html)
    assert re.search(r"\d{2}:\d{2} UTC", root_client.get(LIST).content.decode())


def test_9_the_extend_page_shows_the_time_left_and_the_maximum(root_client):
    game = running_game(6)
    html = root_client.get(url("extend", game)).content.decode()
    assert "The Mingling window of round 1 closes" in html
    assert re.search(r"UTC \(in [23]\sminutes\)", html)
    assert "1 to 10,080 minutes (7 days) at a time" in html


def test_9_the_public_log_is_paginated(root_client):
    game = a_game_in_round_two()
    extra = [
        Event(game=game, seq=1000 + i, round=2, kind="admin", text=f"Line {i}") for i in range(60)
    ]
    Event.objects.bulk_create(extra)
    count = len(public_lines(game))
    html = root_client.get(change_url(game)).content.decode()
    assert f"The last 20 of {count} lines" in html
    assert html.count('<li><span class="meta">') == 20
    log = url("log", game)
    first = root_client.get(log).content.decode()
    assert first.count('<li><span class="meta">') == 50 and "Page 1 of 2" in first
    second = root_client.get(log, {"page": 2}).content.decode()
    assert f"#{count} · round 2" in second and "#51 · " in second


# --- 11. labels ---------------------------------------------------------------------------------


def test_11_the_idle_filter_is_not_called_abandoned(root_client):
    html = root_client.get(LIST).content.decode()
    assert "By idle (no update)" in html and "By abandoned" not in html


def test_11_an_imported_replay_is_marked_imported_with_its_source(root_client):
    from games.services.replay import replay_export

    game = running_game(6)
    data = replay_export(game)
    upload = io.BytesIO(json.dumps(data).encode())
    upload.name = "replay.json"
    root_client.post(reverse("admin:games_game_import"), {"file": upload})
    copy = Game.objects.exclude(id=game.id).get()
    assert copy.imported_from == f"game {game.code}, exported {data['exported_at']}"
    html = root_client.get(change_url(copy)).content.decode()
    assert f"Imported replay of game {game.code}, exported" in html
    listing = root_client.get(LIST, {"origin": "imported"}).content.decode()
    assert f"{copy.code} (imported)" in listing and f">{game.code}<" not in listing


def test_11_pages_are_titled_for_what_they_are(root_client, staff_client):
    game = running_game(6)
    for client in (root_client, staff_client):
        html = client.get(change_url(game)).content.decode()
        assert f"<h1>Game {game.code}</h1>" in html
        assert "Change game" not in html and "View game" not in html
        assert "Staked! administration" in html and "Django administration" not in html


# --- 12. the public log is what an observer reads -----------------------------------------------


def test_12_the_public_log_numbers_the_public_lines_only(root_client):
    game = a_game_in_round_two()
    private = Event.objects.filter(game=game, audience__isnull=False)
    assert private.exists()  # the examination's private line sits between public ones
    html = root_client.get(url("log", game)).content.decode()
    numbers = [int(n) for n in re.findall(r'<span class="meta">#(\d+) ', html)]
    assert numbers == list(range(1, len(public_lines(game)) + 1))
    for line in private:
        assert line.text not in html


# --- secrets: a staff organiser sees only what an observer sees ---------------------------------


def a_game_in_round_two() -> Game:
    from games.services import game_expire

    game = running_game(6)
    play(game, 4)
    game_expire(game_id=game.id, now=time.time() + 3600)  # Mingling times out: a Dining
    game.refresh_from_db()
    return game


def test_an_organiser_sees_no_secret_on_any_admin_page(organiser_client, organiser):
    from games.chat.models import Message

    game = a_game_in_round_two()
    play(game, 2)  # tokens placed in round two: their targets are secret during Mingling
    Message.objects.create(game=game, channel="den", number=1, author_name="p1", text="DENWORDS")
    Message.objects.create(game=game, channel="ghosts", number=1, author_name="p2", text="BOO")
    confirm(organiser_client, url("extend", game), {"minutes": 5})
    user = game.users[1]
    pages = [
        LIST,
        change_url(game),
        url("log", game),
        url("history", game),
        url("extend", game),
        url("expire", game),
        url("abandon", game),
        url("replace_seat", game),
        reverse("admin:auth_user_change", args=[user.id]),
        reverse("admin:chat_message_changelist"),
        reverse("admin:chat_message_changelist") + f"?game__id__exact={game.id}",
        reverse("admin:index"),
    ]
    private = list(Event.objects.filter(game=game, audience__isnull=False))
    placements = {(p.owner, p.target) for p in _placements(game)}
    assert placements and private
    for page in pages:
        response = organiser_client.get(page)
        assert response.status_code == 200, page
        html = response.content.decode()
        found = SECRET_WORDS.findall(html)
        assert not found, (page, found)
        for line in private:
            assert line.text not in html, page
        assert "DENWORDS" not in html and "BOO" not in html, page
        assert "Ghosts" not in html and ">Den<" not in html, page
        assert str(game.seed) not in html, page
    confirmation = organiser_client.post(
        LIST, {"action": "abandon_games", "_selected_action": [game.id]}
    ).content.decode()
    assert not SECRET_WORDS.findall(confirmation)
    for name in ("games_game_reveal", "games_game_export"):
        assert organiser_client.get(reverse(f"admin:{name}", args=[game.id])).status_code == 403
    den = Message.objects.get(channel="den")
    assert organiser_client.get(
        reverse("admin:chat_message_change", args=[den.id])
    ).status_code in (
        302,
        404,
    )
    assert (
        organiser_client.get(reverse("admin:chat_message_hide", args=[den.id])).status_code == 404
    )


def _placements(game: Game):
    from games.engine import state_from_json

    game.refresh_from_db()
    return state_from_json(game.state).placements


# --- organisers hand seats to bots, never to a person -------------------------------------------


def _seat_api_view(user, game: Game) -> dict:
    from rest_framework.test import APIClient

    from games.services.api_tokens import issue_token

    api = APIClient()
    api.credentials(HTTP_AUTHORIZATION=f"Token {issue_token(user)}")
    response = api.get(f"/api/v1/games/{game.code}/")
    assert response.status_code == 200
    return response.json()


def test_an_organiser_cannot_take_a_seat_of_a_running_game_for_themselves(
    organiser, organiser_client
):
    """The audit's path: "Replace a seat's player", their own username for the Lord's seat,
    then the seat's view through the API. Refused on the form; the seat, its player and the
    organiser's view are as before."""
    game = running_game(6)  # the Lord sits at seat 6 (tests/factories.py)
    holder, version = game.players.get(seat=6).user, game.version
    response = confirm(organiser_client, url("replace_seat", game), {"seat": 6, "username": "olga"})
    assert response.status_code == 200
    assert "Organisers hand a seat to a bot only" in response.content.decode()
    game.refresh_from_db()
    assert game.version == version and game.players.get(seat=6).user == holder
    view = _seat_api_view(organiser, game)
    assert view.get("me") is None and "vampire" not in json.dumps(view).lower()


@pytest.mark.parametrize("whose", ["a guest they made", "a friend's", "a lobby seat"])
def test_an_organiser_cannot_hand_a_seat_to_any_account_they_might_control(organiser_client, whose):
    if whose == "a lobby seat":  # it would become a running seat at the start
        host = get_user_model().objects.create_user("host")
        game = game_create(host=host, options={}, name="Host")
        game_join(code=game.code, user=get_user_model().objects.create_user("joe"), name="Joe")
        seat = 2
    else:
        game, seat = running_game(6), 3
    taker = get_user_model().objects.create_user("guest-7f3a" if "guest" in whose else "pal")
    before = game.players.get(seat=seat).user
    data = {"seat": seat, "username": taker.username}
    assert confirm(organiser_client, url("replace_seat", game), data).status_code == 200
    assert game.players.get(seat=seat).user == before
    assert not game.players.filter(user=taker).exists()


def test_the_service_refuses_a_person_unless_the_caller_may_seat_people():
    """The form is not the only guard: the service itself hands a seat to a person only when
    told the caller may (the admin says so for superusers)."""
    from games.services import GameError

    game = running_game(6)
    taker = get_user_model().objects.create_user("taker")
    with pytest.raises(GameError) as refused:
        admin_services.seat_replace(code=game.code, seat=3, user=taker, by="olga")
    assert (refused.value.code, refused.value.status) == ("forbidden", 403)
    assert game.players.get(seat=3).user == game.users[2]


def test_an_organiser_hands_a_seat_to_a_bot(organiser_client):
    game = running_game(6)
    page = organiser_client.get(url("replace_seat", game)).content.decode()
    assert "Organisers hand a seat to a bot only" in page
    response = confirm(organiser_client, url("replace_seat", game), {"seat": 3, "username": ""})
    assert response.status_code == 302
    assert game.players.get(seat=3).is_bot


def test_a_superuser_hands_a_seat_to_a_person_and_it_is_audited(root_client, caplog):
    game = running_game(6)
    get_user_model().objects.create_user("nina", first_name="Nina")
    with caplog.at_level("WARNING", logger="games.audit"):
        response = confirm(root_client, url("replace_seat", game), {"seat": 3, "username": "nina"})
    assert response.status_code == 302
    assert game.players.get(seat=3).user.username == "nina"
    (record,) = [r for r in caplog.records if r.name == "games.audit"]
    assert record.getMessage() == "seat handed to a person"
    assert (record.by, record.seat, record.to, record.game) == ("root", 3, "nina", game.code)


# --- docs/admin.md's "What each role sees" is what the admin does -------------------------------


def _role_table() -> dict[str, tuple[str, str]]:
    from pathlib import Path

    text = (Path(__file__).resolve().parents[2] / "docs" / "admin.md").read_text()
    section = text.split("**What each role sees.**", 1)[1].split("\n\n", 2)[1]
    rows = {}
    for line in section.splitlines()[2:]:
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        rows[cells[0]] = (cells[1], cells[2])
    return rows


def _may(cell: str) -> bool:
    assert cell.startswith(("yes", "no")), cell
    return cell.startswith("yes")


def test_what_each_role_sees_in_the_docs_is_what_the_admin_lets_each_role_do(
    organiser, organiser_client, root_client
):
    """Each row of the table in docs/admin.md is tried as an organiser and as a superuser."""
    from games.chat.models import Message

    game = running_game(7)
    Message.objects.create(game=game, channel="den", number=1, author_name="p6", text="DENWORDS")
    takers = iter(get_user_model().objects.create_user(f"taker{i}") for i in range(2))

    def page(client, path):
        return client.get(path).status_code == 200

    def acts(client):
        seats = {client: 2, root_client: 3}
        pages = all(page(client, url(n, game)) for n in ("extend", "expire", "abandon"))
        bot = confirm(client, url("replace_seat", game), {"seat": seats[client]})
        return pages and bot.status_code == 302

    def to_a_person(client):
        seat = {organiser_client: 4, root_client: 5}[client]
        taker = next(takers)
        confirm(client, url("replace_seat", game), {"seat": seat, "username": taker.username})
        return game.players.get(seat=seat).user == taker

    def secret_channels(client):
        listing = client.get(reverse("admin:chat_message_changelist")).content.decode()
        return "DENWORDS" in listing

    probes = {
        "game list": lambda c: page(c, LIST),
        "a game's page": lambda c: page(c, change_url(game)),
        "expire the window": acts,
        "hand a seat to a person": to_a_person,
        "table talk": lambda c: page(c, reverse("admin:chat_message_changelist")),
        "a player's user page": lambda c: page(
            c, reverse("admin:auth_user_change", args=[game.users[1].id])
        ),
        "a staff member's or a superuser's user page": lambda c: all(
            page(c, reverse("admin:auth_user_change", args=[user.id]))
            for user in get_user_model().objects.filter(username__in=["olga", "root"])
        ),
        "Reveal roles": lambda c: page(c, url("reveal", game)),
        "API tokens": lambda c: page(c, reverse("admin:games_apitoken_changelist")),
    }
    rows = _role_table()
    assert len(rows) == len(probes), list(rows)
    for label, (for_organisers, for_superusers) in rows.items():
        (probe,) = [p for start, p in probes.items() if label.strip('"').startswith(start)]
        assert probe(organiser_client) == _may(for_organisers), label
        assert probe(root_client) == _may(for_superusers), label
        if label.startswith("table talk"):  # "yes, and the `ghosts` and `den` channels"
            assert not secret_channels(organiser_client)
            assert secret_channels(root_client) == ("`den`" in for_superusers)
