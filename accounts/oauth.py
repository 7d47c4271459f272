"""OAuth 2.0 apps (django-oauth-toolkit; settings in config/oauth.py): a player registers an app
on their settings pages, other players authorize it on the consent page with some of the
personal tokens' scopes, and the app's access tokens then hold exactly those scopes, checked by
the same code as personal tokens (accounts.tokens.has_scope).

Access tokens start with `tpo_` and refresh tokens with `tpr_` (personal tokens with `tp_`), so
the API's authentication tells the kinds apart without a lookup and secret scanners can spot
them. Only their SHA-256 digests are stored (COMPLIANT_BCP_RFC9700_TOKEN_STORAGE)."""

from __future__ import annotations

import hashlib
import secrets
from urllib.parse import urlsplit

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext
from oauth2_provider.models import (
    get_access_token_model,
    get_application_model,
    get_refresh_token_model,
)
from oauth2_provider.scopes import BaseScopes

from accounts.models import TokenScope
from accounts.tokens import TokenError, TokenInvalid

ACCESS_TOKEN_PREFIX = "tpo_"
REFRESH_TOKEN_PREFIX = "tpr_"
MAX_APPS_PER_USER = 20
#: Plain http only back to the player's own machine (RFC 8252 §7.3, RFC 9700 §2.1): anywhere
#: else the code would cross the network readable.
LOOPBACK_HOSTS = {"127.0.0.1", "::1", "localhost"}


class TokenScopes(BaseScopes):
    """The OAuth scopes are the personal tokens' scopes, described as on the tokens page."""

    def get_all_scopes(self):
        return dict(TokenScope.choices)

    def get_available_scopes(self, application=None, request=None, *args, **kwargs):
        return list(TokenScope.values)

    def get_default_scopes(self, application=None, request=None, *args, **kwargs):
        return [TokenScope.READ.value]


def new_access_token(request, *args, **kwargs) -> str:
    return ACCESS_TOKEN_PREFIX + secrets.token_urlsafe(32)


def new_refresh_token(request, *args, **kwargs) -> str:
    return REFRESH_TOKEN_PREFIX + secrets.token_urlsafe(32)


def oauth_authenticate(raw: str):
    """The live OAuth access token `raw` names; raises TokenInvalid (revoked tokens are deleted
    by django-oauth-toolkit, so they read as unknown)."""
    checksum = hashlib.sha256(raw.encode()).hexdigest()
    token = (get_access_token_model().objects.select_related("user", "application")
             .filter(token_checksum=checksum).first())
    if token is None or token.user is None:
        raise TokenInvalid(gettext("Invalid token."))
    if token.is_expired():
        raise TokenInvalid(gettext("This token has expired."))
    if not token.user.is_active:
        raise TokenInvalid(gettext("The account of this token is inactive."))
    return token


def is_oauth_token(auth) -> bool:
    return isinstance(auth, get_access_token_model())


def applications_of(user):
    """The apps the player registered, newest first."""
    return get_application_model().objects.filter(user=user).order_by("-created", "-id")


def application_register(*, user, name: str, redirect_uris: str,
                         confidential: bool) -> tuple[object, str | None]:
    """Registers an app of `user` for the authorization code grant (PKCE always required);
    returns it with its client secret (confidential apps only), which is never shown again."""
    Application = get_application_model()
    if applications_of(user).count() >= MAX_APPS_PER_USER:
        raise TokenError(gettext("You have %(count)s apps; delete some first.")
                         % {"count": MAX_APPS_PER_USER})
    secret = Application.client_secret.field.get_default() if confidential else ""
    app = Application(
        user=user, name=(name or "").strip(), redirect_uris=" ".join(redirect_uris.split()),
        client_type=(Application.CLIENT_CONFIDENTIAL if confidential
                     else Application.CLIENT_PUBLIC),
        authorization_grant_type=Application.GRANT_AUTHORIZATION_CODE, client_secret=secret)
    plain = [uri for uri in app.redirect_uris.split() if urlsplit(uri).scheme.lower() == "http"
             and urlsplit(uri).hostname not in LOOPBACK_HOSTS]
    if plain:
        raise TokenError(gettext("A redirect URI must be https, or http to 127.0.0.1 or [::1] "
                                 "(an app on the player's own machine): %(uri)s")
                         % {"uri": plain[0]})
    try:
        app.full_clean(exclude=["client_secret"])
    except ValidationError as error:
        raise TokenError(" ".join(error.messages)) from None
    if not app.name:
        raise TokenError(gettext("Give the app a name (what its users will see)."))
    app.save()
    return app, secret or None


def application_delete(*, user, application_id: int) -> None:
    """Deletes the player's app and with it every token and grant it was given."""
    deleted, _ = get_application_model().objects.filter(pk=application_id, user=user).delete()
    if not deleted:
        raise TokenError(gettext("There is no such app."))


def authorized_applications_of(user):
    """The apps that hold a live token of the player's, each once."""
    live = get_access_token_model().objects.filter(user=user, expires__gt=timezone.now())
    refreshable = get_refresh_token_model().objects.filter(user=user, revoked__isnull=True)
    ids = {*live.values_list("application_id", flat=True),
           *refreshable.values_list("application_id", flat=True)}
    return get_application_model().objects.filter(pk__in=ids).order_by("name", "id")


def authorization_revoke(*, user, application_id: int) -> None:
    """Takes back everything the player gave an app: its access and refresh tokens."""
    with transaction.atomic():
        get_refresh_token_model().objects.filter(
            user=user, application_id=application_id).delete()
        get_access_token_model().objects.filter(user=user, application_id=application_id).delete()
