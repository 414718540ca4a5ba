"""The game poll's pace and its proofs of "you may see this game".

The pace: the page polls as often as a change matters to the player holding it, and the server
chooses it each time it renders the game (the `every Ns` of the page's `hx-trigger`, which a new
render replaces):

- a running live game (the `live` preset, practice games included, whatever its timers):
  every LIVE_SECONDS, 1 s, so that another player's (or a bot's) move shows within a second;
- the lobby: every LOBBY_SECONDS (people sit down, the host starts);
- an asynchronous game (the `async` preset, windows of hours): every SLOW_SECONDS, except in the
  last LIVE_WINDOW_SECONDS of a window, when a render polls at the live pace again;
- a finished game: every FINISHED_SECONDS (only a rematch can still appear).
A hidden tab does not poll at all, and polls at once when it is shown again (static/js/staked.js).

The proofs: the unchanged poll is answered before sessions, users and CSRF are loaded
(games/web/middleware/quickpoll.py). Where the host turned spectators off, only the game's players
may hear even "no change", so the fast path needs a proof that costs no database query:

- a page carries a *poll token* in its poll URL: a signature (django.core.signing, keyed by
  SECRET_KEY) over the game, the version the page shows and the browser's session key, with its
  time. It proves "this session was allowed to see this version", and the fast path answers only
  "nothing changed since that version" with it: no secret, nothing the holder did not see. Any
  change (a seat given to a bot or to a new friend included) makes a new version, where the token
  no longer counts and the view checks the seat again. Logging out ends the session (a new key),
  so the old token fails; a session ended on the server alone (an expired or deleted one) keeps
  hearing "no change" at that one version for at most TOKEN_SECONDS. We chose a signature over a
  cached session lookup because it needs no cache round trip and no write when a page renders.
- an API client already sends its token, whose user is cached (games/api/auth.py; revoking a
  token deletes that entry). A full answer to a private game writes `viewer_key`, the version this
  token was last allowed to see; the fast path reads it with the game's version in the same
  round trip, so it too stops counting at the next change.
"""

from __future__ import annotations

from datetime import UTC, datetime

from django.core import signing
from django.core.cache import cache

LIVE_SECONDS = 1
LOBBY_SECONDS = 2
FINISHED_SECONDS = 5
SLOW_SECONDS = 10
LIVE_WINDOW_SECONDS = 10 * 60

TOKEN_SECONDS = 60 * 60  # a practice game may sit unchanged for half an hour
_SALT = "games.domain.polls.page"
VIEWER_KEY_SECONDS = 10 * 60


def pace(view: dict, now: datetime | None = None) -> int:
    """Seconds between two polls of the game page showing `view` (see the module's docstring)."""
    if view["status"] == "lobby":
        return LOBBY_SECONDS
    if view["status"] == "finished":
        return FINISHED_SECONDS
    if view["options"].get("preset") != "async":
        return LIVE_SECONDS
    deadline = view.get("deadline")
    if deadline:
        left = datetime.fromisoformat(deadline) - (now or datetime.now(UTC))
        if left.total_seconds() <= LIVE_WINDOW_SECONDS:
            return LIVE_SECONDS
    return SLOW_SECONDS


def _signer() -> signing.TimestampSigner:
    return signing.TimestampSigner(salt=_SALT)


def _payload(code: str, version: int, session_key: str) -> str:
    return f"{code}:{version}:{session_key}"


def page_token(code: str, version: int, session_key: str | None) -> str:
    """The poll token of a page at `version` for this session ('' without a session)."""
    if not session_key:
        return ""
    payload = _payload(code, version, session_key)
    return _signer().sign(payload)[len(payload) + 1 :]  # what follows is "<time>:<signature>"


def page_token_valid(token: str | None, code: str, version: int, session_key: str | None) -> bool:
    if not token or not session_key:
        return False
    try:
        _signer().unsign(f"{_payload(code, version, session_key)}:{token}", max_age=TOKEN_SECONDS)
    except signing.BadSignature:  # a forged, foreign or expired token (SignatureExpired too)
        return False
    return True


def viewer_key(code: str, digest: str) -> str:
    """The version an API token (by its digest) was last allowed to see at a private game."""
    return f"poll:{code}:viewer:{digest}"


def remember_viewer(game, digest) -> None:
    """The view let this API token (`request.auth`: its digest; None for a session) see `game`,
    where spectators are off: its polls may now be answered early at this version."""
    if isinstance(digest, str) and not game.options.get("spectators", True):
        cache.set(viewer_key(game.code, digest), game.version, timeout=VIEWER_KEY_SECONDS)
