"""The API's JSON parser: DRF's, with a nesting limit.

JSON nested deeper than MAX_DEPTH levels is `400 bad_request` (no request of ours needs more
than 3; 1,000 levels made the parser raise RecursionError, a 500). The body itself is read by
DRF through `request.body`, where Django enforces DATA_UPLOAD_MAX_MEMORY_SIZE (a larger one is
`413 too_large`: staked/errors.py).
"""

from __future__ import annotations

import json

from django.conf import settings
from rest_framework import exceptions, parsers

MAX_DEPTH = 32


class JSONParser(parsers.JSONParser):
    def parse(self, stream, media_type=None, parser_context=None):
        raw = stream.read()
        encoding = (parser_context or {}).get("encoding") or settings.DEFAULT_CHARSET
        try:
            data = json.loads(raw.decode(encoding), parse_constant=_no_constant)
        except RecursionError:
            raise exceptions.ParseError(_too_deep()) from None
        except ValueError as exc:  # UnicodeDecodeError and JSONDecodeError included
            raise exceptions.ParseError(f"JSON parse error - {exc}") from None
        if depth(data) > MAX_DEPTH:
            raise exceptions.ParseError(_too_deep())
        return data


def _too_deep() -> str:
    return f"The JSON is nested too deeply (at most {MAX_DEPTH} levels)."


def _no_constant(name: str):
    raise ValueError(f"{name} is not valid JSON")


def depth(data) -> int:
    """How deeply lists and objects nest (0 for a plain value), without recursion."""
    deepest, stack = 0, [(data, 1)]
    while stack:
        value, level = stack.pop()
        children = value.values() if isinstance(value, dict) else value
        if isinstance(value, dict | list):
            deepest = max(deepest, level)
            stack.extend((child, level + 1) for child in children)
    return deepest
