"""The project answers: pages, admin, API schema and docs, database."""

import os
import re
import subprocess
import sys
from pathlib import Path
from urllib.parse import urlsplit

import pytest
from django.contrib.auth import get_user_model
from django.contrib.staticfiles import finders
from django.db import connection


def test_home_page_renders_the_dark_base_layout(client):
    response = client.get("/")

    assert response.status_code == 200
    html = response.content.decode()
    assert "<title>Staked!</title>" in html
    assert 'name="viewport"' in html
    assert "/static/css/staked.css" in html
    assert "X-CSRFToken" in html


def test_home_page_stylesheet_is_found_by_staticfiles():
    assert finders.find("css/staked.css")


def test_openapi_schema_is_served_with_the_api_title_and_version(client):
    response = client.get("/api/v1/schema/", {"format": "json"})

    assert response.status_code == 200
    schema = response.json()
    assert schema["openapi"].startswith("3.")
    assert schema["info"]["title"] == "Staked! API"
    assert schema["info"]["version"] == "1.0.0"


def test_swagger_ui_loads_every_asset_from_this_server(client):
    response = client.get("/api/v1/docs/")

    assert response.status_code == 200
    html = response.content.decode()
    urls = re.findall(r"""(?:src|href)\s*=\s*["']([^"']+)["']""", html)
    urls += re.findall(r"""["'](https?://[^"']+|//[^"']+)["']""", html)
    assert any("swagger-ui" in url for url in urls), html
    assert any(url.startswith("/static/") for url in urls), urls
    for url in urls:
        assert not urlsplit(url).netloc, f"external asset in the docs page: {url}"
        if url.startswith("/static/"):
            assert finders.find(url.removeprefix("/static/")), f"missing static asset {url}"
    for host in ("cdn.", "jsdelivr", "unpkg", "cdnjs"):
        assert host not in html


@pytest.mark.django_db
def test_admin_login_page_renders(client):
    response = client.get("/admin/login/")

    assert response.status_code == 200


@pytest.mark.django_db
def test_database_is_migrated_and_writable():
    user = get_user_model().objects.create_user(username="alice", password="s3cret-enough")

    assert get_user_model().objects.get(pk=user.pk).username == "alice"


@pytest.mark.django_db
def test_suite_runs_on_postgresql_when_database_url_says_so():
    """Never skipped: with a postgres:// DATABASE_URL, or in CI (which always has PostgreSQL),
    the tests must really run on PostgreSQL; otherwise on SQLite (the fallback of run_tests.sh)."""
    wanted = os.environ.get("DATABASE_URL", "").startswith(
        ("postgres://", "postgresql://", "pgsql://")
    )
    if wanted or os.environ.get("CI", "").strip().lower() in {"true", "1", "yes"}:
        assert connection.vendor == "postgresql", os.environ.get("DATABASE_URL")
    else:
        assert connection.vendor == "sqlite"


def test_the_suite_runs_with_the_test_settings():
    """pyproject.toml's DJANGO_SETTINGS_MODULE (the fast password hasher) is the one in force:
    the Celery app that `import staked` loads names staked.settings, which pytest-django would
    otherwise prefer (staked/pytest_plugin.py)."""
    from django.conf import settings

    assert settings.SETTINGS_MODULE == "staked.test_settings"
    assert settings.PASSWORD_HASHERS[0].endswith("MD5PasswordHasher")


def test_openapi_schema_generates_without_a_warning():
    """`manage.py spectacular --fail-on-warn`: every endpoint is documented."""
    root = Path(__file__).resolve().parent.parent
    done = subprocess.run(
        [sys.executable, "manage.py", "spectacular", "--fail-on-warn", "--file", "/dev/null"],
        cwd=root,
        capture_output=True,
        text=True,
        env={**os.environ, "DEBUG": "1"},
    )
    assert done.returncode == 0, done.stderr


@pytest.mark.django_db
def test_no_model_change_is_missing_a_migration():
    from django.core.management import call_command

    call_command("makemigrations", "--check", "--dry-run", verbosity=0)
