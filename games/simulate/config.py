"""What one simulator run plays: the table, the modules, the bots and the seed."""

from __future__ import annotations

from dataclasses import dataclass

from games.bots import strategies
from games.engine import Options


@dataclass(frozen=True)
class Config:
    players: int = 10
    games: int = 1000
    relics: bool = False
    last_wills: bool = False
    strategy: str = strategies.DEFAULT
    seed: int = 0

    def game_seed(self, i: int) -> int:
        return self.seed * 1_000_003 + i

    def options(self) -> Options:
        return Options(relics=self.relics, last_wills=self.last_wills, expansion=self.players > 10)
