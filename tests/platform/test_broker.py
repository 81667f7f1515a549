"""The embedded broker (config/broker.py): a consumer polling the queue folder while producers
write gets every message whole, none left half-written."""

from __future__ import annotations

import threading

from kombu import Connection, Exchange, Queue


def _options(folder):
    """Every folder of the transport under ``folder`` — its control folder (exchange bindings)
    included, which kombu otherwise creates as ``./control`` in the working directory."""
    for sub in ("in", "processed", "control"):
        (folder / sub).mkdir(parents=True, exist_ok=True)
    return {
        "data_folder_in": str(folder / "in"),
        "data_folder_out": str(folder / "in"),
        "processed_folder": str(folder / "processed"),
        "control_folder": str(folder / "control"),
        "store_processed": False,
    }


def test_messages_written_while_a_consumer_polls_arrive_whole(tmp_path):
    folder = tmp_path / "broker"
    options = _options(folder)
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
        except Exception as exc:  # reported below
            errors.append(exc)

    with Connection(transport="config.broker:Transport", transport_options=options) as conn:
        queue(conn.default_channel).declare()  # bound before anything is published: nothing is dropped
        consumer = threading.Thread(target=consume)
        consumer.start()
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
    options = _options(folder)
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


def test_an_exchange_table_is_replaced_whole(tmp_path, monkeypatch):
    """A binding is written beside the exchange's table and renamed over it: a producer reading
    the table sees the old one or the new one, never a file created but not yet written (which
    kombu's own ``_queue_bind`` leaves open to a reader, and which stops the reader with a JSON
    error)."""
    import os

    from config import broker

    options = _options(tmp_path / "broker")
    real_replace = os.replace
    seen = []
    with Connection(transport="config.broker:Transport", transport_options=options) as conn:
        channel = conn.default_channel

        def replace(src, dst):  # the moment before the new table takes the name
            seen.append([tuple(q) for q in channel.get_table("x")])
            real_replace(src, dst)

        monkeypatch.setattr(broker.os, "replace", replace)
        channel._queue_bind("x", "a", None, "a")
        channel._queue_bind("x", "b", None, "b")
        channel._queue_bind("x", "b", None, "b")  # bound already: nothing is written
        table = [tuple(q) for q in channel.get_table("x")]
    assert seen == [[], [("a", "", "a")]]
    assert table == [("b", "", "b"), ("a", "", "a")]
