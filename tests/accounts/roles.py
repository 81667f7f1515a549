"""What the tests of operators' roles share (issue 40): an operator of a role, signed in to a test
client, and the actions an admin page offers."""

from __future__ import annotations

import re

from django.test import Client

ROLES = ("administrator", "game_ops", "support", "viewer")


def signed_in(role: str, username: str | None = None) -> Client:
    """A client signed in to the admin as a new operator of ``role`` (``client.user``)."""
    from rivals.accounts.operators import operator_create

    user = operator_create(
        username=username or f"op-{role}", password="op-password-1", role=role, actor="operator:test"
    )
    client = Client()
    client.force_login(user)
    client.user = user
    return client


def offered(page: str) -> set[str]:
    """The actions a page offers: the list's action menu and the object page's buttons."""
    found = re.search(r'<select name="action"[^>]*>(.*?)</select>', page, re.S)
    menu = found.group(1) if found else ""
    listed = set(re.findall(r'<option value="([a-z_]+)"', menu))
    buttons = set(re.findall(r'class="historylink object-action-([a-z_]+)"', page))
    return (listed | buttons) - {""}
