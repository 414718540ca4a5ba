"""The one mapping from a refusal to its HTTP answer, shared by the API and the pages.

A service refuses with a `DomainError` (or the engine with `IllegalAction`): a machine-readable
`code`, a `detail` in words, and the HTTP `status` it answers with. The API turns a refusal into
`{"code", "detail"}` (games/api/errors.py), the pages into the message above the form
(games/web/game.py); both ask `refusal` here, so a code answers with the same status on both faces.
"""

from __future__ import annotations

from dataclasses import dataclass

from games.engine import IllegalAction
from games.engine.errors import HTTP_STATUS


class DomainError(Exception):
    """A request a service refuses, changing nothing: who, when, which game, which input."""

    def __init__(self, code: str, detail: str, status: int):
        super().__init__(detail)
        self.code, self.detail, self.status = code, detail, status


class GameError(DomainError):
    """A request the game services refuse before the rules are asked (who, when, which game)."""


@dataclass(frozen=True)
class Refusal:
    code: str
    detail: str
    status: int


def refusal(exc: Exception) -> Refusal | None:
    """What a refusal answers, or None for an exception that is not one (a bug: let it raise)."""
    if isinstance(exc, DomainError):
        return Refusal(exc.code, exc.detail, exc.status)
    if isinstance(exc, IllegalAction):
        return Refusal(exc.code, exc.detail, HTTP_STATUS.get(exc.code, 400))
    return None
