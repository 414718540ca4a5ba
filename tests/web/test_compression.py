"""Pages are sent compressed to a browser that asks (staked.middleware.CompressPages); the API's
answers never are, so that their version ETags stay strong for If-Match."""

import gzip

import pytest

from tests import factories

pytestmark = pytest.mark.django_db

GZIP = {"Accept-Encoding": "gzip, deflate, br"}


def test_a_game_update_is_sent_gzipped_to_a_phone_that_accepts_it(table):
    t = table("LVHHHH")
    version = t.game.version
    t.phone(3).place(t.code, "S4")
    response = t.phone(2).client.get(
        f"/g/{t.code}/changed?v={version}", headers={"HX-Request": "true", **GZIP}
    )
    assert response.status_code == 200 and response["Content-Encoding"] == "gzip"
    html = gzip.decompress(response.content).decode()
    assert f"changed?v={version + 1}&amp;p=" in html
    assert len(response.content) * 3 < len(html.encode())  # a few KB, not the whole partial


def test_a_page_is_sent_plain_to_a_browser_that_does_not_ask(table):
    t = table("LVHHHH")
    response = t.phone(2).client.get(f"/g/{t.code}/")
    assert response.status_code == 200 and not response.has_header("Content-Encoding")
    assert b"<html" in response.content


def test_the_api_is_never_compressed_so_its_etag_stays_strong(table, client):
    t = table("LVHHHH")
    user = t.phone(2).user
    client.defaults["HTTP_AUTHORIZATION"] = f"Token {factories.api_token(user)}"
    response = client.get(f"/api/v1/games/{t.code}/", headers=GZIP)
    assert response.status_code == 200 and not response.has_header("Content-Encoding")
    assert response["ETag"] == f'"{t.game.version}"'
