"""The published schema declares one event schema per kind (a `oneOf` chosen by
`kind`), docs/api.md lists the same table, both made from games/domain/event_schemas.py; the events
a whole game (relics and Last Wills on) shows each seat and a spectator through the API match it,
undeclared properties forbidden."""

from __future__ import annotations

from pathlib import Path

import jsonschema
import pytest
from rest_framework.test import APIClient

from games.domain import event_schemas
from games.engine.events import json_schema
from games.engine.vocabulary import EventKind
from games.models import Event
from tests.history.tables import play_to_the_end, table, users

pytestmark = pytest.mark.django_db
ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def schema(django_db_blocker) -> dict:
    with django_db_blocker.unblock():
        return APIClient().get("/api/v1/schema/", {"format": "json"}).json()


def test_the_schema_publishes_one_event_schema_per_kind_chosen_by_kind(schema):
    components = schema["components"]["schemas"]
    event = components["EventOut"]
    mapping = event["discriminator"]["mapping"]
    assert event["discriminator"]["propertyName"] == "kind"
    assert set(mapping) == {k.value for k in EventKind} | set(Event.SERVICE_KINDS)
    assert [one["$ref"] for one in event["oneOf"]] == list(mapping.values())
    for kind, ref in mapping.items():
        branch = components[ref.rsplit("/", 1)[-1]]
        assert branch["properties"]["kind"]["enum"] == [kind]
        assert branch["additionalProperties"] is False
        assert branch["properties"]["data"]["additionalProperties"] is False, kind
    placed = components[mapping["token_placed"].rsplit("/", 1)[-1]]["properties"]["data"]
    assert placed["properties"]["target"]["type"] == "integer"
    assert "double_stake" in placed["properties"]["token"]["enum"]


def test_every_line_the_site_writes_has_a_declared_data_schema():
    assert set(event_schemas.SERVICE_DATA) == set(Event.SERVICE_KINDS)


def test_the_guide_lists_every_event_kind_from_the_same_table():
    """docs/api.md holds the table `python -m games.domain.event_schemas` writes, unchanged."""
    guide = (ROOT / "docs" / "api.md").read_text()
    assert event_schemas.markdown_table() in guide
    for kind in event_schemas.DATA:
        assert f"| `{kind}` |" in guide


def _validator(schema: dict, ref: str) -> jsonschema.Draft202012Validator:
    """`ref`'s component as plain JSON Schema, its `$ref`s resolved from `schema`."""
    components = {k: json_schema(v) for k, v in schema["components"]["schemas"].items()}
    root = {"$ref": ref, "components": {"schemas": components}}
    return jsonschema.Draft202012Validator(root)


def test_the_events_of_a_whole_game_through_the_api_match_the_published_schema(schema):
    players = users(8)
    game = table(players, relics=True, last_wills=True)
    play_to_the_end(game)
    validator = _validator(schema, "#/components/schemas/EventListOut")
    kinds = set()
    for user in [*players, None]:
        client = APIClient()
        if user is not None:
            client.force_authenticate(user)
        else:
            client.force_authenticate(users(1)[0])  # a spectator
        after, more = 0, True
        while more:
            body = client.get(f"/api/v1/games/{game.code}/events/", {"after": after}).json()
            errors = [f"{list(e.absolute_path)}: {e.message}" for e in validator.iter_errors(body)]
            assert not errors, errors[:5]
            for e in body["events"]:
                assert set(e) == {"seq", "round", "kind", "text", "data"}
                kinds.add(e["kind"])
            after, more = len(body["events"]) + after, body["more"]
    assert {"game_started", "dining", "relic_given", "last_will", "game_over"} <= kinds
