from django.urls import path

from notifications import views

app_name = "notifications"
urlpatterns = [
    path("", views.notification_list, name="list"),
    path("settings/", views.preferences, name="preferences"),
    path("unsubscribe/<str:token>/", views.unsubscribe, name="unsubscribe"),
]
