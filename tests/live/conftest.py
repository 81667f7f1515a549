import pytest
from django.db import connection

from config.embedded import database_url
from tests.live.server import LiveServer


@pytest.fixture(scope="module")
def live_folder(tmp_path_factory):
    return tmp_path_factory.mktemp("live")


@pytest.fixture(scope="module")
def live(django_db_setup, django_db_blocker, live_folder):
    """uvicorn on config.asgi (2 workers: sockets and the relay may sit in different processes,
    so the ranges cross the PostgreSQL channel layer), for the tests of one module."""
    with django_db_blocker.unblock():
        url = database_url(connection.settings_dict)
    server = LiveServer(database_url=url, folder=live_folder, workers=2)
    yield server
    server.stop()
