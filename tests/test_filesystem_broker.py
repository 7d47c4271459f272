"""The embedded broker (config/filesystem_broker.py) hands each message over whole: messages
sent by one process while a worker process keeps reading the queue folder all arrive, none half
written, and the two binding the queue at the same moment leave a whole table of bindings.

The sender is a process of its own, as the web process is beside the worker: kombu keeps the
bindings a process has declared in a class-wide table, so a sender thread beside the reader
would skip its own binding and publish into the reader's half-made one."""

from __future__ import annotations

import json
import subprocess
import sys
import threading
import time
from pathlib import Path

from kombu import Connection

from config import filesystem_broker

MESSAGES = 300
BODY_SIZE = 200_000  # long enough to write that a reader polling every 1 ms meets it half written

SENDER = """
import json, sys
from kombu import Connection
from config import filesystem_broker
options, messages, size = json.loads(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3])
with Connection(f"{filesystem_broker.SCHEME}://", transport_options=options) as writer:
    queue = writer.SimpleQueue("work")
    for number in range(messages):
        queue.put({"number": number, "body": "x" * size})
"""


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
    sender = subprocess.run(
        [sys.executable, "-c", SENDER, json.dumps(options), str(MESSAGES), str(BODY_SIZE)],
        cwd=Path(__file__).resolve().parents[1], capture_output=True, text=True, timeout=120)
    reader.join(60)
    assert sender.returncode == 0, sender.stderr
    assert errors == []
    assert sorted(message["number"] for message in received) == list(range(MESSAGES))
    assert all(message["body"] == "x" * BODY_SIZE for message in received)
    assert not list(folders["queue"].glob("*.part"))
    assert json.loads((folders["control"] / "work.exchange").read_text()) == [["work", "", "work"]]


def test_a_table_of_bindings_read_while_it_is_first_written_is_whole_or_absent(tmp_path):
    options = {"data_folder_in": str(tmp_path), "data_folder_out": str(tmp_path),
               "control_folder": str(tmp_path / "control")}
    exchanges = [f"exchange{number}" for number in range(100)]
    seen, errors = [], []

    with Connection(f"{filesystem_broker.SCHEME}://", transport_options=options) as binder, \
            Connection(f"{filesystem_broker.SCHEME}://", transport_options=options) as looker:
        binding, looking = binder.default_channel, looker.default_channel

        def look():
            try:
                for exchange in exchanges:
                    while not (table := looking.get_table(exchange)):
                        time.sleep(0)  # absent so far: let the binder on, then look again
                    seen.append(table)
            except Exception as error:  # a half-written table, reported below
                errors.append(repr(error))

        looker_thread = threading.Thread(target=look)
        looker_thread.start()
        for exchange in exchanges:
            binding._queue_bind(exchange, "key", None, "work")
        looker_thread.join(30)
    assert errors == []
    assert seen == [[("key", "", "work")]] * len(exchanges)
