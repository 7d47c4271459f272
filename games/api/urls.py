from django.urls import include, path
from rest_framework.routers import SimpleRouter

from accounts.api.views import ObtainTokenView
from games.api.views import EngineListView, GameViewSet, ReportCreateView

router = SimpleRouter()
router.register("games", GameViewSet, basename="game")

urlpatterns = [
    path("auth/token/", ObtainTokenView.as_view(), name="api-token"),
    path("engines/", EngineListView.as_view(), name="api-engines"),
    path("reports/", ReportCreateView.as_view(), name="api-reports"),
    path("", include(router.urls)),
]
