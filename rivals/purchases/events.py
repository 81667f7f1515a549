"""The events of joker purchases (R-11): one typed constructor each (schema version 1).

They are events of the buyer's account stream (``account-<id>``) and name its ``account_id``: the
balance change itself is the ``JokersChanged`` appended with them (R-11: every change of a
balance is an event), and the player is told of it (the account's notifications). Nothing here
is personal data: the store's transaction id, the product, the numbers.
"""

from __future__ import annotations

from typing import TypedDict

from rivals.eventstore import NewEvent

# the event types, one name each: code that reads events imports these, never retypes them
JOKER_PURCHASE_REFUNDED = "JokerPurchaseRefunded"
JOKERS_PURCHASED = "JokersPurchased"

PURCHASE_EVENTS = frozenset({JOKERS_PURCHASED, JOKER_PURCHASE_REFUNDED})


class JokersPurchasedData(TypedDict):
    account_id: int
    transaction_id: str
    product: str
    jokers: int
    balance: int


def jokers_purchased(*, account_id: int, transaction_id: str, product: str, jokers: int, balance: int) -> NewEvent:
    """The store verified a purchase of ``jokers``; ``balance``: the account's jokers after it."""
    data: JokersPurchasedData = {
        "account_id": account_id,
        "transaction_id": transaction_id,
        "product": product,
        "jokers": jokers,
        "balance": balance,
    }
    return NewEvent(JOKERS_PURCHASED, data)


class JokerPurchaseRefundedData(TypedDict):
    account_id: int
    transaction_id: str
    product: str
    jokers: int
    taken: int
    shortfall: int
    balance: int


def joker_purchase_refunded(
    *, account_id: int, transaction_id: str, product: str, jokers: int, taken: int, shortfall: int, balance: int
) -> NewEvent:
    """A refund of ``jokers``: ``taken`` back from the balance (never below 0), ``shortfall`` the
    jokers already spent that could not be taken back (for operators)."""
    data: JokerPurchaseRefundedData = {
        "account_id": account_id,
        "transaction_id": transaction_id,
        "product": product,
        "jokers": jokers,
        "taken": taken,
        "shortfall": shortfall,
        "balance": balance,
    }
    return NewEvent(JOKER_PURCHASE_REFUNDED, data)
