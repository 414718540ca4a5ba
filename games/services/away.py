"""Away flags, kept by the writers of moves and timeouts inside their transaction.

A seat *misses a window* when a timed window closes on its timer (`play.game_expire`), or an
organiser closes it with the same expiry (`play.close_window`, from `organiser.window_expire`),
while the public view still waits on it: a window in which that seat had to act. It is flagged
to the table (`Player.afk`) only when both hold:

- it missed `AFK_AFTER` such windows in a row, and
- its player has been away at least the preset's minimum (`options.away_after`: 5 minutes live,
  12 hours asynchronous), counted from their last sign of presence (`Player.present_at`: a move of
  their own, the "I'm still here" tap, taking the seat; the game's start before any).

So two short tie votes missed at night flag nobody who moved a minute before. Any move of the seat's
own that the table waited on clears the streak (`came_back`, from `play.action_apply`); so does the
one tap of `games.services.seats.seat_here`. What the host may do with a flagged seat is in
games.services.seats.
"""

from __future__ import annotations

from datetime import UTC, datetime

from django.db.models import F

from games import engine
from games.domain.options import away_after
from games.engine.events import PLACEHOLDER, render
from games.engine.view import public_waiting
from games.engine.vocabulary import ActionName, Phase
from games.models import AFK_AFTER, Action, Game, Player
from games.notify import services as reminders
from games.notify.services import window_key


def seat_event(kind: str, text: str, round_: int, **data) -> engine.Event:
    """A public line about a seat (`data["seat"]`), as the seats' writers log them; `text` may
    name seats as placeholders into `data` ("{seat:Seat} is back.", games/engine/events.py).
    `data["name"]` keeps the name of whoever the line is about, as it was then: the
    pages show that name, not the seat's later player's."""
    if PLACEHOLDER.search(text):
        return engine.Event(kind, render(text, data), round_, data, None, text)
    return engine.Event(kind, text, round_, data)


def windows_missed(game: Game, state: engine.State, now: float) -> list[engine.Event]:
    """The window of `state` closed on its timer at `now`: every human seat the *public* view still
    waited on missed it (a relic holder's window included: holdings are public, R10.2a). Counted
    from `public_waiting`: what the table sees the game wait on, before an away Ghost's view (R3.2)
    takes the living out of a spectator's view. A seat is flagged once it has missed `AFK_AFTER`
    in a row and been away long enough (the module's docstring).

    The role reveal before round 1 (R2's ruling) is no such window: its Ready is a courtesy, and
    round 1 simply begins without it, so a seat that never taps Ready misses nothing."""
    if state.phase == Phase.ROLE_REVEAL:
        return []
    waiting = public_waiting(state)
    if not waiting:
        return []
    humans = list(
        game.players.filter(seat__in=waiting, is_bot=False, user__isnull=False, vacation_on=False)
    )
    Player.objects.filter(id__in=[p.id for p in humans]).update(
        missed_windows=F("missed_windows") + 1
    )
    minimum, started = away_after(game.options), None
    events, flagged = [], []
    for p in humans:
        if p.afk or p.missed_windows + 1 < AFK_AFTER:
            continue
        if p.present_at is not None:
            since = p.present_at.timestamp()
        else:
            started = _started(game) if started is None else started
            since = started
        if now - since < minimum:
            continue
        Player.objects.filter(id=p.id).update(afk=True)
        text = "{seat:Seat} seems to be away."
        events.append(seat_event("afk", text, state.round, seat=p.seat, name=p.name))
        flagged.append(p.seat)
    if flagged:  # before anyone can hand the seat on, its player hears of it
        reminders.away_flagged(game, flagged, window_key(state))
    return events


def _started(game: Game) -> float:
    """When the game started (its first engine step), for a seat that never showed it was here."""
    at = Action.objects.filter(game=game, name="setup").values_list("at", flat=True).first()
    return at if at is not None else game.created_at.timestamp()


def came_back(
    player: Player, state: engine.State, name: str, round_: int, now: float
) -> list[engine.Event]:
    """`player` made the move `name` in `state` at `now`: they are here. The streak starts again,
    the flag goes, and a handover link for the seat stops working.

    Only a move the table sees counts, like the misses: one the public view waited on (a relic
    window's too, since holdings are public, R10.2a). A living player's optional dial (the Seer's
    Orb) changes nothing here: whether it was cast is not shown until Dining."""
    optional_dial = name == ActionName.INTERVENTION_VOTE and state.player(player.seat).alive
    if optional_dial or player.seat not in public_waiting(state):
        return []
    Player.objects.filter(id=player.id).update(
        missed_windows=0, afk=False, claim_token=None, present_at=datetime.fromtimestamp(now, UTC)
    )
    if not player.afk:
        return []
    text = "{seat:Seat} is back."
    return [seat_event("afk_back", text, round_, seat=player.seat, name=player.name)]
