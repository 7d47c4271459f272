from django.urls import path

from notifications import dev_views

urlpatterns = [
    path("outbox/", dev_views.outbox, name="dev-outbox"),
    path("outbox/<str:name>", dev_views.outbox_message, name="dev-outbox-message"),
]
