"""The one exception the engine raises for a move the rules (or the request) do not allow."""

from .events import render

# The codes of docs/api.md, with the HTTP status each maps to (the API's error handler uses it).
HTTP_STATUS = {
    "bad_request": 400,
    "illegal_target": 400,
    "illegal_token": 400,
    "wrong_phase": 409,
    "game_over": 409,
}


class IllegalAction(Exception):
    """`code` is machine-readable (docs/api.md); `detail` says in words which rule forbids it.

    `detail` may name seats as placeholders into `data`, as the log's lines do
    (games/engine/events.py): "{seat:Seat} is a Ghost" with `seat=5` reads "Seat 5 is a Ghost",
    and the pages write the player's name there (`template`, `data`)."""

    def __init__(self, code: str, detail: str, /, **data):
        if code not in HTTP_STATUS:
            raise ValueError(f"unknown error code {code!r}")
        self.template = detail if data else ""
        self.data = data
        if data:
            detail = render(detail, data)
        super().__init__(f"{code}: {detail}")
        self.code = code
        self.detail = detail
