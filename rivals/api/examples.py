"""Documented examples (issue 39: the docs' examples run): helpers the rooms use to declare the
request and response examples of their operations beside their views — ``request_examples`` for a
body (each one a body the server accepts: ``tests/platform/test_examples.py`` replays every one
against a live game and fails on a 400), ``answer_example`` for a realistic answer (one event, not
the union; validated against the operation's schema by the same test).

Values are realistic and survive a browser: strings a client would send (a display name, a device
id, ``player:<id>``), integers below 2^53, times in the API's one spelling.
"""

from __future__ import annotations

from drf_spectacular.utils import OpenApiExample

# an account id a documented body may name (the replay puts a real one in its place)
SOME_ACCOUNT = 42


def request_examples(examples: dict[str, dict]) -> list[OpenApiExample]:
    """``{"a short title": body}`` as the operation's request examples (the first is the one
    Swagger UI's "Try it out" fills in)."""
    return [OpenApiExample(title, value=body, request_only=True) for title, body in examples.items()]


def answer_example(title: str, value, status: int = 200) -> OpenApiExample:
    return OpenApiExample(title, value=value, response_only=True, status_codes=[str(status)])
