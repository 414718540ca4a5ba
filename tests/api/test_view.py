"""The view (docs/api.md, "The view"), its ETag and 304 path, spectators, and the event log."""

from __future__ import annotations

import pytest

from games.models import Event, Game
from tests.api.conftest import guest

pytestmark = pytest.mark.django_db

VIEW_KEYS = {
    "code",
    "status",
    "version",
    "round",
    "phase",
    "deadline",
    "options",
    "host_seat",
    "seats",
    "me",
    "pending",
    "last_dining",
    "winner",
    "roles",
}
SEAT_KEYS = {"seat", "name", "alive", "alpha", "protected", "is_bot", "placed_by"}
ME_KEYS = {"seat", "role", "mesmerized", "tokens", "relic", "knowledge"}
LAST_DINING_KEYS = {
    "round",
    "tokens",
    "protected",
    "investigated",
    "eliminated",
    "alpha_elected",
    "ties",
}
ROUND_ONE = {  # test_flow.py's round 1: seat 3 most staked, seat 5 elected
    1: "S3 S4 F5",
    2: "S3 S4 F5",
    3: "S4 S5 F6",
    4: "S3 S5 F6",
    5: "S3 S6 F4",
    6: "S3 S4 F5",
}


def play_round_one(t) -> dict:
    for seat, plan in ROUND_ONE.items():
        t.place(seat, plan)
    return t.act(3, "choose_examiner", target=1)


# --- shape -----------------------------------------------------------------------------------


def test_running_view_has_every_key_of_api_md(table):
    t = table("LVHHHH")
    t.place(1, "S3")
    view = t.view(3)
    assert VIEW_KEYS <= set(view)
    assert view["status"] == "running" and view["phase"] == "mingling" and view["round"] == 1
    assert isinstance(view["version"], int)
    assert view["deadline"].endswith("Z")
    assert view["host_seat"] == 1
    assert view["winner"] is None and view["roles"] is None and view["last_dining"] is None
    assert len(view["seats"]) == 6
    for i, seat in enumerate(view["seats"], start=1):
        assert SEAT_KEYS <= set(seat)
        assert seat["seat"] == i and seat["alive"] is True and seat["is_bot"] is False
        assert seat["alpha"] is False and seat["protected"] is False
    assert view["seats"][2]["placed_by"] == [1]
    me = view["me"]
    assert ME_KEYS - {"relic"} <= set(me)
    assert me["seat"] == 3 and me["role"] == "hunter" and me["mesmerized"] is False
    assert sorted(me["tokens"]) == ["feast", "stake", "stake"]
    assert me["knowledge"] == []
    assert view["pending"] == [
        {
            "action": "place_token",
            "options": {
                "tokens": ["feast", "stake"],
                "targets": [1, 2, 4, 5, 6],
                "min": 1,
                "max": 1,
                "targets_by_token": {"feast": [1, 2, 4, 5, 6], "stake": [1, 2, 4, 5, 6]},
            },
        }
    ]


def test_view_me_has_the_relic_key_of_api_md(table):
    """docs/api.md: `"relic": null | {"id", "name", "negated"}` in `me` (null without a relic)."""
    t = table("LVHHHH")
    me = t.view(3)["me"]
    assert "relic" in me, sorted(me)
    assert me["relic"] is None


def test_last_dining_has_the_keys_of_api_md(table):
    t = table("LVHHHH")
    view = play_round_one(t)
    dining = view["last_dining"]
    assert LAST_DINING_KEYS <= set(dining)
    assert dining["round"] == 1 and dining["alpha_elected"] == 5
    assert {"owner": 1, "target": 3, "token": "stake"} in dining["tokens"]
    for token in dining["tokens"]:
        assert set(token) == {"owner", "target", "token"}
    assert dining["eliminated"] is None  # R6.1: no elimination in round 1


def test_last_dining_has_the_last_will_key_of_api_md(table):
    """docs/api.md lists `last_will` in `last_dining` (null when nobody drew a Last Will)."""
    t = table("LVHHHH")
    dining = play_round_one(t)["last_dining"]
    assert "last_will" in dining, sorted(dining)


def test_status_and_phase_values(table, guests):
    t = table("LVHHHH")
    assert t.view(1)["status"] == "running"
    (ana,) = guests(1)
    lobby = ana.post("/api/v1/games/", {}, format="json").json()
    assert lobby["status"] == "lobby" and lobby["phase"] == "lobby"


# --- spectators ------------------------------------------------------------------------------


def test_spectator_signed_in_not_seated_has_no_me_and_no_pending(table):
    t = table("LVHHHH")
    t.place(1, "S3 F4")
    spectator = guest("Spec")
    response = spectator.get(t.url())
    assert response.status_code == 200
    view = response.json()
    assert "me" not in view
    assert view["pending"] == []
    assert VIEW_KEYS - {"me"} <= set(view)
    # the public part is what a seated player sees too (R3.2: placements, never types)
    seated = t.view(3)
    assert [s["placed_by"] for s in view["seats"]] == [s["placed_by"] for s in seated["seats"]]
    assert view["seats"][2]["placed_by"] == [1] and view["seats"][3]["placed_by"] == [1]
    assert view["roles"] is None
    for word in ("vampire", "hunter", "feast", '"stake"'):
        assert word not in response.content.decode().lower().replace("stakes", "")


def test_spectators_are_403_when_the_option_is_off(table):
    t = table("LVHHHH", spectators=False)
    spectator = guest("Spec")
    response = spectator.get(t.url())
    assert response.status_code == 403
    assert response.json()["code"] == "forbidden"
    assert t.view(4)["options"]["spectators"] is False  # seated players still see it


def test_spectators_off_hides_the_event_log_too(table):
    t = table("LVHHHH", spectators=False)
    play_round_one(t)
    response = guest("Spec").get(t.url("events/"))
    assert response.status_code == 403, response.json()
    assert response.json()["code"] == "forbidden"


def test_spectators_off_a_held_etag_is_no_way_around_the_403(table):
    t = table("LVHHHH", spectators=False)
    etag = t.client(1).get(t.url())["ETag"]
    response = guest("Spec").get(t.url(), HTTP_IF_NONE_MATCH=etag)
    assert response.status_code == 403, response.status_code


def test_unknown_game_view_is_404(table):
    t = table("LVHHHH")
    response = t.client(1).get("/api/v1/games/ZZZZZZ/")
    assert response.status_code == 404 and response.json()["code"] == "not_found"
    response = t.client(1).get("/api/v1/games/ZZZZZZ/", HTTP_IF_NONE_MATCH='"1"')
    assert response.status_code == 404


# --- ETag and 304 ----------------------------------------------------------------------------


def test_etag_is_the_version(table):
    t = table("LVHHHH")
    for seat in (1, 3):
        response = t.client(seat).get(t.url())
        assert response["ETag"] == f'"{response.json()["version"]}"'
    response = guest("Spec").get(t.url())
    assert response["ETag"] == f'"{response.json()["version"]}"'
    assert response.json()["version"] == Game.objects.get(code=t.code).version


def test_action_response_carries_the_new_etag(table):
    t = table("LVHHHH")
    before = t.view(1)["version"]
    response = t.client(1).post(
        t.url("actions/place_token/"), {"token": "stake", "target": 3}, format="json"
    )
    assert response.status_code == 200
    assert response.json()["version"] == before + 1
    assert response["ETag"] == f'"{before + 1}"'


@pytest.mark.parametrize(
    "header", ['"{v}"', 'W/"{v}"', '"0", "{v}"', ' "{v}" '], ids=["plain", "weak", "list", "spaces"]
)
def test_if_none_match_with_the_current_etag_is_304_with_no_body(table, header):
    t = table("LVHHHH")
    etag = t.client(2).get(t.url())["ETag"]
    version = etag.strip('"')
    response = t.client(2).get(t.url(), HTTP_IF_NONE_MATCH=header.format(v=version))
    assert response.status_code == 304
    assert response.content == b""
    assert response["ETag"] == etag


def test_if_none_match_with_an_old_etag_is_200(table):
    t = table("LVHHHH")
    version = t.view(1)["version"]
    t.place(1, "S3")
    response = t.client(2).get(t.url(), HTTP_IF_NONE_MATCH=f'"{version}"')
    assert response.status_code == 200
    assert response["ETag"] == f'"{version + 1}"'


def test_after_an_action_the_held_etag_gives_200_and_a_new_etag(
    table, django_capture_on_commit_callbacks
):
    t = table("LVHHHH", preset="async")  # async: no ETA task is queued on commit
    etag = t.client(2).get(t.url())["ETag"]
    assert t.client(2).get(t.url(), HTTP_IF_NONE_MATCH=etag).status_code == 304  # now cached
    with django_capture_on_commit_callbacks(execute=True):
        t.place(1, "S3")
    response = t.client(2).get(t.url(), HTTP_IF_NONE_MATCH=etag)
    assert response.status_code == 200
    assert response["ETag"] != etag
    assert response["ETag"] == f'"{response.json()["version"]}"'
    assert response.json()["seats"][2]["placed_by"] == [1]
    assert t.client(2).get(t.url(), HTTP_IF_NONE_MATCH=response["ETag"]).status_code == 304


def test_after_a_lobby_change_the_held_etag_gives_200(guests, django_capture_on_commit_callbacks):
    ana, ben = guests(2)
    code = ana.post("/api/v1/games/", {}, format="json").json()["code"]
    url = f"/api/v1/games/{code}/"
    etag = ana.get(url)["ETag"]
    assert ana.get(url, HTTP_IF_NONE_MATCH=etag).status_code == 304
    with django_capture_on_commit_callbacks(execute=True):
        ben.post(f"{url}join/", {}, format="json")
    response = ana.get(url, HTTP_IF_NONE_MATCH=etag)
    assert response.status_code == 200 and len(response.json()["seats"]) == 2


def test_the_304_poll_costs_at_most_one_query(table, django_assert_max_num_queries):
    t = table("LVHHHH")
    client = t.client(4)
    etag = client.get(t.url())["ETag"]  # signs the token in (cached) like any earlier poll
    with django_assert_max_num_queries(1):
        response = client.get(t.url(), HTTP_IF_NONE_MATCH=etag)
    assert response.status_code == 304
    with django_assert_max_num_queries(1):
        assert client.get(t.url(), HTTP_IF_NONE_MATCH=etag).status_code == 304


def test_the_304_poll_does_no_engine_work(table, monkeypatch):
    t = table("LVHHHH")
    client = t.client(4)
    etag = client.get(t.url())["ETag"]

    def boom(*args, **kwargs):
        raise AssertionError("the 304 path must not build a view")

    monkeypatch.setattr("games.selectors.game.game_view", boom)
    monkeypatch.setattr("games.engine.view", boom)
    monkeypatch.setattr("games.engine.state_from_json", boom)
    monkeypatch.setattr("games.selectors.game.state_from_json", boom)
    assert client.get(t.url(), HTTP_IF_NONE_MATCH=etag).status_code == 304


# --- events ----------------------------------------------------------------------------------


def events(client, t, after=None) -> dict:
    query = "" if after is None else f"?after={after}"
    response = client.get(t.url(f"events/{query}"))
    assert response.status_code == 200, response.content
    return response.json()


def test_events_have_the_shape_of_api_md(table):
    t = table("LVHHHH")
    body = events(t.client(3), t)
    assert set(body) >= {"events", "more"} and body["more"] is False
    for e in body["events"]:
        assert set(e) == {"seq", "round", "kind", "text", "data"}
    seqs = [e["seq"] for e in body["events"]]
    assert seqs == sorted(seqs) and len(set(seqs)) == len(seqs)
    assert "game_started" in [e["kind"] for e in body["events"]]


def test_events_after_gives_only_later_events(table):
    t = table("LVHHHH")
    first = events(t.client(3), t)["events"]
    last = first[-1]["seq"]
    assert events(t.client(3), t, after=last)["events"] == []
    t.place(1, "S3")
    t.place(3, "S4")
    later = events(t.client(3), t, after=last)["events"]
    assert [e["kind"] for e in later] == ["token_placed"]  # seat 1's receipt is not mine
    assert all(e["seq"] > last for e in later)
    assert events(t.client(3), t, after=0)["events"] == first + later


@pytest.mark.parametrize("after", ["abc", "1.5", "", "0x10", "%20"])
def test_a_bad_after_is_400_bad_request(table, after):
    t = table("LVHHHH")
    response = t.client(1).get(t.url(f"events/?after={after}"))
    assert response.status_code == 400
    assert response.json()["code"] == "bad_request"


@pytest.mark.parametrize("after", [-1, 10**12, 10**20])
def test_an_out_of_range_after_is_never_a_500(table, after):
    t = table("LVHHHH")
    response = t.client(1).get(t.url(f"events/?after={after}"))
    assert response.status_code in (200, 400)
    if response.status_code == 200 and after > 0:
        assert response.json()["events"] == []


def test_events_of_an_unknown_game_are_404(table):
    t = table("LVHHHH")
    response = t.client(1).get("/api/v1/games/ZZZZZZ/events/")
    assert response.status_code == 404 and response.json()["code"] == "not_found"


def test_events_page_200_at_a_time_with_more(guests):
    ana, ben = guests(2)
    code = ana.post("/api/v1/games/", {}, format="json").json()["code"]
    url = f"/api/v1/games/{code}/"
    for _ in range(105):  # 1 "opened" + 210 join/leave lines
        assert ben.post(f"{url}join/", {}, format="json").status_code == 200
        assert ben.post(f"{url}leave/").status_code == 200
    total = Event.objects.filter(game__code=code).count()
    assert total == 211
    page = ana.get(f"{url}events/").json()
    assert len(page["events"]) == 200 and page["more"] is True
    rest = ana.get(f"{url}events/?after={page['events'][-1]['seq']}").json()
    assert len(rest["events"]) == 11 and rest["more"] is False
    seqs = [e["seq"] for e in page["events"] + rest["events"]]
    assert seqs == list(range(1, 212))


def test_private_events_only_reach_their_audience(table):
    t = table("LVHHVHHH")  # 8 players: the Lord does not know the Vampires (R1.2)
    t.place(1, "S3")
    rows = list(Event.objects.filter(game__code=t.code).order_by("seq"))
    assert any(r.audience is not None for r in rows)
    for seat in (*range(1, 9), None):
        client = t.client(seat) if seat else guest("Spec")
        seen = events(client, t)["events"]
        allowed = [r for r in rows if r.audience is None or (seat and seat in r.audience)]
        assert [(e["kind"], e["text"]) for e in seen] == [(r.kind, r.text) for r in allowed], seat
        # each viewer's own numbering, with no gap where another seat learned something
        assert [e["seq"] for e in seen] == list(range(1, len(allowed) + 1)), seat


def test_r1_3_night_events_reach_the_vampires_only(table):
    t = table("LVHHVHHH")
    night = {
        s: [e for e in events(t.client(s), t)["events"] if e["kind"] == "night"] for s in t_seats(8)
    }
    assert len(night[2]) == 1 and len(night[5]) == 1
    assert "seat 1" in night[2][0]["text"] and "seat 5" in night[2][0]["text"]
    assert night[1] == []  # 8 players: the Lord knows only their own role
    assert all(night[s] == [] for s in (3, 4, 6, 7, 8))


def test_r3_2_placement_receipts_are_private(table):
    t = table("LVHHHH")
    t.place(1, "S3")
    for seat in range(2, 7):
        kinds = [e["kind"] for e in events(t.client(seat), t)["events"]]
        assert "token_placed" not in kinds
    receipts = [e for e in events(t.client(1), t)["events"] if e["kind"] == "token_placed"]
    assert len(receipts) == 1 and "Stake" in receipts[0]["text"]


def t_seats(n: int) -> range:
    return range(1, n + 1)
