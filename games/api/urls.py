from django.urls import include, path, re_path
from rest_framework.routers import SimpleRouter

from accounts.api.views import (
    AccessTokenDetailView,
    AccessTokenListView,
    MeView,
    ObtainTokenView,
    TokenInfoView,
)
from games.api.autoplay import GameAutoplayView, GameQueueView, MyAutoplayView
from games.api.players import (
    InviteLinkJoinView,
    LeaderboardView,
    UserGamesExportView,
    UserProfileView,
)
from games.api.streams import game_stream
from games.api.views import (
    EngineDetailView,
    EngineListView,
    GameViewSet,
    MyGamesView,
    ReportCreateView,
    ReportDetailView,
)

router = SimpleRouter()
router.register("games", GameViewSet, basename="game")

urlpatterns = [
    path("auth/token/", ObtainTokenView.as_view(), name="api-token"),
    path("tokens/", AccessTokenListView.as_view(), name="api-tokens"),
    path("tokens/<int:token_id>/", AccessTokenDetailView.as_view(), name="api-token-detail"),
    path("token/", TokenInfoView.as_view(), name="api-token-info"),
    path("me/", MeView.as_view(), name="api-me"),
    path("me/games/", MyGamesView.as_view(), name="api-my-games"),
    path("me/autoplay/", MyAutoplayView.as_view(), name="api-my-autoplay"),
    path("games/<int:pk>/queue/", GameQueueView.as_view(), name="api-game-queue"),
    path("games/<int:pk>/autoplay/", GameAutoplayView.as_view(), name="api-game-autoplay"),
    path("engines/", EngineListView.as_view(), name="api-engines"),
    path("engines/<slug:slug>/", EngineDetailView.as_view(), name="api-engine"),
    path("reports/", ReportCreateView.as_view(), name="api-reports"),
    path("reports/<int:report_id>/", ReportDetailView.as_view(), name="api-report"),
    path("users/<str:username>/", UserProfileView.as_view(), name="api-user-profile"),
    path("users/<str:username>/games/export/", UserGamesExportView.as_view(),
         name="api-user-games-export"),
    path("leaderboard/<slug:engine>/", LeaderboardView.as_view(), name="api-leaderboard"),
    path("invite-links/<str:token>/join/", InviteLinkJoinView.as_view(),
         name="api-invite-link-join"),
    re_path(r"^games/(?P<game_id>[0-9]+)/stream/?$", game_stream, name="api-game-stream"),
    path("", include(router.urls)),
]
