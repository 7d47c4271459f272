from django.urls import path

from accounts import views

app_name = "accounts"
urlpatterns = [
    path("", views.profile, name="profile"),
    path("vacations/", views.vacations, name="vacations"),
    path("vacations/<int:vacation_id>/end/", views.vacation_cancel, name="vacation_end"),
]
