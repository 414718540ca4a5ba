"""Private news on the game page (issue 14): the cards at the top of a seat's page, in words for
people, and the "Got it" that dismisses one (games.news keeps what was read)."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.utils.html import format_html
from django.views.decorators.http import require_POST

from games import news
from games.models import Game
from games.names import as_html
from games.services import GameError
from games.views import _done, _game_or_404, _render_game
from games.wording import for_people

ROLE_WORDS = {"hunter": "a Hunter", "vampire": "a Vampire", "vampire_lord": "the Vampire Lord"}
TITLES = {
    "examined": "You saw a Secret Role",
    "mesmerized": "Mesmerized",
    "night": "Your fellow Vampires",
    "relic_received": "A relic for you",
    "relic_negated": "Your relic is negated",
    "relic_bangle": "The Bangle of Oaths",
    "tokens_set_aside": "Tokens set aside",
    "eliminated": "You were Staked",
    "last_will_effect": "A Last Will names you",
}


def cards(game: Game, seat: int, names: dict[int, str]) -> list[dict]:
    """The unread news of `seat` as cards, newest first; one that takes over the screen first."""
    found = [_card(item, seat, names) for item in reversed(news.unread(game, seat))]
    return sorted(found, key=lambda card: not card["takeover"])


def _card(item: dict, seat: int, names: dict[int, str]) -> dict:
    kind, data = item["kind"], item["data"]
    card = {
        "number": item["number"],
        "kind": kind,
        "title": TITLES.get(kind, "News for you"),
        "text": for_people(item["text"], names),
        "next": "",
        "takeover": False,
    }
    if kind == "examined":
        who = as_html(names.get(data["seat"], "?"))
        card["text"] = format_html("{} is {}.", who, ROLE_WORDS.get(data["role"], data["role"]))
        card["next"] = "Only you know this. Use it, or keep it to yourself."
    elif kind == "mesmerized" and data.get("seat") in (None, seat):
        card.update(
            title="You are Mesmerized",
            takeover=True,
            text="You saw the Vampire Lord's card. From now on you win only if the Vampires win.",
            next="Your card still reads Hunter and nobody else at the table knows, except the "
            "Vampires. Help them without being caught.",
        )
    elif kind == "mesmerized":
        who = as_html(names.get(data["seat"], "?"))
        card["title"] = "A Hunter was Mesmerized"
        card["text"] = format_html("{} saw the Lord's card and now plays for the Vampires.", who)
    elif kind == "eliminated":
        card["text"] = "The table put the most Stakes on you: you are a Ghost now."
        card["next"] = "Each round, choose one living player to protect with your Ghost vote."
    elif kind == "tokens_set_aside":
        card["text"] = "Nobody alive can take your remaining tokens: they are set aside."
        card["next"] = "They do not count against you."
    return card


@require_POST
def news_read(request: HttpRequest, code: str, number: int) -> HttpResponse:
    """ "Got it": the card is gone on every device of this seat."""
    game = _game_or_404(code)
    try:
        news.acknowledge(game, request.user, number)
    except GameError as exc:
        return _render_game(request, game, error=exc.detail, status=exc.status)
    return _done(request, game)
