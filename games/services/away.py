"""Away flags (issue 9), kept by the writers of moves and timeouts inside their transaction.

A seat *misses a window* when a timed window closes on its timer (`play.game_expire`) while the
public view still waits on it. At `AFK_AFTER` in a row it is flagged to the table; any move of
its own clears the streak (`came_back`, from `play.action_apply`). What the host may then do with
a flagged seat is in games.seats.
"""

from __future__ import annotations

from django.db.models import F

from games import engine
from games.engine.events import PLACEHOLDER, render
from games.engine.view import public_waiting
from games.engine.vocabulary import ActionName
from games.models import AFK_AFTER, Game, Player


def seat_event(kind: str, text: str, round_: int, **data) -> engine.Event:
    """A public line about a seat (`data["seat"]`), as the seats' writers log them; `text` may
    name seats as placeholders into `data` ("{seat:Seat} is back.", games/engine/events.py)."""
    if PLACEHOLDER.search(text):
        return engine.Event(kind, render(text, data), round_, data, None, text)
    return engine.Event(kind, text, round_, data)


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
        seat_event("afk", "{seat:Seat} seems to be away.", state.round, seat=p.seat)
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
    optional_dial = name == ActionName.INTERVENTION_VOTE and state.player(player.seat).alive
    if optional_dial or player.seat not in public_waiting(state):
        return []
    Player.objects.filter(id=player.id).update(missed_windows=0, claim_token=None)
    if not player.afk:
        return []
    return [seat_event("afk_back", "{seat:Seat} is back.", round_, seat=player.seat)]
