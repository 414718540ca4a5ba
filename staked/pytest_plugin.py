"""pytest plugin, loaded by ``-p staked.pytest_plugin`` in pyproject.toml's addopts.

pytest-django imports the settings before any conftest.py is read, and the settings refuse to
start without a SECRET_KEY when DEBUG is off (as in tests). This module is imported earlier,
while pytest parses its options, and gives the test run (and the subprocesses it starts) a fresh
random key unless one is already set.
"""

import os
import secrets

os.environ.setdefault("SECRET_KEY", "test-" + secrets.token_urlsafe(48))
# With DEBUG off (as under `make test`) the settings redirect plain HTTP to HTTPS; Django's test
# client speaks plain HTTP. tests/test_production.py checks the production defaults apart.
os.environ.setdefault("SECURE_SSL_REDIRECT", "0")

# Importing this module first ran staked/__init__.py, which loads the Celery app, and
# staked/celery.py sets DJANGO_SETTINGS_MODULE=staked.settings when it is unset. pytest-django
# prefers that environment variable to pyproject.toml's DJANGO_SETTINGS_MODULE, so the run got
# the site's settings (with the slow password hasher) instead of staked.test_settings. Drop it:
# the ini file decides, and `--ds` still chooses another module. Subprocesses that must run the
# site's own settings name them (tests/test_production.py and the like).
if os.environ.get("DJANGO_SETTINGS_MODULE") == "staked.settings":
    del os.environ["DJANGO_SETTINGS_MODULE"]
