"""The API's `Authorization: Token <token>` check (the tokens themselves:
games.services.api_tokens), with a short cache so that a poll costs no database query for the
token."""

from __future__ import annotations

from django.core.cache import cache
from rest_framework import exceptions
from rest_framework.authentication import TokenAuthentication, get_authorization_header

from games.models import ApiToken
from games.services.api_tokens import CACHE_SECONDS, cache_key, digest_of


def presented_token(request) -> str | None:
    """The token this request signed in with (its own header), or None (a session, no token)."""
    parts = get_authorization_header(request).split()
    if len(parts) != 2 or not isinstance(request.auth, str):
        return None
    token = parts[1].decode(errors="replace")
    return token if digest_of(token) == request.auth else None


class CachedTokenAuthentication(TokenAuthentication):
    """`Authorization: Token <token>` (DRF parses the header); `request.auth` is then the token's
    digest (what `revoke` takes), never the token. DRF's own token model is not used."""

    def authenticate_credentials(self, key: str):
        digest = digest_of(key)
        entry = cache_key(digest)
        user = cache.get(entry)
        if user is None:
            row = ApiToken.objects.select_related("user").filter(digest=digest).first()
            if row is None:
                raise exceptions.AuthenticationFailed("Invalid token.")
            user = row.user
            if not user.is_active:
                raise exceptions.AuthenticationFailed("User inactive or deleted.")
            cache.set(entry, user, timeout=CACHE_SECONDS)
        return user, digest
