from django.urls import path

from notifications import api

urlpatterns = [
    path("", api.WebhookListView.as_view(), name="api-webhooks"),
    path("<int:pk>/", api.WebhookDetailView.as_view(), name="api-webhook"),
    path("<int:pk>/enable/", api.WebhookEnableView.as_view(), name="api-webhook-enable"),
    path("<int:pk>/rotate-secret/", api.WebhookRotateSecretView.as_view(),
         name="api-webhook-rotate-secret"),
    path("<int:pk>/deliveries/", api.WebhookDeliveriesView.as_view(),
         name="api-webhook-deliveries"),
    path("<int:pk>/ping/", api.WebhookPingView.as_view(), name="api-webhook-ping"),
    path("<int:pk>/deliveries/<int:delivery_id>/redeliver/", api.WebhookRedeliverView.as_view(),
         name="api-webhook-redeliver"),
]

#: The same operations on one game's webhooks, under /api/v1/games/<game_id>/webhooks/.
game_urlpatterns = [
    path("", api.GameWebhookListView.as_view(), name="api-game-webhooks"),
    path("<int:pk>/", api.GameWebhookDetailView.as_view(), name="api-game-webhook"),
    path("<int:pk>/enable/", api.GameWebhookEnableView.as_view(),
         name="api-game-webhook-enable"),
    path("<int:pk>/rotate-secret/", api.GameWebhookRotateSecretView.as_view(),
         name="api-game-webhook-rotate-secret"),
    path("<int:pk>/deliveries/", api.GameWebhookDeliveriesView.as_view(),
         name="api-game-webhook-deliveries"),
    path("<int:pk>/ping/", api.GameWebhookPingView.as_view(), name="api-game-webhook-ping"),
    path("<int:pk>/deliveries/<int:delivery_id>/redeliver/",
         api.GameWebhookRedeliverView.as_view(), name="api-game-webhook-redeliver"),
]
