from django.urls import path

from games import autoplay_views, views

app_name = "games"
urlpatterns = [
    path("", views.lobby, name="lobby"),
    path("games/new/", views.game_create, name="create"),
    path("games/<int:game_id>/", views.game_detail, name="detail"),
    path("games/<int:game_id>/version/", views.game_version, name="version"),
    path("games/<int:game_id>/join/", views.game_join, name="join"),
    path("games/<int:game_id>/leave/", views.game_leave, name="leave"),
    path("games/<int:game_id>/start/", views.game_start, name="start"),
    path("games/<int:game_id>/add-bot/", views.game_add_bot, name="add_bot"),
    path("games/<int:game_id>/act/", views.game_act, name="act"),
    path("games/<int:game_id>/take-back/", views.game_take_back, name="take_back"),
    path("games/<int:game_id>/invite/", views.game_invite, name="invite"),
    path("games/<int:game_id>/chat/", views.game_chat_post, name="chat"),
    path("games/<int:game_id>/queue/", autoplay_views.game_queue, name="queue"),
    path("games/<int:game_id>/autoplay/", autoplay_views.game_autoplay, name="autoplay"),
    path("automatic-moves/", autoplay_views.profile_autoplay, name="profile_autoplay"),
    path("reports/", views.report_create, name="report"),
]
