"""API tokens in either header form client libraries send: `Authorization: Token <key>` (DRF's)
and `Authorization: Bearer <key>` (OAuth-style, what most generated clients send). A header of
either scheme with a wrong, malformed, revoked or expired token is a 401, never an anonymous
request. Personal access tokens (accounts.tokens, `tp_…`) carry scopes; a key without the
prefix is a token from the password login of earlier versions (every scope). OAuth apps' access
tokens (accounts.oauth, `tpo_…`) carry the scopes the player granted the app."""

from __future__ import annotations

from django.utils import translation
from django.utils.translation import gettext_lazy as _
from drf_spectacular.extensions import OpenApiAuthenticationExtension
from rest_framework import exceptions
from rest_framework.authentication import TokenAuthentication, get_authorization_header

from accounts.oauth import ACCESS_TOKEN_PREFIX, oauth_authenticate
from accounts.tokens import TOKEN_PREFIX, TokenInvalid, token_authenticate

TOKEN_SCHEMES = (b"token", b"bearer")


class TokenOrBearerAuthentication(TokenAuthentication):
    def authenticate(self, request):
        parts = get_authorization_header(request).split()
        if not parts or parts[0].lower() not in TOKEN_SCHEMES:
            return None  # another scheme (or none): other authenticators decide
        if len(parts) != 2:
            raise exceptions.AuthenticationFailed(
                _("Invalid token header: send 'Authorization: Bearer <token>' with one token."))
        try:
            key = parts[1].decode("ascii")
        except UnicodeError:
            raise exceptions.AuthenticationFailed(
                _("Invalid token header: the token has characters a token never has.")) from None
        for prefix, authenticate in ((TOKEN_PREFIX, token_authenticate),
                                     (ACCESS_TOKEN_PREFIX, oauth_authenticate)):
            if key.startswith(prefix):
                try:
                    token = authenticate(key)
                except TokenInvalid as error:
                    raise exceptions.AuthenticationFailed(str(error)) from None
                return _speaking_their_language(token.user), token
        user, token = self.authenticate_credentials(key)
        return _speaking_their_language(user), token

    def authenticate_header(self, request) -> str:
        return 'Bearer realm="api"'


def _speaking_their_language(user):
    """A token's requests are answered in its player's chosen language, as their pages are
    (PlayerLanguageMiddleware runs before DRF knows who sent the token)."""
    if user.language:
        translation.activate(user.language)
    return user


class TokenOrBearerScheme(OpenApiAuthenticationExtension):
    """The schema offers the Bearer form, the one generated clients know how to send."""

    target_class = TokenOrBearerAuthentication
    name = "bearerAuth"

    def get_security_definition(self, auto_schema):
        return {"type": "http", "scheme": "bearer",
                "description": "A personal access token (made on the account page or with "
                               "POST /api/v1/tokens/, or by POST /api/v1/auth/token/), sent as "
                               "`Authorization: Bearer <token>` (`Token <token>` also works). "
                               "Its scopes: `read` (GET requests), `play` (moves, lobby), `chat` "
                               "(chat, reports) and `manage` (tokens, webhooks, account "
                               "settings); the password login's token has them all. A token "
                               "without the scope a request needs is refused with 403 "
                               "`insufficient_scope`, `details.required_scope` naming it."}
