"""Game pages and the game API are never stored by a cache, and a
Content-Security-Policy lets only the app's own scripts and styles run (no inline script, no
inline style, no eval), which the templates keep to (staked/middleware.py, settings)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from django.test import Client

from tests.api.conftest import guest

pytestmark = pytest.mark.django_db

ROOT = Path(__file__).resolve().parents[2]
TEMPLATES = sorted([*ROOT.glob("templates/**/*.html"), *ROOT.glob("games/**/templates/**/*.html")])


def policy(response) -> dict[str, list[str]]:
    directives = [d.strip().split() for d in response["Content-Security-Policy"].split(";")]
    return {d[0]: d[1:] for d in directives if d}


def assert_strict(response) -> None:
    csp = policy(response)
    assert csp["script-src"] == ["'self'"], csp
    assert csp["style-src"] == ["'self'"], csp
    assert csp["default-src"] == ["'self'"] and csp["object-src"] == ["'none'"]
    assert csp["frame-ancestors"] == ["'none'"] and csp["base-uri"] == ["'none'"]


def test_game_pages_and_the_game_api_are_no_store_with_a_strict_policy(table):
    t = table("LVHHHH")
    ana = t.phone(1).client
    api = guest("Eve")
    for response in (
        ana.get(f"/g/{t.code}/"),
        ana.get(f"/g/{t.code}/changed?v=0"),
        ana.get(f"/t/{t.code}/"),
        ana.get("/"),
        api.get(f"/api/v1/games/{t.code}/"),
        api.get(f"/api/v1/games/{t.code}/", HTTP_IF_NONE_MATCH='"1"'),
        api.get(f"/api/v1/games/{t.code}/events/"),
        api.get("/api/v1/games/"),
        Client().get("/api/v1/games/"),  # a 401 too
    ):
        assert response["Cache-Control"] == "no-store", response.request["PATH_INFO"]
        assert_strict(response)


def test_a_view_that_chose_its_own_caching_keeps_it():
    assert Client().get("/sw.js")["Cache-Control"] == "no-cache"
    assert "max-age=3600" in Client().get("/manifest.webmanifest")["Cache-Control"]


def test_swagger_ui_runs_no_inline_script_and_allows_only_its_inline_styles():
    page = Client().get("/api/v1/docs/")
    assert page.status_code == 200
    html = page.content.decode()
    assert not re.search(r"<script(?![^>]*\bsrc=)[^>]*>", html), "an inline script"
    csp = policy(page)
    assert csp["script-src"] == ["'self'"]
    assert "'unsafe-inline'" in csp["style-src"]
    script = re.search(r'<script src="([^"]+\?[^"]*script[^"]*)"', html).group(1)
    start = Client().get(script.replace("&amp;", "&"))
    assert start.status_code == 200 and "SwaggerUIBundle" in start.content.decode()


@pytest.mark.parametrize("template", TEMPLATES, ids=lambda p: str(p.relative_to(ROOT)))
def test_no_template_has_an_inline_script_a_handler_attribute_or_an_inline_style(template):
    text = template.read_text()
    assert not re.search(r"<script(?![^>]*\bsrc=)[^>]*>", text), "an inline <script>"
    assert not re.search(r"\son[a-z]+\s*=", text), "an on* handler attribute"
    assert not re.search(r"\sstyle\s*=|<style", text), "an inline style"
    assert not re.search(r"hx-on|hx-vars|js:|\[document\.", text), "htmx code that needs eval"
    assert not re.search(r"\{#(?:(?!#\}).)*\n", text), "a {# comment over several lines shows"
