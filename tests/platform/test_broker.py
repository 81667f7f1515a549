"""The embedded broker (config/broker.py): a consumer polling the queue folder while producers
write gets every message whole, none left half-written."""

from __future__ import annotations

import threading

from kombu import Connection, Exchange, Queue


def test_messages_written_while_a_consumer_polls_arrive_whole(tmp_path):
    folder = tmp_path / "broker"
    for sub in ("in", "processed"):
        (folder / sub).mkdir(parents=True)
    options = {"data_folder_in": str(folder / "in"), "data_folder_out": str(folder / "in"),
               "processed_folder": str(folder / "processed"), "store_processed": False}
    queue = Queue("q", Exchange("q"), routing_key="q")
    n, big = 300, "x" * 200_000  # large bodies: writing one takes long enough to be caught half-way
    received, errors = [], []

    def consume():
        try:
            with Connection(transport="config.broker:Transport", transport_options=options) as conn:
                simple = conn.SimpleQueue(queue)
                while len(received) < n:
                    message = simple.get(timeout=10)
                    received.append(message.payload["i"])
                    message.ack()
        except Exception as exc:  # noqa: BLE001 - reported below
            errors.append(exc)

    consumer = threading.Thread(target=consume)
    consumer.start()
    with Connection(transport="config.broker:Transport", transport_options=options) as conn:
        producer = conn.Producer()
        for i in range(n):
            producer.publish({"i": i, "body": big}, exchange=queue.exchange, routing_key="q", declare=[queue])
    consumer.join(60)
    assert not errors, errors
    assert sorted(received) == list(range(n))
    assert not list((folder / "in").glob("*.part"))



def test_a_message_gets_its_queue_name_only_once_it_is_whole(tmp_path, monkeypatch):
    """Written as ``….msg.part`` (no queue's message: a consumer passes it by), then renamed."""
    import json
    import os
    from queue import Empty

    import pytest

    from config import broker

    folder = tmp_path / "broker"
    for sub in ("in", "processed"):
        (folder / sub).mkdir(parents=True)
    options = {"data_folder_in": str(folder / "in"), "data_folder_out": str(folder / "in"),
               "processed_folder": str(folder / "processed"), "store_processed": False}
    renames = []
    real_replace = os.replace

    with Connection(transport="config.broker:Transport", transport_options=options) as conn:
        channel = conn.default_channel

        def replace(src, dst):  # the moment before the message gets its name
            with open(src, "rb") as f:
                renames.append((src, dst, json.loads(f.read()), os.path.exists(dst)))
            with pytest.raises(Empty):  # a consumer now finds nothing to take
                channel._get("q")
            real_replace(src, dst)

        monkeypatch.setattr(broker.os, "replace", replace)
        channel._put("q", {"body": "whole"})
        assert channel._get("q") == {"body": "whole"}
    ((src, dst, payload, existed),) = renames
    assert src == dst + ".part" and dst.endswith(".q.msg") and not existed
    assert payload == {"body": "whole"}
