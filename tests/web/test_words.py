"""Every sentence a seat's page shows, over random whole games at 6 to 12 seats with Sacred
Relics and Last Wills on (docs/voice.md): a person is named, never "Seat N"; no rule ID; no
name in quotes; no doubled word; and what a seat's own page says about that seat (its news,
the recap, the Dining, "Since you last looked", "Only you saw") calls it "you", never by its
own name.

Every seat's page is read at every change of phase (a new round, a Dining, a tie, a Last Will,
a relic window) of a game the sensible bots play through the services as the seats' own users.
The suite plays two games (8 and 11 seats); `make test-long` plays six, 6 to 11 seats.
"""

from __future__ import annotations

import html as html_lib
import random
import re

import pytest

from games import engine, services
from games.bots.moves import bot_move
from games.engine import state_from_json
from games.engine.table import ROLE_TABLE
from games.engine.view import waiting_for
from games.models import Game
from tests.conftest import examples
from tests.words import DOUBLED, RULE_ID, SEAT_NUMBER

pytestmark = pytest.mark.django_db

# 12 seats would need a 13th chair for the staff member who fixes the deal (tests/web/conftest.py)
SIZES = [8, 11, 6, 7, 9, 10][: examples(2, 6)]

# "Seat 5 is Staked", not "sat down at seat 5" (a place) or a chip's "Ana, seat 5" (a label).
SEAT = re.compile(r"(?<!, )" + SEAT_NUMBER.pattern)
MY_LINE = re.compile(r"You are \S+ ?, seat \d+\.")  # the player's own card: name and seat
OWN_SECTIONS = [
    re.compile(r'<section class="card news.*?</section>', re.S),
    re.compile(r'<section class="card since.*?</section>', re.S),
    re.compile(r'<section class="card dining.*?</section>', re.S),
    re.compile(r'<details class="card recap.*?</details>', re.S),
    re.compile(r'<details class="card log[^"]*" id="own-log".*?</details>', re.S),
]


def deal(seats: int) -> str:
    hunters, vampires, _ = ROLE_TABLE[seats]
    return "L" + "V" * vampires + "H" * hunters


def visible(page: str) -> str:
    """The words a person reads: no script, style, tag or attribute."""
    page = re.sub(r"<(script|style)\b.*?</\1>", " ", page, flags=re.S)
    page = re.sub(r"<[^>]+>", " ", page)
    return re.sub(r"\s+,", ",", re.sub(r"\s+", " ", html_lib.unescape(page)))


def around(text: str, m: re.Match) -> str:
    return f"…{text[max(m.start() - 70, 0) : m.end() + 40]}…"


def problems(page: str, names: dict[int, str], reader: int) -> list[str]:
    text = MY_LINE.sub("", visible(page))
    found = [
        f"seat number: …{text[max(m.start() - 60, 0) : m.end() + 40]}…" for m in SEAT.finditer(text)
    ]
    found += [
        f"rule ID: …{text[max(m.start() - 60, 0) : m.end() + 20]}…" for m in RULE_ID.finditer(text)
    ]
    for node in re.findall(
        r">([^<]+)<", re.sub(r"<(script|style)\b.*?</\1>", "", page, flags=re.S)
    ):
        node = html_lib.unescape(node)  # one sentence's words: not a title beside its text
        found += [f"doubled word: {around(node, m)}" for m in DOUBLED.finditer(node)]
    for name in names.values():
        for m in re.finditer(rf"[\"“”']{re.escape(name)}[\"“”']", text):
            found.append(f"quoted name: {around(text, m)}")
    mine = f'<bdi class="name">{html_lib.escape(names[reader])}</bdi>'
    for section in OWN_SECTIONS:
        for block in section.findall(page):
            if mine in block:
                found.append(f"own name in own section: {visible(block)[:200]}")
    return found


@pytest.mark.long(19)
@pytest.mark.parametrize("seats", SIZES)
def test_every_sentence_names_people_and_speaks_to_its_reader_in_random_games(table, seats):
    rng = random.Random(seats)
    t = table(deal(seats), relics=True, last_wills=True, seed=seats, expansion=seats >= 10)
    names = {phone.seat: phone.name for phone in t.phones}
    users = {phone.seat: phone.user for phone in t.phones}
    seen_phases, found = set(), {}
    for _ in range(4000):
        game = Game.objects.get(code=t.code)
        if game.status != Game.Status.RUNNING:
            break
        state = state_from_json(game.state)
        phase = (state.round, state.phase, tuple(waiting_for(state)))
        if phase[:2] not in seen_phases:
            seen_phases.add(phase[:2])
            for seat in names:
                for problem in problems(t.page(seat), names, seat):
                    found.setdefault(problem, (phase, seat))
        seats_waiting = waiting_for(state)
        seat = seats_waiting[0] if seats_waiting else None
        choice = bot_move(rng, seat, engine.view(state, seat)) if seat else None
        if choice is None:
            services.game_expire(game_id=game.id, now=state.deadline + 1)
        else:
            services.action_apply(code=t.code, user=users[seat], name=choice.name, args=choice.args)
    else:
        raise AssertionError("the game did not end")
    for seat in names:  # the end screen, read by everyone
        for problem in problems(t.page(seat), names, seat):
            found.setdefault(problem, ("end", seat))
    assert not found, "\n".join(f"{where}: {what}" for what, where in found.items())
