"""The whole API against its own OpenAPI schema: schemathesis runs
against a live server (pytest-django's `live_server`, a real HTTP server in a thread) with every
check on: no 5xx, only declared status codes, content types and headers, bodies that match the
schema, invalid input refused, valid input accepted, authentication honoured.

Its requests carry a guest's token; the routes that take a game code get, as often as not, the
code of a game in the lobby, in Mingling or finished (tests/api/schemathesis_hooks.py). The
settings are tests/api/schemathesis.toml. `STAKED_FUZZ_EXAMPLES` sets the examples per operation
and phase: 2 here, so that the suite stays quick, 10 under `make test-long` and 200 under
`make fuzz-api`; `STAKED_FUZZ_PHASES` the phases (all four there, all but coverage here). The run is
deterministic (the same cases every time), so a verdict never depends on luck.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from django.contrib.auth import get_user_model

from games import services
from games.services import organiser as admin_services
from games.services.api_tokens import issue_token
from games.web.converters import GameCodeConverter
from tests.conftest import examples
from tests.notify.conftest import push_service, vapid  # noqa: F401 - fixtures

pytestmark = pytest.mark.django_db(transaction=True)

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent.parent
EXAMPLES = os.environ.get("STAKED_FUZZ_EXAMPLES") or str(examples(suite=2, long=10))
# The coverage phase (every boundary and every invalid value of every parameter, whatever
# --max-examples says) is 95 of the run's 117 s alone: `make test-long` and `make fuzz-api` run
# it; the suite runs the examples, the fuzzing and the stateful phases, every check on.
ALL_PHASES = "examples,coverage,fuzzing,stateful"
PHASES = os.environ.get("STAKED_FUZZ_PHASES") or (
    ALL_PHASES if examples(suite=0, long=1) else "examples,fuzzing,stateful"
)


@pytest.fixture
def tables(settings):
    """A guest seated at three tables (a lobby, a game in Mingling, a finished one); budgets
    and caps raised so that the run tests the API, not the rate limits."""
    settings.RATE_LIMITS = {scope: "1000000/min" for scope in settings.RATE_LIMITS}
    settings.MAX_OPEN_LOBBIES = 1_000_000
    eve = services.guest_create(name="Eve")
    others = [get_user_model().objects.create_user(f"fuzz-{i}") for i in range(5)]
    codes = {"lobby": services.game_create(host=eve, options={}, name="Eve").code}
    for state in ("mingling", "finished"):
        game = services.game_create(host=eve, options={}, name="Eve")
        for i, user in enumerate(others):
            services.game_join(code=game.code, user=user, name=f"P{i}")
        services.game_start(code=game.code, user=eve)
        codes[state] = game.code
    admin_services.game_abandon(code=codes["finished"], by="fuzz")
    return {"token": issue_token(eve), "codes": list(codes.values())}


@pytest.mark.long(17)
@pytest.mark.usefixtures("vapid")  # Web Push on, with tests/notify's fake push service
def test_schemathesis_finds_nothing_with_every_check_on(live_server, tables, tmp_path):
    env = {
        **os.environ,
        "PYTHONPATH": str(ROOT),
        "SCHEMATHESIS_HOOKS": "tests.api.schemathesis_hooks",
        "STAKED_FUZZ_CODES": ",".join(tables["codes"]),
        "STAKED_FUZZ_CODE_PATTERN": GameCodeConverter.regex,
    }
    command = [
        str(Path(sys.executable).with_name("schemathesis")),
        "--config-file",
        str(HERE / "schemathesis.toml"),
        "run",
        f"{live_server.url}/api/v1/schema/",
        "--checks",
        "all",
        "--header",
        f"Authorization: Token {tables['token']}",
        "--max-examples",
        EXAMPLES,
        "--phases",
        PHASES,
        "--generation-deterministic",
        "--workers",
        "1",
        "--no-color",
        "--report",
        "junit",
        "--report-dir",
        str(tmp_path),
    ]
    result = subprocess.run(
        command, cwd=tmp_path, env=env, capture_output=True, text=True, timeout=900
    )
    assert result.returncode == 0, result.stdout[-20_000:] + result.stderr[-5_000:]
