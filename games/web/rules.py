"""The rules pages (`/rules/`), from the rules as this site implements them."""

from __future__ import annotations

import re

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_GET

RULE_PAGES = [
    ("setup", "Setup and goal"),
    ("round", "A round"),
    ("dining", "Dining and ties"),
    ("ghosts", "Ghosts"),
    ("lord", "The Vampire Lord"),
    ("relics", "Sacred Relics"),
    ("last-wills", "Last Wills"),
    ("bots", "How the bots play"),
]


@require_GET
def rules(request: HttpRequest, page: str = "") -> HttpResponse:
    slugs = [slug for slug, _ in RULE_PAGES]
    if page and page not in slugs:
        raise Http404("No such rules page.")
    back = request.GET.get("game", "").upper()
    context = {
        "pages": RULE_PAGES,
        "page": page,
        # Back to the game the player came from (a code only: never an arbitrary address).
        "game_code": back if re.fullmatch(r"[A-Z0-9]{6}", back) else "",
    }
    if page:
        i = slugs.index(page)
        context["title"] = RULE_PAGES[i][1]
        context["prev"] = RULE_PAGES[i - 1] if i > 0 else None
        context["next"] = RULE_PAGES[i + 1] if i + 1 < len(RULE_PAGES) else None
        return render(request, f"rules/{page}.html", context)
    return render(request, "rules/index.html", context)
