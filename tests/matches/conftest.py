import pytest


@pytest.fixture(autouse=True)
def _small_round_deals(settings):
    """Rounds in these tests are dealt on the 36-tile Diamond (18 pairs) so that a completion is
    quick to play; the rules do not depend on the layout."""
    settings.RIVALS = {**settings.RIVALS, "ROUND_LAYOUTS": ["L08"]}
