from django.urls import path

from notifications import api

urlpatterns = [
    path("", api.WebhookListView.as_view(), name="api-webhooks"),
    path("<int:pk>/", api.WebhookDetailView.as_view(), name="api-webhook"),
    path("<int:pk>/enable/", api.WebhookEnableView.as_view(), name="api-webhook-enable"),
    path("<int:pk>/deliveries/", api.WebhookDeliveriesView.as_view(),
         name="api-webhook-deliveries"),
]
