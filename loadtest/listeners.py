"""Many clients waiting on a game's stream at once (games/api/stream.py), for the suite and
`make bench-api`: when did each of them hear of a version?

The clients are coroutines on one event loop in a background thread, each on its own TCP
connection, reading the Server-Sent Events by hand (HTTP/1.0, so the body is the bare stream).
"""

from __future__ import annotations

import asyncio
import threading
import time
from urllib.parse import urlsplit


class Listeners:
    """`count` open streams of `url`, shared out over `tokens`; use as a context manager."""

    def __init__(self, url: str, tokens: list[str], count: int):
        parts = urlsplit(url)
        self.host, self.port, self.path = parts.hostname, parts.port or 80, parts.path
        self.tokens, self.count = tokens, count
        self.heard: list[list[tuple[int, float]]] = [[] for _ in range(count)]  # (version, when)
        self.failures: list[str] = []
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self.loop.run_forever, daemon=True)
        self.tasks: list = []

    def __enter__(self) -> Listeners:
        self.thread.start()
        self.tasks = [
            asyncio.run_coroutine_threadsafe(self._listen(n), self.loop) for n in range(self.count)
        ]
        self._until(lambda: all(self.heard) or self.failures, seconds=60, what="every stream open")
        return self

    def __exit__(self, *exc) -> None:
        asyncio.run_coroutine_threadsafe(_cancel_the_others(), self.loop).result(timeout=30)
        self.loop.call_soon_threadsafe(self.loop.stop)
        self.thread.join(timeout=10)
        self.loop.close()

    def latest(self) -> list[int]:
        return [heard[-1][0] if heard else -1 for heard in self.heard]

    def heard_at(self, version: int, *, seconds: float) -> list[float]:
        """When each stream first named `version` or a later one (waits up to `seconds`)."""
        self._until(
            lambda: min(self.latest()) >= version or self.failures,
            seconds=seconds,
            what=f"every stream at version {version}",
        )
        return [next(t for v, t in list(heard) if v >= version) for heard in self.heard]

    def _until(self, done, *, seconds: float, what: str) -> None:
        ends_at = time.monotonic() + seconds
        while not done():
            if time.monotonic() > ends_at:
                raise TimeoutError(f"{what}: not after {seconds} s (latest {set(self.latest())})")
            time.sleep(0.005)
        if self.failures:
            raise AssertionError(self.failures[:5])

    async def _listen(self, n: int) -> None:
        token = self.tokens[n % len(self.tokens)]
        writer = None
        try:
            reader, writer = await asyncio.open_connection(self.host, self.port)
            writer.write(
                f"GET {self.path} HTTP/1.0\r\nHost: {self.host}:{self.port}\r\n"
                f"Authorization: Token {token}\r\nAccept: text/event-stream\r\n\r\n".encode()
            )
            status = await reader.readline()
            if b" 200 " not in status:
                self.failures.append(f"stream {n}: {status!r}")
                return
            async for line in reader:
                if line.startswith(b"id:"):
                    self.heard[n].append((int(line[3:]), time.monotonic()))
        except (OSError, ValueError) as error:
            self.failures.append(f"stream {n}: {error!r}")
        finally:
            if writer is not None:
                writer.close()


async def _cancel_the_others() -> None:
    others = [t for t in asyncio.all_tasks() if t is not asyncio.current_task()]
    for task in others:
        task.cancel()
    await asyncio.gather(*others, return_exceptions=True)
