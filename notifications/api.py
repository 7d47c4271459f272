"""Webhooks through the API: a player's own (`/api/v1/me/webhooks/`) and a game's
(`/api/v1/games/{game_id}/webhooks/`, for its creator and moderators).

Every operation needs a token's `manage` scope (or a browser session): a webhook hears about
everything its kinds name for as long as it lives. The signing secret is shown only to whoever
registered the webhook, in the answer that made it (201) or replaced it (rotate-secret); never
in a list, on turning it back on, or to a host or moderator who did not register it."""

# Each: list and register; `…/{id}/` (delete), `…/{id}/enable/` (turn back on),
# `…/{id}/rotate-secret/` (a new secret, shown once), `…/{id}/deliveries/` (the delivery log),
# `…/{id}/ping/` (a test delivery), `…/{id}/deliveries/{delivery_id}/redeliver/` (once more).

from __future__ import annotations

from django.db.models import QuerySet
from django.http import Http404
from django.shortcuts import get_object_or_404
from django.urls import reverse
from django.utils.translation import gettext
from drf_spectacular.utils import extend_schema
from rest_framework import serializers, status
from rest_framework.exceptions import ValidationError
from rest_framework.permissions import IsAuthenticated
from rest_framework.response import Response
from rest_framework.views import APIView

from accounts.api.permissions import TokenScopeRequired
from games.api.fields import StrictFieldsMixin
from games.api.idempotency import IDEMPOTENCY_KEY, idempotent
from games.exceptions import GameError, NotAllowed
from notifications.channels import webhooks
from notifications.models import Webhook, WebhookDelivery, WebhookFormat

WEBHOOK_FIELDS = ["id", "url", "format", "kinds", "active", "consecutive_failures",
                  "disabled_reason", "created_at"]
READ_ONLY_FIELDS = ["id", "active", "consecutive_failures", "disabled_reason", "created_at"]
MANAGE_NEEDED = "Needs a token with the `manage` scope (or a browser session)."
SECRET_HELP = ("Signs every payload (the Turnpost-Signature header). Shown only in this answer, "
               "to whoever registered the webhook: keep it; a new one replaces it at once "
               "(rotate-secret).")


#: The kinds of a player's webhook and of a game's; named in the schema (settings'
#: ENUM_NAME_OVERRIDES) as WebhookKindsEnum and GameWebhookKindsEnum, each set being used by two
#: components (with and without the secret).
WEBHOOK_KIND_CHOICES = [kind.value for kind in webhooks.WEBHOOK_KINDS]
GAME_WEBHOOK_KIND_CHOICES = list(webhooks.GAME_WEBHOOK_KINDS)


class WebhookSerializer(StrictFieldsMixin, serializers.ModelSerializer):
    kinds = serializers.ListField(child=serializers.ChoiceField(
        choices=WEBHOOK_KIND_CHOICES), allow_empty=False)
    format = serializers.ChoiceField(choices=WebhookFormat.values, default=WebhookFormat.JSON)

    class Meta:
        model = Webhook
        fields = WEBHOOK_FIELDS
        read_only_fields = READ_ONLY_FIELDS


class WebhookWithSecretSerializer(WebhookSerializer):
    """A webhook just registered or given a new secret: the one answer that shows the secret."""

    secret = serializers.CharField(read_only=True, help_text=SECRET_HELP)

    class Meta(WebhookSerializer.Meta):
        fields = [*WEBHOOK_FIELDS, "secret"]


class GameWebhookSerializer(WebhookSerializer):
    """A game's webhook: `kinds` are the game's public events."""

    kinds = serializers.ListField(child=serializers.ChoiceField(
        choices=GAME_WEBHOOK_KIND_CHOICES), allow_empty=False)
    game = serializers.IntegerField(source="game_id", read_only=True)
    registered_by = serializers.CharField(source="user.public_name", read_only=True)

    class Meta(WebhookSerializer.Meta):
        fields = [*WEBHOOK_FIELDS, "game", "registered_by"]
        read_only_fields = [*READ_ONLY_FIELDS, "game", "registered_by"]


class GameWebhookWithSecretSerializer(GameWebhookSerializer):
    """A game's webhook just registered or given a new secret, to whoever registered it."""

    secret = serializers.CharField(read_only=True, help_text=SECRET_HELP)

    class Meta(GameWebhookSerializer.Meta):
        fields = [*GameWebhookSerializer.Meta.fields, "secret"]


class WebhookOff(GameError):
    code = "webhook_disabled"
    status = 409


def _require_active(webhook: Webhook) -> None:
    if not webhook.active:
        raise WebhookOff(gettext("This webhook is off: turn it back on first (enable)."))


class DeliverySerializer(serializers.ModelSerializer):
    class Meta:
        model = WebhookDelivery
        fields = ["id", "kind", "status", "attempts", "response_status", "last_error",
                  "created_at", "delivered_at", "next_attempt_at", "body"]


class _WebhookView(APIView):
    """The caller's own webhooks; the game views below override `scope` for a game's."""

    permission_classes = [IsAuthenticated, TokenScopeRequired]
    read_scope = write_scope = "manage"
    serializer_class = WebhookSerializer
    secret_serializer_class = WebhookWithSecretSerializer

    def scope(self, request, **kwargs) -> tuple[QuerySet, object]:
        """The webhooks this request may see and change, and the game they belong to."""
        return request.user.webhooks.filter(game=None), None

    def hook(self, request, pk: int, **kwargs) -> Webhook:
        hooks, _ = self.scope(request, **kwargs)
        return get_object_or_404(hooks, pk=pk)


class _GameScope:
    serializer_class = GameWebhookSerializer
    secret_serializer_class = GameWebhookWithSecretSerializer

    def scope(self, request, game_id: int, **kwargs) -> tuple[QuerySet, object]:
        """A game one may not see is not found; one may see but not host is refused."""
        from games import selectors
        from games.models import Game

        game = Game.objects.filter(pk=game_id).first()
        if game is None or not (selectors.can_view(game, request.user)
                                or webhooks.can_host(request.user, game)):
            raise Http404("There is no such game.")
        if not webhooks.can_host(request.user, game):
            raise NotAllowed(gettext("Only the game's creator and moderators manage its webhooks."))
        return game.webhooks.select_related("user"), game


class WebhookListView(_WebhookView):
    @extend_schema(operation_id="list_webhooks", tags=["webhooks"], summary="My webhooks",
                   description=f"{MANAGE_NEEDED} Without their secrets.",
                   responses={200: WebhookSerializer(many=True)})
    def get(self, request, **kwargs):
        hooks, _ = self.scope(request, **kwargs)
        return Response(self.serializer_class(hooks, many=True).data)

    @extend_schema(operation_id="create_webhook", tags=["webhooks"],
                   summary="Register a webhook", request=WebhookSerializer,
                   description=f"{MANAGE_NEEDED} The answer shows the signing secret, this once.",
                   responses={201: WebhookWithSecretSerializer}, parameters=[IDEMPOTENCY_KEY])
    @idempotent(secret_fields=("secret",))
    def post(self, request, **kwargs):
        _, game = self.scope(request, **kwargs)
        data = self.serializer_class(data=request.data)
        data.is_valid(raise_exception=True)
        try:
            webhook = webhooks.webhook_create(user=request.user, game=game,
                                              **data.validated_data)
        except webhooks.WebhookRefused as refused:
            raise ValidationError({"url": [str(refused)]}) from None
        return Response(self.secret_serializer_class(webhook).data,
                        status=status.HTTP_201_CREATED,
                        headers={"Location": self.address(request, webhook)})

    def address(self, request, webhook: Webhook) -> str:
        return request.build_absolute_uri(reverse("api-webhook", kwargs={"pk": webhook.pk}))


class WebhookDetailView(_WebhookView):
    @extend_schema(operation_id="get_webhook", tags=["webhooks"], summary="One of my webhooks",
                   description=f"{MANAGE_NEEDED} Without its secret.",
                   responses={200: WebhookSerializer})
    def get(self, request, pk: int, **kwargs):
        return Response(self.serializer_class(self.hook(request, pk, **kwargs)).data)

    @extend_schema(operation_id="delete_webhook", tags=["webhooks"],
                   summary="Delete a webhook", description=MANAGE_NEEDED, responses={204: None})
    def delete(self, request, pk: int, **kwargs):
        self.hook(request, pk, **kwargs).delete()
        return Response(status=status.HTTP_204_NO_CONTENT)


class WebhookEnableView(_WebhookView):
    @extend_schema(operation_id="enable_webhook", tags=["webhooks"],
                   summary="Turn a disabled webhook back on", request=None,
                   description=MANAGE_NEEDED, responses={200: WebhookSerializer})
    def post(self, request, pk: int, **kwargs):
        webhook = self.hook(request, pk, **kwargs)
        webhooks.webhook_enable(webhook=webhook)
        return Response(self.serializer_class(webhook).data)


class WebhookRotateSecretView(_WebhookView):
    """A new signing secret, in force at once (deliveries are signed when sent, retries too);
    only whoever registered the webhook may ask, and sees it this once."""

    @extend_schema(operation_id="rotate_webhook_secret", tags=["webhooks"],
                   summary="Give a webhook a new signing secret (shown once)", request=None,
                   description=f"{MANAGE_NEEDED} The old secret signs nothing from now on.",
                   responses={200: WebhookWithSecretSerializer})
    def post(self, request, pk: int, **kwargs):
        webhook = self.hook(request, pk, **kwargs)
        if webhook.user_id != request.user.pk:
            raise NotAllowed(gettext("Only whoever registered this webhook may replace its "
                                     "secret."))
        webhooks.webhook_rotate_secret(webhook=webhook)
        return Response(self.secret_serializer_class(webhook).data)


class WebhookDeliveriesView(_WebhookView):
    """The last 100 deliveries to this webhook, newest first: its owner's delivery log."""

    serializer_class = DeliverySerializer

    @extend_schema(operation_id="list_webhook_deliveries", tags=["webhooks"],
                   summary="A webhook's delivery log", description=MANAGE_NEEDED,
                   responses={200: DeliverySerializer(many=True)})
    def get(self, request, pk: int, **kwargs):
        webhook = self.hook(request, pk, **kwargs)
        return Response(DeliverySerializer(webhook.deliveries.all()[:100], many=True).data)


class WebhookPingView(_WebhookView):
    schema_more_errors = (409,)  # a webhook that is off

    @extend_schema(operation_id="ping_webhook", tags=["webhooks"],
                   summary="Send a webhook a ping", request=None,
                   description=f"{MANAGE_NEEDED} Queues a `ping` delivery (`Turnpost-Event: "
                               "ping`, signed like every delivery): its result shows in the "
                               "delivery log. 409 `webhook_disabled` for a webhook that is off.",
                   responses={202: DeliverySerializer})
    def post(self, request, pk: int, **kwargs):
        webhook = self.hook(request, pk, **kwargs)
        _require_active(webhook)
        return Response(DeliverySerializer(webhooks.webhook_ping(webhook=webhook)).data,
                        status=status.HTTP_202_ACCEPTED)


class WebhookRedeliverView(_WebhookView):
    schema_more_errors = (409,)

    @extend_schema(operation_id="redeliver_webhook_delivery", tags=["webhooks"],
                   summary="Send one of a webhook's deliveries again", request=None,
                   description=f"{MANAGE_NEEDED} Queues the delivery's very body once more, "
                               "as a new delivery with its own id (`Turnpost-Delivery`) and "
                               "attempts. 409 `webhook_disabled` for a webhook that is off.",
                   responses={202: DeliverySerializer})
    @idempotent()
    def post(self, request, pk: int, delivery_id: int, **kwargs):
        webhook = self.hook(request, pk, **kwargs)
        delivery = get_object_or_404(webhook.deliveries, pk=delivery_id)
        _require_active(webhook)
        return Response(DeliverySerializer(webhooks.delivery_redeliver(delivery=delivery)).data,
                        status=status.HTTP_202_ACCEPTED)


# ---- a game's webhooks: the same operations on the game's webhooks -----------------------------


class GameWebhookListView(_GameScope, WebhookListView):
    @extend_schema(operation_id="list_game_webhooks", tags=["webhooks"],
                   summary="A game's webhooks (its creator and moderators)",
                   description=f"{MANAGE_NEEDED} Without their secrets.",
                   responses={200: GameWebhookSerializer(many=True)})
    def get(self, request, **kwargs):
        return super().get(request, **kwargs)

    @extend_schema(operation_id="create_game_webhook", tags=["webhooks"],
                   summary="Register a webhook for a game's public events",
                   description=f"{MANAGE_NEEDED} The answer shows the signing secret, this once.",
                   request=GameWebhookSerializer,
                   responses={201: GameWebhookWithSecretSerializer}, parameters=[IDEMPOTENCY_KEY])
    def post(self, request, **kwargs):
        return super().post(request, **kwargs)

    def address(self, request, webhook: Webhook) -> str:
        return request.build_absolute_uri(reverse(
            "api-game-webhook", kwargs={"game_id": webhook.game_id, "pk": webhook.pk}))


class GameWebhookDetailView(_GameScope, WebhookDetailView):
    @extend_schema(operation_id="get_game_webhook", tags=["webhooks"],
                   summary="One of a game's webhooks", description=f"{MANAGE_NEEDED} Without "
                   "its secret.", responses={200: GameWebhookSerializer})
    def get(self, request, pk: int, **kwargs):
        return super().get(request, pk, **kwargs)

    @extend_schema(operation_id="delete_game_webhook", tags=["webhooks"],
                   summary="Delete a game's webhook", description=MANAGE_NEEDED,
                   responses={204: None})
    def delete(self, request, pk: int, **kwargs):
        return super().delete(request, pk, **kwargs)


class GameWebhookEnableView(_GameScope, WebhookEnableView):
    @extend_schema(operation_id="enable_game_webhook", tags=["webhooks"],
                   summary="Turn a game's disabled webhook back on", request=None,
                   description=MANAGE_NEEDED, responses={200: GameWebhookSerializer})
    def post(self, request, pk: int, **kwargs):
        return super().post(request, pk, **kwargs)


class GameWebhookRotateSecretView(_GameScope, WebhookRotateSecretView):
    @extend_schema(operation_id="rotate_game_webhook_secret", tags=["webhooks"],
                   summary="Give a game's webhook a new signing secret (shown once)",
                   request=None,
                   description=f"{MANAGE_NEEDED} Only whoever registered the webhook; the old "
                               "secret signs nothing from now on.",
                   responses={200: GameWebhookWithSecretSerializer})
    def post(self, request, pk: int, **kwargs):
        return super().post(request, pk, **kwargs)


class GameWebhookDeliveriesView(_GameScope, WebhookDeliveriesView):
    serializer_class = DeliverySerializer

    @extend_schema(operation_id="list_game_webhook_deliveries", tags=["webhooks"],
                   summary="A game's webhook's delivery log", description=MANAGE_NEEDED,
                   responses={200: DeliverySerializer(many=True)})
    def get(self, request, pk: int, **kwargs):
        return super().get(request, pk, **kwargs)


class GameWebhookPingView(_GameScope, WebhookPingView):
    @extend_schema(operation_id="ping_game_webhook", tags=["webhooks"],
                   summary="Send a game's webhook a ping", request=None,
                   description=f"{MANAGE_NEEDED} As for your own webhooks.",
                   responses={202: DeliverySerializer})
    def post(self, request, pk: int, **kwargs):
        return super().post(request, pk, **kwargs)


class GameWebhookRedeliverView(_GameScope, WebhookRedeliverView):
    @extend_schema(operation_id="redeliver_game_webhook_delivery", tags=["webhooks"],
                   summary="Send one of a game's webhook's deliveries again", request=None,
                   description=f"{MANAGE_NEEDED} As for your own webhooks.",
                   responses={202: DeliverySerializer})
    def post(self, request, pk: int, delivery_id: int, **kwargs):
        return super().post(request, pk, delivery_id, **kwargs)
