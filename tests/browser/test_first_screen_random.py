"""The first-screen rule in random relic games, not only on the fixed deals: every seat's page
(390x844), loaded after a change of a random 8-seat game with the Sacred Relics and Last Wills,
shows its news, then its move or the reason it waits, inside the first screen; a Ghost's and the
Alpha's titles too, and no empty card (tests/browser/phone_checks.py, `check_seat` and
`check_title`, without axe-core). The sensible bots choose every move, through the services.

`make test` plays one game (8 seats, seed 1: 169 changes) and looks at every seat after every
25th change (56 pages); `make test-long` plays it and a 10-seat game (seed 2) and looks at every
seat after every second change.
"""

from __future__ import annotations

import random

import pytest
from django.contrib.auth import get_user_model
from django.test import Client

from games import engine, services
from games.bots.moves import bot_move
from games.engine import state_from_json
from games.engine.view import waiting_for
from games.models import Game
from tests.browser.conftest import PHONE, WAIT_MS
from tests.browser.pages import Phone
from tests.browser.phone_checks import HEIGHTS, MAX_HEIGHT, check_seat, check_title
from tests.conftest import examples

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

GAMES = [(8, 1), (10, 2)][: examples(suite=1, long=2)]
EVERY = examples(suite=25, long=2)  # look after every EVERY-th change


def signed_in(browser, server, user) -> Phone:
    """A phone signed in as `user` (the session cookie of a test client that logged them in)."""
    client = Client()
    client.force_login(user)
    context = browser.new_context(**PHONE, base_url=server.url)
    context.set_default_timeout(WAIT_MS)
    cookie = client.cookies["sessionid"]
    context.add_cookies([{"name": "sessionid", "value": cookie.value, "url": server.url}])
    return Phone(context.new_page(), user.first_name or user.username)


def one_change(game: Game, rng: random.Random) -> None:
    """A seat the game waits on makes the sensible bot's move; none: the window runs out."""
    state = state_from_json(game.state)
    users = {p.seat: p.user for p in game.players.all()}
    for seat in waiting_for(state):
        action = bot_move(rng, seat, engine.view(state, seat))
        if action is not None:
            services.action_apply(
                code=game.code, user=users[seat], name=action.name, args=action.args
            )
            return
    services.game_expire(game_id=game.id, now=state.deadline + 1)


@pytest.mark.long(50)
@pytest.mark.parametrize(("seats", "seed"), GAMES)
def test_every_seat_s_first_screen_holds_in_a_random_relic_game(browser, server, seats, seed):
    people = [get_user_model().objects.create_user(f"p{seat}-{seed}") for seat in range(seats)]
    options = {"relics": True, "last_wills": True, "seed": seed, "expansion": seats > 10}
    game = services.game_create(host=people[0], options=options, name="P1")
    for n, user in enumerate(people[1:], start=2):
        services.game_join(code=game.code, user=user, name=f"P{n}")
    services.game_start(code=game.code, user=people[0])
    phones = [signed_in(browser, server, user) for user in people]
    for seat, phone in enumerate(phones, start=1):
        phone.seat = seat
    rng, changes, looked, measured = random.Random(seed), 0, 0, len(HEIGHTS)
    try:
        for _ in range(3000):
            game.refresh_from_db()
            if game.status != Game.Status.RUNNING:
                break
            if changes % EVERY == 0:
                ghosts = set(game.state["ghosts"])
                alpha = game.state.get("alpha")
                for phone in phones:
                    phone.page.goto(f"/g/{game.code}/")
                    check_seat(phone, read_news=True)
                    check_title(phone, ghost=phone.seat in ghosts, alpha=phone.seat == alpha)
                    looked += 1
                game.refresh_from_db()
            one_change(game, rng)
            changes += 1
        assert game.status == Game.Status.FINISHED, "the game did not end"
    finally:
        for phone in phones:
            phone.page.context.close()
    print(f"{seats} seats, seed {seed}: {changes} changes, {looked} pages looked at")
    heights = sorted(h for _, h in HEIGHTS[measured:])
    over = sum(h > MAX_HEIGHT for h in heights)
    print(f"page heights: median {heights[len(heights) // 2]} px, max {heights[-1]} px,")
    print(f"  {over} of {len(heights)} pages over {MAX_HEIGHT} px")
