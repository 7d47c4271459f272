from allauth.account.models import EmailAddress
from rest_framework import serializers

from accounts.models import User, validate_display_name


class TokenRequestSerializer(serializers.Serializer):
    """Username or email, and the password."""

    username = serializers.CharField(help_text="Your username or your email address.")
    password = serializers.CharField(style={"input_type": "password"}, trim_whitespace=False)


class TokenSerializer(serializers.Serializer):
    token = serializers.CharField()
    username = serializers.CharField()


class UserSerializer(serializers.ModelSerializer):
    class Meta:
        model = User
        fields = ("id", "username", "display_name", "timezone")

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
    member_since = serializers.DateTimeField(source="date_joined")

    def get_email_confirmed(self, user) -> bool:
        return EmailAddress.objects.filter(user=user, email__iexact=user.email,
                                           verified=True).exists()
