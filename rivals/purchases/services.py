"""Joker purchases (R-11): the store backend reports what the app stores verified — this service
never sees a card or a receipt, only a signed report (``rivals.purchases.api``).

A purchase adds its jokers to the balance; a refund is its compensating event: it takes the jokers
back, never below 0 — what was already spent is the ``shortfall``, recorded for operators (the
purchases admin). Each is recorded once per store transaction id: a replay of the same report
answers the first result and changes nothing, another report under the same id is 409. A purchase
for a closed account is refused (422: nobody can use the jokers; the store refunds the buyer) and
nothing is recorded; a refund is recorded whatever the account's state (the books must balance).
Purchases never count in any ranking (R-33): they award no points.

Locks: the transaction id (an advisory lock: two deliveries of one report wait for each other),
then the account row ``FOR UPDATE`` — as a joker's use takes it, so a refund and a use never both
read the same balance.
"""

from __future__ import annotations

from datetime import datetime

from django.db import connection, transaction

from rivals.accounts.events import jokers_changed
from rivals.errors import Conflict, NotAllowed, NotFound
from rivals.eventstore import ANY_VERSION, event_append
from rivals.models import Account
from rivals.purchases.events import joker_purchase_refunded, jokers_purchased
from rivals.purchases.models import Purchase

ACTOR = "store"


def _same(purchase: Purchase, *, account_id: int, product: str, jokers: int, kind: str) -> bool:
    return (purchase.account_id, purchase.product, purchase.jokers, purchase.kind) == (
        account_id,
        product,
        jokers,
        kind,
    )


@transaction.atomic
def purchase_record(
    *, transaction_id: str, account_id: int, product: str, jokers: int, kind: str, now: datetime | None = None
) -> tuple[Purchase, bool]:
    """Record one report of the store: ``(purchase, replayed)``."""
    if kind not in ("purchase", "refund") or jokers < 1:
        raise NotAllowed("a purchase or a refund of at least one joker")
    with connection.cursor() as cur:
        cur.execute("SELECT pg_advisory_xact_lock(hashtextextended(%s, 24))", [f"purchase:{transaction_id}"])
    known = Purchase.objects.filter(pk=transaction_id).first()
    if known is not None:
        if not _same(known, account_id=account_id, product=product, jokers=jokers, kind=kind):
            raise Conflict(
                "this transaction id was recorded with another report", details={"transaction_id": transaction_id}
            )
        return known, True
    account = Account.objects.select_for_update().filter(pk=account_id).first()
    if account is None:
        raise NotFound("no such account", details={"account_id": account_id})
    if kind == "purchase":
        if account.closed_at is not None:
            raise NotAllowed("the account is closed: its jokers cannot be used", details={"account_id": account_id})
        delta, shortfall = jokers, 0
        recorded = jokers_purchased(
            account_id=account.pk,
            transaction_id=transaction_id,
            product=product,
            jokers=jokers,
            balance=account.jokers + delta,
        )
    else:
        taken = min(jokers, max(account.jokers, 0))  # never below 0
        delta, shortfall = -taken, jokers - taken
        recorded = joker_purchase_refunded(
            account_id=account.pk,
            transaction_id=transaction_id,
            product=product,
            jokers=jokers,
            taken=taken,
            shortfall=shortfall,
            balance=account.jokers + delta,
        )
    events = [recorded]
    if delta:
        ref = {"transaction_id": transaction_id, "product": product}
        events.append(jokers_changed(account_id=account.pk, delta=delta, reason=kind, ref=ref))
    event_append(
        stream_id=account.stream_id,
        stream_type="account",
        expected_version=ANY_VERSION,
        actor=ACTOR,
        now=now,
        events=events,
    )
    return Purchase.objects.get(pk=transaction_id), False
