"""The "changed?" poll: 204 while the version is unchanged (one cache read), else the partial."""

from pathlib import Path

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

pytestmark = pytest.mark.django_db


def test_an_unchanged_poll_answers_204_with_no_body_and_no_query(table):
    t = table("LVHHHH")
    version = t.game.version
    phone = t.phone(2)
    phone.client.get(f"/g/{t.code}/changed?v={version}")  # warms the poll key if need be
    with CaptureQueriesContext(connection) as queries:
        response = phone.client.get(
            f"/g/{t.code}/changed?v={version}", headers={"HX-Request": "true"}
        )
    assert response.status_code == 204 and response.content == b""
    assert len(queries) == 0


def test_a_poll_after_a_move_returns_the_new_partial(table):
    t = table("LVHHHH")
    version = t.game.version
    t.phone(3).place(t.code, "S4")
    response = t.phone(2).client.get(
        f"/g/{t.code}/changed?v={version}", headers={"HX-Request": "true"}
    )
    html = response.content.decode()
    assert response.status_code == 200
    assert "<html" not in html and f"changed?v={version + 1}&amp;p=" in html
    assert 'title="Cleo">3<' in html


def test_the_page_polls_every_second_in_a_live_window_only_while_visible(table):
    t = table("LVHHHH")
    html = t.page(1)
    assert f'hx-get="/g/{t.code}/changed?v={t.game.version}&amp;p=' in html
    assert 'hx-trigger="every 1s, visibilitychange from:document" data-poll-visible' in html
    # No trigger filter (the CSP forbids the eval it needs): staked.js holds a hidden page's polls.
    script = (Path(__file__).resolve().parents[2] / "static/js/staked.js").read_text()
    assert 'elt.hasAttribute("data-poll-visible")' in script
    assert 'document.visibilityState !== "visible"' in script


def test_polling_an_unknown_game_is_404(db):
    from django.test import Client

    assert Client().get("/g/ACDEFG/changed?v=1").status_code == 404


def test_the_page_loads_htmx_from_our_own_static_files_and_sets_csrf_once(table):
    t = table("LVHHHH")
    html = t.page(1)
    assert '<script src="/static/js/htmx.min.js" defer>' in html
    assert "https://" not in html.split("<body")[0]
    assert html.count('hx-headers=\'{"X-CSRFToken"') == 1


def _two_moves_hooks_held(t, capture):
    """Two moves, their after-commit hooks captured, not run; the poll key emptied. Returns the
    older move's hooks, the newer one's, and the newest version."""
    from django.core.cache import cache

    from games.domain.poll_keys import version_key

    with capture() as older:
        t.phone(3).place(t.code, "S4")
    with capture() as newer:
        t.phone(4).place(t.code, "S3")
    cache.delete(version_key(t.code))
    return older, newer, t.game.version


def test_the_poll_key_never_goes_back_when_two_moves_commit_hooks_in_the_wrong_order(
    table, django_capture_on_commit_callbacks
):
    """Two moves' after-commit hooks may run out of order (two web processes): the older one
    must not write its version over the newer, or every page would hear "no change"."""
    from django.core.cache import cache

    from games.domain.poll_keys import version_key

    t = table("LVHHHH")
    first, second, newest = _two_moves_hooks_held(t, django_capture_on_commit_callbacks)
    for callback in second + first:  # the newer move's hook runs first
        callback()
    assert cache.get(version_key(t.code)) == newest
    response = t.phone(2).client.get(f"/g/{t.code}/changed?v={newest - 1}")
    assert response.status_code == 200


@pytest.mark.redis
def test_the_poll_key_never_goes_back_when_a_newer_hook_runs_inside_an_older_one(
    table, django_capture_on_commit_callbacks, monkeypatch
):
    """Two moves' after-commit hooks may also run at the same moment (two web processes): the
    newer one can run whole between the older one's first Redis command and its next. The older
    version must not land last (a read-then-write did that: pages at the older version heard
    "no change" until the key expired)."""
    import redis
    from django.core.cache import cache

    from games.domain.poll_keys import version_key

    t = table("LVHHHH")
    older, newer, newest = _two_moves_hooks_held(t, django_capture_on_commit_callbacks)

    real = redis.Redis.execute_command
    pending = list(newer)

    def then_the_newer_hooks_run(self, *args, **kwargs):
        result = real(self, *args, **kwargs)
        while pending:
            pending.pop(0)()
        return result

    monkeypatch.setattr(redis.Redis, "execute_command", then_the_newer_hooks_run)
    for callback in older:
        callback()
    monkeypatch.undo()
    assert not pending, "the older hooks made no Redis command"
    assert cache.get(version_key(t.code)) == newest
    assert t.phone(2).client.get(f"/g/{t.code}/changed?v={newest - 1}").status_code == 200


def test_a_poll_refilling_the_cache_from_an_old_read_keeps_a_newer_version(table):
    """`selectors.game_version` refills a lost key with what it read; a move that committed
    meanwhile has already written a newer version, which the refill must leave alone."""
    from django.core.cache import cache

    from games.domain.poll_keys import version_key
    from games.models import Game
    from games.selectors import game as selectors

    t = table("LVHHHH")
    key = version_key(t.code)
    cache.delete(key)
    real_filter = Game.objects.filter

    def read_then_a_move_commits(*args, **kwargs):
        rows = real_filter(*args, **kwargs)
        cache.set(key, 10**6)  # the newer version a concurrent move wrote after our read
        return rows

    Game.objects.filter = read_then_a_move_commits
    try:
        selectors.game_version(t.code)
    finally:
        Game.objects.filter = real_filter
    assert cache.get(key) == 10**6
