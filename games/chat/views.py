"""The table talk on the pages: a panel on the game page (outside the polled `#game` div, so a
game refresh never wipes what is being typed) and a page of its own for phones without
JavaScript. Thin views over games.chat.services and games.chat.selectors.

htmx: the tabs and the form swap the panel (`#chat`); the list (`#chat-list`) polls
`messages`, which answers 204 while neither the channel's stamp nor the game's version changed
(one cache read; the page holds them signed, see selectors.poll_stamp), and otherwise the last
messages with the tabs (out of band: dying opens the Ghosts' tab, the end of the game opens
every channel).
"""

from __future__ import annotations

from django.core.cache import cache
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.crypto import constant_time_compare
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from games.chat import selectors, services, stamps
from games.chat.audience import CHANNELS, LABELS, channel_access
from games.chat.models import MAX_LENGTH, Message
from games.domain.identity import seat_of
from games.domain.poll_keys import version_key
from games.models import Game
from games.selectors.game import game_get, game_version
from games.services import GameError

PANEL_SIZE = 50  # the messages a panel shows (the newest)
POLL_SECONDS = 3


def _game(code: str) -> Game:
    try:
        return game_get(code)
    except GameError as exc:
        raise Http404(exc.detail) from None


def _channel(channel: str) -> str:
    if channel not in CHANNELS:
        raise Http404("No such channel.")
    return channel


def panel_context(request: HttpRequest, game: Game, channel: str | None = None) -> dict:
    """The panel for this viewer: the tabs they may read, one channel's latest messages, the
    form if they may write there. `channel` None (or one they may not read) shows the first
    they may read; `tabs` empty means no panel at all."""
    user = request.user
    seat = seat_of(game, user)
    access = channel_access(game, seat)
    tabs = [c for c in CHANNELS if access[c].read]
    context = {"game": game, "code": game.code, "tabs": [], "max_length": MAX_LENGTH}
    if not tabs:
        return {**context, "refused": access["table"].why_not}
    if channel not in tabs:
        channel = tabs[0]
    stamp = stamps.stamp(game.code, channel)  # before the messages (see stamps.stamp)
    rows = list(
        Message.objects.filter(game=game, channel=channel)
        .select_related("author")
        .order_by("-number")[:PANEL_SIZE]
    )[::-1]
    moderator = selectors.may_moderate(game, user)
    version = game_version(game.code)
    return {
        **context,
        "channel": channel,
        "label": LABELS[channel],
        "tabs": [{"channel": c, "label": LABELS[c], "current": c == channel} for c in tabs],
        "messages": [_row(m, seat, moderator) for m in rows],
        "may_write": access[channel].write,
        "why_not": access[channel].why_not,
        "moderator": moderator,
        "stamp": selectors.poll_stamp(game.code, channel, stamp, version),
        "version": version,
        "poll_seconds": POLL_SECONDS,
    }


def _row(message: Message, seat: int | None, moderator: bool) -> dict:
    author_seat = message.author.seat if message.author else None
    row = {"number": message.number, "hidden": message.hidden}
    if message.hidden and not moderator:
        return row
    return {
        **row,
        "seat": author_seat,
        "name": message.author_name,
        "text": message.text,
        "at": message.created_at,
        "mine": seat is not None and author_seat == seat,
    }


def _panel(request, game, channel, *, status=200, error="", text="") -> HttpResponse:
    context = {**panel_context(request, game, channel), "error": error, "text": text}
    if not context["tabs"] or context.get("channel") != channel:
        context["error"] = error or _refusal(game, request.user, channel)
        status = 403 if status == 200 else status
    template = "chat/_panel.html" if request.htmx else "chat/page.html"
    return render(request, template, context, status=status)


def _refusal(game: Game, user, channel: str) -> str:
    return channel_access(game, seat_of(game, user))[channel].why_not


@require_http_methods(["GET", "POST"])
def channel_view(request: HttpRequest, code: str, channel: str) -> HttpResponse:
    """GET: the panel (htmx) or the chat page. POST: send a message."""
    game, channel = _game(code), _channel(channel)
    if request.method == "GET":
        return _panel(request, game, channel)
    text = request.POST.get("text", "")
    if not request.user.is_authenticated:
        return _panel(request, game, channel, status=403, error="Sit down at the table first.")
    try:
        services.message_post(game=game, user=request.user, channel=channel, text=text)
    except GameError as exc:
        return _panel(request, game, channel, status=exc.status, error=exc.detail, text=text)
    return _after(request, game, channel)


@require_POST
def hide_view(request: HttpRequest, code: str, channel: str, message_id: int) -> HttpResponse:
    game, channel = _game(code), _channel(channel)
    if not request.user.is_authenticated:
        return _panel(request, game, channel, status=403, error="Sign in first.")
    try:
        services.message_hide(game=game, user=request.user, channel=channel, number=message_id)
    except GameError as exc:
        return _panel(request, game, channel, status=exc.status, error=exc.detail)
    return _after(request, game, channel)


def _after(request, game: Game, channel: str) -> HttpResponse:
    """After a change: htmx gets the fresh panel (an empty form); a plain post is redirected."""
    if request.htmx:
        return _panel(request, game, channel)
    return redirect("chat", code=game.code, channel=channel)


@require_GET
def messages_view(request: HttpRequest, code: str, channel: str) -> HttpResponse:
    """The list's poll: 204 while nothing changed for this channel and this game."""
    code, channel = code.upper(), _channel(channel)
    keys = [stamps.stamp_key(code, channel), version_key(code)]
    found = cache.get_many(keys)
    if len(found) == 2:
        stamp, version = found[keys[0]], found[keys[1]]
        signed = selectors.poll_stamp(code, channel, stamp, version)
        held_stamp, held_version = request.GET.get("s", ""), request.GET.get("v")
        if held_version == str(version) and constant_time_compare(held_stamp, signed):
            return HttpResponse(status=204)
    game = _game(code)
    context = panel_context(request, game, channel)
    if context.get("channel") != channel:  # no longer readable: say why, poll no more
        refused = {"code": game.code, "refused": _refusal(game, request.user, channel)}
        return render(request, "chat/_list.html", refused, status=403)
    return render(request, "chat/_list.html", {**context, "oob": True})
