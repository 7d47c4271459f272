"""Tokens and the caller's account.

POST /api/v1/auth/token/ exchanges username-or-email + password for a personal access token
with every scope, `manage` included: it is as strong as the password (a confirmed email address
is needed when ACCOUNT_EMAIL_VERIFICATION is "mandatory", as for the web login). Two limits
hold: API_THROTTLE_TOKEN requests a minute per client address (REMOTE_ADDR, or X-Forwarded-For
only as far as NUM_PROXIES trusted proxies wrote it), and allauth's failed-login allowance per
account, shared with the web login form.

/api/v1/tokens/ lists and makes personal access tokens; DELETE /api/v1/tokens/{id}/ revokes
one. These need the `manage` scope (or a browser session), except a token revoking itself, which
only lowers what its holder can do. A token can only make tokens with scopes it has itself,
lasting no longer than itself. Changing the account's settings (PATCH /api/v1/me/) needs `manage`
too; reading it needs `read`."""

from datetime import timedelta

from allauth.account.models import EmailAddress
from django.conf import settings
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext
from drf_spectacular.utils import extend_schema
from rest_framework import permissions, status
from rest_framework.exceptions import NotFound
from rest_framework.response import Response
from rest_framework.views import APIView

from accounts.api.permissions import InsufficientScope, TokenScopeRequired, require_scope
from accounts.api.serializers import (
    AccessTokenCreatedSerializer,
    AccessTokenCreateSerializer,
    AccessTokenSerializer,
    MeSerializer,
    MeUpdateSerializer,
    TokenInfoSerializer,
    TokenRequestSerializer,
    TokenSerializer,
)
from accounts.models import PersonalAccessToken
from accounts.oauth import is_oauth_token
from accounts.services import LoginLocked, password_login
from accounts.tokens import (
    ALL_SCOPES,
    TokenError,
    expiry_of,
    granted_scopes,
    token_create,
    token_revoke,
    tokens_of,
)
from config.throttling import ScopedRateThrottle
from games.api.errors import error_body
from games.api.idempotency import IDEMPOTENCY_KEY, idempotent, idempotent_answer
from games.exceptions import GameError, NotAllowed


class TokenRefused(GameError):
    code = "invalid_token_request"
    status = 400


def _client_ip(request) -> str | None:
    return request.META.get("REMOTE_ADDR") or None


def _email_confirmed(user) -> bool:
    return EmailAddress.objects.filter(user=user, email__iexact=user.email,
                                       verified=True).exists()


class ObtainTokenView(APIView):
    permission_classes = [permissions.AllowAny]
    authentication_classes: list = []
    throttle_classes = [ScopedRateThrottle]
    throttle_scope = "token"
    #: 401: a wrong username or password; 403: an unconfirmed email address.
    schema_more_errors = (401, 403)

    @extend_schema(
        operation_id="login_with_password", tags=["tokens"],
        summary="Get a token for a username (or email) and password",
        description="Makes a personal access token with every scope, named after this login. "
                    "Needs a confirmed email address where the site asks for one; failed logins "
                    "are limited per account and per address (429 with Retry-After). A wrong "
                    "username or password is a 401 (`authentication_failed`). With an "
                    "Idempotency-Key, a retry makes no second token (its answer leaves the "
                    "token out: keep the first).",
        request=TokenRequestSerializer, responses={200: TokenSerializer},
        parameters=[IDEMPOTENCY_KEY])
    def post(self, request):
        serializer = TokenRequestSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        try:
            user = password_login(request._request, login=serializer.validated_data["username"],
                                  password=serializer.validated_data["password"])
        except LoginLocked:
            wait = settings.LOGIN_FAILURE_WINDOW_SECONDS
            return Response(
                error_body("too_many_login_attempts",
                           gettext("Too many failed login attempts: this login is locked for a "
                                   "while, even with the right password. Try again later."),
                           {"retry_after_seconds": wait}),
                status=status.HTTP_429_TOO_MANY_REQUESTS, headers={"Retry-After": str(wait)},
            )
        if user is None:
            # Wrong credentials are a 401 (RFC 9110), as for a bad token; 400 stays for a body
            # that is not a login at all.
            return Response(
                error_body("authentication_failed",
                           gettext("Unable to log in with those credentials.")),
                status=status.HTTP_401_UNAUTHORIZED,
                headers={"WWW-Authenticate": 'Bearer realm="api"'})
        if settings.ACCOUNT_EMAIL_VERIFICATION == "mandatory" and not _email_confirmed(user):
            raise NotAllowed(gettext(
                "Confirm your email address first: follow the link in the email "
                             "we sent when you signed up."), details={"email_confirmed": False})

        def respond() -> Response:
            _, raw = token_create(user=user,
                                  name=f"Password login {timezone.now():%Y-%m-%d %H:%M}",
                                  scopes=ALL_SCOPES, via="password login",
                                  ip_address=_client_ip(request))
            return Response({"token": raw, "username": user.username}, status=status.HTTP_200_OK)

        # The key is the account's once the password is checked: a retry makes no second token.
        return idempotent_answer(request, user=user, respond=respond, secret_fields=("token",),
                                 unfingerprinted=("password",))


MANAGE_NEEDED = "Needs a token with the `manage` scope (or a browser session)."


class AccessTokenListView(APIView):
    permission_classes = [permissions.IsAuthenticated, TokenScopeRequired]
    # Tokens made here can outlive the caller's revocation: only `manage` may make or list them
    # (and a token only makes tokens within its own scopes, checked below).
    read_scope = write_scope = "manage"

    @extend_schema(operation_id="list_tokens", tags=["tokens"],
                   summary="List my personal access tokens", description=MANAGE_NEEDED,
                   responses={200: AccessTokenSerializer(many=True)})
    def get(self, request):
        return Response(AccessTokenSerializer(tokens_of(request.user), many=True).data)

    @extend_schema(operation_id="create_token", tags=["tokens"],
                   summary="Make a personal access token (shown once)",
                   description=f"{MANAGE_NEEDED} A token makes tokens only with scopes it has "
                               "and lasting no longer than itself.",
                   request=AccessTokenCreateSerializer,
                   responses={201: AccessTokenCreatedSerializer},
                   parameters=[IDEMPOTENCY_KEY])
    @idempotent(secret_fields=("token",))  # only the token's digest is ever stored
    def post(self, request):
        serializer = AccessTokenCreateSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        data = serializer.validated_data
        days = data.get("expires_in_days")
        expires_at = timezone.now() + timedelta(days=days) if days else None
        held = granted_scopes(request.auth)
        missing = [scope for scope in data["scopes"] if scope not in held]
        if missing:
            raise InsufficientScope(
                gettext("This token cannot make a token with the '%(value)s' scope it lacks.")
                    % {"value": missing[0]},
                details={"required_scope": missing[0]})
        caller_expires_at = expiry_of(request.auth)
        if caller_expires_at and (expires_at is None or expires_at > caller_expires_at):
            expires_at = caller_expires_at
        try:
            token, raw = token_create(user=request.user, name=data["name"], scopes=data["scopes"],
                                      expires_at=expires_at, via="api",
                                      ip_address=_client_ip(request))
        except TokenError as error:
            raise TokenRefused(str(error)) from None
        body = {**AccessTokenSerializer(token).data, "token": raw}
        location = request.build_absolute_uri(reverse("api-token-detail",
                                                      kwargs={"token_id": token.pk}))
        return Response(body, status=status.HTTP_201_CREATED, headers={"Location": location})


class AccessTokenDetailView(APIView):
    permission_classes = [permissions.IsAuthenticated, TokenScopeRequired]
    write_scope = None  # `manage`, unless a token revokes itself (checked below)

    @extend_schema(operation_id="revoke_token", tags=["tokens"],
                   summary="Revoke one of my personal access tokens",
                   description=f"{MANAGE_NEEDED} Any token may revoke itself.",
                   request=None, responses={204: None})
    def delete(self, request, token_id: int):
        if not _is_the_calling_token(request.auth, token_id):
            require_scope(request.auth, "manage")
        try:
            token_revoke(user=request.user, token_id=token_id, via="api",
                         ip_address=_client_ip(request))
        except TokenError as error:
            raise NotFound(str(error)) from None
        return Response(status=status.HTTP_204_NO_CONTENT)


def _is_the_calling_token(auth, token_id: int) -> bool:
    """Revoking the token one calls with only lowers what its holder can do: no `manage` needed."""
    return isinstance(auth, PersonalAccessToken) and auth.pk == token_id


class TokenInfoView(APIView):
    """The token check: any token may ask about itself, whatever its scopes."""

    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(operation_id="get_token_info", tags=["tokens"],
                   summary="Check my token: its user, scopes and expiry",
                   description="Answers for the credentials the request carries (a personal "
                               "token, an OAuth app's token, or a session); no scope needed. "
                               "An unknown, revoked or expired token is a 401.",
                   responses={200: TokenInfoSerializer})
    def get(self, request):
        auth = request.auth
        application = auth.application if is_oauth_token(auth) else None
        return Response(TokenInfoSerializer({
            "kind": _credentials_kind(auth), "user_id": request.user.pk,
            "username": request.user.username, "scopes": list(granted_scopes(auth)),
            "expires_at": expiry_of(auth),
            "application": application.name if application else None,
            "client_id": application.client_id if application else None}).data)


def _credentials_kind(auth) -> str:
    if isinstance(auth, PersonalAccessToken):
        return "personal"
    if is_oauth_token(auth):
        return "oauth"
    return "session" if auth is None else "password_login"


class MeView(APIView):
    """Who the token (or session) belongs to: the caller's own account. Reading it needs `read`,
    changing its settings `manage`."""

    permission_classes = [permissions.IsAuthenticated, TokenScopeRequired]
    write_scope = "manage"

    @extend_schema(operation_id="get_me", tags=["account"], summary="My account",
                   responses={200: MeSerializer})
    def get(self, request):
        return Response(MeSerializer(request.user).data)

    @extend_schema(operation_id="update_me", tags=["account"], summary="Change my settings",
                   description="The time zone and the language (`en`, `fa`, `zh-hans`, `it`, or "
                               "empty for the browser's) of pages, emails and game texts. "
                               + MANAGE_NEEDED,
                   request=MeUpdateSerializer, responses={200: MeSerializer})
    def patch(self, request):
        serializer = MeUpdateSerializer(request.user, data=request.data, partial=True)
        serializer.is_valid(raise_exception=True)
        serializer.save()
        return Response(MeSerializer(request.user).data)
