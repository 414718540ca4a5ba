"""The settings of the test run (pyproject.toml's DJANGO_SETTINGS_MODULE): the site's own settings,
with a fast password hasher. The real hasher (PBKDF2, a million rounds) costs a tenth of a second
a password by design; hundreds of tests make staff users, and none of them tests the hashing.
Deployments and the tests that start the site in a process of its own use staked.settings."""

from staked.settings import *  # noqa: F403

PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
