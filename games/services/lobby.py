"""Who plays, and the lobby: guests, names, opening a table, joining, options, bots, leaving,
and the start. Every change goes through the unit of work (games.services.unit)."""

from __future__ import annotations

import secrets
import time

from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import IntegrityError, transaction

from games import engine
from games.domain import identity, names
from games.domain.errors import GameError
from games.domain.options import clock_refusal, engine_options, normalized, spectators_allowed
from games.engine import IllegalAction
from games.engine.table import MIN_PLAYERS, max_players
from games.models import Game, Player, new_code
from games.services.unit import GameWrite, game_write, retried

# --- identities -----------------------------------------------------------------------------


def player_name(raw: str) -> str:
    """A name as it enters (games.domain.names.clean), or 400 bad_request when nothing visible is
    left."""
    try:
        return names.valid(raw)
    except names.NameRefused as exc:
        raise GameError("bad_request", str(exc), 400) from None


def name_free(game: Game, name: str, *, seat: int | None = None) -> None:
    """Refuse (409 name_taken) a name another seat of `game` already has
    (games.domain.names.key)."""
    others = game.players.exclude(seat=seat) if seat is not None else game.players.all()
    if any(names.key(taken) == names.key(name) for taken in others.values_list("name", flat=True)):
        raise GameError(
            "name_taken",
            f"Someone at this table is already called {names.quoted(name)}: pick another name.",
            409,
        )


def guest_create(*, name: str):
    """A friend with no account: a user with no password, known by the token or the session."""
    name = player_name(name)
    with transaction.atomic():
        user = get_user_model().objects.create_user(
            username=f"guest-{secrets.token_hex(6)}", first_name=name
        )
        user.set_unusable_password()
        user.save(update_fields=["password"])
    return user


# --- lobby ----------------------------------------------------------------------------------


def lobby_event(text: str, **data) -> engine.Event:
    """`data["name"]`: the name `text` quotes (the pages show it as a name)."""
    return engine.Event("lobby", text, 0, data=data)


def game_create(*, host, options: dict, name: str, rematch: bool = False) -> Game:
    """A new lobby hosted by `host`. Open lobbies a player opens themselves are capped
    (settings.MAX_OPEN_LOBBIES): one player must not crowd the list of open tables. A rematch
    lobby, one per finished game, is not counted against the cap."""
    name = player_name(name)
    options = _clock_checked(normalized(options))
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
                opened = lobby_event(f"{names.quoted(name)} opened the table.", name=name)
                GameWrite(game).opened([opened])
                return game
        except IntegrityError:  # a code already taken: draw another
            continue
    raise RuntimeError("could not find a free game code")


def _check_open_lobbies(host) -> None:
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
    with game_write(code) as write:
        game = write.game
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
        write.change([lobby_event(text, name=name, seat=seats + 1)])
    return game


@retried
def game_update_options(*, code: str, user, options: dict) -> Game:
    """The host changes the options before the start (the staff-only deal and deck stay)."""
    with game_write(code) as write:
        game = write.game
        hosts_lobby(
            game,
            user,
            "Only the host can change the options.",
            "Options are fixed once the game has started.",
        )
        kept = {k: v for k, v in game.options.items() if k in ("roles", "relic_deck", "spectators")}
        game.options = {**_clock_checked(normalized(options)), **kept}
        seats, limit = game.players.count(), game.seat_limit
        if seats > limit:
            raise GameError("game_full", f"{seats} are seated: the expansion is needed.", 409)
        game.save(update_fields=["options"])
        write.change([lobby_event("The host changed the options.")])
    return game


@retried
def room_key_renew(*, code: str, user) -> Game:
    """The host's "New room-screen link": the room screen's key of a game without spectators
    changes (games.domain.room_screen), so a screen or a person holding the old link is refused
    on its next request. Whenever the host likes, lobby to end; nothing else changes."""
    with game_write(code) as write:
        game = write.game
        if not identity.is_host(game, user):
            raise GameError("forbidden", "Only the host can make a new room-screen link.", 403)
        if spectators_allowed(game.options):
            raise GameError(
                "conflict", "Anyone may watch this table: its room screen needs no key.", 409
            )
        game.display_epoch += 1
        game.save(update_fields=["display_epoch"])
        write.change([])  # a new version: the old key's screen polls, and is refused
    return game


@retried
def game_add_bots(*, code: str, user, count: int, named: bool = False) -> Game:
    """The host fills empty seats with bots (lobby only); they play through this same layer.
    `named`: a practice game's bots, with people's names (names.practice_bot_names)."""
    with game_write(code) as write:
        game = write.game
        hosts_lobby(game, user, "Only the host can add bots.", "Bots join before the game starts.")
        seats, limit = game.players.count(), game.seat_limit
        if seats + count > limit:
            raise GameError("game_full", f"Only {limit - seats} seat(s) are free.", 409)
        taken = game.players.values_list("name", flat=True)
        pick = names.practice_bot_names if named else names.free_bot_names
        for i, name in enumerate(pick(taken, count)):
            Player.objects.create(game=game, seat=seats + i + 1, name=name, is_bot=True)
        write.change([lobby_event(f"{count} bot(s) sat down.")])
    return game


@retried
def game_leave(*, code: str, user) -> Game | None:
    """Leave a lobby; later seats move up so seats stay 1..N; the host's role passes on."""
    with game_write(code) as write:
        game = write.game
        if game.status != Game.Status.LOBBY:
            raise GameError("wrong_phase", "You can only leave a game before it starts.", 409)
        me = seated(game, user)
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
        left = lobby_event(f"{names.quoted(me.name)} left the table.", name=me.name)
        write.change([left])
    return game


@retried
def game_start(*, code: str, user) -> Game:
    with game_write(code) as write:
        game = write.game
        hosts_lobby(
            game, user, "Only the host can start the game.", "This game has already started."
        )
        seats = game.players.count()
        if seats < MIN_PLAYERS:
            limit = max_players(bool(game.options.get("expansion")))
            raise GameError(
                "not_enough_players",
                f"Staked! is for {MIN_PLAYERS}–{limit} players (R1.1); "
                f"{seats} {'is' if seats == 1 else 'are'} seated: "
                "invite friends or add bots.",
                409,
            )
        now = time.time()
        try:
            state = engine.setup(
                engine_options(game.options),
                seats,
                game.seed,
                roles=fixed_roles(game.options),
                now=now,
            )
        except IllegalAction as e:
            raise GameError("wrong_phase", e.detail, 409) from None
        game.status = Game.Status.RUNNING
        write.advance(None, state, engine.opening_events(state), step=("setup", None, {}, now))
    return game


# --- checks the writers share ---------------------------------------------------------------


def _clock_checked(options: dict) -> dict:
    """`options` without unset clock options, or 400 bad_request
    (games.domain.options.clock_refusal)."""
    options = {
        k: v
        for k, v in options.items()
        if not (k in ("quiet_hours", "deadline_hour", "time_zone") and v is None)
    }
    refusal = clock_refusal(options)
    if refusal:
        raise GameError("bad_request", refusal, 400)
    return options


def hosts_lobby(game: Game, user, not_host: str, started: str) -> None:
    """Refuse a change only the host of `game` (locked) may make, and only before the start."""
    if not identity.is_host(game, user):
        raise GameError("forbidden", not_host, 403)
    if game.status != Game.Status.LOBBY:
        raise GameError("wrong_phase", started, 409)


def seated(game: Game, user) -> Player:
    """`user`'s seat at `game`, or 403 forbidden."""
    player = identity.player_of(game, user)
    if player is None:
        raise GameError("forbidden", "You have no seat at this table.", 403)
    return player


def fixed_roles(options: dict) -> dict[int, str] | None:
    """The roles a staff-fixed deal gives each seat (the option keeps seats as strings)."""
    roles = options.get("roles")
    return {int(seat): role for seat, role in roles.items()} if roles else None
