"""The game page's shared regions: the table (seats, badges, the relics on the table and the
Last Wills in force) and the public log. They are the same for every viewer of one audience,
so each is rendered once per game version and audience and every phone is served the cached
HTML (docs/benchmarks.md, "The game page").

They are built from the public view only (`selectors.game_view` for nobody: what a spectator
sees) and the public events, never from a seat's own view: no private fact can enter them. A
seat's private marks on the table ("(you)") are added on the phone by the page's script from
`#game[data-my-seat]`.

Audiences: the log has one (`public`). The table has one per time zone of the browsers that
ask (a seat's "on vacation until" and a relic window's deadline are written in the viewer's
zone) and per what the viewer sees of the placements (R3.2: the seats at the table see who
placed on whom; a Ghost who has not turned their dial, and the room while one has not, see
nothing): two at most during a Mingling, one otherwise.

Each region carries its version (`data-region-version`, a hash of its HTML). A request from the
page says which versions it holds (the `X-Staked-Regions` header, static/js/staked.js); an htmx
answer brings back, as out-of-band swaps, only the regions whose version moved
(`out_of_band`)."""

from __future__ import annotations

import hashlib
import time
from dataclasses import dataclass

from django.contrib.auth.models import AnonymousUser
from django.core.cache import cache
from django.template.loader import render_to_string
from django.utils.html import format_html
from django.utils.safestring import SafeString, mark_safe

from games.models import Game, Player
from games.presenters import game as presenters
from games.presenters import times
from games.presenters.wording import for_people
from games.selectors import game as selectors
from games.web import metrics
from games.web.context_processors import rules
from relics import presenters as relic_pages

LOG_TAIL = 120  # public events shown in the game's log (the newest)
KEPT = 3600  # seconds a rendered region stays in the cache (a new version makes a new key)
HEADER = "X-Staked-Regions"  # "table=<version>,log=<version>": the versions the page holds
NAMES = ("table", "log")


@dataclass(frozen=True)
class Region:
    name: str
    version: str
    html: str  # the region's inner HTML, the same bytes for every viewer of its audience

    def element(self, *, oob: bool = False) -> SafeString:
        """The region's element, in the page or as an htmx out-of-band swap."""
        swap = ' hx-swap-oob="true"' if oob else ""
        return format_html(
            '<div id="{}-region" class="region" data-region-version="{}"{}>{}</div>',
            self.name,
            self.version,
            mark_safe(swap),  # noqa: S308 - a constant
            mark_safe(self.html),  # noqa: S308 - rendered by our templates, escaped there
        )


def zone_name(request) -> str:
    """The audience of the table: the browser's zone when it is a known one, else "-"."""
    name = request.COOKIES.get(times.COOKIE)
    return name if times.zone(name) is not None else "-"


def shared(game: Game, players: list[Player], zone: str, seen: dict) -> dict[str, Region]:
    """Both regions of `game` at its version, from the cache or rendered (and kept) now.
    `players`: the game's seats, as the request read them; `seen`: the viewer's own view, of
    which only the seats' `placed_by` is read (R3.2: who placed on whom is public at the
    table, and hidden from a Ghost away from it and from the room while one is)."""
    placed = {s["seat"]: s.get("placed_by") or [] for s in seen.get("seats") or []}
    at_table = hashlib.blake2b(repr(sorted(placed.items())).encode(), digest_size=4).hexdigest()
    audiences = {"table": f"{zone}:{at_table}", "log": "public"}
    keys = {name: f"region:{game.code}:{game.version}:{name}:{audiences[name]}" for name in NAMES}
    found = cache.get_many(list(keys.values()))
    out = {}
    public = None
    for name, key in keys.items():
        kept = found.get(key)
        if kept is not None:
            metrics.region_cache(name, hit=True)
            out[name] = Region(name, *kept)
            continue
        metrics.region_cache(name, hit=False)
        started = time.perf_counter()
        if public is None and name == "table":
            public = selectors.game_view(game, AnonymousUser(), players)
            for s in public["seats"]:
                s["placed_by"] = placed.get(s["seat"], [])
        html = _RENDER[name](game, players, public, audiences[name])
        metrics.region_rendered(name, time.perf_counter() - started)
        version = hashlib.blake2b(html.encode(), digest_size=6).hexdigest()
        cache.set(key, (version, html), timeout=KEPT)
        out[name] = Region(name, version, html)
    return out


def held(request) -> dict[str, str]:
    """The region versions the page says it holds (none: a page without the script)."""
    out = {}
    for part in request.headers.get(HEADER, "")[:200].split(","):
        name, _, version = part.partition("=")
        if name in NAMES and version:
            out[name] = version
    return out


def out_of_band(request, regions: dict[str, Region]) -> str:
    """The regions whose version moved since the page's, as htmx out-of-band swaps."""
    have = held(request)
    return "".join(
        r.element(oob=True) for name, r in regions.items() if have.get(name) != r.version
    )


def _table(game: Game, players: list[Player], public: dict, audience: str) -> str:
    if game.status == Game.Status.LOBBY:
        return ""
    names = {s["seat"]: s["name"] for s in public["seats"]}
    zone = audience.partition(":")[0]
    tz = times.zone(zone) if zone != "-" else None
    seats = presenters.seating(public, None)
    for s in seats:
        s["vacation_text"] = times.clock_of(s.get("vacation_until"), tz)
    context = {
        **rules(None),
        "view": public,
        "zone": tz,
        "seats": seats,
        "relic_board": relic_pages.board(public, names),
        "effects": [
            {
                **e,
                "target": presenters.named_seat(e["seat"], names),
                "by_name": presenters.named_seat(e["by"], names),
            }
            for e in public.get("effects") or []
        ],
    }
    return render_to_string("games/_table_region.html", context)


def _log(game: Game, players: list[Player], public: dict | None, audience: str) -> str:
    names = {p.seat: p.name for p in players}
    events = selectors.public_log(game, LOG_TAIL)
    for e in events:
        e["text"] = for_people(e["text"], names, e["data"], e["template"])
    events.reverse()
    return render_to_string("games/_log.html", {"events": events})


_RENDER = {"table": _table, "log": _log}
