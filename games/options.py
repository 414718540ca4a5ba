"""Game options as the API takes them, and their translation into the engine's `Options`."""

from __future__ import annotations

from games.engine import Options, Timers

MIN_TIMER = 10  # seconds
MAX_TIMER = 7 * 24 * 3600  # a week per window, for the slowest asynchronous games

PRESETS = {
    "live": {"mingling": 180, "relic": 30, "tiebreak": 60, "choice": 60},
    "async": {"mingling": 12 * 3600, "relic": 3600, "tiebreak": 2 * 3600, "choice": 2 * 3600},
}
# Issue 20: the least time a seat must have been away (since its player's last move, "I'm still
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
