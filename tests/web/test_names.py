"""A player's name can never pass for the game's own text. Names are cleaned
where they enter (invisible and direction-override characters go, whitespace collapses), two
seats of a game never share one, and the pages show each name in its own element
(games.domain.names)."""

from __future__ import annotations

import re

import pytest

from games import services
from games.models import Player
from games.presenters.wording import for_people
from tests.web.conftest import LETTERS, Phone, sit

pytestmark = pytest.mark.django_db

# The outside audit's name: in a plain log line it read as a line of its own.
FORGED = "Eve). Seat 4 was the Vampire Lord (R13"
# In "What you know", a name that claims a role for another seat.
FORGED_FACT = "Fay (seat 6) is a Vampire. Cleo"
NAME = re.compile(r'<bdi class="name">(.*?)</bdi>', re.S)


def outside_names(html: str) -> str:
    """The page's text with every name element taken out: what the game itself says."""
    return NAME.sub("", html)


def section(page: str, start: str, end: str) -> str:
    return page.split(start, 1)[1].split(end, 1)[0]


def seated(staff, names: list[str], roles: str = "LVHHHH") -> tuple[str, list[Phone]]:
    """A lobby (staff opened it with a fixed deal, then left) with phones of these names."""
    deal = {str(i + 1): LETTERS[c] for i, c in enumerate(roles)}
    options = {"roles": deal, "last_wills": False}
    game = services.game_create(host=staff, options=options, name="Staff")
    phones = [Phone(name) for name in names]
    for phone in phones:
        sit(phone, game.code)
    services.game_leave(code=game.code, user=staff)
    return game.code, phones


def test_a_name_never_reads_as_a_line_of_the_log(staff):
    code, phones = seated(staff, ["Ana", "Ben", "Cleo", "Dev", FORGED, "Fay"])
    log = section(phones[0].page(code), '<ol class="events"', "</ol>")
    assert '<bdi class="name">Eve). Seat 4 was the Vampire Lord (R13</bdi>' in log
    assert "Vampire Lord" not in outside_names(log)


def test_the_names_put_in_place_of_the_games_seat_numbers_are_names_not_text():
    data = {"seat": 5, "target": 2}
    template = "{seat:Seat} was Staked; {target:seat} examined."
    line = str(
        for_people(
            "Seat 5 was Staked; seat 2 examined.", {5: FORGED, 2: "<b>Ben</b>"}, data, template
        )
    )
    assert line == (
        '<bdi class="name">Eve). Seat 4 was the Vampire Lord (R13</bdi> was Staked; '
        '<bdi class="name">&lt;b&gt;Ben&lt;/b&gt;</bdi> examined.'
    )
    assert "Vampire Lord" not in outside_names(line)


def test_what_a_vampire_knows_shows_other_players_names_as_names(staff):
    code, phones = seated(staff, [FORGED_FACT, "Ben", "Cleo", "Dev", "Eli", "Fay"])
    phones[0].post(f"/g/{code}/start")
    known = section(phones[1].page(code), 'id="knowledge"', "</details>")  # seat 2, a Vampire
    assert f'<bdi class="name">{FORGED_FACT}</bdi> is the Vampire Lord' in known
    assert "(seat 6) is a Vampire" not in outside_names(known)


# Cc and Cf: zero-width, direction marks, embeddings, overrides, isolates, BOM, a bell. (A NUL
# is refused outright by Django's forms: "Null characters are not allowed.")
INVISIBLE = (
    "\u200b\u200c\u200d\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069\ufeff\x07"
)


def test_invisible_and_direction_characters_are_stripped_from_a_name_on_the_pages(staff):
    code, _ = seated(staff, ["Ana", f"  E{INVISIBLE}ve \u202e\t\n  Smith\u2066 "])
    assert Player.objects.get(game__code=code, seat=2).name == "Eve Smith"


def test_a_name_with_nothing_visible_is_refused_on_the_pages(staff):
    code, _ = seated(staff, ["Ana"])
    response = Phone("").client.post(f"/g/{code}/join", {"name": INVISIBLE + " \u3164 "})
    assert response.status_code == 400
    assert "at least one visible letter" in response.content.decode()
    assert Player.objects.filter(game__code=code).count() == 1


@pytest.mark.parametrize("name", ["cleo", "CLEO", "Cleo\u200b", " Cleo ", "\uff23leo"])
def test_two_seats_of_a_game_cannot_share_a_name_on_the_pages(staff, name):
    code, _ = seated(staff, ["Ana", "Cleo"])
    response = Phone(name).client.post(f"/g/{code}/join", {"name": name})
    assert response.status_code == 409
    assert "already called" in response.content.decode()
    assert Player.objects.filter(game__code=code).count() == 2
