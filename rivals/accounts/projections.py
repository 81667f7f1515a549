"""The account profile projection: display name, jokers, suspension and closure of each account."""

from __future__ import annotations

from rivals.models import Event
from rivals.projections import Projection
from rivals.rebuild.copies import Table


class AccountProfileProjection(Projection):
    """Display name, joker balance (R-11: every balance change is an event), suspension (R-38) and
    closure of each account. A sealed display name is read with the account's key; once the key
    is destroyed (erasure) the name reads as ``personal.ERASED_NAME``."""

    name = "account_profile"
    event_types = frozenset(
        {
            "AccountCreated",
            "DisplayNameChanged",
            "JokersChanged",
            "AccountSuspended",
            "AccountSuspensionLifted",
            "AccountClosed",
        }
    )

    COLUMNS = ("display_name", "jokers", "suspended_at", "suspension_reason", "closed_at")
    tables = (Table("rivals_account", columns=COLUMNS),)

    def reset(self) -> None:
        from rivals.models import Account

        Account.objects.update(display_name="", jokers=0, suspended_at=None, suspension_reason="", closed_at=None)

    def rebuild(self, log) -> None:
        """Each account's columns folded in memory, then one bulk UPDATE."""
        from rivals import personal
        from rivals.rebuild.bulk import update_columns

        state: dict[int, list] = {}
        for event in log.events(self.event_types):
            d = event.data
            row = state.setdefault(d["account_id"], ["", 0, None, "", None])
            if event.type in ("AccountCreated", "DisplayNameChanged"):
                name = personal.unseal(d, account_id=d["account_id"], field="display_name")
                row[0] = name if name is not None else personal.ERASED_NAME
            elif event.type == "JokersChanged":
                row[1] += d["delta"]
            elif event.type == "AccountSuspended":
                row[2], row[3] = event.recorded_at, d["reason"]
            elif event.type == "AccountSuspensionLifted":
                row[2], row[3] = None, ""
            elif event.type == "AccountClosed":
                row[4] = event.recorded_at
                if d.get("erased"):
                    row[0] = personal.ERASED_NAME
        update_columns("rivals_account", "id", list(self.COLUMNS), [(a, *row) for a, row in state.items()])

    def apply(self, event: Event) -> None:
        from django.db.models import F

        from rivals import personal
        from rivals.models import Account

        d = event.data
        row = Account.objects.filter(pk=d["account_id"])
        if event.type in ("AccountCreated", "DisplayNameChanged"):
            name = personal.unseal(d, account_id=d["account_id"], field="display_name")
            row.update(display_name=name if name is not None else personal.ERASED_NAME)
        elif event.type == "JokersChanged":
            row.update(jokers=F("jokers") + d["delta"])
        elif event.type == "AccountSuspended":
            row.update(suspended_at=event.recorded_at, suspension_reason=d["reason"])
        elif event.type == "AccountSuspensionLifted":
            row.update(suspended_at=None, suspension_reason="")
        elif event.type == "AccountClosed":
            row.update(
                closed_at=event.recorded_at, **({"display_name": personal.ERASED_NAME} if d.get("erased") else {})
            )


account_profile_projection = AccountProfileProjection()
