"""The purchases room's documented examples (``rivals.api.examples``): what a store backend sends."""

from __future__ import annotations

from rivals.api.examples import SOME_ACCOUNT, request_examples

PURCHASE = request_examples(
    {
        "ten jokers bought (R-11)": {
            "transaction_id": "GPA.3372-4415-2810-55061",
            "account_id": SOME_ACCOUNT,
            "product": "jokers_10",
            "jokers": 10,
            "kind": "purchase",
        },
        "the same purchase refunded": {
            "transaction_id": "GPA.3372-4415-2810-55061.refund",
            "account_id": SOME_ACCOUNT,
            "product": "jokers_10",
            "jokers": 10,
            "kind": "refund",
        },
    }
)
