"""A move tapped while the page's poll is slow is sent, not silently lost.

htmx queues a poll that comes due while the last one is still out; a move (hx-sync "closest
#game:replace") aborted the poll, which started the queued one, and the move then waited behind
it. When that poll brought a newer #game, the move's form was gone and htmx dropped the move:
the phone showed the choice still made and nothing happened (the six-phone test timed out
waiting for the answer to a confirm on a loaded machine)."""

from __future__ import annotations

import threading

import pytest

from tests.browser.pages import expect, seat_six

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.mark.long(36)
def test_a_move_confirmed_while_the_polls_hang_and_the_game_changes_is_sent(phones, server):
    table = seat_six(phones(6))
    ana, ben = table[0], table[1]
    session = next(c["value"] for c in ben.page.context.cookies() if c["name"] == "sessionid")
    released = threading.Event()
    httpd = server.thread.httpd
    app = httpd.get_app()

    def slow_polls(environ, start_response):
        if "/changed" in environ["PATH_INFO"] and session in environ.get("HTTP_COOKIE", ""):
            released.wait(30)
        return app(environ, start_response)

    httpd.set_app(slow_polls)  # Ben's polls hang; everything else is answered
    try:
        ben.page.wait_for_timeout(4500)  # one poll out, the next one due behind it
        ana.place("stake", 3)  # the game moves on: Ben's next poll would bring a new page
        moves = []
        ben.page.on("request", lambda r: moves.append(r.url) if "/act/" in r.url else None)
        ben.choose_token("stake")
        ben.choose_target(4)
        ben.page.locator('form[data-action="place_token"] button[type=submit]').click()
        ben.page.wait_for_timeout(500)
    finally:
        released.set()
    ben.page.wait_for_timeout(3000)
    assert moves, "Ben's move was never sent"
    expect(ben.page.locator("#table-region .table .placed-chip")).to_have_count(2)  # Ana's and his
