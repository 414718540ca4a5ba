"""Template tags for words a player reads (games/presenters/wording.py,
games/presenters/glossary.py)."""

from django import template
from django.template.loader import render_to_string
from django.urls import reverse

from games.presenters import glossary
from games.presenters.wording import without_rule_ids

register = template.Library()


@register.filter
def no_rule_ids(text: str) -> str:
    """The engine's sentence without the rule IDs it cites (those are for developers)."""
    return without_rule_ids(str(text or ""))


def _keys(words) -> list[str]:
    if isinstance(words, str):
        return words.split()
    return [w for w in words or () if w]


def _entry(context, key: str, where: str, label: str = "") -> dict:
    entry = glossary.word(key)
    view = context.get("view") or {}
    code = view.get("code") or ""
    more = reverse("rules-page", args=[entry.page])
    if code:
        more += f"?game={code}"
    return {
        "key": entry.key,
        "word": label or entry.word,
        "says": entry.says,
        "more": f"{more}#{entry.anchor}",
        # One id per word, place and round: a live refresh keeps the player's open or closed
        # term (static/js/staked.js), and a new round starts with every term closed again.
        "id": f"term-{entry.key}-{where}-r{view.get('round') or 0}",
    }


@register.simple_tag(takes_context=True)
def term(context, key: str, where: str, label: str = "") -> str:
    """A game word as a tappable term: the word, and behind a tap its explanation and a "More"
    link to the rules (docs/phone-screens.md, "Game words"). `where` names the place on the
    page (each place of a word needs its own)."""
    return render_to_string("games/_term.html", {"terms": [_entry(context, key, where, label)]})


@register.simple_tag(takes_context=True)
def terms(context, words, where: str) -> str:
    """A row of terms ("stake feast", or a list of keys); nothing for no word."""
    keys = list(dict.fromkeys(_keys(words)))
    if not keys:
        return ""
    return render_to_string(
        "games/_term.html", {"terms": [_entry(context, k, where) for k in keys]}
    )


@register.simple_tag(takes_context=True)
def explained(context, words, where: str) -> list[dict]:
    """The words' explanations to show as they are, inside something the player already opened
    ("What you know": its secret words never show on the closed page)."""
    return [_entry(context, k, where) for k in dict.fromkeys(_keys(words))]
