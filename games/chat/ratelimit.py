"""Per-player chat rate limits, kept in the Django cache so that every web process counts the
same posts (Redis in production; the file cache when run embedded).

Each limit is a window that opens at the player's first post and lasts `seconds`; every attempt
in it counts, refused ones included. The `seconds` of a window are also the longest a refusal
lasts, and `Retry-After` says when the window that refused closes.
"""

from __future__ import annotations

import math
import time

from django.core.cache import cache

LIMITS = ((5, 10), (30, 60))  # (posts, seconds): 5 in 10 s and 30 a minute, per player


def retry_after(player_id: int, now: float | None = None) -> int | None:
    """Count one post by this player; None if allowed, else the seconds to wait."""
    now = time.time() if now is None else now
    waits = [_count(player_id, posts, seconds, now) for posts, seconds in LIMITS]
    refused = [w for w in waits if w is not None]
    return max(refused) if refused else None


def _count(player_id: int, posts: int, seconds: int, now: float) -> int | None:
    opened_key = f"chat:rate:{player_id}:{seconds}"
    opened = cache.get(opened_key)
    if opened is not None and now - opened >= seconds:  # over, though still in the cache
        cache.delete(opened_key)
        opened = None
    if opened is None:  # the first post of a window opens it (or another process just did)
        opened = now if cache.add(opened_key, now, timeout=seconds) else cache.get(opened_key, now)
    count_key = f"{opened_key}:{opened}"
    cache.add(count_key, 0, timeout=seconds)
    try:
        count = cache.incr(count_key)
    except ValueError:  # the window closed between the two calls: this post opens the next
        cache.set(count_key, 1, timeout=seconds)
        count = 1
    if count <= posts:
        return None
    return max(1, math.ceil(opened + seconds - now))
