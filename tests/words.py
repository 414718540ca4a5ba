"""The faults the word checks look for in what a person reads (docs/voice.md): the pages
(tests/web/test_words.py), every kind of line and the narrator (tests/test_event_words.py) and
the reminder e-mails (tests/notify/conftest.py)."""

from __future__ import annotations

import re

# "Seat 5 is Staked", not "sat down at seat 5" (a place).
SEAT_NUMBER = re.compile(r"(?<!at )\b[Ss]eats? \d")
RULE_ID = re.compile(r"\bR\d+(?:\.\d+)*[a-z]?\b")
DOUBLED = re.compile(r"\b([A-Za-z]+)\s+\1\b", re.IGNORECASE)
