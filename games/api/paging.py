"""One paging style for every list of the API: each answer carries `next`, the address of the
next page (null on the last one), which a client follows as it is, and each list takes `limit`,
a page's size. What `next` holds to find its place (a page number, an offset, the last `seq`
or message id) is the list's own business: a client never builds it. Chat, read from the newest
back, also carries `previous` (the older messages)."""

from __future__ import annotations

from games.domain.errors import GameError


def limit_of(request, *, default: int, high: int) -> int:
    """The `limit` query parameter, 1 to `high` (`default` when absent); 400 otherwise."""
    return whole_number(request, "limit", default=default, low=1, high=high)


def whole_number(request, name: str, *, default: int, low: int, high: int) -> int:
    raw = request.query_params.get(name)
    if raw is None:
        return default
    if not raw.isascii() or not raw.isdigit() or not low <= int(raw) <= high:
        raise GameError(
            "bad_request", f"'{name}' must be a whole number from {low} to {high}.", 400
        )
    return int(raw)


def page_url(request, **changes) -> str:
    """This request's address with the query parameters `changes` set (None removes one)."""
    query = request.query_params.copy()
    for name, value in changes.items():
        if value is None:
            query.pop(name, None)
        else:
            query[name] = str(value)
    return request.build_absolute_uri(f"{request.path}?{query.urlencode()}")
