"""Bad input is a clear 4xx, never a 500, and every API error is the
JSON `{code, detail}` the schema promises (staked/errors.py, staked/parsers.py,
staked/middleware.py, games/web/converters.py)."""

from __future__ import annotations

import json
import re

import pytest
from django.test import Client
from django.urls import URLPattern, URLResolver, get_resolver

from tests.api.conftest import guest

pytestmark = pytest.mark.django_db

SAMPLES = {"seat": "1", "action": "place_token", "channel": "table", "message_id": "1"}


def routes_taking_a_code() -> list[str]:
    """Every route with a game code in it, its code a NUL byte and its other parts valid."""
    found = []

    def walk(patterns, prefix):
        for p in patterns:
            route = prefix + str(p.pattern)
            if isinstance(p, URLResolver):
                walk(p.url_patterns, route)
            elif isinstance(p, URLPattern) and "<" in route and "code" in route:
                found.append(route)

    walk(get_resolver().url_patterns, "/")

    def fill(match):
        name = match.group(1).split(":")[-1]
        return "%00" if name == "code" else SAMPLES.get(name, "abc")

    return [re.sub(r"<([^>]+)>", fill, route) for route in found]


def anonymous() -> Client:
    return Client(raise_request_exception=False)


def assert_json_error(response, status: int, code: str) -> dict:
    assert response.status_code == status, (response.status_code, response.content[:300])
    assert response["Content-Type"].startswith("application/json"), response["Content-Type"]
    body = response.json()
    assert body["code"] == code and body["detail"], body
    return body


def test_a_nul_byte_in_a_game_code_is_a_404_on_every_route_that_takes_a_code():
    urls = routes_taking_a_code()
    assert len(urls) >= 22, urls
    for url in urls:
        for method in ("get", "post"):
            response = getattr(anonymous(), method)(url)
            if url.startswith("/api/"):
                assert_json_error(response, 404, "not_found")
            else:
                assert response.status_code == 404, (method, url, response.status_code)


def test_a_malformed_seat_or_message_number_is_a_json_404_on_the_api():
    ana = guest("Ana")
    code = ana.post("/api/v1/games/", {}, format="json").json()["code"]
    for suffix in ("seats/99999999999999999999/bot/", "seats/-1/bot/", "chat/table/1e9/hide/"):
        assert_json_error(ana.post(f"/api/v1/games/{code}/{suffix}"), 404, "not_found")


def nested(levels: int) -> str:
    return '{"name":' * levels + '"Eve"' + "}" * levels


@pytest.mark.parametrize("levels", [1000, 40])
def test_deeply_nested_json_is_400_even_on_the_unauthenticated_guest_sign_in(levels):
    response = anonymous().post(
        "/api/v1/auth/guest/", nested(levels), content_type="application/json"
    )
    body = assert_json_error(response, 400, "bad_request")
    assert "nested too deeply" in body["detail"]


def test_deeply_nested_json_is_400_on_the_signed_in_json_endpoints():
    ana = guest("Ana")
    code = ana.post("/api/v1/games/", {}, format="json").json()["code"]
    for method, url in [
        ("post", "/api/v1/games/"),
        ("post", f"/api/v1/games/{code}/join/"),
        ("post", f"/api/v1/games/{code}/actions/place_token/"),
        ("post", f"/api/v1/games/{code}/chat/table/"),
        ("put", "/api/v1/me/notifications/"),
    ]:
        response = getattr(ana, method)(url, nested(1000), content_type="application/json")
        assert_json_error(response, 400, "bad_request")


def test_json_within_the_depth_limit_is_read_as_before():
    response = anonymous().post(
        "/api/v1/auth/guest/", json.dumps({"name": "Eve"}), content_type="application/json"
    )
    assert response.status_code == 201


def test_a_body_over_the_upload_limit_is_a_json_413(settings):
    settings.DATA_UPLOAD_MAX_MEMORY_SIZE = 1000
    body = json.dumps({"name": "x" * 2000})
    response = anonymous().post("/api/v1/auth/guest/", body, content_type="application/json")
    assert_json_error(response, 413, "too_large")


def test_a_request_line_over_the_limit_is_a_json_414_on_the_api_and_plain_on_pages(settings):
    long = "A" * (settings.MAX_URL_LENGTH + 1)
    assert_json_error(anonymous().get(f"/api/v1/games/?page={long}"), 414, "uri_too_long")
    page = anonymous().get(f"/?x={long}")
    assert page.status_code == 414 and page["Content-Type"].startswith("text/plain")


def test_an_unknown_api_address_is_a_json_404_and_a_page_stays_html():
    assert_json_error(anonymous().get("/api/v1/nothing-here/"), 404, "not_found")
    page = anonymous().get("/nothing-here/")
    assert page.status_code == 404 and page["Content-Type"].startswith("text/html")


def test_with_debug_on_an_unknown_api_address_or_malformed_code_is_still_json(settings):
    """`make run` has DEBUG on, and Django then shows its HTML 404 page instead of handler404."""
    settings.DEBUG = True
    for path in ("/api/v1/nothing-here/", "/api/v1/games/not-a-code!/"):
        assert_json_error(anonymous().get(path), 404, "not_found")
    page = anonymous().get("/nothing-here/")
    assert page.status_code == 404 and page["Content-Type"].startswith("text/html")


def test_events_after_a_negative_seq_is_400():
    ana = guest("Ana")
    code = ana.post("/api/v1/games/", {}, format="json").json()["code"]
    for after in ("-1", "x"):
        response = ana.get(f"/api/v1/games/{code}/events/?after={after}")
        assert_json_error(response, 400, "bad_request")
    assert ana.get(f"/api/v1/games/{code}/events/?after=0").status_code == 200


def test_405_and_415_on_the_api_are_json():
    assert_json_error(anonymous().delete("/api/v1/auth/guest/"), 405, "method_not_allowed")
    response = anonymous().post("/api/v1/auth/guest/", {"name": "Eve"})  # a form post
    assert_json_error(response, 415, "unsupported_media_type")


def test_an_unexpected_error_is_a_json_500_on_the_api_and_html_on_pages(monkeypatch):
    from games.selectors import listing
    from games.web import home

    def boom(*args, **kwargs):
        raise RuntimeError("a bug")

    monkeypatch.setattr(listing, "my_games", boom)
    monkeypatch.setattr(home, "render_home", boom)
    ana = guest("Ana")
    client = Client(
        raise_request_exception=False, HTTP_AUTHORIZATION=ana._credentials["HTTP_AUTHORIZATION"]
    )
    body = assert_json_error(client.get("/api/v1/games/"), 500, "server_error")
    assert "a bug" not in body["detail"]
    page = anonymous().get("/")
    assert page.status_code == 500 and page["Content-Type"].startswith("text/html")
