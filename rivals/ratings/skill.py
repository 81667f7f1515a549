"""R-41's mathematics, none of it written here: the ``openskill`` package's Weng–Lin model with
Plackett–Luce (its defaults: μ 25, σ 25/3, β 25/6, τ 25/300), and the few rules of ours around
it — which places a result is rated by, the public figure, when a rating stops being provisional.
No Django: the benchmark (tests/perf/bench_ratings.py) and the demo use it as the service does.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from importlib.metadata import version

from openskill.models import PlackettLuce

MODEL = PlackettLuce()  # the package's defaults, never ours
MU: float = MODEL.mu
SIGMA: float = MODEL.sigma
# what a RatingsUpdated names as its model: a reader of the log knows which mathematics made it
MODEL_NAME = f"openskill {version('openskill')} PlackettLuce"

# a rating is provisional until the account has this many rated results of either kind
PROVISIONAL_ONE_TO_ONE = 12
PROVISIONAL_MULTI = 5


@dataclass(frozen=True)
class Skill:
    mu: float = MU
    sigma: float = SIGMA

    @property
    def ordinal(self) -> float:
        """The public figure μ − 3σ, as the package computes it."""
        return MODEL.rating(mu=self.mu, sigma=self.sigma).ordinal()


def figure(ordinal: float) -> int:
    """The board's figure: the ordinal in hundredths (Decision R-41: the board shows the ordinal to
    two decimals, and two players whose shown figures are equal share a place)."""
    return round(ordinal * 100)


def kind_of(players: int) -> str:
    """``one_to_one`` for two players (Quick Match, Duel, a table of two), else ``multi``."""
    return "one_to_one" if players == 2 else "multi"


def provisional(*, one_to_one: int, multi: int) -> bool:
    return one_to_one < PROVISIONAL_ONE_TO_ONE and multi < PROVISIONAL_MULTI


def rated_places(standings: Sequence[tuple[int, int, bool]]) -> dict[int, int] | None:
    """R-41 with R-18a: ``(account_id, place, idle)`` of a result → the places it is rated by.

    The players who played keep the order of their places (ties stay ties: 1, 2, 2, 4); an idle
    player is rated as last, after every player who played (idle players tie there). Decision: a
    result nobody played (every player idle) is not rated — there is nothing to learn from it."""
    played = sorted((place, a) for a, place, idle in standings if not idle)
    if not played:
        return None
    places: dict[int, int] = {}
    for i, (place, a) in enumerate(played):
        places[a] = places[played[i - 1][1]] if i and place == played[i - 1][0] else i + 1
    last = len(played) + 1
    for a, _, idle in standings:
        if idle:
            places[a] = last
    return places


def rate(skills: Sequence[Skill], places: Sequence[int]) -> list[Skill]:
    """The package's update for one result: one player per team, ``places`` lower is better,
    equal places a tie."""
    teams = [[MODEL.rating(mu=s.mu, sigma=s.sigma)] for s in skills]
    rated = MODEL.rate(teams, ranks=[float(p) for p in places])
    return [Skill(mu=team[0].mu, sigma=team[0].sigma) for team in rated]


def kendall_tau(xs: list[float], ys: list[float]) -> float:
    """Kendall's τ-b of two lists — how well ratings order players whose true skill is known (the
    demo's bots, the benchmark's population). O(n²): a thousand values is half a million pairs."""
    concordant = discordant = ties_x = ties_y = 0
    n = len(xs)
    for i in range(n):
        xi, yi = xs[i], ys[i]
        for j in range(i + 1, n):
            dx, dy = xi - xs[j], yi - ys[j]
            if dx == 0 and dy == 0:
                continue
            if dx == 0:
                ties_x += 1
            elif dy == 0:
                ties_y += 1
            elif (dx > 0) == (dy > 0):
                concordant += 1
            else:
                discordant += 1
    denominator = math.sqrt((concordant + discordant + ties_x) * (concordant + discordant + ties_y))
    return (concordant - discordant) / denominator if denominator else 0.0
