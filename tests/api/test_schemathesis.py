"""The whole API against its own OpenAPI schema (issue 12, "Done means"): schemathesis sends
generated requests, valid and invalid, to a live server (pytest-django's `live_server`, a real
HTTP server in a thread) and runs every check it has: no 5xx, only declared status codes,
content types and headers, bodies that match the schema, invalid input refused, auth honoured.

The requests use a guest's token and, for the routes that take a game code, the code of a game
in the lobby, in Mingling or finished (or a generated one). `STAKED_FUZZ_EXAMPLES` sets how many
examples each operation gets: a few here (the suite stays quick), many under `make fuzz-api`.
"""

from __future__ import annotations

import os

import pytest
import schemathesis
from django.contrib.auth import get_user_model
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from rest_framework.authtoken.models import Token

from games import admin_services, services

pytestmark = pytest.mark.django_db(transaction=True)

EXAMPLES = int(os.environ.get("STAKED_FUZZ_EXAMPLES", "12"))
STATES = ["lobby", "mingling", "finished", "generated"]


@pytest.fixture
def tables(settings):
    """A guest seated at three tables (a lobby, a game in Mingling, a finished one), and the
    budgets raised so that the run tests the API, not the rate limits."""
    settings.RATE_LIMITS = {scope: "100000/min" for scope in settings.RATE_LIMITS}
    users = get_user_model().objects
    eve = services.guest_create(name="Eve")
    others = [users.create_user(f"fuzz-{i}") for i in range(5)]
    codes = {"lobby": services.game_create(host=eve, options={}, name="Eve").code}
    for state in ("mingling", "finished"):
        game = services.game_create(host=eve, options={}, name="Eve")
        for i, user in enumerate(others):
            services.game_join(code=game.code, user=user, name=f"P{i}")
        services.game_start(code=game.code, user=eve)
        codes[state] = game.code
    admin_services.game_abandon(code=codes["finished"], by="fuzz")
    return {"token": Token.objects.create(user=eve).key, "codes": codes}


@pytest.fixture
def api_schema(live_server, tables):
    return schemathesis.openapi.from_url(f"{live_server.url}/api/v1/schema/")


schema = schemathesis.pytest.from_fixture("api_schema")


@schema.parametrize()
@schema.given(state=st.sampled_from(STATES))
@settings(
    max_examples=EXAMPLES,
    deadline=None,
    suppress_health_check=list(HealthCheck),
)
def test_the_api_keeps_to_its_schema(case, state, live_server, tables):
    if state != "generated" and "code" in (case.path_parameters or {}):
        case.path_parameters["code"] = tables["codes"][state]
    case.call_and_validate(
        base_url=live_server.url, headers={"Authorization": f"Token {tables['token']}"}
    )
