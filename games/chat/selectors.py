"""Reads: a channel's messages as one viewer may see them, and the cheap "has it changed?" stamp
the pages poll. The audience is `games.chat.audience`, asked at every read."""

from __future__ import annotations

from datetime import UTC

from django.utils.crypto import salted_hmac

from games.chat.audience import channel_access
from games.chat.models import Message
from games.domain.identity import is_host, seat_of
from games.models import Game
from games.services import GameError

DEFAULT_LIMIT = 50
MAX_LIMIT = 200


def may_moderate(game: Game, user) -> bool:
    """The host and organisers (staff) may hide messages, and see the ones hidden."""
    return user.is_authenticated and (user.is_staff or is_host(game, user))


def readable(game: Game, user, channel: str) -> None:
    """Refuse, with the reason, a viewer who may not read this channel now."""
    access = channel_access(game, seat_of(game, user))[channel]
    if not access.read:
        raise GameError("channel_forbidden", access.why_not, 403)


def messages_for(
    game: Game,
    user,
    channel: str,
    *,
    after: int | None = None,
    before: int | None = None,
    limit: int = DEFAULT_LIMIT,
) -> dict:
    """A page of the channel, oldest first. `after`: the messages after that number (`more`
    says whether others follow); otherwise the latest before `before` (or the latest of all;
    `earlier` says whether older ones exist)."""
    readable(game, user, channel)
    rows = Message.objects.filter(game=game, channel=channel).select_related("author")
    if after is not None:
        page = list(rows.filter(number__gt=after).order_by("number")[: limit + 1])
        more, page = len(page) > limit, page[:limit]
        earlier = after > 0 and rows.filter(number__lte=after).exists()
    else:
        if before is not None:
            rows = rows.filter(number__lt=before)
        page = list(rows.order_by("-number")[: limit + 1])
        earlier, page = len(page) > limit, page[:limit][::-1]
        more = (
            before is not None
            and Message.objects.filter(game=game, channel=channel, number__gte=before).exists()
        )
    show_hidden = may_moderate(game, user)
    return {
        "messages": [message_out(m, show_hidden=show_hidden) for m in page],
        "more": more,
        "earlier": earlier,
    }


def message_out(message: Message, *, show_hidden: bool) -> dict:
    """A message as the API gives it; a hidden one is only its number, except to moderators."""
    if message.hidden and not show_hidden:
        return {"id": message.number, "hidden": True}
    return {
        "id": message.number,
        "channel": message.channel,
        "seat": message.author.seat if message.author else None,
        "name": message.author_name,
        "text": message.text,
        "created_at": message.created_at.astimezone(UTC).isoformat().replace("+00:00", "Z"),
        "hidden": message.hidden,
    }


def poll_stamp(code: str, channel: str, stamp: int, version: int | None) -> str:
    """What a page's list holds for its poll: the channel's stamp and the game's version, signed.
    Only a page that could read the channel gets one, so the cheap 204 can answer without asking
    who polls: someone who lost the channel (a seat handed on bumps the version) cannot forge
    one for the new version to learn, from 204s, when the channel talks."""
    value = f"{code}:{channel}:{stamp}:{version}"
    return salted_hmac("staked.chat.poll", value).hexdigest()[:32]
