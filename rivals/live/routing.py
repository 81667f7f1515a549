from django.urls import path

from rivals.live.consumers import LiveConsumer

websocket_urlpatterns = [path("api/v1/live", LiveConsumer.as_asgi())]
