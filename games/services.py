"""The only writer of games (DESIGN.md): load, lock, check the version, apply, save, notify.

Every change to a game, by a player, a timer, an admin or a bot, goes through this module:

1. lock the game row (`select_for_update`; a conditional update on `version` guards SQLite too),
2. let the pure engine decide (`engine.apply` / `engine.timeout`),
3. save state + version + events + projections in the same transaction,
4. on commit: schedule the next deadline and bump the poll key.
"""

from __future__ import annotations

import functools
import logging
import random
import secrets
import time
from datetime import UTC, datetime

from django.conf import settings
from django.core.cache import DEFAULT_CACHE_ALIAS, cache, caches
from django.core.cache.backends.redis import RedisCache
from django.db import IntegrityError, transaction

from games import engine, identity, names
from games.engine import Action, IllegalAction, state_from_json, to_json
from games.models import Action as Step
from games.models import Event, Game, Player, new_code
from games.notify import services as reminders
from games.options import engine_options, normalized

log = logging.getLogger("games")

ETA_HORIZON = 3600  # seconds: longer windows are left to the sweeper (see schedule_deadline)


class GameError(Exception):
    """A request the service refuses before the rules are asked (who, when, which game)."""

    def __init__(self, code: str, detail: str, status: int):
        super().__init__(detail)
        self.code, self.detail, self.status = code, detail, status


class Conflict(Exception):
    """Another writer changed the game between our read and our write (SQLite); retried."""


def retried(func):
    """Run a writer again when it lost a race on the version (it changed nothing then)."""

    @functools.wraps(func)
    def run(*args, **kwargs):
        for attempt in range(5):
            try:
                return func(*args, **kwargs)
            except Conflict:
                time.sleep(0.01 * (attempt + 1))
        raise GameError("stale", "The game is busy; try again.", 409)

    return run


# The poll keys expire soon: a version written back by a race (two commits' hooks, or a refill
# from an old read) is forgotten within a minute instead of holding pages on "no change".
POLL_KEY_SECONDS = 60


def version_key(code: str) -> str:
    return f"game:{code}:version"


def open_key(code: str) -> str:
    """Whether spectators may watch: the poll's fast path may answer only where they may."""
    return f"game:{code}:open"


# On Redis the poll key is written only when it holds no newer version, in one step: two moves'
# hooks running at the same moment (two web processes) could otherwise both read the old value,
# and the older move's write land last, telling pages at the older version "no change".
_WRITE_IF_NEWER = """
local held = tonumber(redis.call('GET', KEYS[1]))
if held and held > tonumber(ARGV[1]) then return 0 end
redis.call('SET', KEYS[1], ARGV[1], 'EX', ARGV[2])
return 1
"""


def bump_version(code: str, version: int) -> None:
    """Write `version` to the poll key unless a newer one is there (hooks may run out of order,
    or at once)."""
    key = version_key(code)
    backend = caches[DEFAULT_CACHE_ALIAS]
    if isinstance(backend, RedisCache):  # Django stores an int as its digits: Lua can compare
        client = backend._cache.get_client(key, write=True)
        client.eval(
            _WRITE_IF_NEWER, 1, backend.make_and_validate_key(key), version, POLL_KEY_SECONDS
        )
    elif (backend.get(key) or 0) <= version:  # the file cache of a local `make run`
        backend.set(key, version, timeout=POLL_KEY_SECONDS)


# --- identities -----------------------------------------------------------------------------


def player_name(raw: str) -> str:
    """A name as it enters (games.names.clean), or 400 bad_request when nothing visible is left."""
    try:
        return names.valid(raw)
    except names.NameRefused as exc:
        raise GameError("bad_request", str(exc), 400) from None


def name_free(game: Game, name: str, *, seat: int | None = None) -> None:
    """Refuse (409 name_taken) a name another seat of `game` already has (games.names.key)."""
    others = game.players.exclude(seat=seat) if seat is not None else game.players.all()
    if any(names.key(taken) == names.key(name) for taken in others.values_list("name", flat=True)):
        raise GameError(
            "name_taken",
            f"Someone at this table is already called {names.quoted(name)}: pick another name.",
            409,
        )


def guest_create(*, name: str):
    """A friend with no account: a user with no password, known by the token or the session."""
    from django.contrib.auth import get_user_model

    name = player_name(name)
    with transaction.atomic():
        user = get_user_model().objects.create_user(
            username=f"guest-{secrets.token_hex(6)}", first_name=name
        )
        user.set_unusable_password()
        user.save(update_fields=["password"])
    return user


# --- lobby ----------------------------------------------------------------------------------


def game_create(*, host, options: dict, name: str, rematch: bool = False) -> Game:
    """A new lobby hosted by `host`. Open lobbies a player opens themselves are capped
    (settings.MAX_OPEN_LOBBIES): one player must not crowd the list of open tables. A rematch
    lobby, one per finished game, is not counted against the cap."""
    name = player_name(name)
    options = normalized(options)
    seed = options.pop("seed", None)
    if seed is None:
        seed = secrets.randbits(48)
    for _ in range(10):
        try:
            with transaction.atomic():
                if not rematch:
                    _check_open_lobbies(host)
                game = Game.objects.create(code=new_code(), options=options, seed=seed, host=host)
                Player.objects.create(game=game, user=host, seat=1, name=name)
                _log(game, [_lobby_event(f"{names.quoted(name)} opened the table.", name=name)])
                game.save()
                _after_commit(game)
                return game
        except IntegrityError:  # a code already taken: draw another
            continue
    raise RuntimeError("could not find a free game code")


def _check_open_lobbies(host) -> None:
    from django.contrib.auth import get_user_model

    # One creation at a time per host (the row lock), so parallel requests cannot overshoot.
    get_user_model().objects.select_for_update().filter(pk=host.pk).first()
    cap = settings.MAX_OPEN_LOBBIES
    if Game.objects.filter(host=host, status=Game.Status.LOBBY).count() >= cap:
        raise GameError(
            "too_many_lobbies",
            f"You already host {cap} open table{'s' if cap != 1 else ''}: start one or leave one "
            "before opening another.",
            409,
        )


@retried
def game_join(*, code: str, user, name: str) -> Game:
    name = player_name(name)
    with transaction.atomic():
        game = _locked(code)
        if identity.is_seated(game, user):
            return game
        if game.status != Game.Status.LOBBY:
            raise GameError("wrong_phase", "This game has already started.", 409)
        seats, limit = game.players.count(), game.seat_limit
        if seats >= limit:
            raise GameError("game_full", f"The table is full ({limit} seats).", 409)
        name_free(game, name)
        Player.objects.create(game=game, user=user, seat=seats + 1, name=name)
        text = f"{names.quoted(name)} sat down at seat {seats + 1}."
        _touch(game, [_lobby_event(text, name=name, seat=seats + 1)])
    return game


@retried
def game_update_options(*, code: str, user, options: dict) -> Game:
    """The host changes the options before the start (the staff-only deal and deck stay)."""
    with transaction.atomic():
        game = _hosts_lobby(
            code,
            user,
            "Only the host can change the options.",
            "Options are fixed once the game has started.",
        )
        kept = {k: v for k, v in game.options.items() if k in ("roles", "relic_deck", "spectators")}
        game.options = {**normalized(options), **kept}
        seats, limit = game.players.count(), game.seat_limit
        if seats > limit:
            raise GameError("game_full", f"{seats} are seated: the expansion is needed.", 409)
        game.save(update_fields=["options"])
        _touch(game, [_lobby_event("The host changed the options.")])
    return game


@retried
def game_add_bots(*, code: str, user, count: int) -> Game:
    """The host fills empty seats with bots (lobby only); they play through this same layer."""
    with transaction.atomic():
        game = _hosts_lobby(
            code, user, "Only the host can add bots.", "Bots join before the game starts."
        )
        seats, limit = game.players.count(), game.seat_limit
        if seats + count > limit:
            raise GameError("game_full", f"Only {limit - seats} seat(s) are free.", 409)
        taken = game.players.values_list("name", flat=True)
        for i, name in enumerate(names.free_bot_names(taken, count)):
            Player.objects.create(game=game, seat=seats + i + 1, name=name, is_bot=True)
        _touch(game, [_lobby_event(f"{count} bot(s) sat down.")])
    return game


def bot_act(*, game_id: int, seat: int) -> bool:
    """One move for the bot at `seat`, if it has one to make now (run by a Celery task).

    The bot decides from its own seat's `engine.view` alone, with the strategy the game's
    `bot_strategy` option names ("sensible" by default, or "random")."""
    from games.bots import bot_move

    with transaction.atomic():
        game = Game.objects.select_for_update().filter(id=game_id).first()
        if game is None or game.status != Game.Status.RUNNING:
            return False
        if not game.players.filter(seat=seat, is_bot=True).exists():
            return False
        state = state_from_json(game.state)
        rng = random.Random(f"{game.seed}:bot:{seat}:{game.version}")
        strategy = game.options.get("bot_strategy", "sensible")
        action = bot_move(rng, seat, engine.view(state, seat), strategy)
        if action is None:
            return False
        now = time.time()
        try:
            new, events = engine.apply(state, action, now=now)
        except IllegalAction:
            return False  # options are a superset for some moves; the next nudge tries again
        _save(game, state, new, events, step=(action.name, seat, action.args, now))
    return True


@retried
def game_leave(*, code: str, user) -> Game | None:
    """Leave a lobby; later seats move up so seats stay 1..N; the host's role passes on."""
    with transaction.atomic():
        game = _locked(code)
        if game.status != Game.Status.LOBBY:
            raise GameError("wrong_phase", "You can only leave a game before it starts.", 409)
        me = _player(game, user)
        me.delete()
        for p in game.players.filter(seat__gt=me.seat).order_by("seat"):
            p.seat -= 1
            p.save(update_fields=["seat"])
        humans = game.players.filter(is_bot=False, user__isnull=False).order_by("seat")
        if not humans.exists():
            game.delete()
            return None
        if identity.is_host(game, user):
            game.host_id = humans.first().user_id
        _touch(game, [_lobby_event(f"{names.quoted(me.name)} left the table.", name=me.name)])
    return game


@retried
def game_start(*, code: str, user) -> Game:
    with transaction.atomic():
        game = _hosts_lobby(
            code, user, "Only the host can start the game.", "This game has already started."
        )
        seats = game.players.count()
        now = time.time()
        try:
            state = engine.setup(
                engine_options(game.options),
                seats,
                game.seed,
                roles=_fixed_roles(game.options),
                now=now,
            )
        except IllegalAction as e:
            raise GameError("wrong_phase", e.detail, 409) from None
        game.status = Game.Status.RUNNING
        _save(game, None, state, engine.opening_events(state), step=("setup", None, {}, now))
    return game


# --- play -----------------------------------------------------------------------------------


@retried
def action_apply(
    *, code: str, user, name: str, args: dict, expected_version: int | None = None
) -> Game:
    """Apply one player's action. Raises GameError or IllegalAction, changing nothing."""
    with transaction.atomic():
        game = _locked(code)
        me = _player(game, user)  # first: the rest would tell a stranger the version and status
        if expected_version is not None and expected_version != game.version:
            raise GameError(
                "stale", f"The game is at version {game.version}, not {expected_version}.", 409
            )
        if game.status == Game.Status.LOBBY:
            raise GameError("wrong_phase", "The game has not started yet.", 409)
        if game.status != Game.Status.RUNNING:
            raise IllegalAction("game_over", "The game is over.")
        seat = me.seat
        state = state_from_json(game.state)
        now = time.time()
        new, events = engine.apply(state, Action(name, seat, args), now=now)
        from games.seats import came_back

        events = came_back(me, state, name, new.round) + events  # a seen move ends a streak
        _save(game, state, new, events, step=(name, seat, args, now))
    log.info(
        "action %s",
        name,
        extra={"game": code, "round": new.round, "version": game.version, "seat": seat},
    )
    return game


def game_expire(*, game_id: int, version: int | None = None, now: float | None = None) -> bool:
    """Close the open window if (that version is still current and) its deadline has passed.

    Safe to call any number of times: a duplicate or late task finds nothing to do.
    """
    now = time.time() if now is None else now
    try:
        with transaction.atomic():
            game = Game.objects.select_for_update().filter(id=game_id).first()
            if game is None or game.status != Game.Status.RUNNING:
                return False
            if version is not None and game.version != version:
                return False
            state = state_from_json(game.state)
            new, events = engine.timeout(state, now)
            if new is state:
                return False
            from games.seats import windows_missed

            events = windows_missed(game, state) + events  # the seats still owing a move
            _save(game, state, new, events, step=("timeout", None, {}, now))
            log.info(
                "timer expired",
                extra={"game": game.code, "round": new.round, "version": game.version},
            )
            return True
    except Conflict:
        return False  # someone else moved the game on; the sweeper looks again


def sweep_overdue(now: float | None = None) -> int:
    """Expire every game whose deadline has passed: the safety net under the ETA tasks."""
    now = time.time() if now is None else now
    overdue = Game.objects.filter(
        status=Game.Status.RUNNING, deadline__lte=datetime.fromtimestamp(now, UTC)
    ).values_list("id", flat=True)
    return sum(game_expire(game_id=game_id, now=now) for game_id in overdue[:200])


# --- internals ------------------------------------------------------------------------------


def _locked(code: str) -> Game:
    game = Game.objects.select_for_update().filter(code=code).first()
    if game is None:
        raise GameError("not_found", f"No game has the code {code!r}.", 404)
    return game


def _hosts_lobby(code: str, user, not_host: str, started: str) -> Game:
    """The game, locked, for a change only its host may make before the start."""
    game = _locked(code)
    if not identity.is_host(game, user):
        raise GameError("forbidden", not_host, 403)
    if game.status != Game.Status.LOBBY:
        raise GameError("wrong_phase", started, 409)
    return game


def _player(game: Game, user) -> Player:
    player = identity.player_of(game, user)
    if player is None:
        raise GameError("forbidden", "You have no seat at this table.", 403)
    return player


def _fixed_roles(options: dict) -> dict[int, str] | None:
    roles = options.get("roles")
    return {int(seat): role for seat, role in roles.items()} if roles else None


def _lobby_event(text: str, **data) -> engine.Event:
    """`data["name"]`: the name `text` quotes (games.views.with_names shows it as a name)."""
    return engine.Event("lobby", text, 0, data=data)


def _touch(game: Game, events: list) -> None:
    """Save a lobby change: a new version, so every poll sees it."""
    _log(game, events)
    _write(game, game.version)
    _after_commit(game)


def _save(
    game: Game, old: engine.State | None, new: engine.State, events: list, *, step=None
) -> None:
    """Write the new state with its projections and events (inside the caller's transaction).

    `step` is the engine call that made `new`: (name, seat, args, now). It is kept in the replay
    log (`games.models.Action`, issue 7), since a game replays exactly only from its seed and
    every step with the `now` it ran at (timeouts and random choices depend on it)."""
    expected = game.version
    game.state = to_json(new)
    game.phase = new.phase
    game.round = new.round
    game.deadline = datetime.fromtimestamp(new.deadline, UTC) if new.deadline is not None else None
    if new.outcome is not None:
        game.status = Game.Status.FINISHED
    _log(game, events)
    _write(game, expected)
    if step is not None:
        name, seat, args, now = step
        Step.objects.create(game=game, seq=game.version, seat=seat, name=name, args=args, at=now)
    died = [
        p.seat for p in new.players if not p.alive and (old is None or old.player(p.seat).alive)
    ]
    if died:
        game.players.filter(seat__in=died).update(alive=False)
    if new.options.relics and (old is None or old.ext.get("relics") != new.ext.get("relics")):
        from relics.models import sync_holdings

        sync_holdings(game, new)
    _after_commit(game, new)


def _write(game: Game, expected: int) -> None:
    """Bump the version with a conditional update: exactly one writer wins each version."""
    game.version = expected + 1
    fields = ["state", "status", "phase", "round", "deadline", "last_seq", "host_id", "version"]
    changed = Game.objects.filter(id=game.id, version=expected).update(
        **{f: getattr(game, f) for f in fields}, updated_at=datetime.now(UTC)
    )
    if changed != 1:
        raise Conflict()


def _log(game: Game, events: list) -> None:
    rows = []
    for e in events:
        game.last_seq += 1
        audience = list(e.audience) if e.audience is not None else None
        rows.append(
            Event(
                game=game,
                seq=game.last_seq,
                round=e.round,
                kind=e.kind,
                text=e.text,
                data=e.data,
                audience=audience,
            )
        )
    Event.objects.bulk_create(rows)


def _after_commit(game: Game, state: engine.State | None = None) -> None:
    code, version, game_id, deadline = game.code, game.version, game.id, game.deadline
    spectators = game.options.get("spectators", True)
    bots = _waiting_bots(game, state)

    def notify():
        publish_version(code, version, spectators=spectators)
        if deadline is not None:
            schedule_deadline(game_id, version, deadline)
        if bots:
            nudge_bots(game_id, bots)

    transaction.on_commit(notify)
    reminders.after_change(game, state)  # "your move" and deadline reminders, queued on commit


def publish_version(code: str, version: int, *, spectators: bool) -> None:
    """Tell the cheap polls (selectors.poll_state) the game's new version, and whether anyone
    may watch it. A cache outage must not fail the request: polls fall back to the database."""
    try:
        cache.set(open_key(code), spectators, timeout=POLL_KEY_SECONDS)
        bump_version(code, version)
    except Exception:
        log.warning("could not bump the poll key", exc_info=True, extra={"game": code})


def _waiting_bots(game: Game, state: engine.State | None) -> list[int]:
    """The bot seats the game waits on now."""
    if state is None or state.outcome is not None:
        return []
    bots = set(game.players.filter(is_bot=True).values_list("seat", flat=True))
    if not bots:
        return []
    from games.engine.view import waiting_for

    return [s for s in waiting_for(state) if s in bots]


def nudge_bots(game_id: int, seats: list[int]) -> None:
    """Queue one move per waiting bot, after a short human-like pause. A bot already queued is
    not queued again (the key expires if its task is lost)."""
    from games.tasks import bot_move

    for seat in seats:
        try:
            if cache.add(f"bot:{game_id}:{seat}", 1, timeout=30):
                bot_move.apply_async(
                    args=(game_id, seat), countdown=random.uniform(1.0, 3.0), retry=False
                )
        except Exception:
            log.warning("could not queue a bot move", exc_info=True)


def schedule_deadline(game_id: int, version: int, deadline: datetime) -> None:
    """Queue the ETA task for a window (fast path). Windows longer than ETA_HORIZON are left to
    the sweeper: a Redis broker redelivers long ETA tasks after its visibility timeout anyway, and
    a worker would hold days of them in memory. A broker outage never fails the request."""
    if (deadline - datetime.now(UTC)).total_seconds() > ETA_HORIZON:
        return
    from games.tasks import expire_window

    try:
        expire_window.apply_async(args=(game_id, version), eta=deadline, retry=False)
    except Exception:
        log.warning("could not queue the timer; the sweeper will close it", exc_info=True)
