"""Token authentication with one precompiled query (the hot path of every game intent).

Same header and semantics as DRF's ``TokenAuthentication`` (``Authorization: Token <key>``,
inactive accounts refused), over our own table of one token per signed-in device
(``rivals.AccessToken``: a logout revokes only the calling device), which keeps each token's
SHA-256, never the token (``rivals.secrets``); the lookup is a single raw
SELECT, prepared by the server once per connection, instead of an ORM query that Django compiles
again on every request (or a RawQuerySet, which costs more CPU than the row).
"""

from __future__ import annotations

import re

from django.db import connection
from rest_framework import exceptions
from rest_framework.authentication import TokenAuthentication

from rivals.models import Account
from rivals.rawsql import execute_prepared, models_from_rows, select_list
from rivals.secrets import secret_digest


def _sql() -> str:
    return (
        f"SELECT {select_list(Account, 'a')} FROM rivals_account a JOIN rivals_access_token t "
        "ON t.account_id = a.id WHERE t.key = %s"
    )


_TOKEN = re.compile(r"[0-9a-f]{40}")  # DRF's token keys; anything else is no token (and no query)


class AccountTokenAuthentication(TokenAuthentication):
    def authenticate_credentials(self, key):
        if not _TOKEN.fullmatch(key):
            raise exceptions.AuthenticationFailed("Invalid token.")
        with connection.cursor() as django_cursor:
            cur = execute_prepared(django_cursor, _sql(), [secret_digest(key)])
            found = models_from_rows(Account, cur, cur.fetchall())
        account = found[0] if found else None
        if account is None:
            raise exceptions.AuthenticationFailed("Invalid token.")
        if not account.is_active:
            raise exceptions.AuthenticationFailed("User inactive or deleted.")
        return account, key
