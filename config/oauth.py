"""OAuth 2.0 for third-party apps (django-oauth-toolkit): the authorization code grant with PKCE
(S256) only, the personal tokens' scopes, access tokens of an hour renewed by rotating refresh
tokens, and only the tokens' digests stored (RFC 9700). See docs/writing-a-client.md."""

from datetime import timedelta

OAUTH2_PROVIDER = {
    "SCOPES_BACKEND_CLASS": "accounts.oauth.TokenScopes",
    "PKCE_REQUIRED": True,
    "COMPLIANT_BCP_RFC9700_PKCE_METHOD": True,  # S256, never `plain`
    "COMPLIANT_BCP_RFC9700_IMPLICIT_GRANT": True,
    "COMPLIANT_BCP_RFC9700_PASSWORD_GRANT": True,
    "COMPLIANT_BCP_RFC9700_ACCESS_TOKEN_TRANSPORT": True,  # a header, never a query string
    "COMPLIANT_BCP_RFC9700_TOKEN_STORAGE": True,
    "REFRESH_TOKEN_REUSE_PROTECTION": True,  # a refresh token used twice revokes its family
    "ACCESS_TOKEN_EXPIRE_SECONDS": int(timedelta(hours=1).total_seconds()),
    "REFRESH_TOKEN_EXPIRE_SECONDS": int(timedelta(days=90).total_seconds()),
    "AUTHORIZATION_CODE_EXPIRE_SECONDS": 120,
    "ROTATE_REFRESH_TOKEN": True,
    # Prefixed like personal tokens, so authentication knows which kind it holds at a glance.
    "ACCESS_TOKEN_GENERATOR": "accounts.oauth.new_access_token",
    "REFRESH_TOKEN_GENERATOR": "accounts.oauth.new_refresh_token",
    # Native apps and bots listen on a loopback port of their choosing (RFC 8252 §7.3): http is
    # allowed for that alone, which registration enforces (accounts/oauth.py LOOPBACK_HOSTS);
    # hence oauth2_provider.W008 is silenced in config/settings.py.
    "ALLOW_LOCALHOST_LOOPBACK": True,
    "ALLOWED_REDIRECT_URI_SCHEMES": ["http", "https"],
    # The authorization response names its issuer (RFC 9207), against mix-up attacks.
    "COMPLIANT_BCP_RFC9700_AUTHZ_RESPONSE_ISS": True,
}
