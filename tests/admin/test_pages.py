"""The admin's pages: what a superuser, a staff member and a player each may see and reach."""

from __future__ import annotations

import time
from datetime import UTC, datetime, timedelta

import pytest
from django.contrib.admin.models import LogEntry
from django.urls import reverse

from games.models import Event, Game
from games.presenters.wording import without_rule_ids
from games.services import clock_pause, game_create, game_expire
from tests.admin.conftest import SECRET_WORDS, client_for, play
from tests.factories import running_game

pytestmark = pytest.mark.django_db

LIST = reverse("admin:games_game_changelist")


def change_url(game):
    return reverse("admin:games_game_change", args=[game.id])


def secret_free(html: str) -> None:
    found = SECRET_WORDS.findall(html)
    assert not found, f"secret words on the page: {sorted(set(found))}"


def a_game_in_round_two() -> Game:
    game = running_game(6)
    play(game, 4)
    game_expire(game_id=game.id, now=time.time() + 3600)  # Mingling times out: a Dining
    game.refresh_from_db()
    return game


def test_the_list_shows_each_game_with_its_columns(root_client):
    game = running_game(6)
    html = root_client.get(LIST).content.decode()
    assert game.code in html
    for column in ("status", "phase", "round", "players", "winner", "updated", "deadline"):
        assert f"column-{column}" in html or column in html.lower()
    assert ">6<" in html  # the players column


def test_the_list_filters_by_status_phase_options_stuck_and_abandoned(root_client, settings):
    settings.ABANDONED_AFTER_HOURS = 2
    fresh = running_game(6)
    stuck = running_game(6)
    past = datetime.now(UTC) - timedelta(minutes=5)
    Game.objects.filter(id=stuck.id).update(deadline=past)
    idle = game_create(host=fresh.users[0], options={"relics": True}, name="host")
    Game.objects.filter(id=idle.id).update(updated_at=datetime.now(UTC) - timedelta(hours=3))

    def codes(query: str) -> set[str]:
        html = root_client.get(f"{LIST}?{query}").content.decode()
        return {g.code for g in (fresh, stuck, idle) if g.code in html}

    assert codes("status__exact=running") == {fresh.code, stuck.code}
    assert codes("status__exact=lobby") == {idle.code}
    assert codes("phase__exact=mingling") == {fresh.code, stuck.code}
    assert codes("stuck=yes") == {stuck.code}
    assert codes("idle=yes") == {idle.code}
    assert codes("relics=on") == {idle.code}
    assert codes("relics=off") == {fresh.code, stuck.code}
    assert codes("last_wills=on") == {fresh.code, stuck.code, idle.code}


def test_the_list_searches_by_code_and_by_player_name(root_client):
    one, two = running_game(6), running_game(6)
    html = root_client.get(LIST, {"q": one.code}).content.decode()
    assert one.code in html and two.code not in html
    one.players.filter(seat=3).update(name="Wilhelmina")
    html = root_client.get(LIST, {"q": "wilhel"}).content.decode()
    assert one.code in html and two.code not in html


def test_the_change_page_shows_options_players_public_log_and_deadline(root_client):
    game = a_game_in_round_two()
    html = root_client.get(change_url(game)).content.decode()
    assert game.code in html
    assert "<li>Last Wills: on</li>" in html  # the public options, as a list
    for player in game.players.all():
        assert player.name in html and player.user.username in html
    public = Event.objects.filter(game=game, audience__isnull=True).last()
    assert without_rule_ids(public.text) in html  # an organiser reads no rule IDs
    assert "Deadline" in html
    # No secret before the reveal, even for a superuser; and no raw state, seed or fixed roles.
    secret_free(html)
    assert str(game.seed) not in html
    private_lines = list(Event.objects.filter(game=game, audience__isnull=False))
    assert private_lines  # night information at least (R1.3)
    for private in private_lines:
        assert private.text not in html
    assert "Reveal roles" in html and "Export replay" in html


def test_a_clock_the_table_paused_shows_as_paused_with_the_time_left_not_as_no_deadline(
    root_client,
):
    game = running_game(6)
    clock_pause(code=game.code, user=game.host)
    listing = root_client.get(LIST).content.decode()
    assert "paused by the table, 3 min left when it resumes" in listing
    html = root_client.get(change_url(game)).content.decode()
    assert "paused by the table, 3 min left when it resumes" in html
    extend = root_client.get(reverse("admin:games_game_extend", args=[game.id]))
    assert "there is no deadline to extend until then" in extend.content.decode()


def test_a_superuser_sees_roles_only_after_an_explicit_reveal_which_is_logged(
    root_client, superuser
):
    game = running_game(6)
    url = reverse("admin:games_game_reveal", args=[game.id])
    confirm = root_client.get(url).content.decode()
    secret_free(confirm)
    assert not LogEntry.objects.filter(object_id=str(game.id)).exists()

    page = root_client.post(url)
    assert page.status_code == 200
    assert page["Cache-Control"].startswith("max-age=0") or "no-cache" in page["Cache-Control"]
    html = page.content.decode()
    assert "the Vampire Lord" in html and "a Hunter" in html
    entry = LogEntry.objects.get(object_id=str(game.id), user=superuser)
    assert "Revealed roles" in entry.get_change_message()
    assert "Vampire" not in entry.get_change_message()


def test_staff_who_are_not_superusers_see_no_secret_anywhere(staff_client):
    game = a_game_in_round_two()
    pages = [
        LIST,
        f"{LIST}?stuck=yes",
        f"{LIST}?idle=yes",
        f"{LIST}?relics=off",
        f"{LIST}?q={game.code}",
        change_url(game),
        reverse("admin:games_game_history", args=[game.id]),
        reverse("admin:games_game_extend", args=[game.id]),
        reverse("admin:games_game_replace_seat", args=[game.id]),
        reverse("admin:index"),
    ]
    private_lines = list(Event.objects.filter(game=game, audience__isnull=False))
    assert private_lines  # night information at least (R1.3)
    for url in pages:
        response = staff_client.get(url)
        assert response.status_code == 200, url
        html = response.content.decode()
        secret_free(html)
        for private in private_lines:
            assert private.text not in html, url
    change = staff_client.get(change_url(game)).content.decode()
    assert "Reveal roles" not in change and "Export replay" not in change
    assert "Expire window now" in change  # staff may still run the game

    # The secret pages themselves are refused, whatever the method.
    for name in ("games_game_reveal", "games_game_export"):
        url = reverse(f"admin:{name}", args=[game.id])
        assert staff_client.get(url).status_code == 403
        assert staff_client.post(url).status_code == 403
    assert staff_client.get(reverse("admin:games_game_import")).status_code == 403
    # No admin page lists the replay log or the raw events.
    assert staff_client.get("/admin/games/action/").status_code == 404
    assert staff_client.get("/admin/games/event/").status_code == 404


def test_staff_without_the_change_permission_cannot_act(staff, staff_client):
    staff.user_permissions.remove(*staff.user_permissions.exclude(codename="view_game"))
    game = running_game(6)
    html = staff_client.get(change_url(game)).content.decode()
    assert "Expire window now" not in html
    for name in ("games_game_expire", "games_game_extend", "games_game_abandon"):
        url = reverse(f"admin:{name}", args=[game.id])
        assert staff_client.post(url, {"minutes": 5}).status_code == 403
    game.refresh_from_db()
    assert game.status == Game.Status.RUNNING


def test_players_have_no_access_to_the_admin(outsider):
    game = running_game(6)
    version = game.version
    for user in (outsider, game.users[0]):
        client = client_for(user)
        urls = [
            LIST,
            change_url(game),
            reverse("admin:games_game_reveal", args=[game.id]),
            reverse("admin:games_game_export", args=[game.id]),
            reverse("admin:games_game_expire", args=[game.id]),
            reverse("admin:games_game_import"),
        ]
        for url in urls:
            for response in (client.get(url), client.post(url)):
                assert response.status_code == 302, url
                assert "/admin/login/" in response["Location"]
                secret_free(response.content.decode())
    game.refresh_from_db()
    assert game.status == Game.Status.RUNNING and game.version == version


def test_relic_holders_are_public_on_the_game_page_for_staff(root_client, staff_client):
    """R10.2a: who holds which relic is public (face-up), so staff see it with the seats; the
    superusers' reveal page keeps only what is secret."""
    from relics.models import RelicHolding

    game = running_game(6)
    RelicHolding.objects.create(game=game, seat=4, relic="seers_orb", card="seers_orb#1")
    for client in (root_client, staff_client):
        assert b"seers_orb" in client.get(change_url(game)).content
    html = root_client.post(reverse("admin:games_game_reveal", args=[game.id])).content
    assert b"seers_orb" not in html
