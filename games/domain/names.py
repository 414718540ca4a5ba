"""Player names: cleaned wherever one enters, one per seat at a table, and always shown as a name.

A name is text a player chose, and it is shown to everyone at the table beside text the game
writes. So:

- `clean` removes what a reader cannot see or that reorders what they see: every character of
  Unicode's control (Cc), format (Cf: zero-width spaces and joiners U+200B-U+200F, the direction
  embeddings and overrides U+202A-U+202E and isolates U+2066-U+2069, U+FEFF, ...), surrogate,
  private-use and unassigned categories, and the blank "letters" (Hangul fillers, the braille
  blank); runs of whitespace become one space; the typographic quotes “ ” become ", so that a
  name can never close the quotes the game's plain-text lines put around it. Nothing visible is
  left: `NameRefused`.
- Two seats of one game never share a name (`key`: compared after cleaning, NFKC and case
  folding, so "Eve", "EVE" and the full-width "Ｅｖｅ" are one name); bots get the first free
  "Bot N".
- The game's own lines never splice a name in as text: pages show it in its own element
  (`as_html`, <bdi class="name">, which also isolates its direction), plain text puts it in
  quotes (`quoted`).
"""

from __future__ import annotations

import unicodedata
from collections.abc import Iterable

from django.utils.html import format_html
from django.utils.safestring import SafeString

MAX_LENGTH = 40
_INVISIBLE_CATEGORIES = {"Cc", "Cf", "Cs", "Co", "Cn"}
_BLANK_LETTERS = {"\u115f", "\u1160", "\u3164", "\uffa0", "\u2800"}
_QUOTES = str.maketrans({"\u201c": '"', "\u201d": '"'})


class NameRefused(ValueError):
    """No usable name: `str()` says why, to the player."""


def clean(raw: str) -> str:
    """The name as it will be stored and shown (may be empty: see `valid`)."""
    text = " ".join(unicodedata.normalize("NFC", raw).split())  # tabs, newlines, U+2028 ...
    visible = "".join(
        ch
        for ch in text
        if unicodedata.category(ch) not in _INVISIBLE_CATEGORIES and ch not in _BLANK_LETTERS
    )
    return " ".join(visible.translate(_QUOTES).split())


def valid(raw: str) -> str:
    """The cleaned name, or NameRefused when nothing visible is left or it is too long."""
    name = clean(raw)
    if not name:
        raise NameRefused("A name needs at least one visible letter.")
    if len(name) > MAX_LENGTH:
        raise NameRefused(f"A name has at most {MAX_LENGTH} characters.")
    return name


def key(name: str) -> str:
    """What two names must differ in to sit at one table."""
    return unicodedata.normalize("NFKC", clean(name)).casefold()


def free_bot_names(taken: Iterable[str], count: int) -> list[str]:
    """`count` names "Bot N" that no seat in `taken` uses, N counting up from 1."""
    keys = {key(name) for name in taken}
    out: list[str] = []
    number = 0
    while len(out) < count:
        number += 1
        name = f"Bot {number}"
        if key(name) not in keys:
            out.append(name)
    return out


# A practice game's bots are people to play against, with names: a chip reading "2 Bot 1" told
# nothing (the "bot" badge beside each says what they are).
PRACTICE_BOT_NAMES = ("Ada", "Boris", "Clara", "Dmitri", "Edith", "Felix", "Greta", "Hugo")


def practice_bot_names(taken: Iterable[str], count: int) -> list[str]:
    """`count` names from PRACTICE_BOT_NAMES that no seat in `taken` uses ("Bot N" after)."""
    taken = list(taken)
    keys = {key(name) for name in taken}
    out = [name for name in PRACTICE_BOT_NAMES if key(name) not in keys][:count]
    return out + free_bot_names(taken + out, count - len(out))


def bot_name(taken: Iterable[str], seat: int) -> str:
    """A bot's name for `seat`: "Bot <seat>", or the first free "Bot N" if a seat has that."""
    taken = list(taken)
    preferred = f"Bot {seat}"
    if key(preferred) not in {key(name) for name in taken}:
        return preferred
    return free_bot_names(taken, 1)[0]


def quoted(name: str) -> str:
    """A name inside a plain-text sentence of the game's: “Eve”."""
    return f"\u201c{name}\u201d"


def as_html(name: str) -> SafeString:
    """A name inside a page's sentence: its own element, escaped, direction isolated."""
    return format_html('<bdi class="name">{}</bdi>', name)
