"""Log formatters: every line of a game carries its code, round and version.

`games.services` logs each action and timer expiry with ``extra={"game", "round", "version"}``
(and "seat" or "by" where there is one). `KeyValueFormatter` appends these as ``key=value``;
`JsonFormatter` writes one JSON object per line (LOG_FORMAT=json), for log collectors.
"""

from __future__ import annotations

import json
import logging
from datetime import UTC, datetime

# The `extra` fields that describe a game, in the order they are printed.
CONTEXT_FIELDS = ("game", "round", "version", "seat", "by", "minutes")


def _context(record: logging.LogRecord) -> dict:
    return {f: getattr(record, f) for f in CONTEXT_FIELDS if getattr(record, f, None) is not None}


def _quoted(value) -> str:
    text = str(value)
    return json.dumps(text) if (not text or any(c in text for c in ' "=')) else text


class KeyValueFormatter(logging.Formatter):
    def __init__(self):
        super().__init__("%(asctime)s %(levelname)s %(name)s: %(message)s")

    def format(self, record: logging.LogRecord) -> str:
        line = super().format(record)
        pairs = " ".join(f"{k}={_quoted(v)}" for k, v in _context(record).items())
        if not pairs:
            return line
        head, sep, tail = line.partition("\n")  # keep a traceback below the line
        return f"{head} {pairs}{sep}{tail}"


class JsonFormatter(logging.Formatter):
    def format(self, record: logging.LogRecord) -> str:
        out = {
            "time": datetime.fromtimestamp(record.created, UTC).isoformat(),
            "level": record.levelname,
            "logger": record.name,
            "message": record.getMessage(),
            **_context(record),
        }
        if record.exc_info:
            out["exc_info"] = self.formatException(record.exc_info)
        return json.dumps(out, default=str)
