import pytest
from rest_framework.throttling import SimpleRateThrottle


@pytest.fixture
def rates(monkeypatch):
    """Set throttle rates for one test (DRF binds the rates dict at import)."""

    def set_rates(**rates):
        for scope, rate in rates.items():
            monkeypatch.setitem(SimpleRateThrottle.THROTTLE_RATES, scope, rate)

    return set_rates
