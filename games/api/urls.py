from django.urls import include, path
from rest_framework.routers import SimpleRouter

from accounts.api.views import MeView, ObtainTokenView
from games.api.players import InviteLinkJoinView, LeaderboardView, UserProfileView
from games.api.views import EngineListView, GameViewSet, MyGamesView, ReportCreateView

router = SimpleRouter()
router.register("games", GameViewSet, basename="game")

urlpatterns = [
    path("auth/token/", ObtainTokenView.as_view(), name="api-token"),
    path("me/", MeView.as_view(), name="api-me"),
    path("me/games/", MyGamesView.as_view(), name="api-my-games"),
    path("engines/", EngineListView.as_view(), name="api-engines"),
    path("reports/", ReportCreateView.as_view(), name="api-reports"),
    path("users/<str:username>/", UserProfileView.as_view(), name="api-user-profile"),
    path("leaderboard/<slug:engine>/", LeaderboardView.as_view(), name="api-leaderboard"),
    path("invite-links/<str:token>/join/", InviteLinkJoinView.as_view(),
         name="api-invite-link-join"),
    path("", include(router.urls)),
]
