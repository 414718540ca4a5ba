"""Template filters for words a player reads (games/wording.py)."""

from django import template

from games.wording import without_rule_ids

register = template.Library()


@register.filter
def no_rule_ids(text: str) -> str:
    """The engine's sentence without the rule IDs it cites (those are for developers)."""
    return without_rule_ids(str(text or ""))
