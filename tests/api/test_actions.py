"""The action endpoints (docs/api.md, "Actions") and every error code of its table.

The scripted games switch Last Wills off (R13) so that an elimination never opens a choice.

Every refusal is checked to change nothing: the same version and state, the same view for the
seat, no new events; and never a 500.
"""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from games.models import Event, Game
from tests import factories
from tests.api.conftest import Table, guest

pytestmark = pytest.mark.django_db

ROUND_ONE = {  # seat 3 is most staked and lets seat 1 examine; seat 5 is Alpha in round 2
    1: "S3 S4 F5",
    2: "S3 S4 F5",
    3: "S4 S5 F6",
    4: "S3 S5 F6",
    5: "S3 S6 F4",
    6: "S3 S4 F5",
}
ROUND_TWO = {  # seat 1 (the Lord) is eliminated; seat 4 is Alpha in round 3
    1: "S2 S3 F4",
    2: "S1 S3 F4",
    3: "S1 S2 F4",
    4: "S1 S2 F3",
    5: "D1 F4 I2",
    6: "S1 S2 F4",
}
ROUND_THREE = {  # seat 2 (the last Vampire) is eliminated: the Hunters win (R12.1)
    2: "S3 S4 F5",
    3: "S2 S4 F5",
    4: "D2 F5 I3",
    5: "S2 S3 F6",
    6: "S2 S3 F5",
}
TIED_ROUND_ONE = {  # seats 3 and 4 tie with 5 Stakes each; no Ghosts: everyone votes (R5.3)
    1: "S3 S4 F5",
    2: "S3 S4 F5",
    3: "S4 S5 F6",
    4: "S3 S5 F6",
    5: "S3 S4 F6",
    6: "S3 S4 F5",
}


def mingle(t, plans: dict) -> None:
    for seat, plan in plans.items():
        t.place(seat, plan)


def at_round(t, n: int) -> None:
    """Play the scripted rounds up to the start of round n (2 or 3) or to the end (4)."""
    mingle(t, ROUND_ONE)
    t.act(3, "choose_examiner", target=1)
    if n >= 3:
        mingle(t, ROUND_TWO)
    if n >= 4:
        t.act(1, "intervention_vote", target=6)
        mingle(t, ROUND_THREE)


class Snapshot:
    """Everything an error must leave as it was."""

    def __init__(self, t, viewer):
        game = Game.objects.get(code=t.code)
        self.version, self.state, self.last_seq = game.version, game.state, game.last_seq
        self.status, self.phase = game.status, game.phase
        self.events = Event.objects.filter(game=game).count()
        self.view = viewer.get(t.url()).json()
        self.log = viewer.get(t.url("events/")).json()

    def __eq__(self, other):
        return vars(self) == vars(other)


def refused(t, viewer, action, body, status, code, *, raw=None, headers=None, url=None):
    """POST an action that must be refused with `status`/`code` and change nothing."""
    before = Snapshot(t, viewer)
    path = url or t.url(f"actions/{action}/")
    if raw is not None:
        response = viewer.post(path, raw, content_type="application/json", **(headers or {}))
    else:
        response = viewer.post(path, body, format="json", **(headers or {}))
    assert response.status_code == status, (response.status_code, response.content)
    payload = response.json()
    assert payload["code"] == code, payload
    assert isinstance(payload.get("detail"), str) and payload["detail"]
    assert Snapshot(t, viewer) == before
    return payload


# --- one test per action endpoint ------------------------------------------------------------


def test_place_token_answers_200_with_the_new_view(table):
    t = table("LVHHHH", last_wills=False)
    before = t.view(2)["version"]
    view = t.act(2, "place_token", token="stake", target=4)
    assert view["version"] == before + 1
    assert view["me"]["placed"] == [{"target": 4, "token": "stake"}]
    assert sorted(view["me"]["tokens"]) == ["feast", "stake"]
    assert view["seats"][3]["placed_by"] == [2]


def test_intervention_vote_answers_200_for_a_ghost(table):
    t = table("LVHHHH", last_wills=False)
    at_round(t, 3)
    view = t.view(1)
    assert view["me"]["alive"] is False
    assert view["pending"] == [
        {"action": "intervention_vote", "options": {"targets": [2, 3, 4, 5, 6], "min": 1, "max": 1}}
    ]
    view = t.act(1, "intervention_vote", target=6)
    assert view["me"]["intervention_vote"] == 6
    assert view["pending"] == []


def test_tiebreak_vote_answers_200_for_a_voter(table):
    t = table("LVHHHH", last_wills=False)
    mingle(t, TIED_ROUND_ONE)
    view = t.view(6)
    assert view["phase"] == "tiebreak"
    assert view["pending"] == [
        {"action": "tiebreak_vote", "options": {"targets": [3, 4], "min": 1, "max": 1}}
    ]
    view = t.act(6, "tiebreak_vote", target=3)
    assert view["pending"] == []
    assert view["tie"]["voted"] == [6]


def test_choose_examiner_answers_200_for_the_most_staked(table):
    t = table("LVHHHH", last_wills=False)
    mingle(t, ROUND_ONE)
    view = t.act(3, "choose_examiner", target=2)
    assert view["round"] == 2 and view["phase"] == "mingling"
    assert view["last_dining"]["examiner"] == 2


@pytest.mark.parametrize(
    "action,body",
    [
        ("give_relic", {"target": 4}),
        ("give_relic", {"target": 4, "card": "seers_orb"}),
        ("use_relic", {"relic": "ritual_bell", "targets": [4]}),
        ("use_relic", {"relic": "ritual_bell", "targets": [4], "token": "stake"}),
        ("pass", {}),
        ("resolve_choice", {"choice": "parting_glance", "targets": [4]}),
    ],
)
def test_module_actions_without_an_open_window_are_409_wrong_phase(table, action, body):
    t = table("LVHHHH", last_wills=False)
    refused(t, t.client(3), action, body, 409, "wrong_phase")


def test_r3_3_the_last_placement_ends_mingling(table):
    t = table("LVHHHH", last_wills=False)
    mingle(t, ROUND_ONE)
    assert t.view(1)["phase"] == "choose_examiner"


# --- 400 bad_request -------------------------------------------------------------------------


@pytest.mark.parametrize(
    "raw",
    ["{", "{'token': 'stake'}", "not json", '{"token": "stake", "target": 4', "\x00"],
    ids=["open-brace", "single-quotes", "text", "unclosed", "nul"],
)
def test_a_malformed_json_body_is_400_bad_request(table, raw):
    t = table("LVHHHH", last_wills=False)
    refused(t, t.client(2), "place_token", None, 400, "bad_request", raw=raw)


@pytest.mark.parametrize(
    "raw", ['[{"token": "stake", "target": 4}]', "[]", '"stake"', "4", "null", "true"]
)
def test_a_json_body_that_is_not_an_object_is_400_bad_request(table, raw):
    t = table("LVHHHH", last_wills=False)
    refused(t, t.client(2), "place_token", None, 400, "bad_request", raw=raw)


@pytest.mark.parametrize(
    "body",
    [
        {"token": "stake", "target": "x"},
        {"token": "stake", "target": True},
        {"token": "stake", "target": False},
        {"token": "stake", "target": 4.5},
        {"token": "stake", "target": [4]},
        {"token": "stake", "target": {"seat": 4}},
        {"token": "stake", "target": None},
        {"token": True, "target": 4},
        {"token": ["stake"], "target": 4},
        {"token": None, "target": 4},
        {"token": "s" * 21, "target": 4},
    ],
)
def test_wrong_types_are_400_bad_request(table, body):
    t = table("LVHHHH", last_wills=False)
    refused(t, t.client(2), "place_token", body, 400, "bad_request")


@pytest.mark.parametrize(
    "action,body",
    [
        ("place_token", {}),
        ("place_token", {"token": "stake"}),
        ("place_token", {"target": 4}),
        ("intervention_vote", {}),
        ("tiebreak_vote", {"seat": 4}),
        ("choose_examiner", {}),
        ("give_relic", {"card": "seers_orb"}),
        ("use_relic", {"targets": [4]}),
        ("resolve_choice", {"targets": [4]}),
    ],
)
def test_missing_fields_are_400_bad_request(table, action, body):
    t = table("LVHHHH", last_wills=False)
    refused(t, t.client(2), action, body, 400, "bad_request")


@pytest.mark.parametrize(
    "action,body",
    [
        ("intervention_vote", {"target": "x"}),
        ("tiebreak_vote", {"target": True}),
        ("choose_examiner", {"target": [1]}),
        ("use_relic", {"relic": "ritual_bell", "targets": "4"}),
        ("use_relic", {"relic": "ritual_bell", "targets": [1, 2, 3, 4, 5]}),
        ("resolve_choice", {"choice": "x", "targets": ["a"]}),
    ],
)
def test_wrong_types_on_other_actions_are_400_bad_request(table, action, body):
    t = table("LVHHHH", last_wills=False)
    refused(t, t.client(2), action, body, 400, "bad_request")


@pytest.mark.parametrize("action", ["dance", "place-token", "PLACE_TOKEN", "view", "__init__"])
def test_an_unknown_action_name_is_400_bad_request(table, action):
    t = table("LVHHHH", last_wills=False)
    refused(t, t.client(2), action, {"token": "stake", "target": 4}, 400, "bad_request")


def test_a_bad_if_match_is_400_bad_request(table):
    t = table("LVHHHH", last_wills=False)
    body = {"token": "stake", "target": 4}
    refused(
        t, t.client(2), "place_token", body, 400, "bad_request", headers={"HTTP_IF_MATCH": "abc"}
    )


# --- 400 illegal_target / illegal_token ------------------------------------------------------


@pytest.mark.parametrize("target", [2, 0, 99, -1, 10**12], ids=["self", "0", "99", "-1", "huge"])
def test_r3_1_place_token_on_an_illegal_target_is_400_illegal_target(table, target):
    t = table("LVHHHH", last_wills=False)
    body = {"token": "stake", "target": target}
    refused(t, t.client(2), "place_token", body, 400, "illegal_target")


def test_r3_1_two_of_my_tokens_on_one_player_is_400_illegal_target(table):
    t = table("LVHHHH", last_wills=False)
    t.place(2, "S4")
    body = {"token": "feast", "target": 4}
    refused(t, t.client(2), "place_token", body, 400, "illegal_target")


def test_r7_1_a_token_on_a_ghost_is_400_illegal_target(table):
    t = table("LVHHHH", last_wills=False)
    at_round(t, 3)
    body = {"token": "stake", "target": 1}  # seat 1 is a Ghost now
    refused(t, t.client(3), "place_token", body, 400, "illegal_target")


@pytest.mark.parametrize("target", [1, 0, 99])
def test_r7_2_an_intervention_vote_for_a_ghost_or_no_seat_is_400_illegal_target(table, target):
    t = table("LVHHHH", last_wills=False)
    at_round(t, 3)
    refused(t, t.client(1), "intervention_vote", {"target": target}, 400, "illegal_target")


@pytest.mark.parametrize("target", [3, 0, 99], ids=["self", "0", "99"])
def test_r6_1_choose_examiner_illegal_target_is_400(table, target):
    t = table("LVHHHH", last_wills=False)
    mingle(t, ROUND_ONE)
    refused(t, t.client(3), "choose_examiner", {"target": target}, 400, "illegal_target")


@pytest.mark.parametrize("target", [1, 0, 99])
def test_r5_1_a_tie_vote_for_an_untied_seat_is_400_illegal_target(table, target):
    t = table("LVHHHH", last_wills=False)
    mingle(t, TIED_ROUND_ONE)
    refused(t, t.client(1), "tiebreak_vote", {"target": target}, 400, "illegal_target")


@pytest.mark.parametrize("token", ["bogus", "double_stake", "investigation", "Stake", "stakes"])
def test_a_token_i_do_not_hold_is_400_illegal_token(table, token):
    t = table("LVHHHH", last_wills=False)
    body = {"token": token, "target": 4}
    refused(t, t.client(2), "place_token", body, 400, "illegal_token")


def test_a_used_up_token_is_400_illegal_token(table):
    t = table("LVHHHH", last_wills=False)
    t.place(2, "F4")
    refused(t, t.client(2), "place_token", {"token": "feast", "target": 5}, 400, "illegal_token")


def test_r3_5_the_alpha_has_no_plain_stake_400_illegal_token(table):
    t = table("LVHHHH", last_wills=False)
    at_round(t, 2)
    assert t.view(5)["seats"][4]["alpha"] is True
    refused(t, t.client(5), "place_token", {"token": "stake", "target": 4}, 400, "illegal_token")


# --- 403 / 404 -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "action,body",
    [
        ("place_token", {"token": "stake", "target": 4}),
        ("intervention_vote", {"target": 4}),
        ("tiebreak_vote", {"target": 4}),
        ("choose_examiner", {"target": 4}),
        ("pass", {}),
    ],
)
def test_an_unseated_user_acting_is_403_forbidden(table, action, body):
    t = table("LVHHHH", last_wills=False)
    refused(t, guest("Outsider"), action, body, 403, "forbidden")


def test_an_unknown_game_is_404_not_found(table):
    t = table("LVHHHH", last_wills=False)
    body = {"token": "stake", "target": 4}
    refused(
        t,
        t.client(2),
        "place_token",
        body,
        404,
        "not_found",
        url="/api/v1/games/ZZZZZZ/actions/place_token/",
    )


# --- 409 wrong_phase / game_over / stale -----------------------------------------------------


def test_an_action_in_the_lobby_is_409_wrong_phase(guests):
    from tests.api.conftest import Table

    players = guests(2)
    code = players[0].post("/api/v1/games/", {}, format="json").json()["code"]
    players[1].post(f"/api/v1/games/{code}/join/", {}, format="json")
    t = Table(players[0], players, code)
    body = {"token": "stake", "target": 2}
    refused(t, players[0], "place_token", body, 409, "wrong_phase")


def test_r5_a_tie_vote_during_mingling_is_409_wrong_phase(table):
    t = table("LVHHHH", last_wills=False)
    refused(t, t.client(3), "tiebreak_vote", {"target": 4}, 409, "wrong_phase")


def test_r6_1_choose_examiner_during_mingling_is_409_wrong_phase(table):
    t = table("LVHHHH", last_wills=False)
    refused(t, t.client(3), "choose_examiner", {"target": 4}, 409, "wrong_phase")


def test_r6_1_only_the_most_staked_chooses_the_examiner_409(table):
    t = table("LVHHHH", last_wills=False)
    mingle(t, ROUND_ONE)
    refused(t, t.client(4), "choose_examiner", {"target": 1}, 409, "wrong_phase")


def test_placing_during_the_examiner_choice_is_409_wrong_phase(table):
    t = table("LVHHHH", last_wills=False)
    mingle(t, ROUND_ONE)
    body = {"token": "stake", "target": 4}
    refused(t, t.client(3), "place_token", body, 409, "wrong_phase")


def test_r7_2_a_living_player_cannot_cast_an_intervention_vote_409(table):
    t = table("LVHHHH", last_wills=False)
    at_round(t, 3)
    refused(t, t.client(3), "intervention_vote", {"target": 4}, 409, "wrong_phase")


def test_r7_1_a_ghost_cannot_place_a_token_409(table):
    t = table("LVHHHH", last_wills=False)
    at_round(t, 3)
    body = {"token": "stake", "target": 4}
    refused(t, t.client(1), "place_token", body, 409, "wrong_phase")


def test_r7_2_an_intervention_vote_is_final_409(table):
    t = table("LVHHHH", last_wills=False)
    at_round(t, 3)
    t.act(1, "intervention_vote", target=6)
    refused(t, t.client(1), "intervention_vote", {"target": 5}, 409, "wrong_phase")


def test_r5_a_second_tie_vote_is_409_wrong_phase(table):
    t = table("LVHHHH", last_wills=False)
    mingle(t, TIED_ROUND_ONE)
    t.act(2, "tiebreak_vote", target=3)
    refused(t, t.client(2), "tiebreak_vote", {"target": 4}, 409, "wrong_phase")


def test_r12_1_every_action_after_the_end_is_409_game_over(table):
    t = table("LVHHHH", last_wills=False)
    at_round(t, 4)
    view = t.view(3)
    assert view["status"] == "finished" and view["winner"] == "hunters"
    for action, body in [
        ("place_token", {"token": "stake", "target": 4}),
        ("intervention_vote", {"target": 4}),
        ("tiebreak_vote", {"target": 4}),
        ("choose_examiner", {"target": 4}),
        ("pass", {}),
    ]:
        refused(t, t.client(3), action, body, 409, "game_over")
        refused(t, t.client(1), action, body, 409, "game_over")


def test_if_match_with_an_old_version_is_409_stale(table):
    t = table("LVHHHH", last_wills=False)
    old = t.view(2)["version"]
    t.place(1, "S3")
    body = {"token": "stake", "target": 4}
    for header in (str(old), f'"{old}"', f'W/"{old}"', str(old + 5)):
        refused(
            t, t.client(2), "place_token", body, 409, "stale", headers={"HTTP_IF_MATCH": header}
        )


@pytest.mark.parametrize("form", ["{v}", '"{v}"', 'W/"{v}"'])
def test_if_match_with_the_current_version_acts(table, form):
    t = table("LVHHHH", last_wills=False)
    version = t.view(2)["version"]
    response = t.client(2).post(
        t.url("actions/place_token/"),
        {"token": "stake", "target": 4},
        format="json",
        HTTP_IF_MATCH=form.format(v=version),
    )
    assert response.status_code == 200, response.content
    assert response.json()["version"] == version + 1


def test_stale_is_checked_before_the_rules(table):
    """An old If-Match gets `stale` even for a move that would also be illegal."""
    t = table("LVHHHH", last_wills=False)
    old = t.view(2)["version"]
    t.place(1, "S3")
    body = {"token": "stake", "target": 2}
    refused(t, t.client(2), "place_token", body, 409, "stale", headers={"HTTP_IF_MATCH": str(old)})


# --- 429 -------------------------------------------------------------------------------------


@pytest.fixture
def slow_actions(settings):
    """3 moves and 3 refusals a minute (staked/limits.py reads the rates on every request)."""
    settings.RATE_LIMITS = {
        **settings.RATE_LIMITS,
        "actions": "3/min",
        "refusals": "3/min",
        "auth": "100/min",
    }


def test_too_many_actions_are_429_rate_limited(table, slow_actions):
    t = table("LVHHHH", last_wills=False)
    t.place(2, "S3 S4")
    t.act(2, "tiebreak_vote", expect=409, target=3)  # a refusal: not a move (its own budget)
    t.act(2, "place_token", token="feast", target=5)
    t.view(1)  # a read is not a move
    payload = refused(t, t.client(2), "pass", {}, 429, "rate_limited")
    assert payload["detail"]
    # another player has their own budget
    t.act(3, "place_token", token="stake", target=4)


def test_a_429_carries_retry_after(table, slow_actions):
    """Refusals that change nothing have a budget of their own: a client looping on them is
    stopped, moves and all, until it drains."""
    t = table("LVHHHH", last_wills=False)
    for _ in range(3):
        t.act(2, "pass", expect=409)
    response = t.client(2).post(t.url("actions/pass/"), {}, format="json")
    assert response.status_code == 429
    assert int(response["Retry-After"]) > 0
    assert 'comment="refusals"' in response["RateLimit-Policy"]
    refused(t, t.client(2), "place_token", {"token": "stake", "target": 4}, 429, "rate_limited")


def test_a_refused_move_spends_the_refusals_budget_not_the_moves(table, slow_actions):
    t = table("LVHHHH", last_wills=False)
    old = t.view(2)["version"]
    t.place(1, "S3")
    stale = t.client(2).post(
        t.url("actions/place_token/"),
        {"token": "stake", "targets": [4]},
        format="json",
        HTTP_IF_MATCH=str(old),
    )
    assert stale.status_code == 409 and stale.json()["code"] == "stale"
    assert 'comment="refusals"' in stale["RateLimit-Policy"]
    assert stale["RateLimit-Remaining"] == "2"  # the refusals' budget: 3, one spent
    moved = t.client(2).post(
        t.url("actions/place_token/"), {"token": "stake", "targets": [4]}, format="json"
    )
    assert moved.status_code == 200
    assert moved["RateLimit-Policy"] == '3;w=60;comment="actions"'
    assert moved["RateLimit-Remaining"] == "2"  # the first move of three: the refusal was not


def test_ten_seats_placing_at_once_with_their_offers_refuse_none(table):
    """Mingling with 10 seats: each reads its view, then all send a move with If-Match set to
    the `offer` they read, one after the other, as if at once. The version they read is stale
    for all but the first; the offers all still stand, since no seat's move changed what
    another may do. A double tap with the same offer is refused (the hand changed), as is an
    offer that was never made."""
    game = factories.running_game(10)
    clients = []
    for user in game.users:
        client = APIClient()
        client.credentials(HTTP_AUTHORIZATION=f"Token {factories.api_token(user)}")
        clients.append(client)
    t = Table(clients[0], clients, game.code)
    views = {seat: t.view(seat) for seat in range(1, 11)}
    answers = {}
    for seat, view in views.items():
        (offer,) = view["pending"]
        token = "stake"
        target = offer["options"]["targets_by_token"][token][0]
        answers[seat] = t.client(seat).post(
            t.url("actions/place_token/"),
            {"token": token, "targets": [target]},
            format="json",
            HTTP_IF_MATCH=f'"{view["offer"]}"',
        )
    assert {seat: a.status_code for seat, a in answers.items()} == dict.fromkeys(range(1, 11), 200)
    assert all(a["Offer"] == a.json()["offer"] != views[s]["offer"] for s, a in answers.items())
    assert len({v["version"] for v in views.values()}) == 1  # one version, read by all ten
    body = {"token": "stake", "targets": [views[1]["pending"][0]["options"]["targets"][0]]}
    for held in (views[1]["offer"], "o0123456789abcdef"):
        refused(t, t.client(1), "place_token", body, 409, "stale", headers={"HTTP_IF_MATCH": held})


def test_an_offer_is_null_where_no_move_can_be_made_and_moves_only_with_the_seat(table):
    t = table("LVHHHH", last_wills=False)
    before = t.view(2)["offer"]
    t.place(1, "S3")
    assert t.view(2)["offer"] == before  # another seat's move: seat 2 may do as before
    assert t.view(1)["offer"] != before
    spectator = guest("Spectator").get(t.url()).json()
    assert spectator["offer"] is None
