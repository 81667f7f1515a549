"""The account profile projection: display name (and its searched form), jokers, suspension and
closure of each account."""

from __future__ import annotations

from dataclasses import dataclass

from rivals.accounts.events import (
    ACCOUNT_CLOSED,
    ACCOUNT_CREATED,
    DISPLAY_NAME_CHANGED,
    DISPLAY_NAME_RESET,
    JOKERS_CHANGED,
    OPERATOR_CREATED,
)
from rivals.models import Event
from rivals.names import search_key
from rivals.projections import Projection
from rivals.rebuild.copies import Table


class AccountProfileProjection(Projection):
    """Display name (and its searched form, R-39), joker balance (R-11: every balance change is an
    event), suspension (R-38) and closure of each account. A sealed display name is read with the
    account's key; once the key is destroyed (erasure) the name reads as ``personal.ERASED_NAME``."""

    name = "account_profile"
    event_types = frozenset(
        {
            ACCOUNT_CREATED,
            OPERATOR_CREATED,
            DISPLAY_NAME_CHANGED,
            DISPLAY_NAME_RESET,
            JOKERS_CHANGED,
            "AccountSuspended",
            "AccountSuspensionLifted",
            ACCOUNT_CLOSED,
        }
    )

    COLUMNS = ("display_name", "search_name", "jokers", "suspended_at", "suspension_reason", "closed_at")
    EMPTY = {
        "display_name": "",
        "search_name": "",
        "jokers": 0,
        "suspended_at": None,
        "suspension_reason": "",
        "closed_at": None,
    }
    tables = (Table("rivals_account", columns=COLUMNS),)

    def reset(self) -> None:
        from rivals.models import Account

        Account.objects.update(**self.EMPTY)

    def rebuild(self, log) -> None:
        """Each account's columns folded in memory by ``effect``, then one bulk UPDATE."""
        from rivals.rebuild.bulk import update_columns

        state: dict[int, dict] = {}
        for event in log.events(self.event_types):
            row = state.setdefault(event.data["account_id"], dict(self.EMPTY))
            for column, value in effect(event).items():
                row[column] = row[column] + value.n if isinstance(value, Add) else value
        update_columns(
            "rivals_account",
            "id",
            list(self.COLUMNS),
            [(a, *(row[c] for c in self.COLUMNS)) for a, row in state.items()],
        )

    def apply(self, event: Event) -> None:
        """Live: the same effect as one UPDATE (a joker delta as an increment: no row lock)."""
        from django.db.models import F

        from rivals.models import Account

        changes = {c: F(c) + v.n if isinstance(v, Add) else v for c, v in effect(event).items()}
        Account.objects.filter(pk=event.data["account_id"]).update(**changes)


@dataclass(frozen=True, slots=True)
class Add:
    """A column's increment (commutative: live applies it without reading the row)."""

    n: int


def _named(name: str) -> dict[str, str]:
    """A display name and its searched form (R-39), always set together."""
    return {"display_name": name, "search_name": search_key(name)}


def effect(event: Event) -> dict[str, object]:
    """The one implementation of the projection: an event's effect on its account's columns, a
    value to set or an ``Add``. Used live (``apply``) and by the rebuild's fold."""
    from rivals import personal

    d = event.data
    if event.type in (DISPLAY_NAME_RESET, OPERATOR_CREATED):  # in the clear: a reset's neutral name, a username
        return _named(d["display_name"])
    if event.type in (ACCOUNT_CREATED, DISPLAY_NAME_CHANGED):
        name = personal.unseal(d, account_id=d["account_id"], field="display_name")
        return _named(name if name is not None else personal.ERASED_NAME)
    if event.type == JOKERS_CHANGED:
        return {"jokers": Add(d["delta"])}
    if event.type == "AccountSuspended":
        return {"suspended_at": event.recorded_at, "suspension_reason": d["reason"]}
    if event.type == "AccountSuspensionLifted":
        return {"suspended_at": None, "suspension_reason": ""}
    if event.type == ACCOUNT_CLOSED:
        erased = _named(personal.ERASED_NAME) if d.get("erased") else {}
        return {"closed_at": event.recorded_at, **erased}
    return {}


account_profile_projection = AccountProfileProjection()
