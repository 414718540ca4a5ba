"""staked.settings reads the environment strictly; each case runs in a fresh interpreter."""

import json
import os
import stat
import subprocess
import sys
from pathlib import Path

import pytest
from django.core.cache.backends.redis import RedisCache
from django.utils.module_loading import import_string

ROOT = Path(__file__).resolve().parent.parent

# Every variable the settings read; each case starts from an environment without them.
SETTINGS_VARIABLES = {
    "DEBUG",
    "SECRET_KEY",
    "ALLOWED_HOSTS",
    "CSRF_TRUSTED_ORIGINS",
    "DATABASE_URL",
    "REDIS_URL",
    "STAKED_DATA_DIR",
    "STATIC_ROOT",
    "CONN_MAX_AGE",
    "CELERY_VISIBILITY_TIMEOUT",
    "CELERY_BROKER_URL",
    "LOG_LEVEL",
}

PROBE = """
import json
import django
django.setup()
from django.conf import settings as s
print(json.dumps({
    "debug": s.DEBUG,
    "secret_key": s.SECRET_KEY,
    "allowed_hosts": s.ALLOWED_HOSTS,
    "database": {k: s.DATABASES["default"][k] for k in ("ENGINE", "NAME", "HOST", "PORT")},
    "cache": s.CACHES["default"],
    "broker_url": s.CELERY_BROKER_URL,
    "broker_options": s.CELERY_BROKER_TRANSPORT_OPTIONS,
    "broker_transport": getattr(s, "CELERY_BROKER_TRANSPORT", None),
    "beat_schedule_filename": s.CELERY_BEAT_SCHEDULE_FILENAME,
    "static_root": str(s.STATIC_ROOT),
}, default=str))
"""


def load_settings(tmp_path: Path, **variables: str) -> subprocess.CompletedProcess:
    env = {key: value for key, value in os.environ.items() if key not in SETTINGS_VARIABLES}
    env["DJANGO_SETTINGS_MODULE"] = "staked.settings"
    env["STAKED_DATA_DIR"] = str(tmp_path / "var")
    env.update(variables)
    return subprocess.run(
        [sys.executable, "-c", PROBE],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )


def loaded(result: subprocess.CompletedProcess) -> dict:
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout)


def test_embedded_defaults_use_sqlite_a_file_cache_and_the_sqlite_broker(tmp_path):
    config = loaded(load_settings(tmp_path, DEBUG="1"))
    var = tmp_path / "var"

    assert config["debug"] is True
    assert config["database"]["ENGINE"] == "django.db.backends.sqlite3"
    assert config["database"]["NAME"] == str(var / "db.sqlite3")
    assert config["cache"]["BACKEND"] == "django.core.cache.backends.filebased.FileBasedCache"
    assert Path(config["cache"]["LOCATION"]).is_relative_to(var)
    # A SQLite file through kombu's SQLAlchemy transport, not the filesystem broker.
    assert config["broker_url"] == f"sqlite:///{var / 'broker.sqlite3'}"
    assert config["broker_transport"] == "staked.broker:Transport"
    assert config["beat_schedule_filename"] == str(var / "celerybeat-schedule")
    assert config["static_root"] == str(var / "static")
    assert config["allowed_hosts"] == ["localhost", "127.0.0.1", "[::1]"]


def test_debug_without_secret_key_generates_one_and_keeps_it_in_the_data_folder(tmp_path):
    first = loaded(load_settings(tmp_path, DEBUG="1"))
    second = loaded(load_settings(tmp_path, DEBUG="true"))
    key_file = tmp_path / "var" / "secret_key"

    assert len(first["secret_key"]) >= 50
    assert first["secret_key"] == second["secret_key"] == key_file.read_text()
    assert stat.S_IMODE(key_file.stat().st_mode) == 0o600


def test_debug_is_off_by_default_and_then_a_secret_key_is_required(tmp_path):
    result = load_settings(tmp_path)

    assert result.returncode != 0
    assert "ImproperlyConfigured" in result.stderr
    assert "SECRET_KEY must be set" in result.stderr


def test_service_urls_select_postgresql_and_redis(tmp_path):
    config = loaded(
        load_settings(
            tmp_path,
            SECRET_KEY="only-for-this-test",
            DATABASE_URL="postgres://postgres@127.0.0.1:5432/staked",
            REDIS_URL="redis://127.0.0.1:6379/3",
            CELERY_VISIBILITY_TIMEOUT="7200",
            ALLOWED_HOSTS="staked.example, www.staked.example",
        )
    )

    assert config["debug"] is False
    assert config["database"]["ENGINE"] == "django.db.backends.postgresql"
    assert config["database"]["NAME"] == "staked"
    assert issubclass(import_string(config["cache"]["BACKEND"]), RedisCache)
    assert config["cache"]["LOCATION"] == "redis://127.0.0.1:6379/3"
    assert config["broker_url"] == "redis://127.0.0.1:6379/3"
    assert config["broker_options"] == {"visibility_timeout": 7200}
    assert config["allowed_hosts"] == ["staked.example", "www.staked.example"]


def test_celery_broker_url_puts_the_broker_apart_from_the_cache(tmp_path):
    config = loaded(
        load_settings(
            tmp_path,
            DEBUG="1",
            REDIS_URL="redis://127.0.0.1:6379/0",
            CELERY_BROKER_URL="redis://127.0.0.1:6379/1",
        )
    )

    assert config["cache"]["LOCATION"] == "redis://127.0.0.1:6379/0"
    assert config["broker_url"] == "redis://127.0.0.1:6379/1"


@pytest.mark.parametrize(
    ("variable", "value", "message"),
    [
        ("DEBUG", "maybe", "is not a boolean"),
        ("DATABASE_URL", "bogus://db.example/staked", "unsupported scheme 'bogus'"),
        ("DATABASE_URL", "postgres://postgres@127.0.0.1:5432", "names no database"),
        ("DATABASE_URL", "127.0.0.1:5432/staked", "unsupported scheme"),
        ("REDIS_URL", "http://127.0.0.1:6379/0", "unsupported scheme 'http'"),
        ("REDIS_URL", "redis://127.0.0.1:port/0", "not a valid Redis URL"),
        ("CELERY_BROKER_URL", "amqp://127.0.0.1//", "unsupported scheme 'amqp'"),
        ("CONN_MAX_AGE", "-1", "must be >= 0"),
        ("CELERY_VISIBILITY_TIMEOUT", "0", "must be >= 1"),
        ("CELERY_VISIBILITY_TIMEOUT", "an hour", "is not an integer"),
        ("LOG_LEVEL", "LOUD", "must be one of"),
    ],
)
def test_a_malformed_value_is_improperly_configured(tmp_path, variable, value, message):
    result = load_settings(tmp_path, **{"DEBUG": "1", variable: value})

    assert result.returncode != 0
    last_line = result.stderr.strip().splitlines()[-1]
    assert last_line.startswith("django.core.exceptions.ImproperlyConfigured:"), result.stderr
    assert variable in last_line
    assert message in last_line
