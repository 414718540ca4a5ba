"""The game page's shared regions (games/web/regions.py): the table and the public log are
rendered once per game version and audience, every phone gets the same bytes, no private fact
enters them, and a poll after a change brings back only the regions whose version moved."""

from __future__ import annotations

import re

import pytest

from games.web import metrics
from tests.web.conftest import Phone
from tests.web.test_play import ROUND_1

pytestmark = pytest.mark.django_db

REGIONS = ("table", "log")


def element(html: str, element_id: str) -> str | None:
    """The whole `<div id="element_id" ...>...</div>` in `html` (nested divs counted)."""
    start = html.find(f'<div id="{element_id}"')
    if start < 0:
        return None
    depth = 0
    for tag in re.finditer(r"<(/?)div\b", html[start:]):
        depth += -1 if tag.group(1) else 1
        if depth == 0:
            end = start + tag.start() + html[start + tag.start() :].index(">") + 1
            return html[start:end]
    raise AssertionError(f"#{element_id} is not closed")


def held(html: str) -> str:
    """The X-Staked-Regions header a page's script would send (static/js/staked.js)."""
    found = re.findall(r'<div id="(\w+)-region" class="region" data-region-version="(\w+)"', html)
    return ",".join(f"{name}={version}" for name, version in found)


def shared(phone: Phone, code: str) -> dict[str, str]:
    page = phone.page(code)
    return {name: element(page, f"{name}-region") for name in REGIONS}


def test_a_poll_after_a_change_brings_back_only_the_regions_that_moved(
    table, django_capture_on_commit_callbacks
):
    t = table("LVHHHH")
    cleo = t.phone(3)
    page = cleo.page(t.code)
    version = re.search(r'<div id="game"[^>]*?data-version="(\d+)"', page, re.S).group(1)
    assert element(page, "table-region") and element(page, "log-region")
    # Ana places a token: the table shows it (who placed on whom), the public log does not move.
    with django_capture_on_commit_callbacks(execute=True):  # the poll key moves on commit
        t.phone(1).act(t.code, "place_token", token="stake", target="3")
    answer = cleo.client.get(
        f"/g/{t.code}/changed?v={version}",
        headers={"HX-Request": "true", "X-Staked-Regions": held(page)},
    )
    html = answer.content.decode()
    assert answer.status_code == 200 and "<html" not in html and 'id="game"' in html
    assert 'id="table-region" class="region" data-region-version=' in html
    assert 'hx-swap-oob="true"' in element(html, "table-region")
    assert 'class="placed-chip" title="Ana">1<' in html
    assert element(html, "log-region") is None  # unchanged: not sent again
    # A phone that holds no region (a page without the script) gets both.
    bare = cleo.client.get(f"/g/{t.code}/changed?v={version}", headers={"HX-Request": "true"})
    assert element(bare.content.decode(), "log-region") is not None


def test_the_shared_regions_are_rendered_once_per_version_and_served_from_the_cache(table):
    t = table("LVHHHH")
    t.phone(1).act(t.code, "place_token", token="stake", target="3")
    before = metrics.COUNTS.copy()
    pages = [shared(phone, t.code) for phone in t.phones]
    rendered = {
        name: metrics.COUNTS[f"{name}_rendered"] - before[f"{name}_rendered"] for name in REGIONS
    }
    hits = {name: metrics.COUNTS[f"{name}_hit"] - before[f"{name}_hit"] for name in REGIONS}
    assert rendered == {"table": 0, "log": 0}  # the move's own answer rendered them
    assert hits == {"table": 6, "log": 6}
    assert all(p == pages[0] for p in pages)


def test_the_table_has_no_mark_of_the_viewer_the_page_script_adds_it(table):
    t = table("LVHHHH")
    page = t.page(3)
    assert 'data-my-seat="3"' in page
    assert "(you)" not in element(page, "table-region") and "is-me" not in page


def play_twin(table, roles: str, spectator: Phone) -> list[dict[str, str]]:
    """One twin: round 1 and the start of round 2 through the pages, every phone and a
    spectator reading the shared regions after each change."""
    t = table(roles)
    seen = []

    def look():
        for phone in [*t.phones, spectator]:
            seen.append(shared(phone, t.code))

    look()
    for seat, plan in ROUND_1.items():
        t.phone(seat).place(t.code, plan)
        look()
    t.phone(3).act(t.code, "choose_examiner", target="4")  # round 2 begins
    look()
    t.phone(2).place(t.code, "S3")  # Ben: a Vampire in one twin, the Lord in the other
    t.phone(4).place(t.code, "S1")
    look()
    return seen


def test_twin_games_that_differ_only_in_a_secret_share_regions_byte_for_byte(table):
    """The Lord and a Vampire trade seats 1 and 2; the same moves in both games. Every
    observer (each seat, the swapped ones too, and a spectator) gets the same shared regions
    in both games, and the same as every other observer at that moment."""
    spectator = Phone("Zed")
    spectator.sign_up()
    a = play_twin(table, "LVHHHH", spectator)
    b = play_twin(table, "VLHHHH", spectator)
    assert len(a) == len(b) == 7 * 9
    for i, (seen_a, seen_b) in enumerate(zip(a, b, strict=True)):
        assert seen_a["table"] and seen_a["log"]
        assert seen_a == seen_b, f"observation {i}: the twins' shared regions differ"
    for moment in range(0, len(a), 7):  # every observer at one moment: the same bytes
        assert all(seen == a[moment] for seen in a[moment : moment + 7])
