"""Production readiness: the deploy check, secure defaults, structured logs, the Procfile."""

from __future__ import annotations

import json
import logging
import os
import re
import secrets
import subprocess
import sys
from pathlib import Path

import pytest
from django.conf import settings

from games.services import action_apply, game_expire
from staked.logs import JsonFormatter, KeyValueFormatter
from tests.factories import running_game

ROOT = Path(__file__).resolve().parent.parent

# Every variable that would change what the settings decide; each run starts without them.
VARIABLES = re.compile(
    r"^(DEBUG|SECRET_KEY|ALLOWED_HOSTS|CSRF_TRUSTED_ORIGINS|DATABASE_URL|REDIS_URL|"
    r"CELERY_.*|STAKED_DATA_DIR|STATIC_ROOT|CONN_MAX_AGE|LOG_.*|SECURE_.*|SESSION_.*|CSRF_.*|"
    r"BEHIND_TLS_PROXY|ABANDONED_AFTER_HOURS|DJANGO_SETTINGS_MODULE|DJANGO_ALLOW_ASYNC_UNSAFE)$"
)

PRODUCTION = {
    "DEBUG": "0",
    "ALLOWED_HOSTS": "staked.example.com",
    "CSRF_TRUSTED_ORIGINS": "https://staked.example.com",
    "DATABASE_URL": "postgres://staked:secret@db.internal:5432/staked",
    "REDIS_URL": "redis://redis.internal:6379/0",
}


def run(tmp_path: Path, args: list[str], **variables: str) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if not VARIABLES.match(k)}
    env.update(
        DJANGO_SETTINGS_MODULE="staked.settings",
        STAKED_DATA_DIR=str(tmp_path / "var"),
        SECRET_KEY=secrets.token_urlsafe(64),
        **PRODUCTION,
    )
    env.update(variables)
    return subprocess.run(
        [sys.executable, *args], cwd=ROOT, env=env, capture_output=True, text=True, timeout=180
    )


def test_the_deploy_check_passes_with_production_settings_from_the_environment(tmp_path):
    result = run(tmp_path, ["manage.py", "check", "--deploy", "--fail-level", "WARNING"])
    assert result.returncode == 0, result.stdout + result.stderr
    assert "no issues" in result.stdout


def test_the_deploy_check_fails_when_a_secure_default_is_turned_off(tmp_path):
    result = run(
        tmp_path,
        ["manage.py", "check", "--deploy", "--fail-level", "WARNING"],
        SESSION_COOKIE_SECURE="0",
        SECURE_HSTS_SECONDS="0",
    )
    assert result.returncode != 0
    assert "security.W012" in result.stderr and "security.W004" in result.stderr


PROBE = """
import json, django
django.setup()
from django.conf import settings as s
print(json.dumps({
    "ssl_redirect": s.SECURE_SSL_REDIRECT, "hsts": s.SECURE_HSTS_SECONDS,
    "hsts_subdomains": s.SECURE_HSTS_INCLUDE_SUBDOMAINS, "preload": s.SECURE_HSTS_PRELOAD,
    "session_secure": s.SESSION_COOKIE_SECURE, "csrf_secure": s.CSRF_COOKIE_SECURE,
    "proxy": getattr(s, "SECURE_PROXY_SSL_HEADER", None), "hosts": s.ALLOWED_HOSTS,
    "origins": s.CSRF_TRUSTED_ORIGINS, "engine": s.DATABASES["default"]["ENGINE"],
    "cache": s.CACHES["default"]["BACKEND"], "broker": s.CELERY_BROKER_URL,
    "whitenoise": "whitenoise.middleware.WhiteNoiseMiddleware" in s.MIDDLEWARE,
    "formatter": s.LOGGING["handlers"]["console"]["formatter"],
    "abandoned": s.ABANDONED_AFTER_HOURS,
}))
"""


def probe(tmp_path: Path, **variables: str) -> dict:
    result = run(tmp_path, ["-c", PROBE], **variables)
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout)


def test_production_uses_postgres_redis_and_whitenoise_with_secure_defaults(tmp_path):
    config = probe(tmp_path)
    assert config["engine"] == "django.db.backends.postgresql"
    assert config["cache"] == "staked.cache.ReusingRedisCache"
    assert config["broker"] == "redis://redis.internal:6379/0"
    assert config["whitenoise"]
    assert config["ssl_redirect"] and config["session_secure"] and config["csrf_secure"]
    assert config["hsts"] >= 365 * 24 * 3600 and config["hsts_subdomains"] and config["preload"]
    assert config["proxy"] is None  # trusted only when told (BEHIND_TLS_PROXY=1)
    assert config["hosts"] == ["staked.example.com"]
    assert config["origins"] == ["https://staked.example.com"]
    assert config["formatter"] == "text" and config["abandoned"] == 48


def test_the_secure_settings_follow_the_environment(tmp_path):
    config = probe(
        tmp_path,
        BEHIND_TLS_PROXY="1",
        SECURE_HSTS_SECONDS="3600",
        SECURE_HSTS_PRELOAD="0",
        LOG_FORMAT="json",
        ABANDONED_AFTER_HOURS="6",
    )
    assert config["proxy"] == ["HTTP_X_FORWARDED_PROTO", "https"]
    assert config["hsts"] == 3600 and config["preload"] is False
    assert config["formatter"] == "json" and config["abandoned"] == 6
    local = probe(tmp_path, DEBUG="1", SECRET_KEY="")
    assert not local["ssl_redirect"] and not local["session_secure"] and local["hsts"] == 0


def test_a_malformed_security_variable_stops_the_start(tmp_path):
    result = run(tmp_path, ["-c", PROBE], SECURE_HSTS_SECONDS="a year")
    assert result.returncode != 0 and "SECURE_HSTS_SECONDS" in result.stderr


@pytest.mark.django_db
def test_every_action_and_timer_expiry_is_logged_with_game_round_and_version(caplog):
    game = running_game(6)
    v = game.version
    with caplog.at_level(logging.INFO, logger="games"):
        action_apply(
            code=game.code,
            user=game.users[0],
            name="place_token",
            args={"token": "stake", "target": 3},
        )
        game.refresh_from_db()
        game_expire(game_id=game.id, now=game.deadline.timestamp() + 1)
    action, expiry = (r for r in caplog.records if r.name == "games")
    assert (action.game, action.round, action.version, action.seat) == (game.code, 1, v + 1, 1)
    assert (expiry.game, expiry.version) == (game.code, v + 2)

    line = KeyValueFormatter().format(action)
    assert f"game={game.code} round=1 version={v + 1} seat=1" in line
    assert "action place_token" in line
    data = json.loads(JsonFormatter().format(expiry))
    assert data["message"] == "timer expired"
    assert (data["game"], data["version"], data["level"]) == (game.code, v + 2, "INFO")
    assert "round" in data


def test_the_configured_handler_uses_the_key_value_formatter():
    handler = settings.LOGGING["handlers"]["console"]
    formatter = settings.LOGGING["formatters"][handler["formatter"]]
    assert formatter["()"] in {"staked.logs.KeyValueFormatter", "staked.logs.JsonFormatter"}
    root = logging.getLogger()
    assert any(isinstance(h.formatter, KeyValueFormatter | JsonFormatter) for h in root.handlers)


def test_key_value_lines_quote_values_with_spaces():
    record = logging.makeLogRecord(
        {"msg": "seat replaced", "levelname": "INFO", "game": "ABCDEF", "by": "Ann Lee"}
    )
    assert KeyValueFormatter().format(record).endswith('game=ABCDEF by="Ann Lee"')


def test_the_procfile_runs_web_worker_and_exactly_one_beat():
    lines = (ROOT / "Procfile").read_text().splitlines()
    processes = dict(line.split(":", 1) for line in lines if line and not line.startswith("#"))
    assert "gunicorn staked.wsgi" in processes["web"]
    assert "celery -A staked worker" in processes["worker"]
    assert "celery -A staked beat" in processes["beat"]
    beats = [p for p in processes.values() if " beat" in p]
    assert len(beats) == 1
    assert "migrate" in processes.get("release", "")
