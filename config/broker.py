"""The embedded broker: kombu's filesystem transport, with messages that appear whole.

kombu's ``_put`` creates the message file in the queue folder and then writes it; a consumer
polling that folder can take the file in between and read it empty, and its JSON decoding error
stops the worker's consumer (kombu issue #1551, open). Here a message is written beside the queue
under a name no consumer takes (``….msg.part``) and renamed into place: a rename within one
folder is atomic, so a consumer sees the whole message or nothing.

The exchange tables of the control folder had the same flaw: kombu creates ``<exchange>.exchange``
and only then locks and writes it, so a producer reading the table in between gets an empty file
and a JSON error. Here a binding is written beside the table and renamed over it, under an
exclusive lock on a separate lock file (two binders never lose each other's queue).
"""

from __future__ import annotations

import os
import uuid
from time import monotonic

from kombu.exceptions import ChannelError
from kombu.transport import filesystem
from kombu.utils.encoding import str_to_bytes
from kombu.utils.json import dumps, loads


class Channel(filesystem.Channel):
    def _put(self, queue, payload, **kwargs):
        name = f"{int(round(monotonic() * 1000))}_{uuid.uuid4()}.{queue}.msg"
        final = os.path.join(self.data_folder_out, name)
        partial = final + ".part"  # "<time>_<uuid>.<queue>.msg.part": not a message of any queue
        try:
            with open(partial, "wb") as f:
                f.write(str_to_bytes(dumps(payload)))
            os.replace(partial, final)
        except OSError as exc:
            raise ChannelError(f"Cannot add file {final!r} to directory") from exc

    def _queue_bind(self, exchange, routing_key, pattern, queue):
        file = self._exchange_file(exchange)
        self.control_folder.mkdir(exist_ok=True)
        binding = filesystem.exchange_queue_t(routing_key or "", pattern or "", queue or "")
        try:
            with open(f"{file}.lock", "a") as guard:
                filesystem.lock(guard, filesystem.LOCK_EX)
                try:
                    queues = [filesystem.exchange_queue_t(*q) for q in loads(file.read_text())] if file.exists() else []
                    if binding in queues:
                        return
                    queues.insert(0, binding)
                    partial = f"{file}.{uuid.uuid4()}.part"
                    with open(partial, "wb") as f:
                        f.write(str_to_bytes(dumps(queues)))
                    os.replace(partial, file)
                finally:
                    filesystem.unlock(guard)
        except OSError as exc:
            raise ChannelError(f"Cannot open {file}") from exc


class Transport(filesystem.Transport):
    Channel = Channel
