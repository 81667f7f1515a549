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


def assert_live_equals_rebuild() -> None:
    """``rebuild_projections --verify`` in the test's transaction: every projection rebuilt from
    the log into private copies equals its live table."""
    from rivals.rebuild import rebuild

    report = rebuild(verify_only=True)
    assert report.equal, [d for d in report.differences if d.any]
