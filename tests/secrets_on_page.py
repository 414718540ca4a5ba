"""Where a seat's own token types may show on its game page: its card, its "In hand" pill and
its placement form. Everything else on the page shows no token type (R3.2: who placed on whom is
public, never which token). Shared by the page tests and the browser tests."""

from __future__ import annotations

import re

TOKEN_CLASS = re.compile(r"token-(stake|feast|double_stake|investigation)")
OWN_PARTS = [
    re.compile(r'<section class="card me".*?</section>', re.S),
    # "In hand" holds game words (details of their own): it ends where "What you know" begins.
    re.compile(
        r'<details class="card section me-things.*?(?=<details class="card section knowledge)',
        re.S,
    ),
    re.compile(r'<form class="card action action-place_token".*?</form>', re.S),
]


def token_types_outside_my_own(html: str) -> list[str]:
    """The token types the page shows anywhere but in the seat's own parts."""
    for part in OWN_PARTS:
        html = part.sub("", html)
    return TOKEN_CLASS.findall(html)
