"""The two channel layers the relay publishes on: PostgreSQL's LISTEN/NOTIFY (the embedded
default, rivals/live/layers.py) and Redis (channels-redis, production) — each carrying a live
round between two ASGI processes; and what the PostgreSQL layer promises on its own."""

from __future__ import annotations

import asyncio

import pytest
from django.db import connection

from config.embedded import database_url
from rivals.live.layers import PostgresChannelLayer
from tests.live.server import Client, LiveServer, recv, send, until
from tests.live.test_socket import play_pair, quick_match

pytestmark = pytest.mark.django_db(transaction=True)


def test_the_postgres_layer_carries_groups_and_channels_between_processes():
    async def run():
        here, there = PostgresChannelLayer(), PostgresChannelLayer()  # two processes' layers
        try:
            channel = await there.new_channel("live.hub")
            await there.group_add("live.hubs", channel)
            receiving = asyncio.create_task(there.receive(channel))
            await asyncio.sleep(0.3)
            await here.group_send("live.hubs", {"type": "live.batch", "after": 1, "upto": 2})
            assert await asyncio.wait_for(receiving, 5) == {"type": "live.batch", "after": 1, "upto": 2}
            await here.send(channel, {"type": "direct"})
            assert await asyncio.wait_for(there.receive(channel), 5) == {"type": "direct"}
            with pytest.raises(ValueError):
                await here.group_send("live.hubs", {"type": "big", "data": "x" * 9000})
            await there.group_discard("live.hubs", channel)
            await here.group_send("live.hubs", {"type": "after-discard"})
            with pytest.raises(TimeoutError):
                await asyncio.wait_for(there.receive(channel), 0.5)
        finally:
            await here.close()
            await there.close()

    asyncio.run(run())


@pytest.fixture
def own_redis(tmp_path):
    from tests.perf.stack import OwnRedis

    try:
        server = OwnRedis(tmp_path)
    except FileNotFoundError as exc:
        pytest.skip(str(exc))
    yield "unix://" + server.url.removeprefix("redis+socket://")
    server.stop()


@pytest.mark.timeout(180)
def test_a_round_is_pushed_over_the_redis_layer(tmp_path, own_redis):
    server = LiveServer(
        database_url=database_url(connection.settings_dict), folder=tmp_path, workers=2, RIVALS_LIVE_LAYER_URL=own_redis
    )
    try:
        a, b = Client(server, "redis-a"), Client(server, "redis-b")
        round_id = quick_match(a, b)
        with b.socket() as wb:
            send(wb, op="subscribe", topic=f"round:{round_id}", since=0)
            until(wb, lambda m: m.get("type") == "RoundScheduled")
            for _ in range(2):
                mine = play_pair(a, round_id)["game"]
                seen = until(wb, lambda m: m.get("type") == "PairRemoved")[-1]
                assert seen["data"]["score"] == mine["score"] and seen["data"]["player"]["id"] == a.account_id
        with a.socket() as wa:
            send(wa, op="subscribe", topic="account", since=0)
            assert recv(wa)["op"] == "subscribed"
            assert until(wa, lambda m: m.get("type") == "match_found")[-1]["topic"] == "account"
    finally:
        server.stop()
