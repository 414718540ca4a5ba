"""Table talk (issue 9): chat channels per game, each read only by those entitled to it."""
