"""Hooks of the platform that features plug into (``rivals`` itself never imports them).

``account_restricted`` is sent inside the transaction that appends ``AccountSuspended`` or
``AccountClosed``, with ``account_id``, ``reason`` (``"account_suspended"`` / ``"account_closed"``)
and ``now``. R-38: a suspension (or a closure) reaches the commitments made before it — the
features that hold such commitments (queue tickets, duel challenges) end them there, as events,
atomically with the suspension.
"""

from django.dispatch import Signal

account_restricted = Signal()
