"""The reminders' settings are read strictly (a fresh interpreter per case), and
`manage.py vapid_keys` makes a key pair those settings accept."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from io import StringIO
from pathlib import Path

import pytest
from django.core.management import call_command

ROOT = Path(__file__).resolve().parent.parent.parent
VARIABLES = {
    "VAPID_PUBLIC_KEY",
    "VAPID_PRIVATE_KEY",
    "VAPID_SUBJECT",
    "EMAIL_URL",
    "DEFAULT_FROM_EMAIL",
    "SITE_URL",
    "PORT",
    "REMINDER_LEAD_MINUTES",
    "PUSH_SERVICES",
}
PROBE = """
import json
from django.conf import settings as s
print(json.dumps({k: getattr(s, k, None) for k in (
    "VAPID_PUBLIC_KEY", "VAPID_SUBJECT", "EMAIL_BACKEND", "EMAIL_HOST", "EMAIL_PORT",
    "EMAIL_USE_TLS", "DEFAULT_FROM_EMAIL", "SITE_URL", "REMINDER_LEAD_MINUTES", "PUSH_SERVICES",
)}))
"""


def load(tmp_path, **variables) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if k not in VARIABLES}
    env.update(DJANGO_SETTINGS_MODULE="staked.settings", STAKED_DATA_DIR=str(tmp_path), **variables)
    return subprocess.run(
        [sys.executable, "-c", PROBE], cwd=ROOT, env=env, capture_output=True, text=True
    )


def settings_of(tmp_path, **variables) -> dict:
    done = load(tmp_path, **variables)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def refusal(tmp_path, **variables) -> str:
    done = load(tmp_path, **variables)
    assert done.returncode != 0
    assert "ImproperlyConfigured" in done.stderr
    return done.stderr.strip().splitlines()[-1]


def new_keys() -> dict:
    out = StringIO()
    call_command("vapid_keys", stdout=out)
    return dict(line.split("=", 1) for line in out.getvalue().splitlines())


def test_by_default_push_is_off_and_email_goes_to_the_console(tmp_path):
    s = settings_of(tmp_path)
    assert s["VAPID_PUBLIC_KEY"] == ""
    assert s["EMAIL_BACKEND"] == "django.core.mail.backends.console.EmailBackend"
    assert s["REMINDER_LEAD_MINUTES"] == 10
    assert "fcm.googleapis.com" in s["PUSH_SERVICES"]


def test_e_mail_links_follow_the_port_make_run_serves_on_unless_site_url_is_set(tmp_path):
    assert settings_of(tmp_path)["SITE_URL"] == "http://127.0.0.1:8000"
    assert settings_of(tmp_path, PORT="")["SITE_URL"] == "http://127.0.0.1:8000"
    assert settings_of(tmp_path, PORT="8123")["SITE_URL"] == "http://127.0.0.1:8123"
    chosen = settings_of(tmp_path, PORT="8123", SITE_URL="https://staked.example")
    assert chosen["SITE_URL"] == "https://staked.example"


def test_the_keys_vapid_keys_prints_are_accepted(tmp_path):
    keys = new_keys()
    assert keys["VAPID_SUBJECT"].startswith("mailto:")
    s = settings_of(tmp_path, **keys)
    assert s["VAPID_PUBLIC_KEY"] == keys["VAPID_PUBLIC_KEY"]


@pytest.mark.parametrize(
    "change, complaint",
    [
        ({"VAPID_SUBJECT": ""}, "VAPID_SUBJECT must be set too"),
        ({"VAPID_SUBJECT": "organisers@example.com"}, "VAPID_SUBJECT must be a mailto:"),
        ({"VAPID_PRIVATE_KEY": "not-a-key"}, "VAPID_PRIVATE_KEY is not a raw P-256 key"),
        ({"VAPID_PUBLIC_KEY": "other"}, "VAPID_PUBLIC_KEY is not the public key"),
    ],
)
def test_malformed_vapid_settings_stop_the_start(tmp_path, change, complaint):
    assert complaint in refusal(tmp_path, **{**new_keys(), **change})


def test_a_mismatched_vapid_pair_stops_the_start(tmp_path):
    keys = {**new_keys(), "VAPID_PUBLIC_KEY": new_keys()["VAPID_PUBLIC_KEY"]}
    assert "is not the public key of VAPID_PRIVATE_KEY" in refusal(tmp_path, **keys)


def test_email_url_configures_smtp(tmp_path):
    s = settings_of(
        tmp_path,
        EMAIL_URL="smtp+tls://staked:secret@mail.example.com:587",
        DEFAULT_FROM_EMAIL="Staked! <games@staked.example>",
        SITE_URL="https://staked.example/",
        REMINDER_LEAD_MINUTES="30",
    )
    assert s["EMAIL_BACKEND"] == "django.core.mail.backends.smtp.EmailBackend"
    assert (s["EMAIL_HOST"], s["EMAIL_PORT"], s["EMAIL_USE_TLS"]) == ("mail.example.com", 587, True)
    assert s["DEFAULT_FROM_EMAIL"] == "Staked! <games@staked.example>"
    assert s["SITE_URL"] == "https://staked.example"
    assert s["REMINDER_LEAD_MINUTES"] == 30


@pytest.mark.parametrize(
    "variables, complaint",
    [
        ({"EMAIL_URL": "pigeon://loft"}, "EMAIL_URL is not a valid e-mail URL"),
        ({"SITE_URL": "staked.example"}, "SITE_URL='staked.example' must be an http(s):// URL"),
        ({"REMINDER_LEAD_MINUTES": "0"}, "REMINDER_LEAD_MINUTES=0 is out of range"),
        ({"PORT": "eighty"}, "PORT='eighty' is not an integer"),
        ({"PORT": "70000"}, "PORT=70000 is out of range"),
    ],
)
def test_malformed_email_and_site_settings_stop_the_start(tmp_path, variables, complaint):
    assert complaint in refusal(tmp_path, **variables)
