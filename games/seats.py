"""Games that never stall (issue 9): AFK flags, the host's two remedies, and the rematch.

- A seat *misses a window* when a timed window closes on its timer (`services.game_expire`) while
  the public view still waits on it. At `AFK_AFTER` in a row it is flagged to the table; any
  move of its own clears the streak (`came_back`, from `services.action_apply`).
- The host may then give a flagged seat to a bot, or make a one-time link that hands it to a new
  friend (`seat_invite` / `seat_claim`). The role and the engine state stay with the seat: only
  who plays it changes, and the old player loses the seat's view at once (views are built from
  the `Player` row on every request).
- `rematch_open`: a finished game's players open one new lobby with the same options.

Like `games.admin_services`, these lock the game row and save through the services' internals
(version bump, events, on-commit poll key), so every poll sees the change.
"""

from __future__ import annotations

import secrets

from django.core.cache import cache
from django.db import transaction
from django.db.models import F
from django.utils import timezone

from games import engine, identity, names, services
from games.engine.view import public_waiting
from games.models import AFK_AFTER, Game, Player
from games.services import GameError, retried

SEEN_EVERY = 60  # seconds: a seat's "last seen" is written at most once a minute


def _event(kind: str, text: str, round_: int, **data) -> engine.Event:
    return engine.Event(kind, text, round_, data)


# --- bookkeeping, inside the services' transactions ------------------------------------------


def windows_missed(game: Game, state: engine.State) -> list[engine.Event]:
    """The window of `state` closed on its timer: every human seat the *public* view still waited
    on missed it (a relic holder's window included: holdings are public, R10.2a). Counted from
    `public_waiting`: what the table sees the game wait on, before an away Ghost's view (R3.2)
    takes the living out of a spectator's view."""
    waiting = public_waiting(state)
    if not waiting:
        return []
    humans = list(game.players.filter(seat__in=waiting, is_bot=False, user__isnull=False))
    Player.objects.filter(id__in=[p.id for p in humans]).update(
        missed_windows=F("missed_windows") + 1
    )
    return [
        _event("afk", f"Seat {p.seat} seems to be away.", state.round, seat=p.seat)
        for p in humans
        if p.missed_windows + 1 == AFK_AFTER
    ]


def came_back(player: Player, state: engine.State, name: str, round_: int) -> list[engine.Event]:
    """`player` made the move `name` in `state`: the streak starts again, and a handover link for
    the seat stops working (the player is here after all). Writes nothing for the usual player.

    Only a move the table sees counts, like the misses: one the public view waited on (a relic
    window's too, since holdings are public, R10.2a). A living player's optional dial (the Seer's
    Orb) changes nothing here: whether it was cast is not shown until Dining."""
    if player.missed_windows == 0 and player.claim_token is None:
        return []
    optional_dial = name == "intervention_vote" and state.player(player.seat).alive
    if optional_dial or player.seat not in public_waiting(state):
        return []
    Player.objects.filter(id=player.id).update(missed_windows=0, claim_token=None)
    if not player.afk:
        return []
    return [_event("afk_back", f"Seat {player.seat} is back.", round_, seat=player.seat)]


def seen(game: Game, seat: int | None) -> None:
    """The player of `seat` loaded the game (a page or an API view): remember when, for the
    organisers' "who is waiting on whom" (issue 19). At most one write a minute per seat: a cache
    add decides, then one UPDATE of one row. Loading a page says nothing about moves (everyone
    at the table loads it whenever it changes), so the time tells no secret."""
    if seat is None:
        return
    if cache.add(f"seen:{game.id}:{seat}", 1, timeout=SEEN_EVERY):
        Player.objects.filter(game=game, seat=seat, is_bot=False).update(
            last_seen_at=timezone.now()
        )


# --- the host's remedies ---------------------------------------------------------------------


def _flagged_seat(code: str, user, seat: int, *, bots_too: bool) -> tuple[Game, Player]:
    game = services._locked(code)
    if not identity.is_host(game, user):
        raise GameError("forbidden", "Only the host can hand on a seat.", 403)
    if game.status != Game.Status.RUNNING:
        raise GameError("wrong_phase", "Seats change hands only while the game runs.", 409)
    player = game.players.filter(seat=seat).first()
    if player is None:
        raise GameError("not_found", f"There is no seat {seat}.", 404)
    if identity.is_hosts_seat(player, game):
        raise GameError("host_seat", "The host's own seat stays with the host.", 409)
    if not (player.afk or (bots_too and player.is_bot)):
        raise GameError(
            "not_afk",
            f"Seat {seat} is not flagged as away: only a seat that missed "
            f"{AFK_AFTER} windows in a row can be handed on.",
            409,
        )
    return game, player


@retried
def seat_to_bot(*, code: str, user, seat: int) -> Game:
    """The host gives a flagged seat to a bot, which moves for it at once (same role, same
    state); the person who sat there becomes a spectator."""
    with transaction.atomic():
        game, player = _flagged_seat(code, user, seat, bots_too=False)
        others = game.players.exclude(seat=seat).values_list("name", flat=True)
        player.user, player.is_bot, player.name = None, True, names.bot_name(others, seat)
        player.missed_windows, player.claim_token = 0, None
        player.save(update_fields=["user", "is_bot", "name", "missed_windows", "claim_token"])
        text = f"Seat {seat} was away: a bot plays it now."
        services._touch(game, [_event("seat_bot", text, game.round, seat=seat)])
        game_id = game.id
        transaction.on_commit(lambda: services.nudge_bots(game_id, [seat]))
    return game


@retried
def seat_invite(*, code: str, user, seat: int) -> tuple[Game, str]:
    """The host makes a one-time link that hands a flagged (or bot) seat to a new friend. A new
    link replaces the seat's previous one."""
    with transaction.atomic():
        game, player = _flagged_seat(code, user, seat, bots_too=True)
        player.claim_token = secrets.token_urlsafe(24)
        player.save(update_fields=["claim_token"])
        text = f"The host invited a new friend to take over seat {seat}."
        services._touch(game, [_event("seat_invite", text, game.round, seat=seat)])
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
    with transaction.atomic():
        game = services._locked(code)
        player = game.players.filter(claim_token=token).first() if token else None
        if player is None:
            raise GameError("invite_invalid", "This link was already used or withdrawn.", 404)
        if game.status != Game.Status.RUNNING:
            raise GameError("wrong_phase", "The game is over.", 409)
        if identity.is_seated(game, user):
            raise GameError("already_seated", "You already have a seat at this table.", 409)
        services.name_free(game, name, seat=player.seat)
        player.user, player.is_bot, player.name = user, False, name
        player.missed_windows, player.claim_token = 0, None
        player.save(update_fields=["user", "is_bot", "name", "missed_windows", "claim_token"])
        text = f"Seat {player.seat} is now played by {names.quoted(name)}."
        event = _event("seat_claimed", text, game.round, seat=player.seat, name=name)
        services._touch(game, [event])
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
    with transaction.atomic():
        old = services._locked(code)
        if not identity.is_seated(old, user):
            raise GameError("forbidden", "Only the players of this game can ask a rematch.", 403)
        if old.status != Game.Status.FINISHED:
            raise GameError("wrong_phase", "A rematch starts once the game is over.", 409)
        if old.rematch_id is not None:
            return old, False
        old.rematch = _new_lobby(old, user)
        Game.objects.filter(id=old.id).update(rematch=old.rematch)
        text = f"Rematch: table {old.rematch.code} is open, with everyone seated."
        services._touch(old, [_event("rematch", text, old.round, code=old.rematch.code)])
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
    services._touch(new, [services._lobby_event(text)])
    return new
