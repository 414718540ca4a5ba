"""Whose user pages the admin shows: an organiser (staff, not a superuser) players' only, a
superuser everyone's (docs/admin.md, "Whose user pages an organiser sees")."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse

from tests.factories import running_game

pytestmark = pytest.mark.django_db

USERS = reverse("admin:auth_user_changelist")


def change(user) -> str:
    return reverse("admin:auth_user_change", args=[user.id])


def others(superuser, organiser):
    """The accounts that are not players: a superuser, another staff member, the organiser."""
    staff = get_user_model().objects.create_user("sam", email="sam@staff.example", is_staff=True)
    return [superuser, staff, organiser]


def test_an_organiser_lists_and_opens_players_user_pages_only(
    organiser, organiser_client, superuser
):
    game = running_game(6)
    player = game.users[2]
    hidden = others(superuser, organiser)

    listing = organiser_client.get(USERS)
    assert listing.status_code == 200
    html = listing.content.decode()
    for user in game.users:
        assert f'href="{change(user)}"' in html
    for user in hidden:
        assert f'href="{change(user)}"' not in html, user.username
    assert "By staff status" not in html and "By superuser status" not in html
    searched = organiser_client.get(USERS, {"q": "root"}).content.decode()
    assert f'href="{change(superuser)}"' not in searched

    page = organiser_client.get(change(player))
    assert page.status_code == 200
    assert f">{game.code}</a>: seat 3 as p2 (Running)" in page.content.decode()

    for user in hidden:  # by its address: as if there were no such user
        opened = organiser_client.get(change(user), follow=True)
        assert opened.redirect_chain == [(reverse("admin:index"), 302)], user.username
        text = opened.content.decode()
        assert "doesn’t exist" in text
        assert "sam@staff.example" not in text and "root@example.com" not in text
        history = reverse("admin:auth_user_history", args=[user.id])
        assert organiser_client.get(history).status_code == 302
        password = reverse("admin:auth_user_password_change", args=[user.id])
        assert organiser_client.get(password).status_code in (403, 404)


def test_a_superuser_lists_and_opens_every_users_page(root_client, superuser, organiser):
    game = running_game(6)
    everyone = [*game.users, *others(superuser, organiser)]
    html = root_client.get(USERS).content.decode()
    for user in everyone:
        assert f'href="{change(user)}"' in html, user.username
    assert "By staff status" in html and "By superuser status" in html
    for user in everyone:
        page = root_client.get(change(user))
        assert page.status_code == 200, user.username
    assert "sam@staff.example" in root_client.get(change(everyone[-2])).content.decode()
