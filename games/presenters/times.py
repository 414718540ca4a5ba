"""Times in words for people: a deadline as "closes Tue 1 Dec 22:41 (in
11 h 50 min)" in the viewer's own time zone, and a moment ("14:05", or "Mon 30 Nov 14:05" when it
was not today), the same words on the pages and in the reminder e-mails.

The viewer's zone is the browser's (static/js/js-on.js keeps `Intl...timeZone` in the `tz`
cookie, which every page request carries) or, for e-mails, the one last seen from that player's
browser (`games.notify.models.Preferences.time_zone`). A name that is not a known IANA zone is
ignored: UTC, and the words say so ("22:41 UTC").
"""

from __future__ import annotations

from datetime import UTC, datetime, tzinfo
from functools import cache
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError, available_timezones

COOKIE = "tz"
SHORT = 3600  # seconds: under an hour a window keeps its live countdown (mm:ss)
WEEKDAYS = ("Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun")
MONTHS = ("Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec")


def zone(name: str | None) -> tzinfo | None:
    """The IANA zone `name` names, or None (unknown, malformed, or no name)."""
    if not name or len(name) > 64 or name not in _known():
        return None
    try:
        return ZoneInfo(name)
    except (ZoneInfoNotFoundError, ValueError):
        return None


def zone_name(name: str | None) -> str:
    """`name` when it is a known zone, else "" (what may be stored)."""
    return name if zone(name) is not None else ""


@cache
def _known() -> frozenset[str]:
    return frozenset(available_timezones())


def of_request(request) -> tzinfo | None:
    """The viewer's zone, from the cookie the page's script sets (None: not known)."""
    return zone(request.COOKIES.get(COOKIE))


def duration(seconds: float) -> str:
    """ "11 h 50 min", "2 days 3 h", "25 min", "under a minute"."""
    minutes = int(max(seconds, 0) // 60)
    if minutes < 1:
        return "under a minute"
    days, rest = divmod(minutes, 24 * 60)
    hours, mins = divmod(rest, 60)
    if days:
        return f"{days} day{'s' if days != 1 else ''}" + (f" {hours} h" if hours else "")
    if hours:
        return f"{hours} h" + (f" {mins} min" if mins else "")
    return f"{mins} min"


def _local(moment: datetime, tz: tzinfo | None) -> datetime:
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=UTC)
    return moment.astimezone(tz or UTC)


def clock(moment: datetime, tz: tzinfo | None) -> str:
    """ "Tue 1 Dec 22:41" in `tz` (with " UTC" when the viewer's zone is not known)."""
    local = _local(moment, tz)
    text = f"{WEEKDAYS[local.weekday()]} {local.day} {MONTHS[local.month - 1]} {local:%H:%M}"
    return text if tz is not None else f"{text} UTC"


def deadline(moment: datetime, tz: tzinfo | None, now: datetime | None = None) -> str:
    """ "closes Tue 1 Dec 22:41 (in 11 h 50 min)"; "closed" once it has passed."""
    now = now or datetime.now(UTC)
    left = (moment - now).total_seconds()
    if left <= 0:
        return f"closed {clock(moment, tz)}"
    return f"closes {clock(moment, tz)} (in {duration(left)})"


def stamp(moment: datetime, tz: tzinfo | None, now: datetime | None = None) -> str:
    """A past moment (a chat message): "14:05" today, "Mon 30 Nov 14:05" before, in `tz`."""
    now = now or datetime.now(UTC)
    local = _local(moment, tz)
    suffix = "" if tz is not None else " UTC"
    if local.date() == _local(now, tz).date():
        return f"{local:%H:%M}{suffix}"
    return clock(moment, tz)


def moment_of(iso: str | None) -> datetime | None:
    """A view's ISO 8601 moment ("...Z") as a datetime; None for none or a malformed one."""
    if not iso:
        return None
    try:
        return datetime.fromisoformat(iso.replace("Z", "+00:00"))
    except ValueError:
        return None


def clock_of(iso: str | None, tz: tzinfo | None) -> str:
    """`clock` of a view's ISO moment (a seat's `vacation_until`); "" for none."""
    moment = moment_of(iso)
    return clock(moment, tz) if moment is not None else ""


def field_value(moment: datetime, tz: tzinfo | None) -> str:
    """`moment` as a datetime-local field's value in `tz` ("2026-12-01T22:41")."""
    return f"{_local(moment, tz):%Y-%m-%dT%H:%M}"


def deadline_of(iso: str | None, tz: tzinfo | None, now: datetime | None = None) -> str:
    """`deadline` of a view's "deadline" (ISO 8601, "...Z"); "" for none or a malformed one."""
    if not iso:
        return ""
    try:
        moment = datetime.fromisoformat(iso.replace("Z", "+00:00"))
    except ValueError:
        return ""
    return deadline(moment, tz, now)
