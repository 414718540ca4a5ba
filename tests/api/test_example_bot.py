"""The example client (examples/bot.py) plays whole games against a live deployment.

The deployment is the production-like one of tests/stack_fixture.py (gunicorn, the stream server,
a Celery worker for the server bots and beat for the timers, private PostgreSQL and Redis),
because the example must work against a real server, not the test client. The bots wait on the
game's stream with their view in each event (`?view=1`), from the lobby to the end: the web
server's access log must show no GET of the game view for their table. Two example bots, each
its own guest process, sit at a six-seat table with four server bots and 10-second timers: one
base game, one with relics and Last Wills. Each bot prints the winner; it must be the one the
server recorded.
"""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

from tests.stack_fixture import pytest_runtest_makereport, stack  # noqa: F401

BOT = Path(__file__).resolve().parents[2] / "examples" / "bot.py"
GAME_SECONDS = 600  # a generous bound for a shared 2-core machine; games take a minute or two


def play(url: str, *options: str) -> tuple[str, list[str]]:
    """Run the host bot (it opens the table) and a guest bot (it joins by code) to the end:
    (the table's code, each bot's output)."""
    common = [sys.executable, str(BOT), url, "--poll", "0.5"]
    host = subprocess.Popen(
        [*common, "--name", "Ada", "--create", "--humans", "2", "--seats", "6", "--timer", "10",
         *options],
        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
    )  # fmt: skip
    first = host.stdout.readline()
    code = re.fullmatch(r"code: (\w+)\n", first)
    assert code, first + host.communicate(timeout=30)[0]
    guest = subprocess.Popen(
        [*common, "--name", "Bea", "--join", code[1]],
        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
    )  # fmt: skip
    outputs = []
    for bot in (host, guest):
        try:
            out = bot.communicate(timeout=GAME_SECONDS)[0]
        except subprocess.TimeoutExpired:
            bot.kill()
            out = bot.communicate()[0]
        print(out)  # shown when the test fails (or with -s)
        outputs.append(out)
        assert bot.returncode == 0, out
    return code[1], outputs


def view_reads(web, code: str) -> int:
    """How many GETs of the game view the web server answered for this table (its access log:
    `127.0.0.1 "GET /api/v1/games/ABCD/ HTTP/1.1" 200 ...`), after checking that the log
    shows the bots' moves at this table."""
    log = web.process.log.read_text(errors="replace")
    assert f'"POST /api/v1/games/{code}/actions/' in log
    return len(re.findall(rf'"GET /api/v1/games/{code}/[ ?]', log))


def recorded_winner(deployment, code: str) -> str:
    with deployment.db() as conn:
        status, state = conn.execute(
            "SELECT status, state FROM games_game WHERE code = %s", [code]
        ).fetchone()
    assert status == "finished"
    return state["outcome"]["winner"]


@pytest.fixture
def server(stack):  # noqa: F811
    stack.stream()  # the bots wait on it (the game view's stream_url) instead of polling
    web = stack.web(workers=2, threads=4)
    stack.worker(env={"BOT_PAUSE_MS": "200"})  # the server bots: a pause of 0.1–0.3 s, not 1–3 s
    stack.beat()
    return web


@pytest.mark.long(36)
def test_two_example_bots_play_a_base_game_to_the_end_and_name_the_winner(server, stack):  # noqa: F811
    code, outputs = play(server.url, "--no-last-wills")
    winner = recorded_winner(stack, code)
    for out in outputs:
        assert "waiting on the stream" in out, out
        assert f"winner: {winner} " in out, out
    assert view_reads(server, code) == 0  # every view came on the stream


@pytest.mark.long(24)
def test_example_bots_finish_a_game_with_relics_and_last_wills(server, stack):  # noqa: F811
    code, outputs = play(server.url, "--relics")
    winner = recorded_winner(stack, code)
    for out in outputs:
        assert f"winner: {winner} " in out, out
    assert view_reads(server, code) == 0


def test_the_example_is_linked_from_the_guide_and_the_readme():
    root = BOT.parents[1]
    assert "](../examples/bot.py)" in (root / "docs" / "api.md").read_text()
    assert "](examples/README.md)" in (root / "README.md").read_text()
