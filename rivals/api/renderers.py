"""The API's JSON renderer: DRF's, with every ``datetime`` in an answer spelled as
``rivals.romanian_time.iso_z`` spells it (UTC, ``Z``, always microseconds: API.md conventions) —
DRF's own encoder keeps the value's offset and drops the fraction of a whole second."""

from __future__ import annotations

import datetime as dt

from rest_framework import renderers
from rest_framework.utils.encoders import JSONEncoder

from rivals.romanian_time import iso_z


class Encoder(JSONEncoder):
    def default(self, obj):
        if isinstance(obj, dt.datetime) and obj.tzinfo is not None:
            return iso_z(obj)
        return super().default(obj)


class JSONRenderer(renderers.JSONRenderer):
    encoder_class = Encoder
