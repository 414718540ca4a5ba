"""Reminder test cast: a local fake push service (a real HTTP server in a thread that records
what it receives), VAPID keys made like `manage.py vapid_keys`, browser-like subscription keys,
a fake DNS (the only third party the endpoint checks ask), and tables made through
games.services with Celery tasks run eagerly (in this process)."""

from __future__ import annotations

import base64
import ipaddress
import os
import re
import socket
import threading
import uuid
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat
from django.contrib.auth import get_user_model
from django.core import mail
from django.core.cache import cache
from rest_framework.test import APIClient

from games import services
from games.engine.table import role_deck
from games.models import Game
from games.notify import endpoints
from staked.celery import app
from tests.words import DOUBLED, RULE_ID, SEAT_NUMBER


def b64url(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).decode().rstrip("=")


class FakePushService:
    """A push service on 127.0.0.1: answers every POST with `status` and keeps the request."""

    def __init__(self):
        self.requests: list[dict] = []
        self.status = 201
        service = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self):  # noqa: N802 - the http.server API
                body = self.rfile.read(int(self.headers.get("Content-Length") or 0))
                service.requests.append(
                    {
                        "method": "POST",
                        "path": self.path,
                        "headers": dict(self.headers),
                        "body": body,
                    }
                )
                self.send_response(service.status)
                self.send_header("Content-Length", "0")
                self.end_headers()

            def log_message(self, *args):
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.origin = f"http://127.0.0.1:{self.server.server_address[1]}"
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self.thread.start()

    def endpoint(self) -> str:
        return f"{self.origin}/push/{uuid.uuid4().hex}"

    def stop(self):
        self.server.shutdown()
        self.server.server_close()


class BrowserKeys:
    """What a browser makes for a subscription: a P-256 key pair and a 16-byte auth secret."""

    def __init__(self):
        self.private_key = ec.generate_private_key(ec.SECP256R1())
        point = self.private_key.public_key().public_bytes(
            Encoding.X962, PublicFormat.UncompressedPoint
        )
        self.auth_secret = os.urandom(16)
        self.p256dh = b64url(point)
        self.auth = b64url(self.auth_secret)

    def subscription(self, endpoint: str) -> dict:
        return {
            "endpoint": endpoint,
            "expirationTime": None,
            "keys": {"p256dh": self.p256dh, "auth": self.auth},
        }


# Public addresses of the push services (what the real DNS answered once); tests change them.
PUSH_SERVICE_ADDRESSES = {
    "fcm.googleapis.com": ["142.250.74.74", "2a00:1450:4007:80e::200a"],
    "updates.push.services.mozilla.com": ["34.117.237.239"],
    "web.push.apple.com": ["17.188.182.202"],
    "wns2-par02p.notify.windows.com": ["20.199.120.182"],
}


class FakeDNS:
    """Answers like socket.getaddrinfo from `names`; an IP literal is itself; any other name is
    unknown (the tests never reach the internet)."""

    def __init__(self):
        self.names = {host: list(addresses) for host, addresses in PUSH_SERVICE_ADDRESSES.items()}
        self.asked: list[str] = []

    def __call__(self, host, port, family=0, type=0, proto=0, flags=0):
        self.asked.append(host)
        try:
            addresses = [str(ipaddress.ip_address(host))]
        except ValueError:
            addresses = self.names.get(host.lower())
        if not addresses:
            raise socket.gaierror(socket.EAI_NONAME, "Name or service not known")
        out = []
        for address in addresses:
            if ipaddress.ip_address(address).version == 6:
                out.append((socket.AF_INET6, socket.SOCK_STREAM, 6, "", (address, port, 0, 0)))
            else:
                out.append((socket.AF_INET, socket.SOCK_STREAM, 6, "", (address, port)))
        return out


@pytest.fixture(autouse=True)
def dns(monkeypatch) -> FakeDNS:
    fake = FakeDNS()
    monkeypatch.setattr(endpoints, "getaddrinfo", fake)
    return fake


@pytest.fixture(autouse=True)
def _fresh_cache():
    cache.clear()  # the reminders' "already queued" keys must not leak between tests
    yield
    cache.clear()


@pytest.fixture
def push_service():
    service = FakePushService()
    yield service
    service.stop()


@pytest.fixture
def vapid(settings, push_service):
    """Web Push on, with a fresh key pair, accepting the fake push service's endpoints."""
    key = ec.generate_private_key(ec.SECP256R1())
    settings.VAPID_PRIVATE_KEY = b64url(key.private_numbers().private_value.to_bytes(32, "big"))
    settings.VAPID_PUBLIC_KEY = b64url(
        key.public_key().public_bytes(Encoding.X962, PublicFormat.UncompressedPoint)
    )
    settings.VAPID_SUBJECT = "mailto:organisers@staked.example"
    settings.PUSH_SERVICES = [push_service.origin]
    return settings


@pytest.fixture
def eager_tasks():
    """Celery tasks run at once in this process (an ETA task too: it then finds nothing due)."""
    app.conf.task_always_eager = True
    yield
    app.conf.task_always_eager = False


def api_client(user) -> APIClient:
    client = APIClient()
    client.force_authenticate(user)
    return client


class Table:
    """A lobby of `players` friends (users[i] at seat i + 1), then `bots`, with the R1.2 deck
    dealt in order."""

    def __init__(self, players: int = 6, bots: int = 0, **timers):
        users = get_user_model().objects
        self.users = [users.create_user(f"p{i}-{uuid.uuid4().hex[:8]}") for i in range(players)]
        deck = role_deck(players + bots)
        roles = {str(seat): role for seat, role in enumerate(deck, start=1)}
        game = services.game_create(
            host=self.users[0], options={"roles": roles, "timers": timers}, name="p0"
        )
        for i, user in enumerate(self.users[1:], start=1):
            services.game_join(code=game.code, user=user, name=f"p{i}")
        if bots:
            services.game_add_bots(code=game.code, user=self.users[0], count=bots)
        self.code = game.code

    @property
    def game(self) -> Game:
        return Game.objects.get(code=self.code)

    def start(self):
        services.game_start(code=self.code, user=self.users[0])


@pytest.fixture
def table():
    return Table


# Every e-mail a reminder test sent reads as the pages do (docs/voice.md): a person by name, not
# "Seat N" (a place, "at seat 3", is fine); no rule ID; no doubled word.
MAIL_FAULTS = {"a seat number": SEAT_NUMBER, "a rule ID": RULE_ID, "a doubled word": DOUBLED}


@pytest.fixture(autouse=True)
def _every_email_reads_well():
    yield
    for message in mail.outbox:
        text = f"{message.subject}\n{message.body}"
        text = re.sub(r"https?://\S+", "", text)  # links carry codes and tokens
        for fault, pattern in MAIL_FAULTS.items():
            found = pattern.search(text)
            assert found is None, f"an e-mail has {fault}: {found.group(0)!r} in\n{text}"
