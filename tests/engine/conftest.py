"""Engine tests run against both implementations of the solver (compiled core and pure Python)."""

from __future__ import annotations

import pytest

from rivals.engine import assist, solver


@pytest.fixture(params=solver.IMPLEMENTATIONS)
def impl(request, monkeypatch):
    """Every solver call of the test goes to one implementation (the memo is emptied so that
    no answer of the other one is reused)."""
    monkeypatch.setattr(solver, "implementation", request.param)
    assist.clear_memos()
    yield request.param
    assist.clear_memos()
