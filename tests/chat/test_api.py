"""The chat API: each channel's audience, limits, paging and hiding (docs/rulings.md,
"Table talk")."""

from __future__ import annotations

import logging

import pytest
import time_machine
from django.contrib.auth import get_user_model
from rest_framework.test import APIClient

from games.chat.models import Message
from games.models import Game
from tests.chat.conftest import (
    chat_url,
    everything_seen_by,
    finish,
    make_ghost_of_seat_2,
    read,
    say,
)

pytestmark = pytest.mark.django_db

SECRET = "bite seat 5 tonight"


def _texts(page: dict) -> list[str]:
    return [m.get("text") for m in page["messages"]]


def test_chat_table_message_reaches_every_seat_and_never_bumps_the_game_version(table):
    t = table("LVHHHH")
    version = t.view(1)["version"]
    sent = say(t.client(3), t.code, "table", "Seat 4 looks nervous")
    assert sent["id"] == 1 and sent["seat"] == 3 and sent["name"] == "Cleo"
    assert sent["hidden"] is False and sent["channel"] == "table"
    for seat in range(1, 7):
        assert _texts(read(t.client(seat), t.code, "table")) == ["Seat 4 looks nervous"]
    assert t.view(1)["version"] == version
    events = t.client(1).get(t.url("events/")).json()["events"]
    assert not any("nervous" in e["text"] for e in events)


def test_chat_den_message_never_reaches_a_hunter(table):
    t = table("LVVHHHHH", den_chat=True)  # 8 players: the Lord does not know the Vampires
    say(t.client(2), t.code, "den", SECRET)
    assert _texts(read(t.client(3), t.code, "den")) == [SECRET]
    for seat in (1, 4, 5, 6, 7, 8):  # the Lord (R1.3: "no" at 8) and the Hunters
        refused = read(t.client(seat), t.code, "den", expect=403)
        assert refused["code"] == "channel_forbidden"
        assert SECRET not in everything_seen_by(t.client(seat), t.code)


def test_chat_a_hunter_cannot_post_to_the_den_and_nothing_is_stored(table):
    t = table("LVVHHHHH", den_chat=True)
    refused = say(t.client(4), t.code, "den", "let me in", expect=403)
    assert refused["code"] == "channel_forbidden"
    assert not Message.objects.exists()


def test_chat_the_lord_is_in_the_den_only_where_r1_3_lets_the_lord_know_the_vampires(table):
    knows = table("LVHHHHH", den_chat=True)  # 7 players: the Lord knows the Vampires
    say(knows.client(2), knows.code, "den", SECRET)
    assert _texts(read(knows.client(1), knows.code, "den")) == [SECRET]
    say(knows.client(1), knows.code, "den", "I know")
    blind = table("LVHHHH", den_chat=True)  # 6 players: the Lord knows only their own role
    assert read(blind.client(1), blind.code, "den", expect=403)["code"] == "channel_forbidden"
    assert read(blind.client(2), blind.code, "den")["messages"] == []


def test_chat_the_den_is_closed_unless_the_host_opens_it(table):
    t = table("LVHHHHH")
    refused = read(t.client(2), t.code, "den", expect=403)
    assert refused["code"] == "channel_forbidden" and "did not open" in refused["detail"]
    assert say(t.client(2), t.code, "den", SECRET, expect=403)["code"] == "channel_forbidden"


def test_chat_a_mesmerized_hunter_is_not_in_the_den(table):
    t = table("LVHHHHH", den_chat=True, last_wills=False)
    # Round 1: the Lord (seat 1) has the most Stakes and chooses Hunter 3 to examine them:
    # Hunter 3 is Mesmerized (R6.1, R8.1), and still learns nothing of the Vampires.
    plans = {
        1: "S3 S4 F5",
        2: "S1 S4 F5",
        3: "S1 S4 F5",
        4: "S1 S3 F5",
        5: "S1 S3 F4",
        6: "S1 S4 F5",
        7: "S1 S3 F4",
    }
    for seat, plan in plans.items():
        t.place(seat, plan)
    t.act(1, "choose_examiner", target=3)
    assert t.view(3)["me"]["mesmerized"] is True
    say(t.client(2), t.code, "den", SECRET)
    assert read(t.client(3), t.code, "den", expect=403)["code"] == "channel_forbidden"
    assert SECRET not in everything_seen_by(t.client(3), t.code)


def test_chat_ghosts_message_never_reaches_the_living(table):
    t = table("LVHHHH", last_wills=False)
    assert read(t.client(2), t.code, "ghosts", expect=403)["code"] == "channel_forbidden"
    make_ghost_of_seat_2(t)
    assert t.view(2)["me"]["alive"] is False
    say(t.client(2), t.code, "ghosts", "I dial seat 3")
    assert _texts(read(t.client(2), t.code, "ghosts")) == ["I dial seat 3"]
    for seat in (1, 3, 4, 5, 6):
        assert read(t.client(seat), t.code, "ghosts", expect=403)["code"] == "channel_forbidden"
        assert say(t.client(seat), t.code, "ghosts", "hello?", expect=403)["code"] == (
            "channel_forbidden"
        )
        assert "I dial seat 3" not in everything_seen_by(t.client(seat), t.code)
    assert Message.objects.filter(channel="ghosts").count() == 1


def test_chat_a_ghost_still_talks_at_the_table(table):
    t = table("LVHHHH", last_wills=False)
    make_ghost_of_seat_2(t)
    say(t.client(2), t.code, "table", "Boo")
    assert _texts(read(t.client(5), t.code, "table")) == ["Boo"]


def test_chat_spectators_read_the_table_only_where_the_host_allows(table, stranger):
    closed = table("LVHHHH")
    say(closed.client(1), closed.code, "table", "hi all")
    assert read(stranger, closed.code, "table", expect=403)["code"] == "channel_forbidden"

    shown = table("LVHHHH", spectator_chat=True)
    say(shown.client(1), shown.code, "table", "hi all")
    assert _texts(read(stranger, shown.code, "table")) == ["hi all"]
    for channel in ("ghosts", "den"):
        assert read(stranger, shown.code, channel, expect=403)["code"] == "channel_forbidden"
    assert say(stranger, shown.code, "table", "me too", expect=403)["code"] == ("channel_forbidden")

    private = table("LVHHHH", spectator_chat=True, spectators=False)
    assert read(stranger, private.code, "table", expect=403)["code"] == "channel_forbidden"


def test_chat_after_the_game_every_seat_reads_every_channel_and_only_the_table_is_open(table):
    t = table("LVHHHH", den_chat=True, last_wills=False)
    say(t.client(2), t.code, "den", SECRET)
    make_ghost_of_seat_2(t)
    say(t.client(2), t.code, "ghosts", "I dial seat 3")
    assert SECRET not in everything_seen_by(t.client(4), t.code)
    finish(t)
    assert Game.objects.get(code=t.code).status == "finished"
    for seat in range(1, 7):
        assert _texts(read(t.client(seat), t.code, "den")) == [SECRET]
        assert _texts(read(t.client(seat), t.code, "ghosts")) == ["I dial seat 3"]
    assert say(t.client(2), t.code, "den", "gg", expect=403)["code"] == "channel_forbidden"
    assert say(t.client(2), t.code, "ghosts", "gg", expect=403)["code"] == "channel_forbidden"
    say(t.client(4), t.code, "table", "gg")


def test_chat_the_lobby_has_the_table_only(guests):
    host, friend = guests(2)
    code = host.post("/api/v1/games/", {}, format="json").json()["code"]
    friend.post(f"/api/v1/games/{code}/join/", {}, format="json")
    say(friend, code, "table", "hello")
    assert _texts(read(host, code, "table")) == ["hello"]
    assert read(host, code, "ghosts", expect=403)["code"] == "channel_forbidden"
    assert read(host, code, "den", expect=403)["code"] == "channel_forbidden"


def test_chat_an_abandoned_game_is_read_only(table, staff):
    from games.services import organiser as admin_services

    t = table("LVHHHH")
    say(t.client(3), t.code, "table", "brb")
    admin_services.game_abandon(code=t.code, by="staffer")
    assert _texts(read(t.client(3), t.code, "table")) == ["brb"]
    assert say(t.client(3), t.code, "table", "hello?", expect=403)["code"] == "channel_forbidden"


def test_chat_hostile_text_is_returned_as_the_same_data(table):
    t = table("LVHHHH")
    hostile = '<script>alert("x")</script> "><img src=x onerror=alert(1)> & {{ 7*7 }}'
    assert say(t.client(3), t.code, "table", hostile)["text"] == hostile
    assert _texts(read(t.client(4), t.code, "table")) == [hostile]


def test_chat_text_is_500_characters_at_most_and_never_empty(table):
    t = table("LVHHHH")
    say(t.client(3), t.code, "table", "x" * 500)
    for bad in ("x" * 501, "", "   \n ", None, 42, ["hi"]):
        response = t.client(4).post(chat_url(t.code, "table"), {"text": bad}, format="json")
        body = response.json()
        assert response.status_code == 400, bad
        assert body["code"] == "bad_request" and body["errors"]["text"], bad
    response = t.client(4).post(chat_url(t.code, "table"), ["text"], format="json")
    assert response.status_code == 400 and response.json()["code"] == "bad_request"
    assert Message.objects.count() == 1


def test_chat_text_with_a_control_character_is_a_400_naming_the_field(table):
    t = table("LVHHHH")
    for bad in ("\x1b[2J gone", "ding\x07", "a\x7fb", "a\u0085b"):
        response = t.client(4).post(chat_url(t.code, "table"), {"text": bad}, format="json")
        assert response.status_code == 400, bad
        assert response.json()["errors"] == {"text": ["Must not contain control characters."]}
    assert say(t.client(3), t.code, "table", "two\nlines\tand a tab")["text"]
    assert Message.objects.count() == 1


def test_chat_surrounding_whitespace_is_trimmed(table):
    t = table("LVHHHH")
    assert say(t.client(3), t.code, "table", "  hi \n")["text"] == "hi"


def test_chat_rate_limit_refuses_the_sixth_message_in_ten_seconds_with_429(table):
    t = table("LVHHHH")
    # At the start of a counting window, frozen: the limiter slides over two windows, so five
    # messages at once weigh 5 * (1 - t/10) in the next one and a sixth fits 2 s into it.
    with time_machine.travel(1_800_000_000, tick=False):
        for n in range(5):
            say(t.client(3), t.code, "table", f"message {n}")
        response = t.client(3).post(chat_url(t.code, "table"), {"text": "one more"}, format="json")
    assert response.status_code == 429
    assert response.json()["code"] == "rate_limited"
    assert int(response["Retry-After"]) == 12
    assert Message.objects.count() == 5
    say(t.client(4), t.code, "table", "my turn")  # per player: others are not held back


def test_chat_rate_limit_allows_thirty_a_minute_and_says_when_to_retry(table, settings):
    settings.RATE_LIMITS = {**settings.RATE_LIMITS, "chat_burst": "1000/10s"}  # the minute only
    t = table("LVHHHH")
    for n in range(30):
        say(t.client(3), t.code, "table", f"message {n}")
    response = t.client(3).post(chat_url(t.code, "table"), {"text": "one more"}, format="json")
    assert response.status_code == 429
    assert 1 <= int(response["Retry-After"]) <= 120  # a full minute fades over the next one
    assert response["RateLimit-Remaining"] == "0"
    say(t.client(4), t.code, "table", "my turn")  # per player: others are not held back


def test_chat_an_unknown_channel_is_not_found(table):
    t = table("LVHHHH")
    assert read(t.client(1), t.code, "vampires", expect=404)["code"] == "not_found"
    assert say(t.client(1), t.code, "vampires", "hi", expect=404)["code"] == "not_found"
    response = t.client(1).get("/api/v1/games/XXXXXX/chat/table/")
    assert response.status_code == 404 and response.json()["code"] == "not_found"


def test_chat_needs_a_signed_in_client(table):
    from rest_framework.test import APIClient

    t = table("LVHHHH")
    response = APIClient().get(chat_url(t.code, "table"))
    assert response.status_code == 401 and response.json()["code"] == "not_authenticated"


def test_chat_pages_newest_last_with_after_before_and_limit(table):
    t = table("LVHHHH")
    for n in range(1, 8):
        say(t.client(n % 6 + 1), t.code, "table", f"m{n}")
    latest = read(t.client(1), t.code, "table", limit=3)
    assert _texts(latest) == ["m5", "m6", "m7"]
    assert latest["earlier"] is True and latest["more"] is False
    forward = read(t.client(1), t.code, "table", after=2, limit=3)
    assert _texts(forward) == ["m3", "m4", "m5"]
    assert forward["more"] is True and forward["earlier"] is True
    back = read(t.client(1), t.code, "table", before=3)
    assert _texts(back) == ["m1", "m2"] and back["earlier"] is False and back["more"] is True
    assert read(t.client(1), t.code, "table", after=7)["messages"] == []
    for params in ({"after": "x"}, {"limit": 0}, {"limit": 201}, {"after": 1, "before": 5}):
        assert read(t.client(1), t.code, "table", expect=400, **params)["code"] == "bad_request"


def test_chat_numbers_in_one_channel_say_nothing_about_another(table):
    t = table("LVHHHH", den_chat=True)
    say(t.client(2), t.code, "den", SECRET)
    say(t.client(2), t.code, "den", SECRET)
    assert say(t.client(3), t.code, "table", "first")["id"] == 1


def test_chat_the_host_hides_a_message_which_is_logged(table, caplog):
    t = table("LVHHHH")
    say(t.client(3), t.code, "table", "something rude")
    say(t.client(4), t.code, "table", "fine")
    with caplog.at_level(logging.INFO, logger="games"):
        response = t.client(1).post(chat_url(t.code, "table", "1/hide/"))
    assert response.status_code == 200
    assert response.json()["hidden"] is True and response.json()["text"] == "something rude"
    assert any("hidden" in r.getMessage() and r.game == t.code for r in caplog.records)
    for seat in range(2, 7):
        messages = read(t.client(seat), t.code, "table")["messages"]
        assert messages[0] == {"id": 1, "hidden": True}
        assert messages[1]["text"] == "fine"
        assert "something rude" not in everything_seen_by(t.client(seat), t.code)
    host_sees = read(t.client(1), t.code, "table")["messages"][0]
    assert host_sees["hidden"] is True and host_sees["text"] == "something rude"
    message = Message.objects.get(channel="table", number=1)
    assert message.hidden_by_id == t.client(1).user_id and message.hidden_at is not None


def test_chat_staff_hide_a_table_message(table, staff):
    t = table("LVHHHH", den_chat=True)
    say(t.client(3), t.code, "table", "something rude")
    response = staff.post(chat_url(t.code, "table", "1/hide/"))
    assert response.status_code == 200
    assert response.json()["hidden"] is True
    assert read(t.client(3), t.code, "table")["messages"] == [{"id": 1, "hidden": True}]


def test_chat_staff_who_are_not_superusers_cannot_count_den_messages_by_hiding_them(table, staff):
    """The admin's channel rule on the API: staff reach `table` only, so a hide by
    number never tells them, by 200 or 404, how many den messages there are."""
    t = table("LVHHHH", den_chat=True)
    say(t.client(2), t.code, "den", SECRET)
    answers = [
        staff.post(chat_url(t.code, channel, f"{n}/hide/"))
        for channel in ("den", "ghosts")
        for n in (1, 2)
    ]
    assert {(a.status_code, a.json()["code"]) for a in answers} == {(403, "channel_forbidden")}
    assert len({a.content for a in answers}) == 1
    assert read(t.client(2), t.code, "den")["messages"][0]["text"] == SECRET


def test_chat_a_superuser_may_hide_a_den_message(table):
    t = table("LVHHHH", den_chat=True)
    say(t.client(2), t.code, "den", SECRET)
    root = APIClient()
    root.force_authenticate(
        get_user_model().objects.create_superuser("root", "r@example.com", "pw")
    )
    response = root.post(chat_url(t.code, "den", "1/hide/"))
    assert response.status_code == 200
    assert read(t.client(2), t.code, "den")["messages"] == [{"id": 1, "hidden": True}]


def test_chat_hiding_is_refused_to_others_and_changes_nothing(table):
    t = table("LVHHHH", den_chat=True)
    say(t.client(3), t.code, "table", "keep me")
    say(t.client(2), t.code, "den", SECRET)
    refused = t.client(4).post(chat_url(t.code, "table", "1/hide/"))
    assert refused.status_code == 403 and refused.json()["code"] == "forbidden"
    # The host (the Lord, who does not know the Vampires at 6) cannot reach into the den.
    refused = t.client(1).post(chat_url(t.code, "den", "1/hide/"))
    assert refused.status_code == 403 and refused.json()["code"] == "channel_forbidden"
    missing = t.client(1).post(chat_url(t.code, "table", "9/hide/"))
    assert missing.status_code == 404 and missing.json()["code"] == "not_found"
    assert not Message.objects.filter(hidden=True).exists()


def test_chat_options_are_off_by_default_and_set_by_the_host(guests):
    host = guests(1)[0]
    options = host.post("/api/v1/games/", {}, format="json").json()["options"]
    assert options["den_chat"] is False and options["spectator_chat"] is False
    options = host.post(
        "/api/v1/games/", {"den_chat": True, "spectator_chat": True}, format="json"
    ).json()["options"]
    assert options["den_chat"] is True and options["spectator_chat"] is True
    response = host.post("/api/v1/games/", {"den_chat": "maybe"}, format="json")
    assert response.status_code == 400
