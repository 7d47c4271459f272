from django.contrib.auth import authenticate
from rest_framework import serializers

from accounts.models import User


class TokenRequestSerializer(serializers.Serializer):
    """Username or email, and the password."""

    username = serializers.CharField(help_text="Your username or your email address.")
    password = serializers.CharField(style={"input_type": "password"}, trim_whitespace=False)

    def validate(self, attrs):
        login = attrs["username"].strip()
        username = login
        if "@" in login:
            user = User.objects.filter(email__iexact=login).first()
            username = user.username if user else login
        user = authenticate(
            request=self.context.get("request"), username=username, password=attrs["password"]
        )
        if user is None or not user.is_active:
            raise serializers.ValidationError(
                "Unable to log in with those credentials.", code="authorization"
            )
        attrs["user"] = user
        return attrs


class TokenSerializer(serializers.Serializer):
    token = serializers.CharField()
    username = serializers.CharField()


class UserSerializer(serializers.ModelSerializer):
    class Meta:
        model = User
        fields = ("id", "username", "display_name", "timezone")
