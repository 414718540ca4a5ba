"""Relics module: the relic cards, their rules hooks and holdings."""
