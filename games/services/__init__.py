"""The only writer of games (docs/architecture.md): load, lock, check the version, apply, save,
notify.

Every change to a game, by a player, a timer, an admin or a bot, goes through the unit of work
of `unit` (docs/architecture.md, "Writing to a game"):

1. lock the game row (`game_write`; a conditional update on `version` guards SQLite too),
2. let the pure engine decide (`engine.apply` / `engine.timeout`),
3. save state + version + events + projections in the same transaction (`GameWrite`),
4. on commit: the effects of `effects.EFFECTS` (poll key, timer, bots, reminders).

The modules: `unit` (the unit of work), `effects` (what a saved change sets off), `lobby` (who
plays, the lobby, the start), `play` (moves, bots, timers), `away` (away flags), `clock`
(the one writer of a moved deadline) and `deadlines` (the host's and the table's clock). Callers use
this package's names (`from games import services; services.game_join(...)`).
"""

from games.domain.errors import GameError
from games.services.away import AFK_AFTER, seat_event
from games.services.deadlines import clock_extend, clock_pause, clock_resume, clock_vote
from games.services.effects import nudge_bots, publish_version
from games.services.lobby import (
    fixed_roles,
    game_add_bots,
    game_create,
    game_join,
    game_leave,
    game_start,
    game_update_options,
    guest_create,
    lobby_event,
    name_free,
    player_name,
    room_key_renew,
)
from games.services.play import (
    action_apply,
    bot_act,
    close_if_overdue,
    game_expire,
    sweep_overdue,
)
from games.services.unit import GameWrite, game_write, retried
from games.services.vacation import (
    sweep_vacations,
    vacation_cancel,
    vacation_due,
    vacation_set,
)

__all__ = [
    "AFK_AFTER",
    "GameError",
    "GameWrite",
    "action_apply",
    "bot_act",
    "close_if_overdue",
    "clock_extend",
    "clock_pause",
    "clock_resume",
    "clock_vote",
    "fixed_roles",
    "game_add_bots",
    "game_create",
    "game_expire",
    "game_join",
    "game_leave",
    "game_start",
    "game_update_options",
    "room_key_renew",
    "game_write",
    "guest_create",
    "lobby_event",
    "name_free",
    "nudge_bots",
    "player_name",
    "publish_version",
    "retried",
    "seat_event",
    "sweep_overdue",
    "sweep_vacations",
    "vacation_cancel",
    "vacation_due",
    "vacation_set",
]
