"""What organisers do to running games from the admin, through the service layer.

Like `games.services` (the only writer, whose unit of work these functions use), each one:

1. locks the game row (`services.game_write`; the conditional update on `version` guards SQLite),
2. changes the state only through the engine, or, for the deadline, through `deadline_set`,
   the one place outside the engine that moves `State.deadline`,
3. saves state + version + a public event + the replay step in the same transaction,
4. on commit: reschedules the deadline and bumps the poll key (`games.services.effects.EFFECTS`).

Each takes the `stamp` of the page the organiser confirmed (`stamp`): what that page
described (status, window, seats). If the game moved on since, nothing is done (409 stale): two
tabs on one "Expire" page close one window, not two.

No rule lives here; nothing here returns or logs a secret.
"""

from __future__ import annotations

import dataclasses
import hashlib
import logging
import time
from datetime import UTC, datetime

from django.utils import timezone

from games import engine, services
from games.domain import identity, names
from games.models import Game, Player
from games.presenters.game import phase_label, window_name
from games.services import GameError, GameWrite, deadlines, game_write, retried
from games.services.clock import deadline_set
from games.services.play import close_window

log = logging.getLogger("games")
audit = logging.getLogger("games.audit")

MAX_EXTENSION_MINUTES = deadlines.MAX_EXTENSION_MINUTES


def _admin_event(game: Game, text: str, **data) -> engine.Event:
    return engine.Event("admin", text, game.round, data=data)


# --- the page an organiser confirmed -----------------------------------------------------------


def stamp(game: Game) -> str:
    """What an organiser's page describes, to be checked when it is confirmed: the status, the
    open window (round, phase, deadline) and who sits where (a digest). Moves inside a window
    change none of these, so a busy live game does not refuse every confirmation. All of it is
    public (the admin shows it): the stamp tells nothing a page does not."""
    seats = ";".join(
        f"{p.seat}:{p.user_id or ''}:{int(p.is_bot)}:{p.name}"
        for p in game.players.order_by("seat")
    )
    deadline = game.deadline.timestamp() if game.deadline else ""
    digest = hashlib.sha256(seats.encode()).hexdigest()[:16]
    return f"{game.status}|{game.round}|{game.phase}|{deadline}|{digest}"


def check_stamp(game: Game, confirmed: str | None) -> None:
    """Refuse (409 stale) when `game` (locked) is no longer what the confirmed page showed."""
    if confirmed is None:
        return
    now = stamp(game)
    if confirmed == now:
        return
    raise GameError("stale", f"{_what_moved(confirmed, now)} Nothing was done: look again.", 409)


def _what_moved(confirmed: str, now: str) -> str:
    """What changed between the stamp a page showed and the game now, in an organiser's words:
    the phases by their names ("Role reveal"), never as stored ("role_reveal")."""
    was, is_ = confirmed.split("|"), now.split("|")
    if len(was) != 5:
        return "This page is out of date."
    if was[0] != is_[0]:
        return f"The game is {is_[0]} now; this page showed it {was[0]}."
    if was[1:3] != is_[1:3]:
        return (
            f"The window this page showed (the {_window_of(was)}) is closed; "
            f"the game is at the {_window_of(is_)} now."
        )
    if was[3] != is_[3]:
        return "The deadline this page showed has moved."
    return "The seats changed since this page was opened (someone joined, left or took over)."


def _window_of(stamp_parts: list[str]) -> str:
    """ "Mingling window of round 2" from a stamp's round and phase."""
    round_ = int(stamp_parts[1]) if stamp_parts[1].isdigit() else 0
    return window_name(stamp_parts[2], round_)


def _running(write: GameWrite) -> engine.State:
    """The state of the game `write` holds, or 409 wrong_phase when it is not running."""
    game = write.game
    if game.status != Game.Status.RUNNING or game.state is None:
        raise GameError("wrong_phase", "The game is not running.", 409)
    return write.state


def minutes_text(minutes: int) -> str:
    """ "1 minute", "5 minutes" (never "extended by 1 minutes")."""
    return deadlines.unit(minutes, "minute")


@retried
def deadline_extend(*, code: str, minutes: int, by: str, stamp: str | None = None) -> Game:
    """Push the open window's deadline back by `minutes` (the old ETA task then finds a stale
    version and does nothing; the new deadline is scheduled on commit), as the host's extend
    does (games.services.deadlines.extend_in): out of quiet hours, or paused, the time kept."""
    if not 1 <= minutes <= MAX_EXTENSION_MINUTES:
        raise GameError("bad_request", f"Extend by 1 to {MAX_EXTENSION_MINUTES} minutes.", 400)
    with game_write(code) as write:
        game = write.game
        check_stamp(game, stamp)
        phase, by_how_much = phase_label(game.phase), minutes_text(minutes)
        text = f"An organiser extended the {phase} deadline by {by_how_much}"
        deadlines.extend_in(write, minutes, text, "admin")  # the host's extend: one writer
    _log_admin("deadline extended", game, by, minutes=minutes)
    return game


@retried
def window_expire(
    *, code: str, by: str, now: float | None = None, stamp: str | None = None
) -> Game:
    """Close the open window now, as its timer would have: `engine.timeout` at the deadline.

    A deadline still ahead is first brought forward to `now` (a "deadline" step), so that the
    timeout runs at the deadline and the next window opens from now, not from the old deadline.
    A deadline already past (a stuck game) times out at `now`, as the sweeper would.

    The timeout itself is the timer's own (`play.close_window`): a seat the table still waited
    on misses the window, and is flagged as away, exactly as when the timer closes it. An
    organiser closes a window early mostly because someone is not there; that seat's absence is
    still judged by the same two tests (two windows in a row, away the preset's minimum since
    its last sign of presence), so a player who moved a minute before is never flagged.
    """
    now = time.time() if now is None else now
    with game_write(code) as write:
        game = write.game
        check_stamp(game, stamp)
        state = _running(write)
        if state.deadline is None:
            raise GameError("wrong_phase", "No timed window is open.", 409)
        text = f"An organiser closed the {phase_label(game.phase)} window early."
        events = [_admin_event(game, text)]
        if state.deadline > now:
            state = deadline_set(write, state, now, events)
            events = []
        if not close_window(write, state, now, before=events):  # the timer's expiry, not a copy
            raise GameError("wrong_phase", "No timed window is open.", 409)
    _log_admin("window expired", game, by)
    return game


@retried
def game_abandon(*, code: str, by: str, stamp: str | None = None) -> Game:
    """End a lobby or running game as abandoned: no winner, no open window, no more timers."""
    with game_write(code) as write:
        game = write.game
        check_stamp(game, stamp)
        if game.status not in (Game.Status.LOBBY, Game.Status.RUNNING):
            raise GameError("wrong_phase", "The game is already over.", 409)
        game.status = Game.Status.ABANDONED
        events = [_admin_event(game, "An organiser ended this game as abandoned.")]
        if game.state is None:
            game.deadline = None
            write.change(events)
        else:
            deadline_set(write, write.state, None, events)
    _log_admin("game abandoned", game, by)
    return game


@dataclasses.dataclass(frozen=True)
class Handover:
    """Who left a seat and who took it over (for the admin's history)."""

    game: Game
    seat: int
    left: str  # the seat's name before
    left_user: str | None  # their username; None for a bot
    took: str
    took_user: str | None

    def __str__(self) -> str:
        def who(name, username):
            return f"{names.quoted(name)} ({f'user {username}' if username else 'a bot'})"

        return (
            f"Seat {self.seat}: {who(self.left, self.left_user)} left; "
            f"{who(self.took, self.took_user)} took over."
        )


@retried
def seat_replace(
    *,
    code: str,
    seat: int,
    user,
    by: str,
    name: str = "",
    stamp: str | None = None,
    to_a_person: bool = False,
) -> Handover:
    """Give a seat to another user, or to a bot when `user` is None (a player who dropped out);
    the role stays with the seat.

    Handing a seat to a person needs `to_a_person` (the admin passes it for superusers only):
    a seat's holder reads its secrets (role, knowledge, the den), so an organiser who could name
    an account they control (their own, a guest they made, a friend's) could read any seat.
    Organisers hand seats to bots; a person takes a seat at the table (the host's hand-on link)
    or from a superuser, and that handover is written to the audit log (`games.audit`). Without
    it, a person is refused (403 forbidden) before anything is read or written.

    The seat's new name: `name` if given; else a bot takes the first free "Bot N" (its own seat's
    number when free: games.domain.names.bot_name) and a person their own display name. No two seats
    share a name (409 name_taken: give one). The public log says who left and who took over."""
    if user is not None and not to_a_person:
        raise GameError(
            "forbidden",
            "Only a superuser may hand a seat to a person; an organiser hands it to a bot, "
            "and the host can hand it on with the seat's link.",
            403,
        )
    with game_write(code) as write:
        game = write.game
        check_stamp(game, stamp)
        if game.status not in (Game.Status.LOBBY, Game.Status.RUNNING):
            raise GameError("wrong_phase", "The game is already over.", 409)
        player = game.players.select_related("user").filter(seat=seat).first()
        if player is None:
            raise GameError("not_found", f"There is no seat {seat}.", 404)
        elsewhere = identity.player_of(game, user)
        if elsewhere is not None and elsewhere.seat != seat:
            raise GameError("conflict", f"{user} already has a seat at this table.", 409)
        hosts_seat = identity.is_hosts_seat(player, game)
        if user is None and hosts_seat:
            raise GameError("conflict", "The host's seat goes to a person, not a bot.", 409)
        left, left_user = player.name, (None if player.is_bot else _username(player.user))
        others = game.players.exclude(seat=seat).values_list("name", flat=True)
        if name:
            player.name = services.player_name(name)
        elif user is None:
            player.name = names.bot_name(others, seat)
        else:
            player.name = services.player_name(user.first_name or user.get_username())
        services.name_free(game, player.name, seat=seat)
        player.user = user
        player.is_bot = user is None
        player.missed_windows, player.claim_token = 0, None  # a new player: no streak, no link
        player.afk, player.present_at = False, timezone.now()
        player.last_seen_at = None
        player.save(
            update_fields=[
                "user",
                "is_bot",
                "name",
                "missed_windows",
                "afk",
                "present_at",
                "claim_token",
                "last_seen_at",
            ]
        )
        if hosts_seat:
            game.host_id = user.pk
        took = names.quoted(player.name)
        newcomer = f"a bot, {took}," if user is None else took
        text = f"{names.quoted(left)} left seat {seat}; {newcomer} plays it now."
        data = {"seat": seat, "name": player.name, "left": left}
        write.change([_admin_event(game, text, **data)])
    _log_admin("seat replaced", game, by, seat=seat)
    if user is not None:  # a person now reads this seat's secrets: kept with the reveals
        audit.warning(
            "seat handed to a person",
            extra={
                "game": game.code,
                "round": game.round,
                "version": game.version,
                "by": by,
                "seat": seat,
                "to": user.get_username(),
            },
        )
    if user is None and game.status == Game.Status.RUNNING:  # the bot takes over at once
        services.nudge_bots(game.id, [seat])
    took_user = None if user is None else user.get_username()
    return Handover(game, seat, left, left_user, player.name, took_user)


def _username(user) -> str | None:
    return user.get_username() if user is not None else None


def _log_admin(message: str, game: Game, by: str, **fields) -> None:
    log.info(
        message,
        extra={"game": game.code, "round": game.round, "version": game.version, "by": by, **fields},
    )


def deadline_of(game: Game) -> datetime | None:
    """The open window's deadline, from the state (the truth) rather than the projection."""
    if not game.state or game.state.get("deadline") is None:
        return None
    return datetime.fromtimestamp(game.state["deadline"], UTC)


def seated(game: Game) -> list[Player]:
    return list(game.players.select_related("user").order_by("seat"))
