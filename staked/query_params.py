"""The query parameters each API operation reads, by route name: any other is `400
bad_request` naming them (`staked.middleware.KnownQueryParameters`). Before, an unknown one was
ignored: `?page=2` on `/me/games/` (which pages with `limit` and `offset`) silently answered
page 1.

A route of the API not listed here takes no query parameter. The published schema declares the
same ones (tests/api/test_strict_input.py compares them), so this list is where a new
parameter is added, beside its `OpenApiParameter`.
"""

from __future__ import annotations

KNOWN: dict[str, frozenset[str]] = {
    "api:auth-token": frozenset({"all"}),
    "api:games": frozenset({"my_move", "page", "limit"}),
    "api:events": frozenset({"after", "limit"}),
    "api:stream": frozenset({"since", "view"}),
    "api:chat": frozenset({"after", "before", "limit"}),
    "history-api:me-games": frozenset({"limit", "offset"}),
    "notify-api:me-push-subscriptions": frozenset({"endpoint"}),
    # drf-spectacular's own pages: the schema's format and language; Swagger UI loads its start
    # script from its own address with ?script (the page allows no inline script).
    "api-schema": frozenset({"format", "lang"}),
    "api-docs": frozenset({"script"}),
}


def unknown(view_name: str, names) -> list[str]:
    """The query parameters of `names` that the route `view_name` does not read, sorted."""
    return sorted(set(names) - KNOWN.get(view_name, frozenset()))
