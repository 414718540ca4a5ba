"""URL converters for the parts of a path that name a game, so that a malformed code (a NUL
byte, a slash, 300 characters) never reaches the database: the route simply does not match,
and the answer is a 404 (JSON on the API: staked/errors.py)."""

from __future__ import annotations

from django.urls import register_converter

from games.models import CODE_ALPHABET, CODE_LENGTH

# Codes are typed on phones: lower case is read as upper case (the views upper() them).
_LETTERS = "".join(sorted(set(CODE_ALPHABET + CODE_ALPHABET.lower())))


class GameCodeConverter:
    regex = f"[{_LETTERS}]{{{CODE_LENGTH}}}"

    def to_python(self, value: str) -> str:
        return value

    def to_url(self, value: str) -> str:
        return value


class SeatConverter:
    """A seat number: 1 to 99 (a table has at most 12), never a number PostgreSQL cannot hold."""

    regex = "[0-9]{1,2}"

    def to_python(self, value: str) -> int:
        return int(value)

    def to_url(self, value) -> str:
        return str(value)


class IdConverter(SeatConverter):
    """A row id (a chat message's), at most 18 digits: within a bigint."""

    regex = "[0-9]{1,18}"


class NameConverter:
    """An action's or a channel's name (a wrong one is the view's to refuse, in words)."""

    regex = "[A-Za-z0-9_-]{1,40}"

    def to_python(self, value: str) -> str:
        return value

    def to_url(self, value: str) -> str:
        return value


class TokenConverter(NameConverter):
    """A seat's handover token (secrets.token_urlsafe)."""

    regex = "[A-Za-z0-9_-]{1,64}"


def register() -> None:
    """Register the converters by name for every URLconf (GamesConfig.ready: before any loads)."""
    register_converter(GameCodeConverter, "code")
    register_converter(SeatConverter, "seat")
    register_converter(IdConverter, "id")
    register_converter(NameConverter, "name")
    register_converter(TokenConverter, "token")
