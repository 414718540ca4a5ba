"""Table talk: chat channels per game, each read only by those entitled to it."""
