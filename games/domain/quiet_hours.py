"""A table's local clock (docs/slow-games.md, "Moving a deadline"): quiet hours and a fixed local
deadline hour, in the table's IANA time zone. Pure functions of timestamps (seconds since the epoch)
and the game's options; no Django. The services (games.services.deadlines) apply them when a window
opens or its deadline moves; the reminders (games.notify.services) hold back during quiet hours.

Options, in the API's words (docs/slow-games.md):

- `time_zone`: an IANA name ("Europe/Berlin"); the host's browser zone by default, else "UTC".
- `quiet_hours`: {"start": 22, "end": 8} (local hours, start != end; may wrap past midnight):
  no window closes and no reminder is sent from start:00 to end:00.
- `deadline_hour`: 0-23, slow games only: Mingling closes at that local hour (see `fixed_hour`).
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError, available_timezones

DEFAULT_ZONE = "UTC"


def valid_zone(name: str) -> bool:
    """Whether `name` is an IANA time zone this machine knows."""
    if not isinstance(name, str) or not name or len(name) > 64:
        return False
    if name in ("UTC", "Etc/UTC"):
        return True
    try:
        ZoneInfo(name)
    except (ZoneInfoNotFoundError, ValueError):
        return False
    return name in _zones()


_ZONES: set[str] = set()


def _zones() -> set[str]:
    if not _ZONES:
        _ZONES.update(available_timezones())
    return _ZONES


def zone_of(options: dict) -> ZoneInfo:
    name = options.get("time_zone") or DEFAULT_ZONE
    try:
        return ZoneInfo(name)
    except (ZoneInfoNotFoundError, ValueError):
        return ZoneInfo(DEFAULT_ZONE)


def _local(ts: float, zone: ZoneInfo) -> datetime:
    return datetime.fromtimestamp(ts, UTC).astimezone(zone)


def _at_hour(day: datetime, hour: int, zone: ZoneInfo) -> datetime:
    """`hour`:00 local on `day`'s date (a time a DST gap skips is read as the zone says: fold 0)."""
    return datetime(day.year, day.month, day.day, hour, tzinfo=zone)


def quiet_window(options: dict) -> tuple[int, int] | None:
    quiet = options.get("quiet_hours")
    if not quiet:
        return None
    return int(quiet["start"]), int(quiet["end"])


def in_quiet(ts: float, options: dict) -> bool:
    """Whether `ts` falls within the table's quiet hours (start included, end excluded)."""
    window = quiet_window(options)
    if window is None:
        return False
    start, end = window
    hour = _local(ts, zone_of(options)).hour
    if start < end:
        return start <= hour < end
    return hour >= start or hour < end  # wraps past midnight


def quiet_end(ts: float, options: dict) -> float:
    """The end of the quiet hours `ts` falls in (`ts` itself when it falls in none)."""
    if not in_quiet(ts, options):
        return ts
    _, end = quiet_window(options)
    zone = zone_of(options)
    local = _local(ts, zone)
    candidate = _at_hour(local, end, zone)
    if candidate.timestamp() <= ts:
        candidate = _at_hour(local + timedelta(days=1), end, zone)
    return candidate.timestamp()


def fixed_hour(opened: float, options: dict, min_seconds: float) -> float | None:
    """With `deadline_hour` set: the first `deadline_hour`:00 local at least `min_seconds` after
    `opened` (a Mingling that opens at 20:30 with a 12-hour timer closes at 21:00 the next day:
    at least half the timer, `min_seconds`, always). None without the option."""
    hour = options.get("deadline_hour")
    if hour is None:
        return None
    zone = zone_of(options)
    earliest = opened + min_seconds
    local = _local(earliest, zone)
    candidate = _at_hour(local, int(hour), zone)
    while candidate.timestamp() < earliest:
        local += timedelta(days=1)
        candidate = _at_hour(local, int(hour), zone)
    return candidate.timestamp()


def local_text(ts: float, options: dict) -> str:
    """ "Tue 21:00 (Europe/Berlin)": a deadline as the table's clock reads it."""
    zone = zone_of(options)
    name = options.get("time_zone") or DEFAULT_ZONE
    return f"{_local(ts, zone).strftime('%a %H:%M')} ({name})"
