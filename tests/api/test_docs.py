"""docs/api.md names every action with an example body
that the action's own serializer accepts, is linked from the README and the Swagger UI
description, and points to nothing outside the repository."""

from __future__ import annotations

import json
import re
from pathlib import Path

import jsonschema_rs
import pytest
from django.conf import settings
from rest_framework.test import APIClient

from games.domain.inputs import ACTIONS
from tests.api.test_pending_schema import closed

ROOT = Path(__file__).resolve().parent.parent.parent
GUIDE = (ROOT / "docs" / "api.md").read_text()


def test_the_guide_gives_every_action_an_example_its_serializer_accepts():
    rows = dict(re.findall(r"^\| `(\w+)` \| `(\{.*?\})` \|", GUIDE, flags=re.MULTILINE))
    assert set(rows) == set(ACTIONS)
    for action, body in rows.items():
        serializer = ACTIONS[action](data=json.loads(body))
        assert serializer.is_valid(), (action, serializer.errors)


def test_the_guide_is_linked_from_the_readme_and_the_swagger_ui():
    assert "](docs/api.md)" in (ROOT / "README.md").read_text()
    assert "docs/api.md" in settings.SPECTACULAR_SETTINGS["DESCRIPTION"]
    for section in ("Authentication", "Polling", "Actions", "Errors", "Limits", "Versioning"):
        assert re.search(rf"^## {section}\b", GUIDE, flags=re.MULTILINE), section


@pytest.mark.django_db
def test_the_guide_shows_pending_for_every_action_in_the_published_schema():
    """docs/api.md, "pending": one example or more per action, each valid against the
    published `PendingOut` with no undeclared property."""
    section = GUIDE.split("## pending")[1].split("\n## ")[0]
    examples = [json.loads(b) for b in re.findall(r"```json\n(.*?)\n```", section, re.DOTALL)]
    schema = APIClient().get("/api/v1/schema/", {"format": "json"}).json()
    validator = jsonschema_rs.validator_for(
        {"$ref": "#/components/schemas/PendingOut", "components": closed(schema)}
    )
    for example in examples:
        errors = [e.message for e in validator.iter_errors(example)]
        assert not errors, (example, errors)
    assert {e["action"] for e in examples} == set(ACTIONS)


@pytest.mark.django_db
def test_the_schema_is_openapi_3_1_in_json_when_asked_and_the_guide_says_how():
    """`?format=json` (documented in the guide, linked from it) answers JSON; the default is
    YAML. OpenAPI 3.1: nullable fields are JSON Schema's null type, never 3.0's `nullable`."""
    assert "/api/v1/schema/?format=json" in GUIDE
    client = APIClient()
    answer = client.get("/api/v1/schema/?format=json")
    assert answer["Content-Type"].startswith("application/vnd.oai.openapi+json")
    schema = answer.json()
    assert schema["openapi"] == "3.1.0"
    assert "nullable" not in json.dumps(schema)
    assert client.get("/api/v1/schema/")["Content-Type"].startswith("application/vnd.oai.openapi")
