"""Personal access tokens, as Lichess has them: a player makes a named token with scopes
(`read`, `play`, `chat`, `manage`) and an optional expiry, sees it once, and can revoke it at any
time. `manage` (making, listing and revoking tokens, webhooks, account settings) is the scope a
leaked token must not have: without it the token cannot outlive its own revocation.

Only the token's SHA-256 digest is stored (a token is 32 random bytes: a fast digest is as good
as a slow one against guessing, and lets every request find its token by an index). Every
creation and revocation is audited (TokenEvent). An unknown, revoked or expired token is an
authentication failure, never an anonymous request.
"""

from __future__ import annotations

import hashlib
import secrets
from datetime import datetime, timedelta

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext
from oauth2_provider.models import get_access_token_model

from accounts.models import PersonalAccessToken, TokenEvent, TokenScope
from config import prepared_sql

#: Every token starts with this, so secret scanners and people can recognise one.
TOKEN_PREFIX = "tp_"
ALL_SCOPES = tuple(TokenScope.values)
MAX_TOKEN_DAYS = 366
MAX_TOKENS_PER_USER = 100
#: last_used_at is written at most this often per token, not on every request.
LAST_USED_PRECISION = timedelta(minutes=1)


class TokenError(Exception):
    """A token that cannot be made or revoked as asked; the message says why."""


class TokenInvalid(Exception):
    """The presented token opens nothing: unknown, revoked or expired (the message says which)."""


def digest_of(raw: str) -> str:
    return hashlib.sha256(raw.encode()).hexdigest()


def clean_scopes(scopes) -> list[str]:
    if not isinstance(scopes, (list, tuple)) or not scopes:
        raise TokenError(gettext("Choose at least one scope: %(value)s.")
                             % {"value": ', '.join(ALL_SCOPES)})
    unknown = [scope for scope in scopes if scope not in ALL_SCOPES]
    if unknown:
        raise TokenError(gettext("Unknown scope %(value)s; the scopes are %(value_2)s.")
                             % {"value": f"{unknown[0]!r}", "value_2": ', '.join(ALL_SCOPES)})
    return [scope for scope in ALL_SCOPES if scope in scopes]


def token_create(*, user, name: str, scopes, expires_at: datetime | None = None,
                 via: str, ip_address: str | None = None,
                 now: datetime | None = None) -> tuple[PersonalAccessToken, str]:
    """Makes a token; returns it with the plain token, which is never available again."""
    now = now or timezone.now()
    name = (name or "").strip()
    if not 1 <= len(name) <= 60:
        raise TokenError(gettext("Give the token a name of 1 to 60 characters (what it is for)."))
    scopes = clean_scopes(scopes)
    if expires_at is not None:
        if expires_at <= now:
            raise TokenError(gettext("The expiry must be in the future."))
        if expires_at > now + timedelta(days=MAX_TOKEN_DAYS):
            raise TokenError(gettext("A token can last at most %(max_token_days)s days.")
                                 % {"max_token_days": MAX_TOKEN_DAYS})
    raw = TOKEN_PREFIX + secrets.token_urlsafe(32)
    with transaction.atomic():
        live = PersonalAccessToken.objects.filter(user=user, revoked_at__isnull=True)
        if live.count() >= MAX_TOKENS_PER_USER:
            raise TokenError(gettext("You have %(max_tokens_per_user)s tokens; revoke some first.")
                                 % {"max_tokens_per_user": MAX_TOKENS_PER_USER})
        token = PersonalAccessToken.objects.create(
            user=user, name=name, digest=digest_of(raw), prefix=raw[:8], scopes=scopes,
            expires_at=expires_at)
        TokenEvent.objects.create(token=token, kind=TokenEvent.Kind.CREATED, via=via,
                                  ip_address=ip_address)
    return token, raw


def token_revoke(*, user, token_id: int, via: str, ip_address: str | None = None,
                 now: datetime | None = None) -> PersonalAccessToken:
    now = now or timezone.now()
    with transaction.atomic():
        token = (PersonalAccessToken.objects.select_for_update()
                 .filter(pk=token_id, user=user).first())
        if token is None:
            raise TokenError(gettext("There is no such token."))
        if token.revoked_at is None:
            token.revoked_at = now
            token.save(update_fields=["revoked_at"])
            TokenEvent.objects.create(token=token, kind=TokenEvent.Kind.REVOKED, via=via,
                                      ip_address=ip_address)
    return token


def tokens_of(user):
    """The player's tokens, newest first, revoked ones included (they show as revoked)."""
    return PersonalAccessToken.objects.filter(user=user).order_by("-created_at", "-id")


def token_authenticate(raw: str, now: datetime | None = None) -> PersonalAccessToken:
    """The live token `raw` names, its last use noted; raises TokenInvalid."""
    now = now or timezone.now()
    # A statement made once (config.prepared_sql.TOKEN): the ORM's build of it cost 15-18 % of
    # the CPU of the cheapest token request (GET /api/v1/engines/).
    token = prepared_sql.TOKEN.first([digest_of(raw)])
    if token is None:
        raise TokenInvalid(gettext("Invalid token."))
    if token.revoked_at is not None:
        raise TokenInvalid(gettext("This token was revoked."))
    if token.expires_at is not None and token.expires_at <= now:
        raise TokenInvalid(gettext("This token has expired."))
    if not token.user.is_active:
        raise TokenInvalid(gettext("The account of this token is inactive."))
    if token.last_used_at is None or now - token.last_used_at >= LAST_USED_PRECISION:
        PersonalAccessToken.objects.filter(pk=token.pk).update(last_used_at=now)
        token.last_used_at = now
    return token


def granted_scopes(auth) -> tuple[str, ...]:
    """The scopes a request's credentials hold: a personal token's or an OAuth app's token's own
    scopes; a browser session and a legacy password-login token every scope."""
    if isinstance(auth, PersonalAccessToken):
        return tuple(scope for scope in ALL_SCOPES if scope in auth.scopes)
    if isinstance(auth, get_access_token_model()):
        return tuple(scope for scope in ALL_SCOPES if scope in auth.scope.split())
    return ALL_SCOPES


def expiry_of(auth) -> datetime | None:
    """When a request's token stops working (None: a session, or a token until revoked)."""
    if isinstance(auth, PersonalAccessToken):
        return auth.expires_at
    if isinstance(auth, get_access_token_model()):
        return auth.expires
    return None


def has_scope(auth, scope: str) -> bool:
    return scope in granted_scopes(auth)
