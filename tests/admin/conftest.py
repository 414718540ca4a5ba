"""The admin's cast: a superuser, a staff member who is not one, and a player."""

from __future__ import annotations

import io
import re

import pytest
from django.contrib.auth import get_user_model
from django.contrib.auth.models import Permission
from django.core.management import call_command
from django.test import Client

from games.engine import IllegalAction, pending, state_from_json
from games.models import Game
from games.services import action_apply

# Words that name a role or Mesmerism, as the engine and the pages write them.
SECRET_WORDS = re.compile(r"hunter|vampire|\blord\b|mesmer", re.IGNORECASE)


@pytest.fixture
def superuser(db):
    return get_user_model().objects.create_superuser("root", "root@example.com", "pw")


@pytest.fixture
def staff(db):
    """Staff with every games permission, but not a superuser."""
    user = get_user_model().objects.create_user("staff", is_staff=True)
    user.user_permissions.set(Permission.objects.filter(content_type__app_label="games"))
    return user


@pytest.fixture
def organiser(db):
    """A staff user in the Organisers group only (made by `manage.py organisers`)."""
    user = get_user_model().objects.create_user("olga", first_name="Olga")
    call_command("organisers", "olga", stdout=io.StringIO())
    user.refresh_from_db()
    return user


@pytest.fixture
def organiser_client(organiser):
    return client_for(organiser)


@pytest.fixture
def outsider(db):
    return get_user_model().objects.create_user("outsider")


def client_for(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


@pytest.fixture
def root_client(superuser):
    return client_for(superuser)


@pytest.fixture
def staff_client(staff):
    return client_for(staff)


def play(game: Game, moves: int) -> Game:
    """Make `moves` legal moves, each the first option of the lowest seat that has one."""
    for _ in range(moves):
        game.refresh_from_db()
        state = state_from_json(game.state)
        for seat in range(1, len(state.players) + 1):
            options = pending(state, seat)
            if options:
                break
        else:
            break
        choice = options[0]
        args = _first_args(choice)
        try:
            action_apply(
                code=game.code, user=game.users[seat - 1], name=choice["action"], args=args
            )
        except IllegalAction:  # an option this simple player does not know how to fill in
            break
    game.refresh_from_db()
    return game


def _first_args(choice: dict) -> dict:
    options = choice.get("options") or {}
    if choice["action"] == "place_token":
        return {"token": options["tokens"][0], "target": options["targets"][0]}
    args = {}
    if "count" in options:  # a choice of `count` seats (Last Wills, some relics)
        args["targets"] = options["targets"][: options["count"]]
    for key, values in options.items():
        if key in ("count", "targets") and "count" in options:
            continue
        singular = key[:-1] if key.endswith("s") else key
        args[singular] = values[0] if isinstance(values, list) and values else values
    return args


STAMP = re.compile(r'name="stamp" value="([^"]*)"')


def stamp_on(client: Client, url: str) -> str:
    """The stamp an organiser's page carries (what it showed: games.services.organiser.stamp)."""
    page = client.get(url)
    assert page.status_code == 200, url
    found = STAMP.search(page.content.decode())
    assert found, f"no stamp on {url}"
    return found.group(1).replace("&amp;", "&")


def confirm(client: Client, url: str, data: dict | None = None, **kwargs):
    """Open an organiser's page, then submit it as shown (with its stamp)."""
    return client.post(url, {**(data or {}), "stamp": stamp_on(client, url)}, **kwargs)


HIDDEN = re.compile(r'<input type="hidden" name="([^"]+)" value="([^"]*)"')


def bulk(client: Client, changelist: str, action: str, ids: list, **kwargs):
    """A bulk action as an organiser runs it: the action, its confirmation page, "Yes"."""
    page = client.post(changelist, {"action": action, "_selected_action": ids})
    assert page.status_code == 200, page.status_code
    fields: dict[str, list[str]] = {}
    for name, value in HIDDEN.findall(page.content.decode()):
        if name != "csrfmiddlewaretoken":
            fields.setdefault(name, []).append(value.replace("&amp;", "&"))
    assert fields.get("post") == ["yes"], "no confirmation page"
    return client.post(changelist, fields, **kwargs)
