"""The embedded broker: kombu's filesystem transport, with messages that appear whole.

kombu's ``_put`` creates the message file in the queue folder and then writes it; a consumer
polling that folder can take the file in between and read it empty, and its JSON decoding error
stops the worker's consumer (kombu issue #1551, open). Here a message is written beside the queue
under a name no consumer takes (``….msg.part``) and renamed into place: a rename within one
folder is atomic, so a consumer sees the whole message or nothing.
"""

from __future__ import annotations

import os
import uuid
from time import monotonic

from kombu.exceptions import ChannelError
from kombu.transport import filesystem
from kombu.utils.encoding import str_to_bytes
from kombu.utils.json import dumps


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


class Transport(filesystem.Transport):
    Channel = Channel
