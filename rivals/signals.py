"""Hooks of the platform that features plug into (``rivals`` itself never imports them).

``account_restricted`` is sent inside the transaction that appends ``AccountSuspended`` or
``AccountClosed``, with ``account_id``, ``reason`` (``"account_suspended"`` / ``"account_closed"``),
``actor`` and ``now``. R-38: a suspension (or a closure) reaches the commitments made before it — the
features that hold such commitments (queue tickets, duel challenges; a closed account's club)
end them there, as events, atomically with the suspension or closure.

``intent_accepted`` (``account``, ``events``) and ``intent_refused`` (``account``, ``exc``) are sent by
the one intent entry point (``rivals.api.intents.IntentEndpoint``) after every accepted intent and
every refusal (already kept as a ``RejectedIntent``): the fair-play checks listen (R-38).
"""

from django.dispatch import Signal

account_restricted = Signal()
intent_accepted = Signal()
intent_refused = Signal()
