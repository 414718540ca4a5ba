"""The access log never holds a secret link (found in a security review): whoever reads the
logs must not be able to take a player's seat or unsubscribe them."""

from __future__ import annotations

import datetime
import logging
from pathlib import Path

import pytest
from django.conf import settings
from gunicorn.config import Config

from staked.access_log import RedactingLogger, RedactSecretPaths

ROOT = Path(__file__).resolve().parent.parent
SECRET = "eyJjIjoiQUJDRCJ9:1vQx:s3cr3t-signature"


class Response:  # the three attributes gunicorn's atoms() reads of its own response object
    status = "302 Found"
    sent = 0
    headers = ()


class Request:
    headers = [
        ("REFERER", f"https://staked.example/g/ABCD/continue/{SECRET}"),
        ("COOKIE", "sessionid=x"),
    ]


def logged_line(tmp_path, path: str, referer: str | None = None) -> str:
    cfg = Config()
    log_file = tmp_path / "access.log"
    cfg.set("accesslog", str(log_file))
    cfg.set("access_log_format", '"%(r)s" %(U)s %(q)s "%(f)s" %({referer}i)s %({cookie}i)s')
    logger = RedactingLogger(cfg)
    environ = {
        "REQUEST_METHOD": "GET",
        "RAW_URI": path,
        "PATH_INFO": path.split("?")[0],
        "QUERY_STRING": path.partition("?")[2],
        "SERVER_PROTOCOL": "HTTP/1.1",
        "HTTP_REFERER": referer or Request.headers[0][1],
    }
    logger.access(Response(), Request(), environ, datetime.timedelta(milliseconds=3))
    return log_file.read_text()


def test_seat_links_claims_and_unsubscribe_links_are_logged_without_their_secret(tmp_path):
    for path in (
        f"/g/ABCD/continue/{SECRET}",
        f"/g/ABCD/claim/{SECRET}",
        f"/me/reminders/unsubscribe/{SECRET}?x=1",
    ):
        line = logged_line(tmp_path, path)
        assert SECRET not in line, line
        assert "sessionid" not in line, line
        assert path.split(SECRET)[0] + "[redacted]" in line, line


def test_e_mail_confirmation_links_are_logged_without_their_secret(tmp_path):
    line = logged_line(tmp_path, f"/me/reminders/confirm/{SECRET}")
    assert SECRET not in line and "/me/reminders/confirm/[redacted]" in line, line


@pytest.mark.parametrize(
    "path",
    [
        f"/t/ABCD/?key={SECRET}",
        f"/t/ABCD/changed?v=8&key={SECRET}",  # the room screen's every poll
        f"/t/ABCD/changed?key={SECRET}&v=8",
    ],
)
def test_the_room_screen_key_is_logged_redacted_in_the_line_the_query_and_the_referrer(
    tmp_path, path
):
    line = logged_line(tmp_path, path, referer=f"https://staked.example{path}")
    assert SECRET not in line, line
    assert line.count("key=[redacted]") == 3, line  # the request line, the query, the referrer
    assert ("v=8" in line) == ("v=8" in path), line  # the other parameters are kept


def test_other_paths_are_logged_as_they_are(tmp_path):
    line = logged_line(tmp_path, "/g/ABCD/?tab=log")
    assert '"GET /g/ABCD/?tab=log HTTP/1.1" /g/ABCD/' in line


def test_every_gunicorn_we_start_uses_the_redacting_logger():
    procfile = (ROOT / "Procfile").read_text()
    web = next(line for line in procfile.splitlines() if line.startswith("web:"))
    assert "--logger-class staked.access_log.RedactingLogger" in web
    conf = (ROOT / "scripts" / "gunicorn.conf.py").read_text()
    assert 'logger_class = "staked.access_log.RedactingLogger"' in conf
    assert '"staked.access_log.RedactingLogger"' in (ROOT / "loadtest" / "stack.py").read_text()


def test_gunicorn_keeps_idle_connections_longer_than_a_proxy_does():
    """Its default (2 s) reset connections that clients' pools were about to reuse."""
    procfile = (ROOT / "Procfile").read_text()
    web = next(line for line in procfile.splitlines() if line.startswith("web:"))
    assert "--keep-alive 75" in web
    assert "keepalive = 75" in (ROOT / "scripts" / "gunicorn.conf.py").read_text()


@pytest.mark.django_db
def test_django_logs_a_refused_secret_link_without_its_secret(client, caplog):
    """django.request warns "Not Found: <path>" for a refused link: the handler's filter (the
    one LOGGING puts on the console) redacts it."""
    assert "secret_paths" in settings.LOGGING["handlers"]["console"]["filters"]
    with caplog.at_level(logging.WARNING, logger="django.request"):
        client.get(f"/g/ABCDEF/continue/{SECRET}")
    (record,) = [r for r in caplog.records if r.name == "django.request"]
    RedactSecretPaths().filter(record)
    assert SECRET not in record.getMessage()
    assert "/g/ABCDEF/continue/[redacted]" in record.getMessage()
