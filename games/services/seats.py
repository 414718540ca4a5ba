"""Games that never stall: AFK flags, the host's two remedies, and the rematch.

- A seat *misses a window* when a timed window closes on its timer while the public view still
  waits on it. At `AFK_AFTER` in a row, and away long enough, it is flagged to the table
  (games.services.away). Its player's page then says so, with one tap to stay
  (`seat_here`).
- The host may then (and only then) give a flagged seat to a bot, or make a one-time link that
  hands it to a new friend (`seat_invite` / `seat_claim`). The role and the engine state stay
  with the seat: only who plays it changes, and the old player loses the seat's view at once
  (views are built from the `Player` row on every request).
- `rematch_open`: a finished game's players open one new lobby with the same options.

Like `games.services.organiser`, these write through the services' unit of work (`game_write`:
version bump, events, on-commit poll key), so every poll sees the change.
"""

from __future__ import annotations

import secrets

from django.core.cache import cache
from django.db import transaction
from django.utils import timezone

from games import services
from games.domain import identity, names
from games.models import Game, Player
from games.services import GameError, game_write, retried, seat_event

SEEN_EVERY = 60  # seconds: a seat's "last seen" is written at most once a minute


# --- bookkeeping -------------------------------------------------------------------------------


def seen(game: Game, seat: int | None) -> None:
    """The player of `seat` loaded the game (a page or an API view): remember when, for the
    organisers' "who is waiting on whom". At most one write a minute per seat: a cache
    add decides, then one UPDATE of one row. Loading a page says nothing about moves (everyone
    at the table loads it whenever it changes), so the time tells no secret."""
    if seat is None:
        return
    key = f"seen:{game.id}:{seat}"
    if cache.get(key) is None and cache.add(key, 1, timeout=SEEN_EVERY):  # a read, mostly
        Player.objects.filter(game=game, seat=seat, is_bot=False).update(
            last_seen_at=timezone.now()
        )


# --- the host's remedies ---------------------------------------------------------------------


def _flagged_seat(game: Game, user, seat: int, *, bots_too: bool) -> Player:
    """The seat the host may hand on (of `game`, locked)."""
    if not identity.is_host(game, user):
        raise GameError("forbidden", "Only the host can hand on a seat.", 403)
    if game.status != Game.Status.RUNNING:
        raise GameError("wrong_phase", "Seats change hands only while the game runs.", 409)
    player = game.players.filter(seat=seat).first()
    if player is None:
        raise GameError("not_found", f"There is no seat {seat}.", 404)
    if identity.is_hosts_seat(player, game):
        raise GameError("host_seat", "The host's own seat stays with the host.", 409)
    if player.vacation_on:
        raise GameError(
            "on_vacation", f"Seat {seat} is on vacation: a bot holds it until it ends.", 409
        )
    if not (player.afk or (bots_too and player.is_bot)):
        raise GameError(
            "not_afk",
            f"Seat {seat} is not flagged as away: only a seat that missed its own windows "
            "for a while (the table sees it flagged) can be handed on.",
            409,
        )
    return player


@retried
def seat_here(*, code: str, user) -> Game:
    """The one tap of a player whose seat is flagged (or about to be) as away: "I'm still here".
    The streak and the flag go, a handover link for the seat stops working, and the table reads
    "... is back." (only when the seat was flagged: otherwise nobody saw anything, and nothing
    changes that anyone sees)."""
    with game_write(code) as write:
        game = write.game
        player = identity.player_of(game, user)
        if player is None or player.is_bot:
            raise GameError("forbidden", "You have no seat at this table.", 403)
        if game.status != Game.Status.RUNNING:
            raise GameError("wrong_phase", "The game is not running.", 409)
        was_away = player.afk
        player.missed_windows, player.afk, player.claim_token = 0, False, None
        player.present_at = timezone.now()
        player.save(update_fields=["missed_windows", "afk", "claim_token", "present_at"])
        if was_away:
            text = "{seat:Seat} is back."
            event = seat_event("afk_back", text, game.round, seat=player.seat, name=player.name)
            write.change([event])
    return game


@retried
def seat_to_bot(*, code: str, user, seat: int) -> Game:
    """The host gives a flagged seat to a bot, which moves for it at once (same role, same
    state); the person who sat there becomes a spectator."""
    with game_write(code) as write:
        game = write.game
        player = _flagged_seat(game, user, seat, bots_too=False)
        others = game.players.exclude(seat=seat).values_list("name", flat=True)
        was = player.name  # the line is about who was away: it keeps their name
        player.user, player.is_bot, player.name = None, True, names.bot_name(others, seat)
        player.missed_windows, player.afk, player.claim_token = 0, False, None
        fields = ["user", "is_bot", "name", "missed_windows", "afk", "claim_token"]
        player.save(update_fields=fields)
        text = "{seat:Seat} was away: a bot plays it now."
        write.change([seat_event("seat_bot", text, game.round, seat=seat, name=was)])
        game_id = game.id
        transaction.on_commit(lambda: services.nudge_bots(game_id, [seat]))
    return game


@retried
def seat_invite(*, code: str, user, seat: int) -> tuple[Game, str]:
    """The host makes a one-time link that hands a flagged (or bot) seat to a new friend. A new
    link replaces the seat's previous one."""
    with game_write(code) as write:
        game = write.game
        player = _flagged_seat(game, user, seat, bots_too=True)
        player.claim_token = secrets.token_urlsafe(24)
        player.save(update_fields=["claim_token"])
        text = "The host invited a new friend to take over {seat:seat}."
        event = seat_event("seat_invite", text, game.round, seat=seat, name=player.name)
        write.change([event])
    return game, player.claim_token


def invited_seat(code: str, token: str) -> Player | None:
    """The seat a handover link is for, while the link still works."""
    if not token:
        return None
    return (
        Player.objects.filter(game__code=code, claim_token=token, game__status=Game.Status.RUNNING)
        .select_related("game")
        .first()
    )


@retried
def seat_claim(*, code: str, user, token: str, name: str) -> Game:
    """Whoever opens the host's link takes the seat over (once): the seat's role and secrets are
    theirs from now on, and no longer the previous player's."""
    name = services.player_name(name)
    with game_write(code) as write:
        game = write.game
        player = game.players.filter(claim_token=token).first() if token else None
        if player is None:
            raise GameError("invite_invalid", "This link was already used or withdrawn.", 404)
        if game.status != Game.Status.RUNNING:
            raise GameError("wrong_phase", "The game is over.", 409)
        if identity.is_seated(game, user):
            raise GameError("already_seated", "You already have a seat at this table.", 409)
        services.name_free(game, name, seat=player.seat)
        player.user, player.is_bot, player.name = user, False, name
        player.missed_windows, player.afk, player.claim_token = 0, False, None
        player.present_at = timezone.now()
        fields = ["user", "is_bot", "name", "missed_windows", "afk", "claim_token", "present_at"]
        player.save(update_fields=fields)
        text = f"Seat {player.seat} is now played by {names.quoted(name)}."
        event = seat_event("seat_claimed", text, game.round, seat=player.seat, name=name)
        write.change([event])
    return game


# --- rematch ---------------------------------------------------------------------------------


def rematch_open(*, code: str, user) -> tuple[Game, bool]:
    """One tap by any player of a finished game: the first opens a lobby with the same options
    and everyone seated again (bots as bots, the same host); later taps return that lobby, and
    seat a player who had left it again while it is still a lobby. Returns (lobby, created)."""
    old, created = _rematch(code, user)
    new = old.rematch
    if not created and new.status == Game.Status.LOBBY:
        mine = identity.player_of(old, user)
        new = services.game_join(code=new.code, user=user, name=mine.name)
    return new, created


@retried
def _rematch(code: str, user) -> tuple[Game, bool]:
    with game_write(code) as write:
        old = write.game
        if not identity.is_seated(old, user):
            raise GameError("forbidden", "Only the players of this game can ask a rematch.", 403)
        if old.status != Game.Status.FINISHED:
            raise GameError("wrong_phase", "A rematch starts once the game is over.", 409)
        if old.rematch_id is not None:
            return old, False
        old.rematch = _new_lobby(old, user)
        Game.objects.filter(id=old.id).update(rematch=old.rematch)
        text = f"Rematch: table {old.rematch.code} is open, with everyone seated."
        write.change([seat_event("rematch", text, old.round, code=old.rematch.code)])
    return old, True


def _new_lobby(old: Game, user) -> Game:
    """Same options (not a staff-fixed deal or relic deck: a new deal from a new seed), same
    host, the old seats in order."""
    options = {k: v for k, v in old.options.items() if k not in ("roles", "relic_deck")}
    players = [p for p in old.players.order_by("seat") if p.is_bot or p.user_id is not None]
    host = identity.host_player(players, old)
    if host is None:  # the host gave their seat away: the one who asked hosts
        host = identity.player_in(players, user)
    new = services.game_create(host=host.user, options=options, name=host.name, rematch=True)
    others = [p for p in players if p is not host]
    for number, p in enumerate(others, start=2):
        Player.objects.create(game=new, user=p.user, seat=number, name=p.name, is_bot=p.is_bot)
    text = f"Rematch of table {old.code}: {len(players)} players are seated."
    services.GameWrite(new).change([services.lobby_event(text)])
    return new
