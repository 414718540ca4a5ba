"""The gaps in the public event numbering told who was examined, and a
gap of three that it was the Vampire Lord's card (the examination and two Mesmerism lines).

Each viewer now numbers the events it may see, 1, 2, 3, ... with no gap (`seq`, and the `after`
cursor); the admin's public log numbers the public lines only.
"""

from __future__ import annotations

import re

import pytest
from django.contrib.auth import get_user_model
from django.contrib.auth.models import Permission
from django.test import Client

from games import engine, services
from games.models import Event, Game
from tests.api.conftest import guest

pytestmark = pytest.mark.django_db

# Round 1 of six: seat 1 has the most Stakes and lets seat 3 (a Hunter) examine them (R6.1).
ROUND_1 = {1: "S2 S3 F4", 2: "S1 S3 F4", 3: "S1 S5 F4", 4: "S1 S3 F5", 5: "S1 S3 F4"}
ROUND_1 |= {6: "S1 S2 F4"}


def examined_in_round_1(table, deal: str):
    t = table(deal)
    for seat, plan in ROUND_1.items():
        t.place(seat, plan)
    t.act(1, "choose_examiner", target=3)
    return t


def test_r8_1_examining_the_lord_and_a_vampire_leave_the_same_numbers_to_others(table):
    """Seat 1 is the Lord in one game (seat 3 is Mesmerized: three private lines) and a Vampire
    in the other (one): the spectator's and the other seats' logs are the same, numbers too."""
    lord, vampire = examined_in_round_1(table, "LVHHHH"), examined_in_round_1(table, "VLHHHH")
    assert lord.view(3)["me"]["mesmerized"] and not vampire.view(3)["me"]["mesmerized"]
    watcher = guest("Sam")
    for who in ("spectator", 4, 5, 6):
        logs = []
        for t in (lord, vampire):
            client = watcher if who == "spectator" else t.client(who)
            logs.append([client.get(t.url(f"events/?after={after}")).json() for after in (0, 9)])
        assert logs[0] == logs[1], who
        numbers = [e["seq"] for e in logs[0][0]["events"]]
        assert numbers == list(range(1, len(numbers) + 1)), who
        assert [e["seq"] for e in logs[0][1]["events"]] == numbers[9:], who


def test_each_viewer_numbers_the_events_it_may_see_with_no_gap(django_user_model):
    """Private lines of every kind (night information, placements, examinations, relics drawn,
    tokens set aside...) count in their audience's numbering only."""
    from games.selectors.game import events_seen_by, events_tail

    host = django_user_model.objects.create_user("host")
    game = services.game_create(host=host, options={}, name="Host")
    audiences = [None, (2,), None, (2, 5), (3,), None, (5,), (5,), None]
    services.GameWrite(game).log(
        [engine.Event("x", f"line {i}", 1, {}, a) for i, a in enumerate(audiences)]
    )
    expected = {
        None: ["line 0", "line 2", "line 5", "line 8"],
        2: ["line 0", "line 1", "line 2", "line 3", "line 5", "line 8"],
        5: ["line 0", "line 2", "line 3", "line 5", "line 6", "line 7", "line 8"],
    }
    for seat, lines in expected.items():
        lines = ["“Host” opened the table.", *lines]
        events, more = events_seen_by(game, seat)
        assert [e["text"] for e in events] == lines and not more
        assert [e["seq"] for e in events] == list(range(1, len(lines) + 1))
        page, more = events_seen_by(game, seat, after=2, limit=2)
        assert [(e["seq"], e["text"]) for e in page] == [(3, lines[2]), (4, lines[3])] and more
        assert [e["seq"] for e in events_tail(game, seat, 3)] == [
            len(lines) - 2,
            len(lines) - 1,
            len(lines),
        ]


def test_the_admins_public_log_numbers_the_public_lines_only(table):
    t = examined_in_round_1(table, "LVHHHH")
    game = Game.objects.get(code=t.code)
    organiser = get_user_model().objects.create_user("ola", is_staff=True)
    organiser.user_permissions.set(Permission.objects.filter(content_type__app_label="games"))
    client = Client()
    client.force_login(organiser)
    html = client.get(f"/admin/games/game/{game.pk}/change/").content.decode()
    whole = client.get(f"/admin/games/game/{game.pk}/log/").content.decode()
    public = Event.objects.filter(game=game, audience__isnull=True).order_by("seq")
    numbered = [(str(i), e.kind) for i, e in enumerate(public, start=1)]
    line = r'<span class="meta">#(\d+) · round \d+ · (\w+) · '
    assert re.findall(line, whole) == numbered  # the whole log (one page here)
    assert re.findall(line, html) == numbered[-20:]  # the game's page: its last 20 lines
    # nothing else on the page counts the private lines: no rows' ids, no game-wide "#seq"
    assert Event.objects.filter(game=game, audience__isnull=False).exists()
    assert 'name="events-' not in html and not re.search(rf"{t.code} #\d+", html)
