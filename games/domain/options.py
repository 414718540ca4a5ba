"""Game options as the API takes them, and their translation into the engine's `Options`."""

from __future__ import annotations

from games.domain import quiet_hours
from games.engine import Options, Timers

MIN_TIMER = 10  # seconds
MAX_TIMER = 7 * 24 * 3600  # a week per window, for the slowest asynchronous games

PRESETS = {
    "live": {"mingling": 180, "relic": 30, "tiebreak": 60, "choice": 60},
    "async": {"mingling": 12 * 3600, "relic": 3600, "tiebreak": 2 * 3600, "choice": 2 * 3600},
}
# The role reveal before round 1 (R2's ruling): how long the table waits for everyone's
# Ready, per preset. Live: 30 s, time to read a role and its teammates at the table. Slow games:
# 2 hours, like a tie vote, so that the first day's Mingling is not shortened by much. Only the
# games opened from the web page get it (`games.web.forms`); the API's default stays 0 (no reveal)
# unless the creator sends `timers.reveal`, so a client that does not know the phase never meets it.
REVEAL = {"live": 30, "async": 2 * 3600}
# The least time a seat must have been away (since its player's last move, "I'm still
# here" tap or taking the seat) before missed windows flag it: two short tie votes missed at night
# are not "away". Live games: 5 minutes; asynchronous games: 12 hours (a night's sleep and more).
AWAY_AFTER = {"live": 5 * 60, "async": 12 * 3600}
SPECTATORS = True  # the `spectators` option when not given: anyone with the code may watch
DEFAULTS = {
    "relics": False,
    "last_wills": True,
    "expansion": False,
    "den_chat": False,  # the Vampires' private channel (games/chat)
    "spectator_chat": False,  # spectators read the table talk
}


def normalized(options: dict) -> dict:
    """Fill in defaults: the preset's timers under any custom ones the creator gave."""
    out = {**DEFAULTS, **{k: v for k, v in options.items() if k != "timers"}}
    out.setdefault("preset", "live")
    out["timers"] = {**PRESETS[out["preset"]], **options.get("timers", {})}
    return out


def engine_options(options: dict) -> Options:
    return Options(
        relics=options["relics"],
        last_wills=options["last_wills"],
        expansion=options["expansion"],
        timers=Timers(**options["timers"]),
        relic_deck=tuple(options.get("relic_deck", ())),
    )


def away_after(options: dict) -> int:
    """Seconds away, at least, before a seat that misses windows is flagged (`AWAY_AFTER`)."""
    return AWAY_AFTER.get(options.get("preset", "live"), AWAY_AFTER["live"])


def spectators_allowed(options: dict) -> bool:
    """Whether the host lets spectators watch (games created without the option let them)."""
    return options.get("spectators", SPECTATORS)


def public_options(options: dict) -> dict:
    """What every player may read: the staff-only `roles` and `relic_deck` are secrets."""
    return {k: v for k, v in options.items() if k not in ("roles", "relic_deck")}


def clock_refusal(options: dict) -> str | None:
    """Why the table's clock options (games.domain.quiet_hours) cannot be used, or None: a time zone
    that is not an IANA name, quiet hours that start when they end, a fixed deadline hour on a
    live game (it is for slow games: Mingling would last up to a day)."""
    zone = options.get("time_zone")
    if zone is not None and not quiet_hours.valid_zone(zone):
        return f"{str(zone)[:64]!r} is not a time zone (an IANA name like Europe/Berlin)."
    quiet = options.get("quiet_hours")
    if quiet is not None:
        hours = (quiet.get("start"), quiet.get("end")) if isinstance(quiet, dict) else ()
        if len(hours) != 2 or not all(isinstance(h, int) and 0 <= h <= 23 for h in hours):
            return "Quiet hours are a start and an end hour, 0 to 23."
        if hours[0] == hours[1]:
            return "Quiet hours must end at another hour than they start."
    hour = options.get("deadline_hour")
    if hour is not None:
        if not isinstance(hour, int) or not 0 <= hour <= 23:
            return "The deadline hour is 0 to 23."
        if options.get("preset", "live") != "async":
            return "A fixed deadline hour is for slow games (the slow timers)."
    return None
