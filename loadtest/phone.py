"""What a simulated phone reads from the game's HTML, as the page itself would use it.

The phone has no other source than the HTML the server sends: the polled elements (`hx-get` with
`hx-trigger="every Ns"`: the game's change endpoint, the chat list), the game's version
(`#game[data-version]`) and status, and the action forms (`form[data-action]`) a player fills in
and posts. Choosing a move is filling a form in at random, as a player tapping would: one value
per radio group, as many boxes as the form asks for ("Choose 2 ..."), the first option of a
select; hidden fields as they are.
"""

from __future__ import annotations

import random
import re
from dataclasses import dataclass, field
from html import unescape
from html.parser import HTMLParser

EVERY = re.compile(r"every\s+([\d.]+)(ms|s)")
CHOOSE = re.compile(r"[Cc]hoose (\d+)")


@dataclass
class Poller:
    """An element the page polls: its URL and interval (seconds)."""

    key: str  # the element's id
    url: str
    seconds: float


@dataclass
class Form:
    action: str  # the `data-action` (an action name) or the form's id
    url: str
    hidden: list[tuple[str, str]] = field(default_factory=list)
    radios: dict[str, list[str]] = field(default_factory=dict)
    boxes: dict[str, list[str]] = field(default_factory=dict)
    selects: dict[str, list[str]] = field(default_factory=dict)
    text: str = ""

    def filled(self, rng: random.Random) -> list[tuple[str, str]]:
        """The fields a player's taps would post."""
        out = list(self.hidden)
        for name, values in self.radios.items():
            out.append((name, rng.choice(values)))
        wanted = CHOOSE.search(self.text)
        for name, values in self.boxes.items():
            count = min(len(values), int(wanted[1]) if wanted else 1)
            out += [(name, value) for value in rng.sample(values, count)]
        for name, values in self.selects.items():
            out.append((name, values[0] if values else ""))
        return out


@dataclass
class Page:
    version: int | None = None
    status: str = ""
    pollers: list[Poller] = field(default_factory=list)
    forms: list[Form] = field(default_factory=list)

    @property
    def moves(self) -> list[Form]:
        return [f for f in self.forms if f.url and "/act/" in f.url]

    def form(self, url_part: str) -> Form | None:
        return next((f for f in self.forms if url_part in f.url), None)


class _Reader(HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.page = Page()
        self.form: Form | None = None
        self.select: str | None = None

    def handle_starttag(self, tag, attrs):
        a = {k: unescape(v or "") for k, v in attrs}
        if a.get("id") == "game":
            self.page.version = int(a["data-version"]) if a.get("data-version") else None
            status = re.search(r"status-(\w+)", a.get("class", ""))
            self.page.status = status[1] if status else ""
        every = EVERY.search(a.get("hx-trigger", ""))
        if every and a.get("hx-get"):
            seconds = float(every[1]) / (1000 if every[2] == "ms" else 1)
            self.page.pollers.append(Poller(a.get("id", a["hx-get"]), a["hx-get"], seconds))
        if tag == "form":
            url = a.get("hx-post") or a.get("action", "")
            self.form = Form(a.get("data-action") or a.get("id", ""), url)
            self.page.forms.append(self.form)
        elif self.form is not None and tag == "input" and a.get("name"):
            kind = a.get("type", "text")
            if kind == "hidden":
                self.form.hidden.append((a["name"], a.get("value", "")))
            elif kind == "radio":
                self.form.radios.setdefault(a["name"], []).append(a.get("value", ""))
            elif kind == "checkbox":
                self.form.boxes.setdefault(a["name"], []).append(a.get("value", ""))
        elif self.form is not None and tag == "select" and a.get("name"):
            self.select = a["name"]
            self.form.selects[self.select] = []
        elif self.form is not None and tag == "option" and self.select:
            self.form.selects[self.select].append(a.get("value", ""))

    def handle_endtag(self, tag):
        if tag == "form":
            self.form = None
        elif tag == "select":
            self.select = None

    def handle_data(self, data):
        if self.form is not None:
            self.form.text += data


def read(html: str) -> Page:
    reader = _Reader()
    reader.feed(html)
    return reader.page
