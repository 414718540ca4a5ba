"""Django settings for Staked!, read from the environment.

Every value comes from an environment variable (docs/configuration.md lists them). A value
that is set but malformed raises ``ImproperlyConfigured`` naming the variable, instead of silently
falling back to a default. With no ``DATABASE_URL``/``REDIS_URL`` the project runs embedded:
SQLite, a file-based cache and a SQLite Celery broker, all inside the data folder.
"""

from __future__ import annotations

import base64
import os
import time
from pathlib import Path
from urllib.parse import urlsplit

import environ
from django.core.exceptions import ImproperlyConfigured

from staked.rates import Rate

BASE_DIR = Path(__file__).resolve().parent.parent

env = environ.Env()

_TRUE = {"1", "true", "yes", "on"}
_FALSE = {"0", "false", "no", "off", ""}


def _raw(name: str) -> str | None:
    value = env.str(name, default=None)
    return None if value is None else value.strip()


def env_bool(name: str, *, default: bool) -> bool:
    value = _raw(name)
    if value is None:
        return default
    if value.lower() in _TRUE:
        return True
    if value.lower() in _FALSE:
        return False
    raise ImproperlyConfigured(
        f"{name}={value!r} is not a boolean: use one of 1/0, true/false, yes/no, on/off."
    )


def env_int(name: str, *, default: int, minimum: int) -> int:
    value = _raw(name)
    if value is None or value == "":
        return default
    try:
        number = int(value)
    except ValueError:
        raise ImproperlyConfigured(f"{name}={value!r} is not an integer.") from None
    if number < minimum:
        raise ImproperlyConfigured(f"{name}={number} is out of range: it must be >= {minimum}.")
    return number


def env_list(name: str, *, default: list[str]) -> list[str]:
    value = _raw(name)
    if value is None:
        return default
    return [item.strip() for item in value.split(",") if item.strip()]


def env_choice(name: str, *, default: str, choices: set[str]) -> str:
    value = _raw(name)
    if value is None or value == "":
        return default
    if value.upper() not in choices:
        raise ImproperlyConfigured(f"{name}={value!r} must be one of {', '.join(sorted(choices))}.")
    return value.upper()


def env_database(name: str, *, default_sqlite: Path) -> dict:
    value = _raw(name)
    if not value:
        return {"ENGINE": "django.db.backends.sqlite3", "NAME": str(default_sqlite)}
    scheme = urlsplit(value).scheme
    if scheme not in {"postgres", "postgresql", "pgsql", "sqlite"}:
        raise ImproperlyConfigured(
            f"{name} has an unsupported scheme {scheme!r}: use postgres://user@host:port/name "
            "or sqlite:////absolute/path.db."
        )
    try:
        config = env.db_url_config(value)
    except Exception as exc:  # environ raises a variety of errors on malformed URLs
        raise ImproperlyConfigured(f"{name} is not a valid database URL: {exc}") from None
    if not config.get("NAME"):
        raise ImproperlyConfigured(f"{name} names no database (the path part of the URL).")
    return config


def env_redis_url(name: str) -> str | None:
    value = _raw(name)
    if not value:
        return None
    parts = urlsplit(value)
    if parts.scheme not in {"redis", "rediss", "unix"}:
        raise ImproperlyConfigured(
            f"{name} has an unsupported scheme {parts.scheme!r}: use redis://host:port/db."
        )
    if parts.scheme != "unix" and not parts.hostname:
        raise ImproperlyConfigured(f"{name} names no host: use redis://host:port/db.")
    try:
        parts.port  # noqa: B018 - raises ValueError on a malformed port
    except ValueError as exc:
        raise ImproperlyConfigured(f"{name} is not a valid Redis URL: {exc}") from None
    return value


def data_dir(*parts: str) -> Path:
    """A folder inside the data folder, created on first use."""
    path = DATA_DIR.joinpath(*parts)
    path.mkdir(parents=True, exist_ok=True)
    return path


def local_secret_key(path: Path) -> str:
    """A random key kept in the data folder, so sessions survive restarts of a local run.

    Several processes (web, worker, beat) may start at once: O_EXCL makes exactly one of them
    write the file, and the others read what it wrote.
    """
    # Only for a local run without SECRET_KEY: production settings never load it.
    from django.core.management.utils import get_random_secret_key

    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except FileExistsError:
        for _ in range(50):
            key = path.read_text().strip()
            if key:
                return key
            time.sleep(0.01)
        raise ImproperlyConfigured(f"{path} is empty: delete it or set SECRET_KEY.") from None
    key = get_random_secret_key()
    with os.fdopen(fd, "w") as handle:
        handle.write(key)
    return key


# --- Core -------------------------------------------------------------------------------------

DEBUG = env_bool("DEBUG", default=False)

DATA_DIR = Path(_raw("STAKED_DATA_DIR") or BASE_DIR / "var").resolve()
DATA_DIR.mkdir(parents=True, exist_ok=True)

SECRET_KEY = _raw("SECRET_KEY") or None
if SECRET_KEY is None:
    if not DEBUG:
        raise ImproperlyConfigured(
            "SECRET_KEY must be set when DEBUG is off (or set DEBUG=1 for a local run, which "
            "keeps a generated key in the data folder)."
        )
    SECRET_KEY = local_secret_key(DATA_DIR / "secret_key")

ALLOWED_HOSTS = env_list(
    "ALLOWED_HOSTS", default=["localhost", "127.0.0.1", "[::1]"] if DEBUG else []
)
CSRF_TRUSTED_ORIGINS = env_list("CSRF_TRUSTED_ORIGINS", default=[])

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "rest_framework",
    "drf_spectacular",
    "drf_spectacular_sidecar",
    "csp",
    "django_htmx",
    "template_partials",
    "games",
    "games.chat",
    "games.notify",
    "games.history",
    "relics",
]

MIDDLEWARE = [
    "staked.outages.OutageMiddleware",  # a database/Redis outage answers 503, not 500
    "staked.middleware.RequestLineLimit",
    "django.middleware.security.SecurityMiddleware",
    # HTML only, compressed last (it reads the body every middleware below wrote)
    "staked.middleware.CompressPages",
    # the unchanged poll, before sessions, auth and CSRF
    "games.web.middleware.quickpoll.QuickPoll",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    # a seat link's browser is that one seat's (games.services.seat_links)
    "games.web.middleware.seat_scope.SeatScope",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    "csp.middleware.CSPMiddleware",
    "staked.middleware.ResponseHeaders",
    # an unknown query parameter on the API is a 400 naming it (staked/query_params.py)
    "staked.middleware.KnownQueryParameters",
]

# Prometheus metrics (staked/metrics.py, docs/operations.md "Metrics"): off unless METRICS=1.
METRICS = env_bool("METRICS", default=False)
METRICS_TOKEN = _raw("METRICS_TOKEN") or ""
PROMETHEUS_MULTIPROC_DIR = _raw("PROMETHEUS_MULTIPROC_DIR") or ""
if METRICS:
    MIDDLEWARE.insert(0, "staked.metrics.RequestMetrics")

ROOT_URLCONF = "staked.urls"
WSGI_APPLICATION = "staked.wsgi.application"
ASGI_APPLICATION = "staked.asgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        # template_partials' app config swaps APP_DIRS for its own (cached) loaders.
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "games.web.context_processors.rules",
            ],
        },
    },
]

# --- Database ---------------------------------------------------------------------------------

DATABASES = {"default": env_database("DATABASE_URL", default_sqlite=DATA_DIR / "db.sqlite3")}
DATABASES["default"]["CONN_MAX_AGE"] = env_int("CONN_MAX_AGE", default=0, minimum=0)
# A kept connection that died (PostgreSQL restarted) is replaced before a request uses it.
DATABASES["default"]["CONN_HEALTH_CHECKS"] = True
if DATABASES["default"]["ENGINE"].endswith("sqlite3"):
    # Writers queue at BEGIN (as select_for_update does on PostgreSQL) instead of failing later.
    DATABASES["default"]["OPTIONS"] = {"transaction_mode": "IMMEDIATE", "timeout": 20}
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

# --- Cache and Celery -------------------------------------------------------------------------

REDIS_URL = env_redis_url("REDIS_URL")
# The broker defaults to REDIS_URL. CELERY_BROKER_URL may put it in another Redis database than
# the cache, so that a cache.clear() (FLUSHDB, as tests do) never drops queued tasks or bindings.
BROKER_REDIS_URL = env_redis_url("CELERY_BROKER_URL") or REDIS_URL
CELERY_VISIBILITY_TIMEOUT = env_int("CELERY_VISIBILITY_TIMEOUT", default=3600, minimum=1)

if REDIS_URL:
    CACHES = {
        "default": {
            "BACKEND": "staked.cache.ReusingRedisCache",
            "LOCATION": REDIS_URL,
            "KEY_PREFIX": "staked",
        }
    }
else:
    # Shared across processes (web, worker, beat), unlike locmem.
    CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.filebased.FileBasedCache",
            "LOCATION": str(data_dir("cache")),
            "KEY_PREFIX": "staked",
        }
    }

if BROKER_REDIS_URL:
    CELERY_BROKER_URL = BROKER_REDIS_URL
    # Redis redelivers an unacknowledged message (e.g. a long ETA) after this many seconds; the
    # tasks are idempotent, so a redelivery is harmless.
    CELERY_BROKER_TRANSPORT_OPTIONS = {"visibility_timeout": CELERY_VISIBILITY_TIMEOUT}
    # kombu's Redis transport, minus a crash of the worker when Redis goes away (staked/broker.py).
    CELERY_BROKER_TRANSPORT = "staked.broker:RedisTransport"
else:
    # Embedded: a SQLite file, through kombu's SQLAlchemy transport (staked/broker.py says why
    # not the filesystem transport, whose race killed the worker after minutes of play).
    CELERY_BROKER_URL = f"sqlite:///{DATA_DIR / 'broker.sqlite3'}"
    CELERY_BROKER_TRANSPORT = "staked.broker:Transport"
    CELERY_BROKER_TRANSPORT_OPTIONS = {}

CELERY_TASK_DEFAULT_QUEUE = _raw("CELERY_QUEUE") or "celery"
CELERY_TASK_ACKS_LATE = True
CELERY_TASK_REJECT_ON_WORKER_LOST = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
CELERY_TASK_IGNORE_RESULT = True
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
# A web request that queues a timer must not hang on a dead broker: give up fast (the sweeper
# closes the window instead).
CELERY_BROKER_CONNECTION_TIMEOUT = 2
CELERY_TIMEZONE = "UTC"
# A server bot moves after a human-like pause of half to one and a half times this (1–3 s).
BOT_PAUSE_MS = env_int("BOT_PAUSE_MS", default=2000, minimum=0)
# The sweeper is the timers' safety net: every few seconds it closes overdue windows.
SWEEP_SECONDS = env_int("SWEEP_SECONDS", default=5, minimum=1)
CELERY_BEAT_SCHEDULE: dict = {
    "sweep-overdue-games": {"task": "games.tasks.sweep", "schedule": float(SWEEP_SECONDS)},
    "worker-heartbeat": {"task": "games.tasks.heartbeat", "schedule": 15.0},
    # Deadline reminders whose ETA task was lost or too far ahead to queue (games/notify).
    "notify-deadline-reminders": {"task": "notify.tasks.sweep", "schedule": 60.0},
    # The daily digest e-mails whose local hour has come (games/notify, docs/slow-games.md).
    "notify-daily-digest": {"task": "notify.tasks.digest_sweep", "schedule": 600.0},
    # Once a day: used seat links past their lifetime, expired sessions, old digest days.
    "prune": {"task": "games.tasks.prune", "schedule": 86400.0},
    "notify-digest-prune": {"task": "notify.tasks.digest_prune", "schedule": 86400.0},
}
CELERY_BEAT_SCHEDULE_FILENAME = str(DATA_DIR / "celerybeat-schedule")

# --- Streams (games/api/stream.py) ---------------------------------------------------------------
# The stream server (uvicorn, `stream` in the Procfile) serves GET /api/v1/games/{code}/stream/.
# STREAM_URL is where clients reach it (e.g. https://stream.example.org); unset, the web server's
# host on STREAM_PORT, or (STREAM_PORT 0) the same origin, for a proxy that routes the path.
STREAM_URL = _raw("STREAM_URL") or ""
STREAM_PORT = env_int("STREAM_PORT", default=0, minimum=0)
# How often an open stream checks again that its token and seat still admit it.
STREAM_RECHECK_SECONDS = env_int("STREAM_RECHECK_SECONDS", default=60, minimum=1)
# How many streams may be open at once per user (all their tokens) and per client address; one
# more is 429 with Retry-After (staked/limits.py, `open_slot`).
STREAM_LIMIT_PER_USER = env_int("STREAM_LIMIT_PER_USER", default=10, minimum=1)
STREAM_LIMIT_PER_ADDRESS = env_int("STREAM_LIMIT_PER_ADDRESS", default=100, minimum=1)

# --- Auth and API -----------------------------------------------------------------------------

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]

REST_FRAMEWORK = {
    "DEFAULT_AUTHENTICATION_CLASSES": [
        "games.api.auth.CachedTokenAuthentication",
        "rest_framework.authentication.SessionAuthentication",
    ],
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.IsAuthenticated"],
    "DEFAULT_RENDERER_CLASSES": ["rest_framework.renderers.JSONRenderer"],
    # DRF's JSON parser with a body size and a nesting limit (staked/parsers.py).
    "DEFAULT_PARSER_CLASSES": ["staked.parsers.JSONParser"],
    # Every API view's `throttle_scope` is counted by staked/limits.py, as the pages are.
    "DEFAULT_THROTTLE_CLASSES": ["staked.limits.LimitThrottle"],
    "EXCEPTION_HANDLER": "games.api.errors.handle",
    "DEFAULT_SCHEMA_CLASS": "drf_spectacular.openapi.AutoSchema",
    "UNAUTHENTICATED_USER": "django.contrib.auth.models.AnonymousUser",
}


def env_rate(name: str, *, default: str) -> str:
    value = _raw(name) or default
    try:
        Rate.parse(value)
    except ValueError as exc:
        raise ImproperlyConfigured(f"{name}: {exc}.") from None
    return value


# Rate limits (staked/limits.py, docs/operations.md "Rate limits and abuse"): the same budgets
# on the API and the pages. The scope's key (an address, a player, an account) is in
# staked.limits.SCOPES.
RATE_LIMITS = {
    "auth": env_rate("THROTTLE_AUTH", default="30/min"),
    "password": env_rate("THROTTLE_PASSWORD", default="10/15min"),
    "games": env_rate("THROTTLE_GAMES", default="30/hour"),
    "actions": env_rate("THROTTLE_ACTIONS", default="120/min"),
    # Moves refused with nothing changed (409 stale, 400 illegal_target, ...): their own
    # budget, so that a race with the table's moves does not spend the moves' budget.
    "refusals": env_rate("THROTTLE_REFUSALS", default="120/min"),
    "chat": env_rate("THROTTLE_CHAT", default="30/min"),
    "chat_burst": env_rate("THROTTLE_CHAT_BURST", default="5/10s"),
}
# Open lobbies one player may host at once (services.game_create): more are refused with
# 409 too_many_lobbies, so that no one can crowd the list of open tables.
MAX_OPEN_LOBBIES = env_int("MAX_OPEN_LOBBIES", default=5, minimum=1)

SPECTACULAR_SETTINGS = {
    "TITLE": "Staked! API",
    "DESCRIPTION": (
        "Public REST API of Staked!, an online hidden-role party game. The guide for client "
        "authors (sign-in, a game's life, polling, every action with an example, errors, "
        "limits, versioning) is `docs/api.md` in the repository.\n\n"
        "Every error is `{code, detail}`; a refused body (400 `bad_request`) adds `errors`, "
        "field -> problems, and unknown fields are refused. Rate limits (per address for "
        "sign-ins, per player for "
        f"new tables and moves): auth {RATE_LIMITS['auth']}, password attempts per account "
        f"{RATE_LIMITS['password']}, new tables {RATE_LIMITS['games']}, moves "
        f"{RATE_LIMITS['actions']} (moves refused with nothing changed: their own budget, "
        f"{RATE_LIMITS['refusals']}), chat {RATE_LIMITS['chat_burst']} and {RATE_LIMITS['chat']} "
        "per seat. Counted answers carry `RateLimit-Limit`, `RateLimit-Remaining`, "
        "`RateLimit-Reset` and `RateLimit-Policy`; over a limit, `429 rate_limited` with "
        "`Retry-After`."
    ),
    "VERSION": "1.0.0",
    "OAS_VERSION": "3.1.0",
    "SERVE_INCLUDE_SCHEMA": False,
    # Swagger UI and ReDoc assets come from drf-spectacular-sidecar, never from a CDN.
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "REDOC_DIST": "SIDECAR",
    # A seat's `team` and the game's `winner` share one choice set: one enum name for both
    # (otherwise drf_spectacular.W001 fails `check --deploy --fail-level WARNING`).
    "ENUM_NAME_OVERRIDES": {
        "TeamEnum": ["hunters", "vampires"],
        "RelicIdEnum": "games.api.serializers.RELIC_IDS",
        # A finished game's story (games/history/api.py) has a `kind` of its own (its turning
        # points') and a `token` beside the `tokens` of `pending`: one name each, as before.
        "TurningPointKindEnum": "games.history.story.KINDS",
        "KindEnum": "games.api.serializers.TIE_KINDS",
        "TokensEnum": "games.api.serializers.TOKEN_CHOICES",
    },
    # Request bodies as strict in the schema as on the server; one 400 shape; the 415.
    "POSTPROCESSING_HOOKS": [
        "drf_spectacular.hooks.postprocess_schema_enums",
        "games.api.schema.delete_bodies",
        "games.api.schema.strict_request_bodies",
        "games.api.schema.error_shapes",
        "games.api.schema.error_codes",
        "games.api.schema.event_kinds",
        "games.api.schema.response_headers",
    ],
}

# --- Internationalisation and static files ----------------------------------------------------

LANGUAGE_CODE = "en-us"
TIME_ZONE = "UTC"
USE_I18N = True
USE_TZ = True
# Dates and times name their timezone wherever Django formats them (the admin): staked/formats/.
FORMAT_MODULE_PATH = ["staked.formats"]

STATIC_URL = "static/"
STATIC_ROOT = Path(_raw("STATIC_ROOT") or DATA_DIR / "static")
STATIC_ROOT.mkdir(parents=True, exist_ok=True)  # WhiteNoise warns about a missing folder
STATICFILES_DIRS = [BASE_DIR / "static"]
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    # No manifest: templates render before (and without) collectstatic, e.g. in tests.
    "staticfiles": {"BACKEND": "whitenoise.storage.CompressedStaticFilesStorage"},
}
WHITENOISE_USE_FINDERS = DEBUG
WHITENOISE_AUTOREFRESH = DEBUG

# --- Admin ------------------------------------------------------------------------------------

# The admin's "abandoned" filter: lobbies and running games with no update for this many hours.
ABANDONED_AFTER_HOURS = env_int("ABANDONED_AFTER_HOURS", default=48, minimum=1)

# --- Reminders: Web Push and e-mail ---------------------------------------------------
# docs/reminders.md says how to make VAPID keys (`manage.py vapid_keys`). Without them Web
# Push is off (the reminders page says so) and e-mail reminders still work.


def env_vapid() -> tuple[str, str, str]:
    """(public key, private key, subject), all three set and matching, or all three empty."""
    names = ("VAPID_PUBLIC_KEY", "VAPID_PRIVATE_KEY", "VAPID_SUBJECT")
    values = [_raw(name) or "" for name in names]
    if not any(values):
        return "", "", ""
    missing = [name for name, value in zip(names, values, strict=True) if not value]
    if missing:
        raise ImproperlyConfigured(f"{', '.join(missing)} must be set too (or none of the three).")
    public, private, subject = values
    if not subject.startswith(("mailto:", "https://")):
        raise ImproperlyConfigured("VAPID_SUBJECT must be a mailto: address or an https:// URL.")
    # Only where VAPID keys are set: a run without Web Push never loads cryptography.
    from cryptography.hazmat.primitives.asymmetric import ec
    from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat

    try:
        raw = base64.urlsafe_b64decode(private + "=" * (-len(private) % 4))
        if len(raw) != 32:
            raise ValueError(f"{len(raw)} bytes instead of 32")
        key = ec.derive_private_key(int.from_bytes(raw, "big"), ec.SECP256R1())
    except ValueError as exc:
        raise ImproperlyConfigured(
            f"VAPID_PRIVATE_KEY is not a raw P-256 key in base64url: {exc}"
        ) from None
    point = key.public_key().public_bytes(Encoding.X962, PublicFormat.UncompressedPoint)
    if base64.urlsafe_b64encode(point).decode().rstrip("=") != public.rstrip("="):
        raise ImproperlyConfigured("VAPID_PUBLIC_KEY is not the public key of VAPID_PRIVATE_KEY.")
    return public.rstrip("="), private, subject


VAPID_PUBLIC_KEY, VAPID_PRIVATE_KEY, VAPID_SUBJECT = env_vapid()
# Push services whose endpoints a subscription may name (host suffixes, over https): the server
# POSTs to that URL, so it must never be one of ours. An entry with a scheme ("http://host:port")
# allows that exact origin, for a local fake push service.
PUSH_SERVICES = env_list(
    "PUSH_SERVICES",
    default=[
        "fcm.googleapis.com",
        "push.services.mozilla.com",
        "push.apple.com",
        "notify.windows.com",
    ],
)
# Minutes before a window's deadline to remind a player who still has a move (each player may
# choose another lead on the reminders page; 0 there turns it off).
REMINDER_LEAD_MINUTES = env_int("REMINDER_LEAD_MINUTES", default=10, minimum=1)


def default_site_url(port: int) -> str:
    """The address links in e-mails start with when SITE_URL is not set: the web server that
    `make run` starts (Procfile.dev binds it to 127.0.0.1 at PORT), so a local server on another
    port still gets links that reach it. A deployment sets SITE_URL to its public address; PORT
    there is the port behind its proxy, never one a mail reader could open."""
    return f"http://127.0.0.1:{port}"


# The port `make run` serves on (Procfile's web process binds it too); 8000 when unset.
_port = env_int("PORT", default=8000, minimum=1)
if _port > 65535:
    raise ImproperlyConfigured(f"PORT={_port} is out of range: it must be <= 65535.")
# The address links in e-mails point to (push notifications use the page's own origin).
SITE_URL = (_raw("SITE_URL") or default_site_url(_port)).rstrip("/")
if urlsplit(SITE_URL).scheme not in {"http", "https"} or not urlsplit(SITE_URL).hostname:
    raise ImproperlyConfigured(f"SITE_URL={SITE_URL!r} must be an http(s):// URL.")

# EMAIL_URL, e.g. smtp+tls://user:password@mail.example.com:587; the console by default.
if _raw("EMAIL_URL"):
    try:
        _email = env.email_url_config(_raw("EMAIL_URL"))
    except ImproperlyConfigured as exc:
        raise ImproperlyConfigured(f"EMAIL_URL is not a valid e-mail URL: {exc}") from None
    globals().update({key: value for key, value in _email.items() if value is not None})
else:
    EMAIL_BACKEND = "django.core.mail.backends.console.EmailBackend"
DEFAULT_FROM_EMAIL = _raw("DEFAULT_FROM_EMAIL") or "Staked! <noreply@localhost>"

# --- Production security -------------------------------------------------------------
# Secure by default whenever DEBUG is off; each can be relaxed from the environment
# (docs/configuration.md, "With DEBUG off"). `manage.py check --deploy --fail-level WARNING`
# passes with the defaults.

SECURE_SSL_REDIRECT = env_bool("SECURE_SSL_REDIRECT", default=not DEBUG)
# Load balancers probe over plain HTTP: the health endpoints answer without the redirect.
SECURE_REDIRECT_EXEMPT = [r"^healthz$", r"^readyz$"]
SESSION_COOKIE_SECURE = env_bool("SESSION_COOKIE_SECURE", default=not DEBUG)
CSRF_COOKIE_SECURE = env_bool("CSRF_COOKIE_SECURE", default=not DEBUG)
SECURE_HSTS_SECONDS = env_int(
    "SECURE_HSTS_SECONDS", default=0 if DEBUG else 365 * 24 * 3600, minimum=0
)
SECURE_HSTS_INCLUDE_SUBDOMAINS = env_bool("SECURE_HSTS_INCLUDE_SUBDOMAINS", default=not DEBUG)
SECURE_HSTS_PRELOAD = env_bool("SECURE_HSTS_PRELOAD", default=not DEBUG)
# Behind a load balancer that terminates TLS and sets X-Forwarded-Proto (and strips a client's),
# set BEHIND_TLS_PROXY=1: otherwise every request looks like plain HTTP and redirects forever.
BEHIND_TLS_PROXY = env_bool("BEHIND_TLS_PROXY", default=False)
if BEHIND_TLS_PROXY:
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
# How many proxies of ours stand before the app, each appending to X-Forwarded-For: the rate
# limits count a client by the address the nearest one saw (staked.limits.client_address).
# 0 (the default without BEHIND_TLS_PROXY): the header is ignored and REMOTE_ADDR counts, so a
# client cannot pick the address it is counted under.
TRUSTED_PROXIES = env_int("TRUSTED_PROXIES", default=1 if BEHIND_TLS_PROXY else 0, minimum=0)
SESSION_COOKIE_HTTPONLY = True
X_FRAME_OPTIONS = "DENY"
# Only the app's own scripts and styles run (no inline script, no inline style): a name or a
# message that slipped past escaping still could not run. Swagger UI at /api/v1/docs/ needs
# inline styles and data: images, and has a policy of its own (staked/urls.py).
CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": ["'self'"],
        "script-src": ["'self'"],
        "style-src": ["'self'"],
        "img-src": ["'self'"],
        "connect-src": ["'self'"],
        "object-src": ["'none'"],
        "base-uri": ["'none'"],
        "form-action": ["'self'"],
        "frame-ancestors": ["'none'"],
    }
}
# Paths and query strings longer than this are refused with 414 (staked/middleware.py);
# gunicorn refuses request lines over 8190 bytes before Django sees them.
MAX_URL_LENGTH = env_int("MAX_URL_LENGTH", default=4096, minimum=256)
SECURE_CONTENT_TYPE_NOSNIFF = True
SECURE_REFERRER_POLICY = "same-origin"

# --- Logging ----------------------------------------------------------------------------------

LOG_LEVEL = env_choice(
    "LOG_LEVEL", default="INFO", choices={"DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL"}
)
# key=value lines for people, one JSON object per line (LOG_FORMAT=json) for log collectors;
# both carry a game's code, round and version (staked/logs.py).
LOG_FORMAT = env_choice("LOG_FORMAT", default="TEXT", choices={"TEXT", "JSON"})
LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "formatters": {
        "text": {"()": "staked.logs.KeyValueFormatter"},
        "json": {"()": "staked.logs.JsonFormatter"},
    },
    # Links that carry a secret are logged redacted (staked/access_log.py).
    "filters": {"secret_paths": {"()": "staked.access_log.RedactSecretPaths"}},
    "handlers": {
        "console": {
            "class": "logging.StreamHandler",
            "formatter": LOG_FORMAT.lower(),
            "filters": ["secret_paths"],
        },
    },
    "root": {"handlers": ["console"], "level": LOG_LEVEL},
    "loggers": {
        "django": {"handlers": ["console"], "level": LOG_LEVEL, "propagate": False},
    },
}
