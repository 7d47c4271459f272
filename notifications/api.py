"""The player's webhooks through the API: `/api/v1/me/webhooks/` (list, register), `…/{id}/`
(delete), `…/{id}/enable/` (turn back on), `…/{id}/deliveries/` (the delivery log)."""

from __future__ import annotations

from django.shortcuts import get_object_or_404
from drf_spectacular.utils import extend_schema
from rest_framework import serializers, status
from rest_framework.exceptions import ValidationError
from rest_framework.permissions import IsAuthenticated
from rest_framework.response import Response
from rest_framework.views import APIView

from accounts.api.permissions import TokenScopeRequired
from notifications import webhooks
from notifications.models import Webhook, WebhookDelivery, WebhookFormat


class WebhookSerializer(serializers.ModelSerializer):
    kinds = serializers.ListField(child=serializers.ChoiceField(
        choices=[kind.value for kind in webhooks.WEBHOOK_KINDS]), allow_empty=False)
    format = serializers.ChoiceField(choices=WebhookFormat.values, default=WebhookFormat.JSON)

    class Meta:
        model = Webhook
        fields = ["id", "url", "format", "kinds", "secret", "active", "consecutive_failures",
                  "disabled_reason", "created_at"]
        read_only_fields = ["id", "secret", "active", "consecutive_failures", "disabled_reason",
                            "created_at"]


class DeliverySerializer(serializers.ModelSerializer):
    class Meta:
        model = WebhookDelivery
        fields = ["id", "kind", "status", "attempts", "response_status", "last_error",
                  "created_at", "delivered_at", "next_attempt_at", "body"]


class WebhookListView(APIView):
    permission_classes = [IsAuthenticated, TokenScopeRequired]
    serializer_class = WebhookSerializer

    @extend_schema(operation_id="list_webhooks", tags=["webhooks"], summary="My webhooks",
                   responses={200: WebhookSerializer(many=True)})
    def get(self, request):
        return Response(WebhookSerializer(request.user.webhooks.all(), many=True).data)

    @extend_schema(operation_id="create_webhook", tags=["webhooks"],
                   summary="Register a webhook", request=WebhookSerializer,
                   responses={201: WebhookSerializer})
    def post(self, request):
        data = WebhookSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        try:
            webhook = webhooks.webhook_create(user=request.user, **data.validated_data)
        except webhooks.WebhookRefused as refused:
            raise ValidationError({"url": [str(refused)]}) from None
        return Response(WebhookSerializer(webhook).data, status=status.HTTP_201_CREATED)


class WebhookDetailView(APIView):
    permission_classes = [IsAuthenticated, TokenScopeRequired]
    serializer_class = WebhookSerializer

    @extend_schema(operation_id="delete_webhook", tags=["webhooks"],
                   summary="Delete a webhook", responses={204: None})
    def delete(self, request, pk: int):
        get_object_or_404(Webhook, pk=pk, user=request.user).delete()
        return Response(status=status.HTTP_204_NO_CONTENT)


class WebhookEnableView(APIView):
    permission_classes = [IsAuthenticated, TokenScopeRequired]
    serializer_class = WebhookSerializer

    @extend_schema(operation_id="enable_webhook", tags=["webhooks"],
                   summary="Turn a disabled webhook back on", request=None,
                   responses={200: WebhookSerializer})
    def post(self, request, pk: int):
        webhook = get_object_or_404(Webhook, pk=pk, user=request.user)
        webhooks.webhook_enable(webhook=webhook)
        return Response(WebhookSerializer(webhook).data)


class WebhookDeliveriesView(APIView):
    """The last 100 deliveries to this webhook, newest first: its owner's delivery log."""

    permission_classes = [IsAuthenticated, TokenScopeRequired]
    serializer_class = DeliverySerializer

    @extend_schema(operation_id="list_webhook_deliveries", tags=["webhooks"],
                   summary="A webhook's delivery log",
                   responses={200: DeliverySerializer(many=True)})
    def get(self, request, pk: int):
        webhook = get_object_or_404(Webhook, pk=pk, user=request.user)
        return Response(DeliverySerializer(webhook.deliveries.all()[:100], many=True).data)
