"""Token authentication with one precompiled query (the hot path of every game intent).

Same header and semantics as DRF's ``TokenAuthentication`` (``Authorization: Token <key>``,
inactive accounts refused), over our own table of one token per signed-in device
(``rivals.AccessToken``: a logout revokes only the calling device); the lookup is a single raw
SELECT instead of an ORM query that Django compiles again on every request.
"""

from __future__ import annotations

import re

from rest_framework import exceptions
from rest_framework.authentication import TokenAuthentication

from rivals.models import Account

_SQL = (
    "SELECT a.* FROM rivals_account a JOIN rivals_access_token t ON t.account_id = a.id WHERE t.key = %s"
)


_TOKEN = re.compile(r"[0-9a-f]{40}")  # DRF's token keys; anything else is no token (and no query)


class AccountTokenAuthentication(TokenAuthentication):
    def authenticate_credentials(self, key):
        if not _TOKEN.fullmatch(key):
            raise exceptions.AuthenticationFailed("Invalid token.")
        account = next(iter(Account.objects.raw(_SQL, [key])), None)
        if account is None:
            raise exceptions.AuthenticationFailed("Invalid token.")
        if not account.is_active:
            raise exceptions.AuthenticationFailed("User inactive or deleted.")
        return account, key
