"""The statements a block of code sends to the server, for the tests that count round trips."""

from __future__ import annotations

import contextlib
from collections.abc import Iterator

import pytest


@contextlib.contextmanager
def statements_sent() -> Iterator[list[str]]:
    """The statements the body sends through psycopg — the prepared ones too — each one's text
    with its whitespace collapsed and its quotes left out (``UPDATE "matches_match"`` and
    ``UPDATE matches_match`` read alike), the test's own savepoints left out (a request's BEGIN
    and COMMIT)."""
    import psycopg

    sent: list[str] = []
    execute = psycopg.Cursor.execute

    def counted(self, query, *args, **kwargs):
        text = " ".join(str(query).replace('"', "").split())
        if "SAVEPOINT" not in text:
            sent.append(text)
        return execute(self, query, *args, **kwargs)

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(psycopg.Cursor, "execute", counted)
        yield sent
