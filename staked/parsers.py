"""The API's JSON parser (issue 12, item 8): DRF's, with the limits a form post has.

DRF reads the request stream itself, so Django's DATA_UPLOAD_MAX_MEMORY_SIZE never applied to
JSON: a body over it is now `413 too_large`. JSON nested deeper than MAX_DEPTH levels is
`400 bad_request` (no request of ours needs more than 3; 1,000 levels made the parser raise
RecursionError, a 500).
"""

from __future__ import annotations

import json

from django.conf import settings
from rest_framework import exceptions, parsers, status

MAX_DEPTH = 32


class TooLarge(exceptions.APIException):
    status_code = status.HTTP_413_REQUEST_ENTITY_TOO_LARGE
    default_code = "too_large"


class JSONParser(parsers.JSONParser):
    def parse(self, stream, media_type=None, parser_context=None):
        limit = settings.DATA_UPLOAD_MAX_MEMORY_SIZE
        raw = stream.read() if limit is None else stream.read(limit + 1)
        if limit is not None and len(raw) > limit:
            raise TooLarge(f"The body is larger than {limit} bytes.")
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
