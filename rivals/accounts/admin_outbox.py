"""The outbox in the admin (R-36): emails waiting to leave, and those that failed."""

from __future__ import annotations

from django.contrib import admin

from rivals.accounts.models import OutboundEmail
from rivals.admin_base import ReadOnlyAdmin


@admin.register(OutboundEmail)
class OutboundEmailAdmin(ReadOnlyAdmin):
    """R-36 emails waiting to leave, and those that failed (``rivals.accounts.emails``): operators see
    failures here; a failed email is no longer retried."""

    list_display = ("pk", "kind", "status", "attempts", "last_error", "created_at", "next_attempt_at")
    list_filter = ("status", "kind")
    fields = ("kind", "status", "attempts", "last_error", "created_at", "next_attempt_at", "account")
