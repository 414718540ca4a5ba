"""Your games and how you play: a player's finished games, their figures,
and each finished game's public replay. Its own app: `SeatResult` rows are derived from
finished games (records.py), the pages and the API read them."""
