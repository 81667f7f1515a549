"""Permissions shared by endpoints."""

from __future__ import annotations

from rest_framework.permissions import SAFE_METHODS, BasePermission


class NotSuspended(BasePermission):
    """R-38: a suspended account may read but not play — its intents and its entries into play
    (queue, duels, tournaments, pots) are refused with 403 ``forbidden``. Reads and withdrawals
    (DELETE: leaving a queue, unregistering) stay open."""

    message = "this account is suspended: its intents are refused until an operator lifts the suspension"

    def has_permission(self, request, view) -> bool:
        if request.method in SAFE_METHODS or request.method == "DELETE":
            return True
        user = request.user
        return not (user and user.is_authenticated and getattr(user, "suspended_at", None) is not None)
