"""API tokens in either header form client libraries send: `Authorization: Token <key>` (DRF's)
and `Authorization: Bearer <key>` (OAuth-style, what most generated clients send). A header of
either scheme with a wrong or malformed token is a 401, never an anonymous request."""

from __future__ import annotations

from django.utils.translation import gettext_lazy as _
from drf_spectacular.extensions import OpenApiAuthenticationExtension
from rest_framework import exceptions
from rest_framework.authentication import TokenAuthentication, get_authorization_header

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
        return self.authenticate_credentials(key)

    def authenticate_header(self, request) -> str:
        return 'Bearer realm="api"'


class TokenOrBearerScheme(OpenApiAuthenticationExtension):
    """The schema offers the Bearer form, the one generated clients know how to send."""

    target_class = TokenOrBearerAuthentication
    name = "bearerAuth"

    def get_security_definition(self, auto_schema):
        return {"type": "http", "scheme": "bearer",
                "description": "An API token from POST /api/v1/auth/token/, sent as "
                               "`Authorization: Bearer <token>` (`Token <token>` also works)."}
