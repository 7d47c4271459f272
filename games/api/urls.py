from django.urls import include, path, re_path
from rest_framework.routers import SimpleRouter

from accounts.api.views import MeView, ObtainTokenView
from games.api.streams import game_stream
from games.api.views import EngineListView, GameViewSet, MyGamesView, ReportCreateView

router = SimpleRouter()
router.register("games", GameViewSet, basename="game")

urlpatterns = [
    path("auth/token/", ObtainTokenView.as_view(), name="api-token"),
    path("me/", MeView.as_view(), name="api-me"),
    path("me/games/", MyGamesView.as_view(), name="api-my-games"),
    path("engines/", EngineListView.as_view(), name="api-engines"),
    path("reports/", ReportCreateView.as_view(), name="api-reports"),
    re_path(r"^games/(?P<game_id>[0-9]+)/stream/?$", game_stream, name="api-game-stream"),
    path("", include(router.urls)),
]
