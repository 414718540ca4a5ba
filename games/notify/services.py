"""When to remind whom, and the sending itself (run by the Celery tasks in tasks.py).

- "Your move": when a player newly has something in `engine.pending` (once per window).
- "Deadline soon": `lead_minutes` before the open window's deadline, to players who still have a
  move; an ETA task is the fast path and the beat sweep (tasks.sweep) the safety net.
- "You seem to be away": when a player's seat is flagged as away, before the host can
  hand it on: open the game and tap to keep the seat.

A window is identified by `window_key` (round, phase, deadline). A reminder is sent only after
its NotificationLog row was created: the unique row makes duplicates, redeliveries and the race
between the ETA task and the sweep harmless (at most one of each kind per player and window).
Messages name the game, the public phase and the time left: never a role or anything secret.
"""

from __future__ import annotations

import logging
import time
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from datetime import time as dt_time

from django.conf import settings
from django.core.cache import cache
from django.core.mail import EmailMessage
from django.db import IntegrityError, transaction
from django.db.models import Max, Q
from django.urls import reverse

from games import engine
from games.domain import identity, quiet_hours, seat_link_tokens
from games.engine import State, state_from_json
from games.engine.view import waiting_for
from games.models import Game, Player
from games.notify import push, unsubscribe_links
from games.notify.models import DigestLog, EmailMode, NotificationLog, Preferences
from games.presenters import times
from games.presenters.game import phase_label
from staked import queue

log = logging.getLogger("games.notify")

ETA_HORIZON = 3600  # seconds: reminders further ahead are left to the sweep, as in games.services
MAX_LEAD_MINUTES = 24 * 60


@dataclass(frozen=True)
class Reminder:
    title: str
    body: str
    path: str  # the game page
    ttl: int  # seconds the push service keeps it: pointless once the window closed
    urgency: str  # Web Push "Urgency" header
    what: str = ""  # "Your move (Mingling)": the e-mail adds the deadline in the player's zone
    deadline: float | None = None  # epoch seconds
    at: float | None = None  # when it was written (epoch seconds): "in 11 h 50 min" counts from it
    # A window's "your move" / "deadline soon" / "deadline moved": by e-mail only to players who
    # get one e-mail per window; the daily digest replaces them (the away notice is not one).
    per_window: bool = True


def window_key(state: State) -> str:
    deadline = int(state.deadline) if state.deadline is not None else "-"
    return f"r{state.round}:{state.phase}:{deadline}"


def window_of(game: Game, state: State) -> str:
    """The open window's key as it opened (games.services.clock.track keeps it in
    `Game.clock["window"]`): a deadline moved by the host, a vote or quiet hours is still the same
    window, so "Your move" is not sent again. Games from before the clock: the state's key."""
    return (game.clock or {}).get("window") or window_key(state)


# --- the hook in games.services -------------------------------------------------------------


def after_change(game: Game, state: State | None) -> None:
    """Called inside the writer's transaction: on commit, queue one task whenever the seats the
    game waits on change within a window (not on every move: Mingling has dozens)."""
    if state is None or state.outcome is not None:
        return
    seats = waiting_for(state)
    if not seats:
        return
    game_id, window = game.id, window_of(game, state)
    expires = int(state.deadline - time.time()) + 60 if state.deadline else 24 * 3600

    def queue_it():
        try:
            key = f"notify:{game_id}:{window}:{','.join(map(str, seats))}"
            if not cache.add(key, 1, timeout=max(expires, 60)):
                return
        except Exception:  # no cache: queue anyway, the log rows still stop repeats
            log.warning("notify: cache unavailable", exc_info=True)
        try:
            queue.send("notify.tasks.window_changed", game_id, window, retry=False)
        except Exception:  # a dead broker must never fail a move; the sweep still reminds
            log.warning("notify: could not queue the reminder task", exc_info=True)

    transaction.on_commit(queue_it)


# --- the tasks' work ------------------------------------------------------------------------


def on_window(game_id: int, window: str, now: float | None = None) -> None:
    """Remind the players who now have a move, and queue the window's deadline reminders."""
    now = time.time() if now is None else now
    current = _current(game_id, window)
    if current is None:
        return
    game, state = current
    if quiet_hours.in_quiet(now, game.options):
        return  # held: the sweep sends it when the quiet hours end (sweep_held)
    players = _reachable(game, state)
    for player in players:
        if engine.pending(state, player.seat) and _claim(player, game, window, "move"):
            deliver(player.user, _move_reminder(game, state, now), player)
    _schedule_deadline_reminders(game, state, window, players, now)


def remind_deadline(game_id: int, window: str, now: float | None = None) -> int:
    """Send "deadline soon" to the players of `window` whose lead time has come (if it is still
    the open window and they still have a move). Returns how many were reminded."""
    now = time.time() if now is None else now
    current = _current(game_id, window)
    if current is None or current[1].deadline is None:
        return 0
    game, state = current
    if quiet_hours.in_quiet(now, game.options):
        return 0
    sent = 0
    for player in _reachable(game, state):
        lead = player.user.notify_preferences.lead_minutes * 60
        due = state.deadline - lead
        if not lead or not due <= now < state.deadline or not engine.pending(state, player.seat):
            continue
        move, created = _log_get_or_create(player, game, window, "move")
        if not created and move.created_at.timestamp() >= due:
            continue  # their "your move" came with less than the lead time left: enough
        if _claim(player, game, window, "deadline"):
            deliver(player.user, _deadline_reminder(game, state, now), player)
            sent += 1
    return sent


def sweep(now: float | None = None) -> int:
    """The safety net: deadline reminders for every running game whose deadline is near."""
    now = time.time() if now is None else now
    lead = Preferences.objects.aggregate(lead=Max("lead_minutes"))["lead"] or 0
    if not lead:
        return 0
    near = Game.objects.filter(
        status=Game.Status.RUNNING,
        deadline__gt=datetime.fromtimestamp(now, UTC),
        deadline__lte=datetime.fromtimestamp(now + min(lead, MAX_LEAD_MINUTES) * 60, UTC),
    ).order_by("deadline")
    sent = 0
    for game in near[:200]:
        window = window_of(game, state_from_json(game.state))
        sent += remind_deadline(game.id, window, now)
    return sent + sweep_held(now)


def sweep_held(now: float) -> int:
    """ "Your move" held back by a table's quiet hours, sent once they end: the games with quiet
    hours outside them get their open window's reminders (the log rows stop repeats)."""
    held = Game.objects.filter(status=Game.Status.RUNNING, options__quiet_hours__isnull=False)
    count = 0
    for game in held.exclude(options__quiet_hours=None).order_by("deadline")[:200]:
        if game.state is None or quiet_hours.in_quiet(now, game.options):
            continue
        on_window(game.id, window_of(game, state_from_json(game.state)), now)
        count += 1
    return count


def catch_up(user) -> None:
    """Reminders just turned on: the running games where `user` still has a move get
    this window's "Your move" now (on commit), instead of nothing until the next window."""
    seats = (
        identity.players_of(user).filter(game__status=Game.Status.RUNNING).select_related("game")
    )
    windows = []
    for player in seats:
        game = player.game
        if game.state is None:
            continue
        state = state_from_json(game.state)
        if engine.pending(state, player.seat):
            windows.append((game.id, window_of(game, state)))
    if not windows:
        return

    def queue_it():
        for game_id, window in windows:
            try:
                queue.send("notify.tasks.window_changed", game_id, window, retry=False)
            except Exception:
                log.warning("notify: could not queue the reminder task", exc_info=True)

    transaction.on_commit(queue_it)


def deadline_moved(game: Game, state: State) -> None:
    """The open window's deadline moved (extended, paused, resumed): on commit, tell the players
    who still owe a move, once per move of the clock (`game.version`), "The deadline moved to
    ..."; never a second "Your move". Called inside the writer's transaction."""
    if state.outcome is None and waiting_for(state):
        game_id, window, version = game.id, window_of(game, state), game.version

        def queue_it():
            try:
                queue.send("notify.tasks.clock_moved", game_id, window, version, retry=False)
            except Exception:
                log.warning("notify: could not queue the deadline-moved task", exc_info=True)

        transaction.on_commit(queue_it)


def on_deadline_moved(game_id: int, window: str, version: int, now: float | None = None) -> int:
    """Send "The deadline moved to ..." for the clock's move at `version` (if the window is still
    open), and queue the deadline reminders for the new deadline. Returns how many were told."""
    now = time.time() if now is None else now
    current = _current(game_id, window)
    if current is None:
        return 0
    game, state = current
    if quiet_hours.in_quiet(now, game.options):
        return 0  # no reminder in quiet hours; the page and the log say it (not sent later)
    players = _reachable(game, state)
    told = 0
    for player in players:
        if engine.pending(state, player.seat) and _claim(
            player, game, f"{window}@{version}", "moved"
        ):
            deliver(player.user, _moved_reminder(game, state, now))
            told += 1
    _schedule_deadline_reminders(game, state, window, players, now)
    return told


def deliver(user, reminder: Reminder, player: Player | None = None) -> None:
    """Send one reminder by every channel the player turned on (each failure only logged);
    the e-mail carries `player`'s seat link (games.services.seat_links) when there is a seat."""
    prefs = user.notify_preferences
    if prefs.push_enabled and push.enabled():
        payload = {
            "title": reminder.title,
            "body": reminder.body,
            "url": reminder.path,
            "tag": reminder.path,  # a newer reminder for the same game replaces the older one
        }
        for subscription in user.push_subscriptions.all():
            push.send(subscription, payload, ttl=reminder.ttl, urgency=reminder.urgency)
    if not prefs.email_enabled or not prefs.email_confirmed:  # never to an address not confirmed
        return
    if reminder.per_window and not prefs.email_per_window:
        return  # the daily digest (games.notify.digest) says it instead; push is unchanged
    try:
        email_message(prefs, reminder, player).send()
    except Exception:
        log.warning("notify: could not send an e-mail reminder", exc_info=True)


def away_flagged(game: Game, seats: list[int], window: str) -> None:
    """Called inside the writer's transaction that flagged `seats` as away (games.services.away):
    on commit, queue one "you seem to be away" per seat."""
    game_id = game.id

    def queue_it():
        for seat in seats:
            try:
                queue.send("notify.tasks.away_flagged", game_id, seat, window, retry=False)
            except Exception:  # a dead broker must never fail a timeout; the page still says it
                log.warning("notify: could not queue the away reminder", exc_info=True)

    transaction.on_commit(queue_it)


def remind_away(game_id: int, seat: int, window: str) -> bool:
    """Tell the player of `seat` that their seat is flagged as away, once per flag, if it still
    is and they turned a channel on. Nothing secret: the game and one tap to stay."""
    player = (
        _with_a_channel(
            Player.objects.filter(game_id=game_id, seat=seat, afk=True, is_bot=False),
            any_email=True,
        )
        .filter(game__status=Game.Status.RUNNING, user__isnull=False)
        .select_related("game", "user__notify_preferences")
        .first()
    )
    if player is None or not _claim(player, player.game, f"away:{window}"[:64], "away"):
        return False
    reminder = Reminder(
        title=f"Staked! game {player.game.code}",
        body="You seem to be away: open the game and tap to keep your seat.",
        path=reverse("game", args=[player.game.code]),
        ttl=12 * 3600,
        urgency="high",
        per_window=False,  # keeping the seat cannot wait for tomorrow's digest
    )
    deliver(player.user, reminder)
    return True


def email_message(prefs: Preferences, reminder: Reminder, player: Player | None):
    """The reminder as an e-mail: the deadline in the player's own time zone, a link that opens
    their seat on any device (signed, once, 7 days: games.services.seat_links), and a one-click
    unsubscribe (RFC 8058 headers too). Nothing about roles or the game's secrets."""
    zone = times.zone(prefs.time_zone)
    line = reminder.body
    if reminder.what and reminder.deadline is not None:
        moment = datetime.fromtimestamp(reminder.deadline, UTC)
        written = datetime.fromtimestamp(reminder.at, UTC) if reminder.at else None
        line = f"{reminder.what}: {times.deadline(moment, zone, written)}."
    return reminder_email(
        prefs, f"{reminder.title}: {line}", f"{line}\n\n{seat_opening(player, reminder.path)}"
    )


def seat_opening(player: Player | None, path: str) -> str:
    """ "Open your seat: <signed link>" (games.services.seat_links) for a person's seat, else the
    game."""
    if player is not None and not player.is_bot and player.user_id is not None:
        link = seat_link_tokens.issue(player)
        seat_path = reverse("seat-link", args=[player.game.code, link.token])
        return (
            f"Open your seat: {settings.SITE_URL}{seat_path}\n"
            f"(This link signs you in to your seat at this game on any device. It works once, "
            f"for {seat_link_tokens.MAX_AGE.days} days: do not forward it.)"
        )
    return f"Open the game: {settings.SITE_URL}{path}"


def reminder_email(prefs: Preferences, subject: str, text: str) -> EmailMessage:
    """Every reminder e-mail (per window, away, daily digest): `text`, then why it came with the
    one-click unsubscribe link and the settings page, and the RFC 8058 headers."""
    unsubscribe = settings.SITE_URL + reverse(
        "reminders-unsubscribe", args=[unsubscribe_links.unsubscribe_token(prefs)]
    )
    body = (
        f"{text}\n\n"
        f"You get this because you asked for e-mail reminders. Stop them: {unsubscribe}\n"
        f"Change them: {settings.SITE_URL}{reverse('reminders')}"
    )
    return EmailMessage(
        subject,
        body,
        None,
        [prefs.email],
        headers={
            "List-Unsubscribe": f"<{unsubscribe}>",
            "List-Unsubscribe-Post": "List-Unsubscribe=One-Click",
        },
    )


# --- the daily digest -------------------------------------------------------------

DIGEST_BATCH = 500  # players per sweep; the next sweep (minutes later) takes the rest
DIGEST_GRACE = timedelta(hours=6)  # how late a digest still goes out (a worker was down)


DIGEST_LOG_DAYS = 7  # a claimed day is only needed while that local date can still come round


def digest_prune(now: float | None = None) -> int:
    """Forget the digest days long past: run daily by beat (notify.tasks.digest_prune)."""
    moment = datetime.fromtimestamp(time.time() if now is None else now, UTC)
    cutoff = (moment - timedelta(days=DIGEST_LOG_DAYS)).date()
    return DigestLog.objects.filter(day__lt=cutoff).delete()[0]


def digest_sweep(now: float | None = None) -> int:
    """Run by beat every few minutes: each player with the daily digest on whose local hour
    (`digest_hour` in `time_zone`, UTC when not known) has come, less than DIGEST_GRACE ago,
    and who has not had that day's digest gets it. Returns how many digests were sent.

    The day is claimed first (a DigestLog row per player and local date, unique), so two sweeps,
    two beats or a restart never send a second one; a day with no running game is claimed too
    and sends nothing (a game started later that day waits for tomorrow's digest). The table's
    quiet hours do not hold it: the hour is the player's own choice."""
    now = time.time() if now is None else now
    moment = datetime.fromtimestamp(now, UTC)
    due = (
        Preferences.objects.filter(
            email_mode=EmailMode.DAILY_DIGEST, email_enabled=True, email_confirmed_at__isnull=False
        )
        .exclude(email="")
        .select_related("user")
        .order_by("pk")
    )
    sent = 0
    for prefs in due.iterator(chunk_size=200):
        day = digest_day(prefs, moment)
        if day is None or DigestLog.objects.filter(user_id=prefs.user_id, day=day).exists():
            continue
        if sent >= DIGEST_BATCH:
            break
        sent += bool(send_digest(prefs, day, now))
    return sent


def digest_day(prefs: Preferences, moment: datetime):
    """The local date whose digest is due at `moment`: the latest `digest_hour` o'clock in the
    player's zone, if it was less than DIGEST_GRACE ago (a worker down for a while still sends
    it; a digest turned on at 22:00 for 08:00 waits until 08:00). None: not due now."""
    zone = times.zone(prefs.time_zone) or UTC
    local = moment.astimezone(zone)
    day = local.date() if local.hour >= prefs.digest_hour else local.date() - timedelta(days=1)
    # The hour's moment in the zone (a clock that skips that hour: its UTC offset then).
    at = datetime.combine(day, dt_time(prefs.digest_hour), tzinfo=zone)
    return day if timedelta(0) <= moment - at < DIGEST_GRACE else None


def send_digest(prefs: Preferences, day, now: float) -> int:
    """Claim `day`'s digest for `prefs`' player and send it: every running game where they are
    seated, "your move" first. Returns how many games it listed (0: claimed already, or none)."""
    try:
        with transaction.atomic():
            claim = DigestLog.objects.create(user_id=prefs.user_id, day=day)
    except IntegrityError:
        return 0  # another sweep has it
    lines = digest_lines(prefs, now)
    if not lines:
        return 0
    DigestLog.objects.filter(pk=claim.pk).update(games=len(lines))
    zone = times.zone(prefs.time_zone)
    moves = sum(1 for line in lines if line.startswith("Your move"))
    summary = f"your move in {moves} of {len(lines)}" if moves else "no move of yours waiting"
    games = f"{len(lines)} game{'s' if len(lines) != 1 else ''}"
    stamp = times.clock(datetime.fromtimestamp(now, UTC), zone)
    subject = f"Staked! daily digest: {games}, {summary}"
    text = f"Your games at {stamp}:\n\n" + "\n\n".join(lines)
    try:
        reminder_email(prefs, subject, text).send()
    except Exception:
        log.warning("notify: could not send the daily digest", exc_info=True)
        return 0
    return len(lines)


def digest_lines(prefs: Preferences, now: float) -> list[str]:
    """One paragraph per running game where the player is seated (as a person), "your move"
    first, then by deadline (the soonest first; paused games last): the game, the public phase,
    the deadline in the player's zone, and a signed link to their seat. Nothing secret."""
    zone = times.zone(prefs.time_zone)
    written = datetime.fromtimestamp(now, UTC)
    seats = identity.players_of(prefs.user).filter(game__status=Game.Status.RUNNING)
    rows = []
    for player in seats.select_related("game"):
        game = player.game
        if game.state is None:
            continue
        state = state_from_json(game.state)
        if state.outcome is not None:
            continue
        mine = bool(engine.pending(state, player.seat))
        rows.append(
            (not mine, state.deadline is None, state.deadline or 0, game.code, player, state)
        )
    lines = []
    for waiting, _, _, code, player, state in sorted(rows, key=lambda row: row[:4]):
        what = "Waiting for the others" if waiting else "Your move"
        if state.deadline is None:
            when = "paused: no deadline for now"
        else:
            when = times.deadline(datetime.fromtimestamp(state.deadline, UTC), zone, written)
        path = reverse("game", args=[code])
        lines.append(
            f"{what} in game {code} ({phase_label(state.phase)}): {when}.\n"
            f"{seat_opening(player, path)}"
        )
    return lines


# --- internals ------------------------------------------------------------------------------


def _current(game_id: int, window: str) -> tuple[Game, State] | None:
    """The game and its state, if `window` is still the open window of a running game."""
    game = Game.objects.filter(id=game_id, status=Game.Status.RUNNING).first()
    if game is None or game.state is None:
        return None
    state = state_from_json(game.state)
    if state.outcome is not None or window_of(game, state) != window:
        return None
    return game, state


def _reachable(game: Game, state: State) -> list[Player]:
    """The human players the game waits on who turned on at least one channel (not one on
    vacation: a bot plays their seat, games.services.vacation)."""
    return list(
        _with_a_channel(
            Player.objects.filter(
                game=game, seat__in=waiting_for(state), is_bot=False, user__isnull=False
            ).exclude(vacation_on=True)
        ).select_related("user__notify_preferences")
    )


def _with_a_channel(players, *, any_email: bool = False):
    """The players who turned on at least one channel that can reach them: for a window's
    reminders, e-mail counts only for those who get one per window (not the daily digest)."""
    return players.filter(
        Q(user__notify_preferences__push_enabled=True, user__push_subscriptions__isnull=False)
        | Q(
            user__notify_preferences__email_enabled=True,
            user__notify_preferences__email_confirmed_at__isnull=False,
            **(
                {} if any_email else {"user__notify_preferences__email_mode": EmailMode.EACH_WINDOW}
            ),
        )
    ).distinct()


def _claim(player: Player, game: Game, window: str, kind: str) -> bool:
    """Record the reminder before sending it; False when it was already sent."""
    try:
        with transaction.atomic():
            NotificationLog.objects.create(user=player.user, game=game, window=window, kind=kind)
    except IntegrityError:
        return False
    return True


def _log_get_or_create(player: Player, game: Game, window: str, kind: str):
    return NotificationLog.objects.get_or_create(
        user=player.user, game=game, window=window, kind=kind
    )


def _schedule_deadline_reminders(
    game: Game, state: State, window: str, players: list[Player], now: float
) -> None:
    """One ETA task per distinct lead time; further than ETA_HORIZON, the sweep does it."""
    if state.deadline is None:
        return
    for lead in {p.user.notify_preferences.lead_minutes for p in players} - {0}:
        eta = state.deadline - lead * 60
        if not now < eta <= now + ETA_HORIZON:
            continue
        try:
            key = f"notify:eta:{game.id}:{window}:{int(eta)}"  # a moved deadline: a new ETA
            if cache.add(key, 1, timeout=ETA_HORIZON + 60):
                queue.send(
                    "notify.tasks.deadline_soon",
                    game.id,
                    window,
                    eta=datetime.fromtimestamp(eta, UTC),
                    retry=False,
                )
        except Exception:
            log.warning("notify: could not queue a deadline reminder", exc_info=True)


def _moved_reminder(game: Game, state: State, now: float) -> Reminder:
    """ "The deadline moved to Tue 21:00 (Europe/Berlin), 3 hours left." or "paused"."""
    if state.deadline is None:
        body = "The game is paused: no window closes until the host or the table resumes it."
        ttl = 24 * 3600
    else:
        left = max(state.deadline - now, 0)
        when = quiet_hours.local_text(state.deadline, game.options)
        body = f"The deadline moved to {when}, {_duration(left)} left."
        ttl = max(int(left), 60)
    return Reminder(
        title=f"Staked! game {game.code}",
        body=body,
        path=reverse("game", args=[game.code]),
        ttl=ttl,
        urgency="normal",
    )


def _move_reminder(game: Game, state: State, now: float) -> Reminder:
    return _reminder(game, state, now, "your move", urgency="normal")


def _deadline_reminder(game: Game, state: State, now: float) -> Reminder:
    return _reminder(game, state, now, "still your move", urgency="high")


def _reminder(game: Game, state: State, now: float, what: str, *, urgency: str) -> Reminder:
    body = f"{what.capitalize()} ({phase_label(state.phase)})"
    ttl = 24 * 3600
    if state.deadline is not None:
        left = max(state.deadline - now, 0)
        body += f", {_duration(left)} left"
        ttl = max(int(left), 60)
    return Reminder(
        title=f"Staked! game {game.code}",
        body=body + ".",
        path=reverse("game", args=[game.code]),
        ttl=ttl,
        urgency=urgency,
        what=f"{what.capitalize()} ({phase_label(state.phase)})",
        deadline=state.deadline,
        at=now,
    )


def _duration(seconds: float) -> str:
    minutes = max(round(seconds / 60), 1)
    if minutes < 90:
        return f"{minutes} minute{'s' if minutes != 1 else ''}"
    hours = round(minutes / 60)
    if hours < 48:
        return f"{hours} hours"
    return f"{round(hours / 24)} days"
