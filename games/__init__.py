"""The game: rules engine (games.engine), persistence, services, API and pages."""
