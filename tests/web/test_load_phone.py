"""The load harness's phones read the real pages (loadtest/phone.py): if a template changes what
the harness relies on, this fails here, not in a benchmark run.

Six phones play a whole game (Last Wills on) only through what they read in the HTML: the game's
poll and version, and the action forms, filled in at random as a tap would.
"""

from __future__ import annotations

import random

import pytest

from games import services
from games.models import Game
from loadtest.phone import read

pytestmark = pytest.mark.django_db


@pytest.mark.long(16)
def test_phones_play_a_whole_game_from_the_forms_they_read(table):
    t = table("LVHHHH", last_wills=True)
    rng = random.Random(7)
    first = read(t.page(1))
    assert [p.key for p in first.pollers][:1] == ["game"]
    assert first.pollers[0].url.startswith(f"/g/{t.code}/changed?v={first.version}&p=")
    assert first.pollers[0].seconds > 0 and first.status == "running"

    moves = 0
    for _ in range(400):
        if t.game.status == Game.Status.FINISHED:
            break
        ready = None
        for phone in rng.sample(t.phones, len(t.phones)):
            page = read(phone.page(t.code))
            if page.moves:
                ready = phone, page
                break
        if ready is None:  # nobody has a move: the window waits for its timer
            game = t.game
            assert services.game_expire(game_id=game.id, now=game.deadline.timestamp() + 1)
            continue
        phone, page = ready
        form = rng.choice(page.moves)
        answer = phone.client.post(
            form.url, dict_of(form.filled(rng)), headers={"HX-Request": "true"}
        )
        assert answer.status_code == 200, answer.content.decode()[:300]
        assert read(answer.content.decode()).version > page.version
        moves += 1

    assert t.game.status == Game.Status.FINISHED and moves > 10
    assert read(t.page(2)).status == "finished"


def dict_of(fields: list[tuple[str, str]]) -> dict[str, list[str]]:
    out: dict[str, list[str]] = {}
    for name, value in fields:
        out.setdefault(name, []).append(value)
    return out
