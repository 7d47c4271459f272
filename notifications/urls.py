from django.urls import path

from notifications import live_views, views

app_name = "notifications"
urlpatterns = [
    path("", views.notification_list, name="list"),
    path("settings/", views.preferences, name="preferences"),
    path("unsubscribe/<str:token>/", views.unsubscribe, name="unsubscribe"),
    path("live/", live_views.live_settings, name="live"),
    path("webhooks/", live_views.webhook_add, name="webhook-add"),
    path("webhooks/<int:webhook_id>/", live_views.webhook_change, name="webhook-change"),
    path("push/subscribe/", live_views.push_subscribe, name="push-subscribe"),
    path("push/unsubscribe/", live_views.push_unsubscribe, name="push-unsubscribe"),
    path("calendar/", live_views.calendar_create_or_revoke, name="calendar"),
    path("calendar/<str:token>.ics", live_views.calendar_feed, name="calendar-feed"),
]
