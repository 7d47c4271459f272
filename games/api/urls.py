from django.urls import include, path
from rest_framework.routers import SimpleRouter

from accounts.api.views import MeView, ObtainTokenView
from games.api.autoplay import GameAutoplayView, GameQueueView, MyAutoplayView
from games.api.views import EngineListView, GameViewSet, MyGamesView, ReportCreateView

router = SimpleRouter()
router.register("games", GameViewSet, basename="game")

urlpatterns = [
    path("auth/token/", ObtainTokenView.as_view(), name="api-token"),
    path("me/", MeView.as_view(), name="api-me"),
    path("me/games/", MyGamesView.as_view(), name="api-my-games"),
    path("me/autoplay/", MyAutoplayView.as_view(), name="api-my-autoplay"),
    path("games/<int:pk>/queue/", GameQueueView.as_view(), name="api-game-queue"),
    path("games/<int:pk>/autoplay/", GameAutoplayView.as_view(), name="api-game-autoplay"),
    path("engines/", EngineListView.as_view(), name="api-engines"),
    path("reports/", ReportCreateView.as_view(), name="api-reports"),
    path("", include(router.urls)),
]
