"""Control characters in what people send: one definition for the API's fields (staked/rest.py)
and the table talk (games/chat/services.py). A C0 or C1 control character (U+0000 to U+001F,
U+007F to U+009F) has no place in text a person typed, and some (escape sequences) act on the
terminal or the log of whoever reads it; tab, line feed and carriage return are kept in text,
never in a time."""

from __future__ import annotations

import re

CONTROL_IN_TEXT = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f]")
CONTROL_IN_TIME = re.compile(r"[\x00-\x1f\x7f-\x9f]")
