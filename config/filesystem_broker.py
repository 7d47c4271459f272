"""The embedded Celery broker of `make run` (no REDIS_URL): kombu's filesystem transport, with
each message written under a name the consumers skip and then renamed into the queue. Kombu
writes a message in place, so a worker looking into the queue folder every 50 ms now and then
took a file still being written, could not decode it and lost the task. A rename within one
folder is atomic: a consumer sees a whole message or none."""

import os
import uuid
from time import monotonic

from kombu.exceptions import ChannelError
from kombu.transport import TRANSPORT_ALIASES, filesystem
from kombu.utils.encoding import str_to_bytes
from kombu.utils.json import dumps

#: The broker URL scheme of this transport (`atomicfs://`).
SCHEME = "atomicfs"


class Channel(filesystem.Channel):
    def _put(self, queue, payload, **kwargs):
        name = f"{round(monotonic() * 1000)}_{uuid.uuid4()}.{queue}.msg"
        final = os.path.join(self.data_folder_out, name)
        # "<name>.part" is not "<queue>.msg" after its first dot: consumers pass it by.
        partial = final + ".part"
        try:
            with open(partial, "wb") as out:
                out.write(str_to_bytes(dumps(payload)))
            os.replace(partial, final)
        except OSError as error:
            raise ChannelError(f"Cannot add file {final!r} to directory") from error


class Transport(filesystem.Transport):
    Channel = Channel


TRANSPORT_ALIASES[SCHEME] = f"{__name__}:Transport"
