"""`pending` is the complete, typed list of legal moves. Whole games are played
through the real routes (relics and Last Wills on), every seat's `pending` is checked against the
published schema (`PendingOut`, a oneOf on the action name, with no undeclared property), and
moves are made only from what `pending` offers: the server accepts every one."""

from __future__ import annotations

import random

import jsonschema_rs
import pytest
from rest_framework.test import APIClient

from games.engine.offers import moves
from tests.conftest import examples

pytestmark = pytest.mark.django_db

ACTIONS = {
    "ready",
    "place_token",
    "intervention_vote",
    "tiebreak_vote",
    "choose_examiner",
    "give_relic",
    "use_relic",
    "pass",
    "resolve_choice",
}


def closed(schema: dict) -> dict:
    """The published components with every object closed (`additionalProperties: false`)."""

    def close(node):
        if isinstance(node, dict):
            if node.get("type") == "object" and "properties" in node:
                node.setdefault("additionalProperties", False)
            for value in node.values():
                close(value)
        elif isinstance(node, list):
            for value in node:
                close(value)

    components = schema["components"]
    close(components)
    return components


@pytest.fixture
def validator():
    schema = APIClient().get("/api/v1/schema/", {"format": "json"}).json()
    return jsonschema_rs.validator_for(
        {"$ref": "#/components/schemas/PendingOut", "components": closed(schema)}
    )


def body(args: dict) -> dict:
    """An engine move in the API's words: one seat is `targets: [seat]` too (docs/api.md)."""
    out = dict(args)
    if "target" in out:
        out["targets"] = [out.pop("target")]
    return out


def check(validator, entry: dict) -> None:
    errors = [e.message for e in validator.iter_errors(entry)]
    assert not errors, (entry, errors)
    options = entry["options"]
    assert isinstance(options["targets"], list) and options["min"] <= options["max"]


def step(t, validator, rng: random.Random, seen: dict) -> dict:
    """Check every seat's `pending`, then make one offered move; return the public view."""
    public = t.view(1)
    if public["status"] == "finished":
        return public
    offers = {}
    for seat in range(1, len(t.players) + 1):
        view = public if seat == 1 else t.view(seat)
        for entry in view["pending"]:
            check(validator, entry)
            options = entry["options"]
            seen.setdefault(entry["action"], set()).add(
                options.get("relic") or options.get("choice")
            )
        if view["pending"]:
            offers[seat] = view["pending"]
    waited = [s for s in public["waiting_for"] if s in offers] or sorted(offers)
    assert waited, f"the game waits on {public['waiting_for']} but offers nothing"
    seat = rng.choice(waited)
    entry = rng.choice(offers[seat])
    args = rng.choice(moves(entry))
    t.act(seat, entry["action"], **body(args))  # 200, or the test fails
    return public


def play(table, validator, roles: str, seed: int) -> dict:
    """Play to the end from `pending`; return what was offered, by action (relic, choice)."""
    rng = random.Random(seed)
    reveal = {"timers": {"reveal": 60}} if seed % 2 else {}  # odd seeds: the role reveal first
    t = table(roles, relics=True, last_wills=True, seed=seed, **reveal)  # the same decks
    seen: dict[str, set] = {}
    for _ in range(1500):
        if step(t, validator, rng, seen)["status"] == "finished":
            return seen
    raise AssertionError("the game did not end")


@pytest.mark.long(17)
@pytest.mark.parametrize("seed", [1, 2][: examples(suite=1, long=2)])  # 2: `make test-long`
def test_pending_matches_the_schema_and_every_offer_is_accepted(table, validator, seed):
    seen = play(table, validator, "HHHHHVL", seed)
    assert {"place_token", "give_relic", "use_relic", "pass", "resolve_choice"} <= set(seen)


@pytest.mark.long(34)
def test_every_action_kind_is_offered_in_the_schema_across_games(table, validator):
    """Across a few games every one of the nine actions is offered (and checked)."""
    seen: set = set()
    for seed in range(10, 16):
        seen |= set(play(table, validator, "HHHHHVVL", seed))
        if seen == ACTIONS:
            break
    assert seen == ACTIONS


def test_the_schema_renders_as_yaml_too():
    """The default format of GET /api/v1/schema/ (YAML) holds the action names as plain text."""
    response = APIClient().get("/api/v1/schema/")
    assert response.status_code == 200
    assert b"place_token: '#/components/schemas/PlaceTokenPendingOut'" in response.content


def test_pending_schema_is_a_oneof_on_the_action_name():
    schema = APIClient().get("/api/v1/schema/", {"format": "json"}).json()
    components = schema["components"]["schemas"]
    pending = components["PendingOut"]
    assert pending["discriminator"]["propertyName"] == "action"
    assert set(pending["discriminator"]["mapping"]) == ACTIONS
    for name, ref in pending["discriminator"]["mapping"].items():
        entry = components[ref.rsplit("/", 1)[-1]]
        assert entry["properties"]["action"]
        options = components[entry["properties"]["options"]["$ref"].rsplit("/", 1)[-1]]
        assert {"targets", "min", "max"} <= set(options["required"]), name
    view = components["GameViewOut"]["properties"]["pending"]
    assert view["items"] == {"$ref": "#/components/schemas/PendingOut"}
    use = components["UseRelicOptionsOut"]["properties"]
    assert {"relic", "cards_by_seat", "moves", "partner", "discard"} <= set(use)
    assert use["owners"].get("deprecated") and use["owners_by_seat"].get("deprecated")


def test_relics_in_play_names_relic_ids(table, validator):
    """`relics.in_play` names relics by id, as `use_relic` and `pending` do."""
    t = table("HHHHHVL", relics=True, relic_deck=["signet_ring", "seers_orb"])
    rng, seen = random.Random(5), {}
    for _ in range(300):
        view = step(t, validator, rng, seen)
        if len(view["relics"]["in_play"]) == 7:
            break
    in_play = view["relics"]["in_play"]
    assert len(in_play) == 7 and {"signet_ring", "seers_orb"} <= set(in_play)
    ids = {h["relic"] for h in view["relics"]["holdings"]}
    assert set(in_play) == ids
