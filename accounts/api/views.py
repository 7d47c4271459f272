"""POST /api/v1/auth/token/: exchange username-or-email + password for an API token.

Two limits hold: API_THROTTLE_TOKEN requests a minute per client address (the address comes
from REMOTE_ADDR, or from X-Forwarded-For only as far as NUM_PROXIES trusted proxies wrote it),
and allauth's failed-login allowance per account, shared with the web login form."""

from django.conf import settings
from drf_spectacular.utils import extend_schema
from rest_framework import permissions, serializers, status
from rest_framework.authtoken.models import Token
from rest_framework.response import Response
from rest_framework.views import APIView

from accounts.api.serializers import MeSerializer, TokenRequestSerializer, TokenSerializer
from accounts.services import LoginLocked, password_login
from games.api.errors import error_body
from games.api.throttling import FailOpenScopedRateThrottle


class ObtainTokenView(APIView):
    permission_classes = [permissions.AllowAny]
    authentication_classes: list = []
    throttle_classes = [FailOpenScopedRateThrottle]
    throttle_scope = "token"

    @extend_schema(request=TokenRequestSerializer, responses={200: TokenSerializer})
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
                           "Too many failed login attempts: this login is locked for a while, "
                           "even with the right password. Try again later.",
                           {"retry_after_seconds": wait}),
                status=status.HTTP_429_TOO_MANY_REQUESTS, headers={"Retry-After": str(wait)},
            )
        if user is None:
            raise serializers.ValidationError(
                "Unable to log in with those credentials.", code="authorization")
        token, _ = Token.objects.get_or_create(user=user)
        return Response({"token": token.key, "username": user.username}, status=status.HTTP_200_OK)


class MeView(APIView):
    """Who the token (or session) belongs to: the caller's own account."""

    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(responses={200: MeSerializer})
    def get(self, request):
        return Response(MeSerializer(request.user).data)
