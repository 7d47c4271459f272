"""The embedded broker (config/filesystem_broker.py) hands each message over whole: messages
sent while a consumer keeps reading the queue folder all arrive, none half written."""

from __future__ import annotations

import threading

from kombu import Connection

from config import filesystem_broker

MESSAGES = 300


def test_messages_sent_while_a_consumer_reads_all_arrive_whole(tmp_path):
    folders = {name: tmp_path / name for name in ("queue", "processed", "control")}
    for folder in folders.values():
        folder.mkdir()
    options = {"data_folder_in": str(folders["queue"]), "data_folder_out": str(folders["queue"]),
               "processed_folder": str(folders["processed"]),
               "control_folder": str(folders["control"]), "store_processed": False,
               "polling_interval": 0.001}
    received, errors = [], []

    def consume():
        with Connection(f"{filesystem_broker.SCHEME}://", transport_options=options) as reader:
            queue = reader.SimpleQueue("work")
            try:
                while len(received) < MESSAGES:
                    message = queue.get(timeout=20)
                    received.append(message.payload)
                    message.ack()
            except Exception as error:  # a lost or broken message, reported below
                errors.append(repr(error))

    reader = threading.Thread(target=consume)
    reader.start()
    # A large body takes long enough to write for a reader to meet it half written.
    body = "x" * 200_000
    with Connection(f"{filesystem_broker.SCHEME}://", transport_options=options) as writer:
        queue = writer.SimpleQueue("work")
        for number in range(MESSAGES):
            queue.put({"number": number, "body": body})
    reader.join(60)
    assert errors == []
    assert sorted(message["number"] for message in received) == list(range(MESSAGES))
    assert all(message["body"] == body for message in received)
    assert not list(folders["queue"].glob("*.part"))
