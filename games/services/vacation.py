"""Vacation mode (docs/slow-games.md "Vacation"): a player of a slow game announces an
absence, from-to; from `vacation_from` a bot holds the seat (the bots' own machinery: the seat's
moves are made by `play.bot_act` with the game's strategy, "sensible" by default, from the seat's
own view), and at `vacation_until` the seat is the player's again.

- The stored times are the authority. The start and the end are made by `due_in`, under the game
  row's lock, idempotent: an ETA task at each moment (`games.tasks.vacation_due`, when the moment
  is within the timers' horizon), the periodic sweeper (`sweep_vacations`), any read of the game
  (`play.close_if_overdue`) and a bot's own move all call it, and whichever comes first does it.
- The player ends it early: "I'm back" (`vacation_cancel`) or a move of their own.
- While a bot holds the seat it is never flagged away, does not vote on the clock, and the host
  cannot hand it on. The table sees "<name> is on vacation until <time>"; the start and the end are
  one public line each (with the player's name in the line's data, like the away lines).
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from django.db import transaction
from django.utils import timezone

from games import engine
from games.domain import identity, quiet_hours
from games.domain.errors import GameError
from games.models import Game, Player
from games.services.away import seat_event
from games.services.effects import nudge_bots, schedule_vacation
from games.services.unit import Conflict, GameWrite, game_write, retried

MAX_DAYS = 14  # an absence ends at most this many days ahead
PAST_GRACE = timedelta(minutes=5)  # a "from" this little in the past (a slow form) counts as now


def check_span(start: datetime | None, until: datetime, now: datetime) -> datetime:
    """The absence's start (`start`, or now): refused unless from <= to, the end is after now and
    at most `MAX_DAYS` ahead. Raises GameError 400 with the field at fault in `errors`."""
    if start is None or now - PAST_GRACE <= start < now:
        start = now
    if start < now:
        raise _bad("from_past", "from", "The vacation cannot start in the past.")
    if until <= start:
        raise _bad("bad_span", "until", "The vacation must end after it starts.")
    if until > now + timedelta(days=MAX_DAYS):
        raise _bad("too_long", "until", f"A vacation ends at most {MAX_DAYS} days from now.")
    return start


def _bad(code: str, field: str, detail: str) -> GameError:
    """A refusal of the span; `field` ("from" or "until") is the input at fault (the API's
    serializer reports it in `errors`)."""
    error = GameError(code, detail, 400)
    error.field = field
    return error


def _player(game: Game, user) -> Player:
    me = identity.player_of(game, user)
    if me is None:
        raise GameError("forbidden", "You have no seat at this table.", 403)
    return me


@retried
def vacation_set(*, code: str, user, start: datetime | None, until: datetime, now=None) -> Game:
    """The seat's player announces an absence from `start` (None: now) to `until`. A new
    announcement replaces the previous one; one that has already begun keeps the bot and moves
    the end."""
    now = now or timezone.now()
    start = check_span(start, until, now)
    with game_write(code) as write:
        game = write.game
        me = _player(game, user)
        if game.status == Game.Status.FINISHED:
            raise GameError("wrong_phase", "The game is over.", 409)
        if game.options.get("preset", "live") != "async":
            raise GameError("not_slow", "Vacations are for slow games (the slow timers).", 409)
        me.vacation_from, me.vacation_until = start, until
        me.save(update_fields=["vacation_from", "vacation_until"])
        events = due_in(write, now)
        write.change(events)
        _schedule(game.id, [start, until])
    return game


@retried
def vacation_cancel(*, code: str, user, now=None) -> Game:
    """ "I'm back": the seat's player ends their vacation now (or drops the one announced)."""
    now = now or timezone.now()
    with game_write(code) as write:
        game = write.game
        me = _player(game, user)
        if me.vacation_until is None:
            raise GameError("no_vacation", "You have no vacation announced.", 409)
        events = _end(game, me, now) if me.vacation_on else _clear(me)
        refresh_due(game)
        write.change(events)
    return game


def due_in(write: GameWrite, now: datetime) -> list[engine.Event]:
    """Inside a writer's lock: begin the vacations of `write.game` whose start has come and end
    those whose end has; the public lines of what happened. Idempotent."""
    game = write.game
    events = []
    for p in game.players.filter(vacation_until__isnull=False):
        if game.status == Game.Status.FINISHED or p.is_bot or p.user_id is None:
            _clear(p)  # the game is over, or the seat changed hands: nothing to hand back
        elif p.vacation_until <= now:
            events += _end(game, p, p.vacation_until) if p.vacation_on else _clear(p)
        elif not p.vacation_on and game.status == Game.Status.RUNNING and p.vacation_from <= now:
            events += _begin(game, p)
    refresh_due(game)
    return events


def refresh_due(game: Game) -> None:
    """Keep `Game.vacation_due` (the next start or end of a vacation at this table) in step with
    its players' times, inside the writer's lock."""
    moments = [
        p.vacation_until if p.vacation_on else p.vacation_from
        for p in game.players.filter(vacation_until__isnull=False)
    ]
    due = min(moments, default=None)
    if due != game.vacation_due:
        game.vacation_due = due
        Game.objects.filter(id=game.id).update(vacation_due=due)


def ends_with_move(write: GameWrite, me: Player, now: datetime) -> list[engine.Event]:
    """The seat's player made a move of their own during their vacation: they are back."""
    if not me.vacation_on:
        return []
    events = _end(write.game, me, now)
    refresh_due(write.game)
    return events


def _begin(game: Game, p: Player) -> list[engine.Event]:
    p.vacation_on = True
    p.missed_windows, p.afk, p.claim_token = 0, False, None  # a vacation is not "away"
    p.save(update_fields=["vacation_on", "missed_windows", "afk", "claim_token"])
    game_id, seat = game.id, p.seat
    transaction.on_commit(lambda: nudge_bots(game_id, [seat]))  # as seats.seat_to_bot does
    until = quiet_hours.local_text(p.vacation_until.timestamp(), game.options)
    text = f"{{seat:Seat}} is on vacation until {until}: a bot plays for them meanwhile."
    data = {"seat": p.seat, "name": p.name, "until": _iso(p.vacation_until)}
    return [seat_event("vacation", text, game.round, **data)]


def _end(game: Game, p: Player, at: datetime) -> list[engine.Event]:
    """Hand the seat back: the away count starts again from the hand-back."""
    _clear(p, present_at=at)
    text = "{seat:Seat} is back from vacation and plays again."
    return [seat_event("vacation_back", text, game.round, seat=p.seat, name=p.name)]


def _clear(p: Player, present_at: datetime | None = None) -> list:
    p.vacation_from = p.vacation_until = None
    p.vacation_on = False
    fields = ["vacation_from", "vacation_until", "vacation_on"]
    if present_at is not None:
        p.present_at, p.missed_windows = present_at, 0
        fields += ["present_at", "missed_windows"]
    p.save(update_fields=fields)
    return []


def _iso(moment: datetime) -> str:
    return moment.astimezone(UTC).isoformat().replace("+00:00", "Z")


def vacation_due(*, game_id: int, now: datetime | None = None) -> bool:
    """Begin or end what is due in one game (the ETA task, the sweeper, a read). True when
    something changed. A duplicate or late call finds nothing to do."""
    now = now or timezone.now()
    try:
        with game_write(game_id=game_id) as write:
            before = list(_marks(write.game))
            events = due_in(write, now)
            if list(_marks(write.game)) == before:
                return False
            write.change(events)
            return True
    except (Conflict, GameError):
        return False  # moved on meanwhile, or gone: the sweeper looks again


def _marks(game: Game):
    return game.players.filter(vacation_until__isnull=False).values_list(
        "seat", "vacation_on", "vacation_from", "vacation_until"
    )


def due_games(now: datetime):
    """The ids of the games with a vacation to begin or end (a lobby's wait for its start)."""
    return (
        Game.objects.filter(vacation_due__lte=now)
        .exclude(status=Game.Status.LOBBY)
        .values_list("id", flat=True)
    )


def sweep_vacations(now: datetime | None = None) -> int:
    """The safety net under the ETA tasks (run by the sweeper): every due vacation."""
    now = now or timezone.now()
    return sum(vacation_due(game_id=gid, now=now) for gid in list(due_games(now)[:200]))


def has_due(game: Game, now: datetime) -> bool:
    """Whether a read of `game` finds a vacation due: a field of the row already read."""
    return (
        game.status != Game.Status.LOBBY
        and game.vacation_due is not None
        and game.vacation_due <= now
    )


def _schedule(game_id: int, moments: list[datetime]) -> None:
    """On commit: an ETA task at each moment (effects.schedule_vacation: later than the timers'
    horizon, the sweeper does it)."""
    later = [m for m in moments if m > timezone.now()]  # one that has come is done already
    transaction.on_commit(lambda: [schedule_vacation(game_id, m) for m in later])
