"""How the admin shows a game: public information only, readable on a phone
(390 px) and a laptop (1366 px). Styles: static/css/admin.css.

Everything here is what a spectator may know: the seats and names, the public log, the public
options, and who the public view says the game waits on (`waiting_for` of the spectator view),
plus the organisers' own bookkeeping (missed windows, last seen). Nothing reads a role.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from django.urls import reverse
from django.utils import timezone
from django.utils.formats import date_format
from django.utils.html import format_html, format_html_join
from django.utils.safestring import SafeString
from django.utils.timesince import timesince, timeuntil

from games.domain import identity
from games.domain.options import public_options
from games.domain.room_screen import display_url
from games.models import Event, Game, Player
from games.presenters.wording import without_rule_ids
from games.selectors import game as selectors
from relics.rules import BY_ID

LOG_TAIL = 20  # public lines on the game's page; the rest are on its paginated log page
LOG_PAGE = 50

OPTION_LABELS = {
    "last_wills": "Last Wills",
    "relics": "Sacred Relics",
    "expansion": "Expansion (11–12 players)",
    "den_chat": "Den chat",
    "spectators": "Spectators may watch",
    "spectator_chat": "Spectators read the table talk",
}
TIMER_LABELS = {
    "mingling": "Mingling",
    "relic": "relic window",
    "tiebreak": "tie vote",
    "choice": "choices",
}


def when(moment: datetime | None) -> str:
    """A time with its timezone: "30 Nov 2026, 12:22 UTC"."""
    if moment is None:
        return "—"
    return date_format(timezone.localtime(moment), "DATETIME_FORMAT")


def distance(moment: datetime, now: datetime | None = None) -> str:
    """ "in 4 minutes" or "12 minutes ago"."""
    now = now or timezone.now()
    if abs((moment - now).total_seconds()) < 60:
        return "in under a minute" if moment >= now else "under a minute ago"
    if moment >= now:
        return f"in {timeuntil(moment, now)}"
    return f"{timesince(moment, now)} ago"


def when_and_distance(moment: datetime | None) -> str:
    if moment is None:
        return "—"
    return f"{when(moment)} ({distance(moment)})"


def duration(seconds: int) -> str:
    """A timer as people say it: "30 s", "3 min", "12 h", "1 h 30 min", "7 days"."""
    if seconds < 60:
        return f"{seconds} s"
    hours, minutes = divmod(seconds // 60, 60)
    if hours >= 48 and not minutes and not hours % 24:
        return f"{hours // 24} days"
    if not hours:
        return f"{minutes} min"
    return f"{hours} h {minutes} min" if minutes else f"{hours} h"


def options_list(options: dict) -> SafeString:
    """The public options as a short list, not JSON: "Timers: live (Mingling 3 min, ...)"."""
    shown = public_options(options)
    timers = shown.get("timers") or {}
    timer_text = ", ".join(
        f"{label} {duration(int(timers[key]))}"
        for key, label in TIMER_LABELS.items()
        if key in timers
    )
    items = [f"Timers: {shown.get('preset', 'live')} ({timer_text})"]
    for key, label in OPTION_LABELS.items():
        if key in shown:
            items.append(f"{label}: {'on' if shown[key] else 'off'}")
    return format_html(
        '<ul class="staked-options">{}</ul>',
        format_html_join("", "<li>{}</li>", ((i,) for i in items)),
    )


def winner(game: Game) -> str:
    """The winning side once the game is over (public then), else "—"."""
    outcome = (game.state or {}).get("outcome") if game.status == Game.Status.FINISHED else None
    return str(outcome["winner"]).capitalize() if outcome else "—"


def user_link(user) -> SafeString:
    url = reverse("admin:auth_user_change", args=[user.pk])
    label = user.first_name or user.get_username()
    if label != user.get_username():
        return format_html('<a href="{}">{}</a> ({})', url, label, user.get_username())
    return format_html('<a href="{}">{}</a>', url, label)


# --- who is waiting on whom ----------------------------------------------------------------


@dataclass
class SeatRow:
    player: Player
    is_host: bool
    waiting: bool | None  # None: no window is open (the lobby, a game that is over)

    @property
    def away(self) -> bool:
        return self.player.afk

    @property
    def summary(self) -> str:
        """The seat as the replace-seat form lists it: "4: Dev (away: 2 windows missed)"."""
        p = self.player
        notes = []
        if p.is_bot:
            notes.append("bot")
        if self.is_host:
            notes.append("host")
        if self.away:
            notes.append(f"away: {p.missed_windows} windows missed")
        if self.waiting:
            notes.append("the game waits on this seat")
        return f"{p.seat}: {p.name}" + (f" ({'; '.join(notes)})" if notes else "")


def seat_rows(game: Game) -> list[SeatRow]:
    """Each seat with what the public view says the game waits on (the spectator's
    `waiting_for`: a secret window, such as a relic holder's, is not shown)."""
    waiting = None
    if game.status == Game.Status.RUNNING:
        waiting = set(selectors.game_view(game, None)["waiting_for"])
    return [
        SeatRow(
            player=p,
            is_host=identity.is_hosts_seat(p, game),
            waiting=None if waiting is None else p.seat in waiting,
        )
        for p in game.players.select_related("user").order_by("seat")
    ]


def seats_table(game: Game) -> SafeString:
    """The seats, the columns an organiser looks for first on the left (a phone scrolls the
    rest): who the game waits on, missed windows (away), last seen, then the player."""
    rows = []
    for row in seat_rows(game):
        p = row.player
        if p.is_bot:
            who = format_html("{}", "a bot")
        elif p.user is None:
            who = format_html("{}", "nobody")
        else:
            who = user_link(p.user)
        waiting = "—" if row.waiting is None else ("waiting" if row.waiting else "no")
        missed = str(p.missed_windows) + (" (away)" if row.away else "")
        seen = "—" if p.is_bot else (distance(p.last_seen_at) if p.last_seen_at else "never")
        rows.append(
            format_html(
                '<tr class="{}"><td>{}</td><td><bdi>{}</bdi>{}</td><td class="waiting">{}</td>'
                '<td>{}</td><td title="{}">{}</td><td>{}</td><td>{}</td></tr>',
                " ".join(c for c, on in (("away", row.away), ("waited-on", row.waiting)) if on),
                p.seat,
                p.name,
                " (host)" if row.is_host else "",
                waiting,
                missed,
                show_when(p.last_seen_at),
                seen,
                who,
                "yes" if p.alive else "no",
            )
        )
    head = (
        "<tr><th>Seat</th><th>Name</th><th>Waiting on</th><th>Missed windows</th>"
        "<th>Last seen</th><th>Player</th><th>Alive</th></tr>"
    )
    return format_html(
        '<div class="staked-scroll"><table class="staked-seats"><thead>{}</thead>'
        "<tbody>{}</tbody></table></div>",
        SafeString(head),
        SafeString("".join(rows)),
    )


def show_when(moment: datetime | None) -> str:
    return when(moment) if moment else ""


def links(game: Game) -> SafeString:
    """The game's own pages: its page, the room screen (with the key where spectators are
    off: it shows only the public view), and its table talk in the admin."""
    chat = reverse("admin:chat_message_changelist") + f"?game__id__exact={game.pk}"
    pages = [
        ("Game page", reverse("game", args=[game.code])),
        ("Room screen", display_url(game, is_host=True)),
        ("Table talk", chat),
        ("History", reverse("admin:games_game_history", args=[game.pk])),
    ]
    return format_html_join(" · ", '<a href="{}">{}</a>', ((url, label) for label, url in pages))


# --- Sacred Relics --------------------------------------------------------------------------


def relics_table(game: Game) -> SafeString:
    """Who holds which Sacred Relic: public, as on the table (R10.2a: the cards lie face-up)."""
    rows = format_html_join(
        "",
        "<tr><td>{}</td><td>{} ({})</td><td>{}</td><td>{}</td><td>{}</td></tr>",
        (
            (
                h.seat,
                BY_ID[h.relic].name if h.relic in BY_ID else h.relic,
                h.relic,
                "yes" if h.discarded else "no",
                "yes" if h.negated else "no",
                ", ".join(h.markers) or "—",
            )
            for h in game.relic_holdings.order_by("seat", "card")
        ),
    )
    if not rows:
        return SafeString("<p>None dealt yet.</p>")
    return format_html(
        '<div class="staked-scroll"><table class="staked-seats"><thead><tr><th>Seat</th>'
        "<th>Relic</th><th>Discarded</th><th>Negated</th><th>Markers</th></tr></thead>"
        "<tbody>{}</tbody></table></div>",
        rows,
    )


# --- the public log ------------------------------------------------------------------------


def public_events(game: Game):
    """The lines an observer reads, oldest first. Each is numbered by its place among these
    public lines (as `selectors.events_seen_by(game, None)` numbers them), never by the game's
    own sequence, whose gaps would count the private lines."""
    return Event.objects.filter(game=game, audience__isnull=True).order_by("seq")


def log_list(events, first_number: int) -> SafeString:
    """Log lines as a list that reads on a phone: a small line of facts, then the text, without
    the rule IDs the engine cites ("(R6.1)"): an organiser reads the game's words, not the
    rulebook's numbering (the API keeps them)."""
    items = format_html_join(
        "",
        '<li><span class="meta">#{} · round {} · {} · {}</span> <span class="text">{}</span></li>',
        (
            (number, e.round, e.kind, when(e.created_at), without_rule_ids(e.text))
            for number, e in enumerate(events, start=first_number)
        ),
    )
    return format_html('<ol class="staked-log">{}</ol>', items)


def log_tail(game: Game) -> SafeString:
    """The last LOG_TAIL public lines, and a link to the whole log."""
    events = public_events(game)
    count = events.count()
    start = max(0, count - LOG_TAIL)
    lines = log_list(list(events[start:]), start + 1) if count else SafeString("<p>None.</p>")
    url = reverse("admin:games_game_log", args=[game.pk])
    if count <= LOG_TAIL:
        return lines
    return format_html(
        '<p>The last {} of {} lines. <a href="{}">The whole log ({} a page)</a></p>{}',
        LOG_TAIL,
        count,
        url,
        LOG_PAGE,
        lines,
    )
