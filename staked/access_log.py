"""gunicorn's access log without secrets: a path that carries a bearer secret (a seat's
"continue on another device" link, a seat-claim invitation, an unsubscribe link, an e-mail
address's confirmation link) or a query that does (the room screen's `?key=`) is logged with
the secret replaced by `[redacted]`, in the request line, the path, the query, the referrer and
the request headers alike. Anyone who can read the logs must not be able to sit down in
someone's seat, confirm someone's address or watch a private table.

Used with `gunicorn --logger-class staked.access_log.RedactingLogger` (Procfile), and as the
logging filter `RedactSecretPaths` on Django's loggers ("Not Found: /g/ABCD/continue/...", from
`django.request`). The stream server (uvicorn) writes no access log at all.
"""

from __future__ import annotations

import logging
import re

from gunicorn.glogging import Logger

# The last path segment of these routes is a secret (games/web/urls.py, games/notify/urls.py).
SECRET_PATHS = re.compile(r"(/(?:continue|claim|unsubscribe|confirm)/)[^/?#\s\"]+")
# The value of these query parameters is a secret: the room screen's `?key=` (its every poll
# carries it too: `/t/ABCD/changed?v=8&key=...`).
SECRET_PARAMS = re.compile(r"((?:^|[?&])key=)[^&#\s\"]*")
SECRET_HEADERS = ("authorization", "cookie", "x-csrftoken")
REDACTED = "[redacted]"


def redact(text):
    """`text` with every secret path segment and query parameter replaced; anything not a
    string is returned as is."""
    if not isinstance(text, str):
        return text
    return SECRET_PARAMS.sub(rf"\g<1>{REDACTED}", SECRET_PATHS.sub(rf"\g<1>{REDACTED}", text))


class RedactingLogger(Logger):
    def atoms(self, resp, req, environ, request_time):
        atoms = super().atoms(resp, req, environ, request_time)
        for key in ("r", "U", "q", "f", "{referer}i"):
            atoms[key] = redact(atoms.get(key))
        for name in SECRET_HEADERS:
            if atoms.get(f"{{{name}}}i") is not None:
                atoms[f"{{{name}}}i"] = REDACTED
        return atoms


class RedactSecretPaths(logging.Filter):
    """A logging filter: the record's message with every secret path segment redacted."""

    def filter(self, record: logging.LogRecord) -> bool:
        message = record.getMessage()
        redacted = redact(message)
        if redacted != message:
            record.msg, record.args = redacted, ()
        return True
