from django.urls import path

from games.web import autoplay as autoplay_views
from games.web import player_cards, views
from games.web import players as player_views

app_name = "games"
urlpatterns = [
    path("", views.lobby, name="lobby"),
    path("games/new/", views.game_create, name="create"),
    path("games/<int:game_id>/", views.game_detail, name="detail"),
    path("games/<int:game_id>/version/", views.game_version, name="version"),
    path("games/<int:game_id>/live/", views.game_live, name="live"),
    path("games/<int:game_id>/join/", views.game_join, name="join"),
    path("games/<int:game_id>/leave/", views.game_leave, name="leave"),
    path("games/<int:game_id>/start/", views.game_start, name="start"),
    path("games/<int:game_id>/add-bot/", views.game_add_bot, name="add_bot"),
    path("games/<int:game_id>/act/", views.game_act, name="act"),
    path("games/<int:game_id>/undo/", views.game_undo, name="undo"),
    path("games/<int:game_id>/preview/", views.game_preview, name="preview"),
    path("games/<int:game_id>/take-back/", views.game_take_back, name="take_back"),
    path("games/<int:game_id>/invite/", views.game_invite, name="invite"),
    path("games/<int:game_id>/chat/", views.game_chat_post, name="chat"),
    path("games/<int:game_id>/cards/", player_cards.player_cards, name="player_cards"),
    path("games/<int:game_id>/queue/", autoplay_views.game_queue, name="queue"),
    path("games/<int:game_id>/autoplay/", autoplay_views.game_autoplay, name="autoplay"),
    path("automatic-moves/", autoplay_views.profile_autoplay, name="profile_autoplay"),
    path("reports/", views.report_create, name="report"),
    path("games/finished/", player_views.finished_games, name="finished"),
    path("games/<int:game_id>/decline/", player_views.invitation_decline,
         name="invitation_decline"),
    path("games/<int:game_id>/rematch/", player_views.game_rematch, name="rematch"),
    path("invite/<str:token>/", player_views.invite_link, name="invite_link"),
    path("users/<str:username>/", player_views.user_profile, name="user_profile"),
    path("leaderboard/", player_views.leaderboards, name="leaderboards"),
    path("leaderboard/<slug:engine>/", player_views.leaderboard, name="leaderboard"),
]
