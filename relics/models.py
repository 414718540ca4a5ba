"""Who holds which Sacred Relic: a projection of the engine state for admin and queries, kept in
the same transaction as the state by games.services. Never read back into the engine."""

from __future__ import annotations

from django.db import models

from games.models import Game
from relics import rules


class RelicHolding(models.Model):
    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="relic_holdings")
    seat = models.PositiveSmallIntegerField()
    relic = models.CharField(max_length=40)  # the relic's id, e.g. "seers_orb"
    card = models.CharField(max_length=44)  # the physical card: "bangle_of_oaths#2"
    discarded = models.BooleanField(default=False)
    negated = models.BooleanField(default=False)  # negated this round
    markers = models.JSONField(default=list, blank=True)  # marker tokens on this card (R10.4)

    class Meta:
        ordering = ["seat", "relic"]
        constraints = [models.UniqueConstraint(fields=["game", "card"], name="relic_unique_card")]

    def __str__(self) -> str:
        return f"{self.game.code} seat {self.seat}: {self.relic}"


def sync_holdings(game: Game, state, before=None) -> None:
    """Rewrite this game's rows from the engine state (a handful of rows, on relic games only),
    unless the relics' data is what it was in the state `before`."""
    data = rules.data_of(state)
    if data == rules.NONE_YET or (before is not None and rules.data_of(before) == data):
        return
    markers = {}
    for relic, marker in data.markers.items():
        markers.setdefault(marker.card, []).append(relic.value)
    rows = [
        RelicHolding(
            game=game,
            seat=h.seat,
            relic=rules.kind(h.card).value,
            card=h.card.value,
            discarded=h.discarded,
            negated=rules.negated(state, h.card),
            markers=markers.get(h.card, []),
        )
        for h in data.holdings
    ]
    RelicHolding.objects.filter(game=game).delete()
    RelicHolding.objects.bulk_create(rows)
