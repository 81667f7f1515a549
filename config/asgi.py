"""The ASGI application: the live WebSocket (``/api/v1/live``, Django Channels) and the HTTP API.

HTTP runs the WSGI application (``config.wsgi``) in a pool of threads (a2wsgi): each thread keeps
its database connection as gunicorn's threads do (Django's own ASGI handler runs each request's
sync code on a new thread, so ``CONN_MAX_AGE`` would never reuse a connection). Any ASGI server
serves both (``manage.py serve`` runs uvicorn); the lifespan's shutdown stops this process's hub.
"""

import os

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

from a2wsgi import WSGIMiddleware
from channels.routing import ProtocolTypeRouter, URLRouter

from config.wsgi import application as wsgi_application  # (sets Django up)
from rivals.live.routing import websocket_urlpatterns

HTTP_THREADS = int(os.environ.get("RIVALS_HTTP_THREADS", "8"))


async def lifespan(scope, receive, send):
    while True:
        message = await receive()
        if message["type"] == "lifespan.startup":
            await send({"type": "lifespan.startup.complete"})
        elif message["type"] == "lifespan.shutdown":
            from rivals.live.hub import hub_stop

            await hub_stop()
            await send({"type": "lifespan.shutdown.complete"})
            return


application = ProtocolTypeRouter(
    {
        "http": WSGIMiddleware(wsgi_application, workers=HTTP_THREADS),
        "websocket": URLRouter(websocket_urlpatterns),
        "lifespan": lifespan,
    }
)
