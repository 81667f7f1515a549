"""Fair-play reads other rooms ask for (the reports' review page)."""

from __future__ import annotations

from django.db.models import Count, Q

from rivals.fairplay.models import FairPlayFlag


def flag_counts(*, account_id: int) -> tuple[int, int]:
    """(all flags, open flags) of the player."""
    counts = FairPlayFlag.objects.filter(account_id=account_id).aggregate(
        all=Count("pk"), open=Count("pk", filter=Q(status="open"))
    )
    return counts["all"], counts["open"]
