"""The room screen carries its narrator's words as data: the lines
games/presenters/narration.py builds from the public view, whoever's browser opens it, and no script
of its own in the page (a Content-Security-Policy without 'unsafe-inline' must not break it)."""

from __future__ import annotations

import html
import json
import re

import pytest

from games.presenters import narration
from games.selectors import game as selectors
from tests.web.conftest import Phone
from tests.web.test_play import ROUND_1

pytestmark = pytest.mark.django_db


def spoken(page: str) -> dict:
    found = re.search(r'<div id="narration" hidden data-lines="(.*?)"></div>', page, re.S)
    assert found, "the page carries no #narration data"
    return json.loads(html.unescape(found.group(1)))


def test_the_room_screen_carries_the_public_views_lines_even_in_a_players_browser(table):
    t = table("LVHHHH")
    t.play(ROUND_1)
    public = narration.narration(selectors.game_view(t.game, None))
    assert any(line["id"] == "r1-dining" for line in public["lines"])
    for client in (Phone("Room").client, t.phone(1).client, t.phone(2).client):  # Lord, Vampire
        page = client.get(f"/t/{t.code}/").content.decode()
        assert spoken(page) == public


def test_a_refresh_carries_the_new_lines_and_the_time_cues(table):
    t = table("LVHHHH")
    room = Phone("Room").client
    version = t.game.version
    t.play(ROUND_1)
    part = room.get(f"/t/{t.code}/changed?v={version}", headers={"HX-Request": "true"})
    data = spoken(part.content.decode())
    assert [line["text"] for line in data["lines"]] == [
        "Dining, round 1: the tokens are revealed.",
        "Cleo has the most Stakes and chooses who examines their role.",
    ]
    assert data["timer"]["cues"][0] == {
        "seconds": 60,
        "text": "One minute left to choose who examines.",
    }


def test_the_narrator_needs_no_inline_script_or_handler(table):
    t = table("LVHHHH")
    page = Phone("Room").client.get(f"/t/{t.code}/").content.decode()
    assert '<script src="/static/js/narrator.js" defer></script>' in page
    ours = re.search(r'<aside class="narrator".*?</aside>', page, re.S).group(0)
    ours += re.search(r'<div id="display".*</div>', page, re.S).group(0)
    scripts = re.findall(r"<script\b[^>]*>", ours)
    assert scripts == []  # the lines are data (#narration's data-lines), not a script element
    assert '<div id="narration" hidden data-lines="' in ours
    assert not re.search(r"\son[a-z]+\s*=", ours), "an inline event handler"
