from django.urls import path

from accounts import app_views, token_views, views

app_name = "accounts"
urlpatterns = [
    path("", views.profile, name="profile"),
    path("vacations/", views.vacations, name="vacations"),
    path("vacations/<int:vacation_id>/end/", views.vacation_cancel, name="vacation_end"),
    path("tokens/", token_views.tokens, name="tokens"),
    path("tokens/<int:token_id>/revoke/", token_views.token_revoke, name="token_revoke"),
    path("apps/", app_views.apps, name="apps"),
    path("apps/<int:app_id>/delete/", app_views.app_delete, name="app_delete"),
    path("apps/<int:app_id>/disallow/", app_views.app_disallow, name="app_disallow"),
]
