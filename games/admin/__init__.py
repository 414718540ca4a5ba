"""The Django admin: the games (`games`), the accounts (`accounts`) and the read-only game pages'
presentation (`display`). Django's autodiscovery imports this package; the imports register."""

from games.admin import accounts, games  # noqa: F401
