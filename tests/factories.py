"""factory_boy factories. Accounts are created through the service, so each has its
``AccountCreated`` event and the projections stay consistent (no rows without history)."""

from __future__ import annotations

import hashlib

import factory

from rivals.models import Account


def device_id_for(label: str) -> str:
    """A device id as the service wants a new one (long, varied: docs/security.md) from a test's
    short label — the same label, the same device."""
    return f"{label}-{hashlib.sha256(label.encode()).hexdigest()[:20]}"


class AccountFactory(factory.Factory):
    class Meta:
        model = Account

    device_id = factory.Sequence(lambda n: f"device-{n}")
    jokers = 0
    display_name = None

    @classmethod
    def _create(cls, model_class, *, device_id, jokers=0, display_name=None):
        from rivals.accounts.services import (
            account_guest_signin,
            account_jokers_change,
            account_rename,
        )

        account, _, _ = account_guest_signin(device_id=device_id_for(device_id))
        if jokers:
            account_jokers_change(account=account, delta=jokers, reason="test", actor="test")
        if display_name:
            account_rename(account=account, display_name=display_name)
        account.refresh_from_db()
        return account
