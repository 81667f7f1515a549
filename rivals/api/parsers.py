"""The one place where request bodies become data: JSON that the service can process and store.

DRF's stock parser lets through what PostgreSQL or Python then fail on — U+0000 and lone
surrogates (``"\\ud800"``) in strings or keys, numbers that parse to infinity (``1e400``), and
nesting deep enough to exhaust the recursion limit — each a 500 further down. Here each is a
400 ``invalid``; the refusal carries a storable copy of what was sent (``sanitised``), so that an
intent endpoint can still keep its fair-play record (R-38).
"""

from __future__ import annotations

import codecs
import json
from typing import Any

from rest_framework import parsers
from rest_framework.exceptions import ParseError

from rivals.text import json_problem, storable_json, storable_text

RAW_KEPT = 1000  # characters of an unparsable body kept in a refusal record


class RefusedJSON(ParseError):
    """A body that is not JSON the service accepts; ``sanitised`` is a storable copy of it."""

    def __init__(self, detail: str, sanitised: Any):
        super().__init__(detail)
        self.sanitised = sanitised


def _number(text: str) -> float | int:
    """A JSON number with a fraction or an exponent: an integer when its value is one (``5.0``,
    ``1e2``), as JSON Schema counts it — a schema's ``integer`` is what the server accepts."""
    value = float(text)
    return int(value) if value.is_integer() and abs(value) < 2**63 else value


def parse_json(text: str) -> Any:
    """Parse a client's JSON text or raise ``RefusedJSON`` (see module docstring)."""
    try:
        # lenient on NaN/Infinity: json_problem refuses them, with a copy
        data = json.loads(text, parse_float=_number)
    except (ValueError, RecursionError) as exc:
        reason = "JSON nested too deeply" if isinstance(exc, RecursionError) else f"JSON parse error - {exc}"
        raise RefusedJSON(reason, {"unparsed": storable_text(text, RAW_KEPT)}) from None
    problem = json_problem(data)
    if problem:
        raise RefusedJSON(problem, storable_json(data))
    return data


class JSONParser(parsers.JSONParser):
    def parse(self, stream, media_type=None, parser_context=None):
        encoding = parsers.get_encoding(parser_context or {})
        try:
            text = codecs.getreader(encoding)(stream).read()
        except (ValueError, UnicodeError) as exc:
            raise RefusedJSON(f"the body is not {encoding} text - {exc}", None) from None
        return parse_json(text)
