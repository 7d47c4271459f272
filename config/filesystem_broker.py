"""The embedded Celery broker of `make run` (no REDIS_URL): kombu's filesystem transport, with
every file another process may read at the same moment written under a name the readers skip and
then renamed into place. A rename within one folder is atomic: a reader sees a whole file or none.

Kombu writes both kinds of file in place:
- a message: a worker looking into the queue folder every 50 ms now and then took a file still
  being written, could not decode it and lost the task;
- an exchange's table of bindings: the first process to bind creates the file empty and fills it
  after, so a worker and the web process starting together now and then read an empty table
  (a JSONDecodeError at start-up, or a message routed nowhere).
"""

import os
import uuid
from time import monotonic

from kombu.exceptions import ChannelError
from kombu.transport import TRANSPORT_ALIASES, filesystem
from kombu.transport.virtual import Channel as VirtualChannel
from kombu.utils.encoding import str_to_bytes
from kombu.utils.json import dumps

#: The broker URL scheme of this transport (`atomicfs://`).
SCHEME = "atomicfs"


def _write_whole(final, data):
    # "<name>.part" does not end in ".msg" or ".exchange": readers pass it by.
    partial = f"{final}.{uuid.uuid4().hex}.part"
    try:
        with open(partial, "wb") as out:
            out.write(data)
        os.replace(partial, final)
    except OSError as error:
        raise ChannelError(f"Cannot write {final!r}") from error


class Channel(filesystem.Channel):
    def _put(self, queue, payload, **kwargs):
        name = f"{round(monotonic() * 1000)}_{uuid.uuid4()}.{queue}.msg"
        _write_whole(os.path.join(self.data_folder_out, name), str_to_bytes(dumps(payload)))

    def _change_table(self, exchange, change):
        """Rewrite `exchange`'s bindings as `change(bindings)`, one writer at a time: writers
        take a lock file of their own, so readers of the table never wait and never see it
        half written."""
        table = self._exchange_file(exchange)
        self.control_folder.mkdir(exist_ok=True)
        try:
            # "a" creates the lock file without truncating what another writer holds.
            with open(f"{table}.lock", "a") as guard:
                filesystem.lock(guard, filesystem.LOCK_EX)
                try:
                    bindings = self.get_table(exchange)
                    changed = change(list(bindings))
                    if changed != bindings:
                        _write_whole(table, str_to_bytes(dumps(changed)))
                finally:
                    filesystem.unlock(guard)
        except OSError as error:
            raise ChannelError(f"Cannot change {table}") from error

    def _queue_bind(self, exchange, routing_key, pattern, queue):
        binding = filesystem.exchange_queue_t(routing_key or "", pattern or "", queue or "")
        self._change_table(
            exchange, lambda bindings: bindings if binding in bindings else [binding, *bindings])

    def _delete(self, queue, exchange, routing_key, pattern, *args, **kwargs):
        # The virtual channel's own bookkeeping, then the table without kombu's in-place rewrite.
        VirtualChannel._delete(self, queue, exchange, routing_key, pattern, *args, **kwargs)
        binding = filesystem.exchange_queue_t(routing_key or "", pattern or "", queue or "")
        self._change_table(
            exchange, lambda bindings: [kept for kept in bindings if kept != binding])


class Transport(filesystem.Transport):
    Channel = Channel


TRANSPORT_ALIASES[SCHEME] = f"{__name__}:Transport"
