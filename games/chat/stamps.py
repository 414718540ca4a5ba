"""The channels' stamps: a number in the cache that changes whenever a message is posted to or
hidden in a channel, so that the pages' polls answer "no change" from one cache read
(games/chat/views.py). The chat services change it on commit (`stamp_changed`); a page starts it
when the cache has lost it (`stamp`). Not a selector: reading a stamp may write it."""

from __future__ import annotations

import time

from django.core.cache import cache

STAMP_SECONDS = 7 * 24 * 3600


def stamp_key(code: str, channel: str) -> str:
    return f"chat:{code}:{channel}:stamp"


def stamp(code: str, channel: str) -> int:
    """A number that changes whenever a message is posted to or hidden in this channel: one
    cache read. Read it before the messages, so that a page never shows an older list under a
    newer stamp."""
    key = stamp_key(code, channel)
    cache.add(key, time.time_ns(), timeout=STAMP_SECONDS)  # lost (evicted): any new value
    return cache.get(key)


def stamp_changed(code: str, channel: str) -> None:
    """After a commit: every page polling this channel renders it again."""
    key = stamp_key(code, channel)
    try:
        cache.incr(key)
    except ValueError:
        cache.set(key, time.time_ns(), timeout=STAMP_SECONDS)
