from allauth.account.models import EmailAddress
from django.conf import settings
from rest_framework import serializers

from accounts.models import PersonalAccessToken, TokenScope, User, validate_display_name
from accounts.tokens import MAX_TOKEN_DAYS
from games.api.fields import StrictCharField, StrictFieldsMixin, StrictIntegerField


class TokenRequestSerializer(serializers.Serializer):
    """Username or email, and the password."""

    username = StrictCharField(help_text="Your username or your email address.")
    password = StrictCharField(style={"input_type": "password"}, trim_whitespace=False)


class TokenSerializer(serializers.Serializer):
    token = serializers.CharField(
        required=False, help_text="Send it as `Authorization: Bearer <token>`. Shown once: not "
                                  "in the replay of a retried Idempotency-Key.")
    username = serializers.CharField()


class TokenInfoSerializer(serializers.Serializer):
    """What the caller's credentials are: whose, which scopes, until when."""

    kind = serializers.ChoiceField(
        choices=[("personal", "personal"), ("oauth", "oauth"), ("password_login", "password_login"),
                 ("session", "session")],
        help_text="`personal`: a personal access token; `oauth`: an app's OAuth access token; "
                  "`password_login`: a token of the password login of earlier versions (every "
                  "scope); `session`: a browser session (every scope).")
    user_id = StrictIntegerField()
    username = serializers.CharField()
    scopes = serializers.ListField(child=serializers.ChoiceField(choices=TokenScope.choices))
    expires_at = serializers.DateTimeField(
        allow_null=True, help_text="When the token stops working; null: until revoked.")
    application = serializers.CharField(
        allow_null=True, help_text="The OAuth app the token was given to (its name); null for "
                                   "other kinds.")
    client_id = serializers.CharField(allow_null=True,
                                      help_text="The OAuth app's client id; null for other kinds.")


class AccessTokenSerializer(serializers.ModelSerializer):
    """One of the caller's personal access tokens (never the token itself)."""

    scopes = serializers.ListField(child=serializers.ChoiceField(choices=TokenScope.choices))
    revoked = serializers.SerializerMethodField()

    class Meta:
        model = PersonalAccessToken
        fields = ("id", "name", "prefix", "scopes", "created_at", "last_used_at", "expires_at",
                  "revoked", "revoked_at")

    def get_revoked(self, token) -> bool:
        return token.revoked_at is not None


class AccessTokenCreatedSerializer(AccessTokenSerializer):
    token = serializers.CharField(help_text="The token: shown this once, never again.")

    class Meta(AccessTokenSerializer.Meta):
        fields = (*AccessTokenSerializer.Meta.fields, "token")


class AccessTokenCreateSerializer(serializers.Serializer):
    name = StrictCharField(max_length=60, help_text="What the token is for.")
    scopes = serializers.ListField(
        child=serializers.ChoiceField(choices=TokenScope.choices), min_length=1,
        help_text="`read` (games, logs, account), `play` (moves, lobby), `chat` (chat, reports), "
                  "`manage` (tokens, webhooks, account settings: what a leaked token must not "
                  "do; only a token that has it may give it).")
    expires_in_days = StrictIntegerField(
        required=False, min_value=1, max_value=MAX_TOKEN_DAYS,
        help_text="Days until the token expires; without it the token lasts until revoked.")


class UserSerializer(serializers.ModelSerializer):
    class Meta:
        model = User
        fields = ("id", "username", "display_name", "timezone", "language")

    def validate_display_name(self, value: str) -> str:
        from django.core.exceptions import ValidationError as DjangoValidationError

        try:
            validate_display_name(value, user=self.instance)
        except DjangoValidationError as error:
            raise serializers.ValidationError(error.messages) from error
        return value


class MeSerializer(serializers.Serializer):
    """The caller's own account, as GET /api/v1/me/ shows it (to them alone)."""

    username = serializers.CharField()
    display_name = serializers.CharField(source="public_name")
    email = serializers.EmailField()
    email_confirmed = serializers.SerializerMethodField()
    timezone = serializers.CharField()
    language = serializers.ChoiceField(choices=[("", ""), *settings.LANGUAGES],
                                       allow_blank=True, required=False,
                                       help_text="Pages, emails and game texts in this language; "
                                                 "empty: the browser's Accept-Language.")
    member_since = serializers.DateTimeField(source="date_joined")

    def get_email_confirmed(self, user) -> bool:
        return EmailAddress.objects.filter(user=user, email__iexact=user.email,
                                           verified=True).exists()


class MeUpdateSerializer(StrictFieldsMixin, serializers.ModelSerializer):
    """The settings a player may change through PATCH /api/v1/me/."""

    class Meta:
        model = User
        fields = ("timezone", "language")
