"""What the projection property tests share (tests/*/test_projection_properties.py): one hypothesis
example's writes rolled back, the live == rebuild assertion, and their settings."""

from __future__ import annotations

from contextlib import contextmanager

from django.db import transaction
from hypothesis import HealthCheck, settings


def property_settings(examples: int) -> settings:
    """Seeded and small in the suite: fixed examples, no deadline (a rebuild per example), no
    example database (nothing left behind)."""
    return settings(
        max_examples=examples,
        derandomize=True,
        deadline=None,
        database=None,
        suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
    )


@contextmanager
def rolled_back():
    """One hypothesis example's writes, undone after it (the log is append-only: a savepoint is
    rolled back, nothing is deleted)."""
    with transaction.atomic():
        yield
        transaction.set_rollback(True)


def touched_projections() -> set[str]:
    """The projections a rebuild could find a difference in: those with an event type in the log,
    or with a row in one of their tables. The others have neither — rebuilt from no events their
    tables are empty, as they are live — so a test's verification may leave them out (issue 32)."""
    from django.db import connection

    from rivals import projections
    from rivals.models import Event

    types = set(Event.objects.values_list("type", flat=True).distinct())
    registered = projections.registered()
    names = sorted({t.name for p in registered for t in p.tables})
    with connection.cursor() as cur:
        cur.execute(" UNION ALL ".join(f"(SELECT %s FROM {n} LIMIT 1)" for n in names), names)
        filled = {row[0] for row in cur.fetchall()}
    return {p.name for p in registered if p.rebuild_types & types or any(t.name in filled for t in p.tables)}


def assert_live_equals_rebuild() -> None:
    """``rebuild_projections --verify`` in the test's transaction: every projection rebuilt from
    the log into private copies equals its live table (every one the test's events or rows touch:
    ``touched_projections``)."""
    from rivals.rebuild import rebuild

    report = rebuild(verify_only=True, only=touched_projections())
    assert report.equal, [d for d in report.differences if d.any]
