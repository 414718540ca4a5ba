"""The only writer of chat messages: post, hide and show again. Who may do what is asked of
`games.chat.audience` at the moment of the request; the game row is never written (chat is not
game state), so posting never bumps `Game.version`."""

from __future__ import annotations

import logging

from django.db import IntegrityError, transaction
from django.db.models import Max
from django.utils import timezone

from games.chat.audience import TABLE, channel_access
from games.chat.models import MAX_LENGTH, Message
from games.chat.stamps import stamp_changed
from games.domain.identity import is_host, player_of, seat_of
from games.models import Game
from games.services import GameError
from staked import limits
from staked.text import CONTROL_IN_TEXT

log = logging.getLogger("games")


class InvalidText(GameError):
    """The text itself is refused (empty, too long): a field error of `text`."""

    field = "text"

    def __init__(self, detail: str):
        super().__init__("bad_request", detail, 400)


class RateLimited(GameError):
    def __init__(self, retry_after: int):
        super().__init__(
            "rate_limited", f"Too many messages: wait {retry_after} s before the next.", 429
        )
        self.retry_after = retry_after


def clean_text(text: str) -> str:
    text = text.strip()
    if not text:
        raise InvalidText("Write something first.")
    if len(text) > MAX_LENGTH:
        raise InvalidText(f"At most {MAX_LENGTH} characters (this has {len(text)}).")
    if "\x00" in text or _not_utf8(text):
        raise InvalidText("The text holds a character that cannot be kept (NUL or broken Unicode).")
    if CONTROL_IN_TEXT.search(text):  # staked/text.py: an escape sequence, a bell, ...
        raise InvalidText("Must not contain control characters.")
    return text


def _not_utf8(text: str) -> bool:
    """A lone surrogate (JSON allows "\\ud800") has no UTF-8 form: no database keeps it."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return True
    return False


def message_post(*, game: Game, user, channel: str, text: str) -> Message:
    player = player_of(game, user)
    access = channel_access(game, player.seat if player else None)[channel]
    if not access.write:
        raise GameError("channel_forbidden", access.why_not, 403)
    text = clean_text(text)
    # Both budgets count (staked/limits.py): 5 in 10 s and 30 a minute, per seat by default.
    verdicts = [limits.hit(scope, f"seat:{player.id}") for scope in ("chat_burst", "chat")]
    waits = [v.retry_after for v in verdicts if not v.allowed]
    if waits:
        raise RateLimited(max(waits))
    for _ in range(5):
        try:
            with transaction.atomic():
                last = Message.objects.filter(game=game, channel=channel).aggregate(
                    last=Max("number")
                )["last"]
                message = Message.objects.create(
                    game=game,
                    channel=channel,
                    number=(last or 0) + 1,
                    author=player,
                    author_name=player.name,
                    text=text,
                )
                transaction.on_commit(lambda: stamp_changed(game.code, channel))
            return message
        except IntegrityError:  # another post took that number: take the next one
            continue
    raise GameError("stale", "The channel is busy; try again.", 409)


def message_hide(*, game: Game, user, channel: str, number: int) -> Message:
    """The host (in a channel they may read) or an organiser hides a message; it is logged.

    Organisers follow the admin's channel rule (games/chat/admin.py): staff hide in `table`, and
    in `ghosts` or `den` only where their own seat reads it; superusers anywhere. An organiser who
    could hide den messages by number would learn, from 404s, how many there are."""
    reads = channel_access(game, seat_of(game, user))[channel].read
    organiser = user.is_superuser or (user.is_staff and (channel == TABLE or reads))
    if not organiser:
        if not reads:
            raise GameError("channel_forbidden", "You cannot read this channel.", 403)
        if not is_host(game, user):
            raise GameError("forbidden", "Only the host or an organiser can hide a message.", 403)
    message = Message.objects.filter(game=game, channel=channel, number=number).first()
    if message is None:
        raise GameError("not_found", f"There is no message {number} in this channel.", 404)
    if message.hidden:
        return message
    with transaction.atomic():
        changed = Message.objects.filter(id=message.id, hidden=False).update(
            hidden=True, hidden_by=user, hidden_at=timezone.now()
        )
        transaction.on_commit(lambda: stamp_changed(game.code, channel))
    message.refresh_from_db()
    if changed:
        log.info(
            "chat message hidden: %s #%s by %s",
            channel,
            number,
            "host" if is_host(game, user) else "staff",
            extra={"game": game.code, "by": user.username},
        )
    return message


def message_unhide(*, message: Message, user) -> Message:
    """An organiser shows a hidden message again (from the admin; logged). Organisers only, in
    the channels the admin shows them: staff the `table` channel, superusers any."""
    if not (user.is_superuser or (user.is_staff and message.channel == Message.Channel.TABLE)):
        raise GameError("forbidden", "Only an organiser can show a hidden message again.", 403)
    game = message.game
    with transaction.atomic():
        changed = Message.objects.filter(id=message.id, hidden=True).update(
            hidden=False, hidden_by=None, hidden_at=None
        )
        transaction.on_commit(lambda: stamp_changed(game.code, message.channel))
    message.refresh_from_db()
    if changed:
        log.info(
            "chat message shown again: %s #%s",
            message.channel,
            message.number,
            extra={"game": game.code, "by": user.username},
        )
    return message
