"""Text that clients send: one validation for names and ids, one way to make anything storable.

- ``clean_text`` validates a name-like field (display names, device ids, later club names):
  Unicode NFC, a length counted after normalisation, and none of the characters that make text
  lie about itself — control characters, byte order marks, bidi embeddings/overrides/isolates,
  line/paragraph separators, lone surrogates, noncharacters.
- ``json_problem`` says why a parsed JSON document cannot be stored (PostgreSQL refuses NUL in
  text and JSONB, lone surrogates cannot be encoded, JSONB has no infinity) or is nested too deep.
- ``storable_text`` / ``storable_json`` turn whatever a client sent into something PostgreSQL
  stores — for records of what was refused (the fair-play record, idempotency paths); the
  offending characters become U+FFFD, non-finite numbers their text, deep nesting is cut.
"""

from __future__ import annotations

import math
import re
import unicodedata
from functools import partial
from typing import Any

from rivals.errors import Invalid

MAX_JSON_DEPTH = 32  # no request of the API nests deeper than 4; 32 leaves room for any client

# C0/C1 controls and DEL; BOM / zero-width no-break space; bidi marks, embeddings, overrides and
# isolates; line/paragraph separators; interlinear annotations; lone surrogates; noncharacters.
_UNSAFE = re.compile(
    "[\x00-\x1f\x7f-\x9f\ufeff\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069\u2028\u2029"
    "\ufff9-\ufffb\ud800-\udfff\ufdd0-\ufdef\ufffe\uffff]"
)
# what PostgreSQL cannot store in text/JSONB, or psycopg cannot encode
_UNSTORABLE = re.compile("[\x00\ud800-\udfff]")
REPLACEMENT = "\ufffd"


def unsafe_character(value: str) -> str | None:
    """The first character that no name or id may contain, as ``U+XXXX``, or None."""
    match = _UNSAFE.search(value)
    return f"U+{ord(match.group()):04X}" if match else None


def clean_text(value: Any, *, field: str, max_length: int, min_length: int = 1, collapse_spaces: bool = True) -> str:
    """Validate and normalise a client-chosen name or id (400 ``invalid`` with ``details[field]``).

    NFC first (so "é" typed two ways is one name), then whitespace runs collapse to one space and
    the ends are trimmed (``collapse_spaces``), then the checks; lengths count code points.
    """
    if not isinstance(value, str):
        raise Invalid(f"{field} must be a string", details={field: ["not a string"]})
    bad = unsafe_character(value)
    if bad:
        raise Invalid(
            f"{field} contains a character that is not allowed ({bad})",
            details={field: [f"character {bad} is not allowed (control, BOM or bidi override)"]},
        )
    text = unicodedata.normalize("NFC", value)
    text = " ".join(text.split()) if collapse_spaces else text.strip()
    if not min_length <= len(text) <= max_length:
        raise Invalid(
            f"{field} must be {min_length}–{max_length} characters",
            details={field: [f"length must be {min_length}–{max_length} characters"]},
        )
    return text


def storable_text(value: Any, max_length: int | None = None) -> str:
    text = _UNSTORABLE.sub(REPLACEMENT, value if isinstance(value, str) else str(value))
    return text[:max_length] if max_length is not None else text


def json_problem(value: Any) -> str | None:
    """Why this parsed JSON cannot be stored or processed, or None (iterative: no recursion)."""
    stack = [(value, 1)]
    while stack:
        item, depth = stack.pop()
        if depth > MAX_JSON_DEPTH:
            return f"JSON nested deeper than {MAX_JSON_DEPTH} levels"
        if isinstance(item, str):
            if _UNSTORABLE.search(item):
                return "JSON text contains U+0000 or a lone surrogate"
        elif isinstance(item, float):
            if not math.isfinite(item):
                return "JSON number out of range (not finite)"
        elif isinstance(item, dict):
            for key, sub in item.items():
                if _UNSTORABLE.search(key):
                    return "JSON key contains U+0000 or a lone surrogate"
                stack.append((sub, depth + 1))
        elif isinstance(item, list):
            stack.extend((sub, depth + 1) for sub in item)
    return None


def storable_json(value: Any, *, max_depth: int = MAX_JSON_DEPTH) -> Any:
    """A copy of ``value`` that JSONB accepts (see module docstring). Iterative: no recursion."""

    def convert(item: Any, depth: int, put) -> None:
        if isinstance(item, str):
            put(storable_text(item))
        elif isinstance(item, float) and not math.isfinite(item):
            put(repr(item))
        elif isinstance(item, (dict, list)):
            if depth >= max_depth:
                put("…")
                return
            container: Any = {} if isinstance(item, dict) else []
            put(container)
            work.append((item, container, depth + 1))
        else:
            put(item)

    root: list[Any] = []
    work: list[tuple[Any, Any, int]] = []
    convert(value, 0, root.append)
    while work:
        source, target, depth = work.pop()
        if isinstance(source, dict):
            for key, sub in source.items():
                convert(sub, depth, partial(target.__setitem__, storable_text(key)))
        else:
            for sub in source:
                convert(sub, depth, target.append)
    return root[0]


# The same rules as regular expressions, for the OpenAPI schema to state them (``rivals.api.schema``):
# text without a control, BOM or bidi-override character (``unsafe_character``) …
SAFE_TEXT = (
    "^[^\\u0000-\\u001f\\u007f-\\u009f\\ufeff\\u061c\\u200e\\u200f\\u202a-\\u202e\\u2066-\\u2069\\u2028\\u2029"
    "\\ufff9-\\ufffb\\ufdd0-\\ufdef\\ufffe\\uffff]*$"
)
# … and text without a NUL (what the JSON parser refuses anywhere in a body). Lone surrogates, which
# both refuse too, are left out of the patterns: they are not Unicode text, so no JSON Schema string
# holds one (and a character class over them is read differently by different validators).
NO_NUL = "^[^\\u0000]*$"


def mailbox(address: str) -> str:
    """The mailbox an address delivers to, as the budgets count it. Decision (issue 31): case
    does not matter, and a sub-address (RFC 5233: ``name+tag@example.org``) is its mailbox
    ``name@example.org`` — the tags of one mailbox are not budgets of their own. Only ``+``:
    other separators (``-``) and dots are ordinary characters at most providers."""
    local, at, domain = address.strip().lower().rpartition("@")
    if not at:
        return domain
    base = local.split("+", 1)[0]
    return f"{base or local}@{domain}"
