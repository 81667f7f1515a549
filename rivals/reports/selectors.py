"""Reads of players' reports (R-39)."""

from __future__ import annotations

from django.db.models import Q, QuerySet

from rivals.reports.models import Report

NAME_REASONS = ("name", "personal_data")  # the reports a name reset or a club rename answers


def reports_upheld_by_renaming(report: Report) -> QuerySet[Report]:
    """The open reports that resetting the subject's name (or renaming the club) from ``report``
    upholds — what ``report_name_reset`` and ``report_club_rename`` close: those about the
    subject's name, and ``report`` itself (a report of cheating that named the name too)."""
    return Report.objects.filter(subject=report.subject, status="open").filter(
        Q(reason__in=NAME_REASONS) | Q(pk=report.pk)
    )
