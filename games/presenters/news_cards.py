"""Private news as cards for the game page: the unread news of a seat in words for
people, newest first (games.selectors.news finds it, games.services.news keeps what was read;
games.web.news dismisses a card)."""

from __future__ import annotations

from django.utils.html import format_html

from games.domain.names import as_html
from games.presenters.coach import ROLE_WORDS
from games.presenters.wording import for_people

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


VAMPIRE_SIDE = ("vampire", "vampire_lord")


def cards(
    unread: list[dict], seat: int, names: dict[int, str], my_role: str | None = None
) -> list[dict]:
    """The unread news of `seat` (games.selectors.news.unread) as cards, newest first; one that
    takes over the screen first. `my_role` (the reader's own) says who else knows what an
    examination showed."""
    found = [_card(item, seat, names, my_role) for item in reversed(unread)]
    return sorted(found, key=lambda card: not card["takeover"])


def who_else_knows(seen: str, my_role: str | None) -> str:
    """Who else knows the role an examination showed, from the rules (R1.3: the Vampires know
    one another and their Lord; a Hunter's examination is secret): never "only you" where the
    Vampires know too."""
    if seen in VAMPIRE_SIDE and my_role in VAMPIRE_SIDE:
        return "Your fellow Vampires know this too."
    if seen == "vampire_lord":
        return "The Vampires know it too, and that you saw it. No other Hunter saw this card."
    if seen in VAMPIRE_SIDE:
        return "The Vampires know it too. No other Hunter saw this card: use it, or keep it."
    return "Nobody else saw this card. Use it, or keep it to yourself."


def _card(item: dict, seat: int, names: dict[int, str], my_role: str | None) -> dict:
    kind, data = item["kind"], item["data"]
    card = {
        "number": item["number"],
        "kind": kind,
        "title": TITLES.get(kind, "News for you"),
        "text": for_people(item["text"], names, data, item["template"], seat),
        "next": "",
        "takeover": False,
    }
    if kind == "examined":
        who = as_html(names.get(data["seat"], "?"))
        card["text"] = format_html("{} is {}.", who, ROLE_WORDS.get(data["role"], data["role"]))
        card["next"] = who_else_knows(data["role"], my_role)
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
        # What a Ghost does next is said on the same page (the Ghost vote's form, or the card
        # under the Ghost's move or wait): said here too, it cost the first screen two lines.
        card["text"] = "The table put the most Stakes on you: you are a Ghost now."
    elif kind == "tokens_set_aside":
        card["text"] = "Nobody alive can take your remaining tokens: they are set aside."
        card["next"] = "They do not count against you."
    return card
