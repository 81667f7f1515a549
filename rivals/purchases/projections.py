"""The purchases projection: one ``Purchase`` row per ``JokersPurchased`` or ``JokerPurchaseRefunded``
(the balance itself is the accounts projection's, from the ``JokersChanged`` beside them)."""

from __future__ import annotations

from rivals.projections import Projection
from rivals.purchases.events import JOKER_PURCHASE_REFUNDED, JOKERS_PURCHASED
from rivals.rebuild.copies import Table


class PurchasesProjection(Projection):
    name = "purchases"
    event_types = frozenset({JOKERS_PURCHASED, JOKER_PURCHASE_REFUNDED})
    tables = (Table("purchases_purchase"),)

    def reset(self) -> None:
        from rivals.purchases.models import Purchase

        Purchase.objects.all().delete()

    def apply(self, event) -> None:
        from rivals.purchases.models import Purchase

        d = event.data
        refund = event.type == JOKER_PURCHASE_REFUNDED
        Purchase.objects.create(
            transaction_id=d["transaction_id"],
            account_id=d["account_id"],
            kind="refund" if refund else "purchase",
            product=d["product"],
            jokers=d["jokers"],
            applied=-d["taken"] if refund else d["jokers"],
            shortfall=d["shortfall"] if refund else 0,
            balance=d["balance"],
            recorded_at=event.recorded_at,
        )


purchases_projection = PurchasesProjection()
