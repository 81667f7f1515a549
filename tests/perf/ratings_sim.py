"""The simulations of ``bench_ratings.py`` (issue 34), pure Python, no database: a population of
bots with a known true skill, rated by the service's own mathematics (``rivals.ratings.skill``),
and queues paired by the service's own pairing (``rivals.matches.pairing``) against first-come
pairing on the same arrivals.

The outcome model is the rating model's own assumption (Plackett–Luce): of ``n`` players, each
place goes to one of those left with a chance proportional to exp(true skill / (β·√n)), β the
package's 25/6 — drawn as performances ``skill / (β·√n)`` plus Gumbel noise, places following
performance. True skills are drawn from the package's prior, N(25, (25/3)²), so that the ratings'
scale is the truth's and an ordinal can be set against a true skill.
"""

from __future__ import annotations

import heapq
import math
import random
import statistics
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta

from rivals.matches.pairing import Waiting, Window, groups
from rivals.ratings import skill

BETA = skill.MODEL.beta
SIGMA_UNIT = skill.SIGMA  # "one σ-unit": the package's starting σ, 25/3
T0 = datetime(2026, 1, 1, tzinfo=UTC)


def places_of(performances: list[float]) -> list[int]:
    """Competition places (1 = best; equal performances share a place)."""
    return [1 + sum(other > mine for other in performances) for mine in performances]


def outcome(truths: list[float], rng: random.Random) -> list[int]:
    """The places of one result (Plackett–Luce with the package's β, through Gumbel noise)."""
    scale = BETA * math.sqrt(len(truths))
    return places_of([t / scale - math.log(-math.log(1.0 - rng.random())) for t in truths])


@dataclass
class Population:
    truth: list[float]
    skills: list[skill.Skill]
    results: list[int] = field(default_factory=list)

    @classmethod
    def new(cls, n: int, rng: random.Random) -> Population:
        return cls([rng.gauss(skill.MU, skill.SIGMA) for _ in range(n)], [skill.Skill()] * n, [0] * n)

    def add(self, rng: random.Random) -> int:
        self.truth.append(rng.gauss(skill.MU, skill.SIGMA))
        self.skills.append(skill.Skill())
        self.results.append(0)
        return len(self.truth) - 1

    def play(self, players: list[int], rng: random.Random) -> list[int]:
        """One result of ``players``, rated as the service rates it; returns the places."""
        places = outcome([self.truth[p] for p in players], rng)
        after = skill.rate([self.skills[p] for p in players], places)
        for p, s in zip(players, after, strict=True):
            self.skills[p] = s
            self.results[p] += 1
        return places


def _favourite(pop: Population, a: int, b: int) -> int:
    """Whom the ratings name the winner: the higher μ (equal μ: the lower id, a fair coin's measure)."""
    if pop.skills[a].mu == pop.skills[b].mu:
        return min(a, b)
    return a if pop.skills[a].mu > pop.skills[b].mu else b


def rating_quality(*, bots: int, results: int, share_one_to_one: float, newcomers: int, seed: int) -> dict:
    """R-41 judged against the truth: Kendall τ of ordinal and true skill after ``results``
    results; the share of one-to-one results whose winner the higher μ predicted (the results of
    the second half, each predicted before it was rated; and fresh pairs after the run, with the
    true skill's own share as the ceiling); how many results a newcomer needs until its ordinal is
    within one σ-unit of its true skill."""
    rng = random.Random(seed)
    pop = Population.new(bots, rng)
    online = [0, 0]
    for k in range(results):
        players = rng.sample(range(bots), 2 if rng.random() < share_one_to_one else 4)
        favourite = _favourite(pop, *players) if len(players) == 2 and k >= results // 2 else None
        places = pop.play(players, rng)  # predicted before it is rated
        if favourite is not None and places[0] != places[1]:
            online[0] += favourite == (players[0] if places[0] < places[1] else players[1])
            online[1] += 1
    ordinals = [s.ordinal for s in pop.skills]
    tau = skill.kendall_tau(ordinals, pop.truth)
    tau_mu = skill.kendall_tau([s.mu for s in pop.skills], pop.truth)
    fresh = rated = oracle = 0
    for _ in range(10_000):
        a, b = rng.sample(range(bots), 2)
        places = outcome([pop.truth[a], pop.truth[b]], rng)
        if places[0] == places[1]:
            continue
        winner = a if places[0] < places[1] else b
        fresh += _favourite(pop, a, b) == winner
        oracle += (a if pop.truth[a] > pop.truth[b] else b) == winner
        rated += 1
    settled = [(s.mu, pop.truth[i]) for i, s in enumerate(pop.skills)]
    per_bot = statistics.mean(pop.results)
    sigma = statistics.median(s.sigma for s in pop.skills)
    return {
        "tau": tau,
        "tau_mu": tau_mu,
        "online_accuracy": online[0] / online[1],
        "fresh_accuracy": fresh / rated,
        "oracle_accuracy": oracle / rated,
        "newcomers": _newcomers(pop, bots, newcomers, share_one_to_one, rng),
        "settled": settled,
        "results_per_bot": per_bot,
        "sigma_median": sigma,
    }


def _newcomers(pop: Population, bots: int, count: int, share: float, rng: random.Random, limit: int = 400):
    """Newcomers join the settled population and play (against its bots): how many results until
    their ordinal first comes within one σ-unit of their true skill, and until it stays there (to
    ``limit`` results; ``limit`` + 1: not within by then)."""
    first, stays = [], []
    for _ in range(count):
        me = pop.add(rng)
        reached = None
        last_out = 0
        for r in range(1, limit + 1):
            others = rng.sample(range(bots), 1 if rng.random() < share else 3)
            pop.play([me, *others], rng)
            if abs(pop.skills[me].ordinal - pop.truth[me]) <= SIGMA_UNIT:
                reached = reached or r
            else:
                last_out = r
        first.append(reached or limit + 1)
        stays.append(last_out + 1)
    return {"first": first, "stays": stays}


# --- matchmaking: the service's pairing against first-come pairing, on the same arrivals --------------


@dataclass
class QueueRun:
    gaps: list[float] = field(default_factory=list)  # rating (μ) spread of each match formed
    true_gaps: list[float] = field(default_factory=list)  # true-skill spread
    waits: list[float] = field(default_factory=list)  # seconds from join to match
    repeats: int = 0
    expired: int = 0


def _fifo(waiting: list[Waiting], size: int) -> list[list[Waiting]]:
    ordered = sorted(waiting, key=lambda t: t.key)
    return [ordered[i : i + size] for i in range(0, len(ordered) - size + 1, size)]


def queue_run(
    *,
    settled: list[tuple[float, float]],
    population: int,
    rate: float,
    size: int,
    seconds: float,
    warmup: float,
    policy: str,
    seed: int,
    window: Window | None = None,
    sweep_s: float = 2.0,
    ttl_s: float = 120.0,
) -> QueueRun:
    """Players join at ``rate`` a second (Poisson) from the idle part of a population whose (μ,
    true skill) are drawn from ``settled``; every join runs a pass, and so does a sweep every
    ``sweep_s`` (the beat's); a match lasts 60–180 s, then its players are idle again. ``policy``:
    ``rating`` (``rivals.matches.pairing``) or ``fifo`` (first come, first served)."""
    rng = random.Random(seed)
    bots = [rng.choice(settled) for _ in range(population)]
    idle = set(range(population))
    last: dict[int, frozenset[int]] = {}
    waiting: dict[int, Waiting] = {}
    run = QueueRun()
    busy: list[tuple[float, list[int]]] = []  # (ends at, players)
    arrivals = random.Random(seed + 1)  # the same arrival instants for both policies
    t, next_sweep, tickets = 0.0, sweep_s, 0

    def release(until: float) -> None:
        while busy and busy[0][0] <= until:
            _, players = heapq.heappop(busy)
            idle.update(players)

    def run_pass(now: float) -> None:
        for account, w in list(waiting.items()):
            if now - (w.joined_at - T0).total_seconds() >= ttl_s:
                del waiting[account]
                idle.add(account)
                run.expired += now >= warmup
        at = T0 + timedelta(seconds=now)
        chosen = groups(list(waiting.values()), size=size, now=at, window=window) if policy == "rating" else []
        if policy == "fifo":
            chosen = _fifo(list(waiting.values()), size)
        for group in chosen:
            players = [w.account for w in group]
            for w in group:
                del waiting[w.account]
                if now >= warmup:
                    run.waits.append((at - w.joined_at).total_seconds())
            if now >= warmup:
                run.gaps.append(max(w.mu for w in group) - min(w.mu for w in group))
                truths = [bots[p][1] for p in players]
                run.true_gaps.append(max(truths) - min(truths))
                run.repeats += any(q in last.get(p, ()) for p in players for q in players if q != p)
            for p in players:
                last[p] = frozenset(q for q in players if q != p)
            heapq.heappush(busy, (now + rng.uniform(60, 180), players))

    while t < seconds:
        t += arrivals.expovariate(rate)
        while next_sweep < t:
            release(next_sweep)
            run_pass(next_sweep)
            next_sweep += sweep_s
        release(t)
        candidates = sorted(idle)
        if not candidates:
            continue
        who = candidates[arrivals.randrange(len(candidates))]
        idle.discard(who)
        tickets += 1
        mu = bots[who][0]
        waiting[who] = Waiting(
            ticket=tickets, account=who, mu=mu, joined_at=T0 + timedelta(seconds=t), last=last.get(who, frozenset())
        )
        run_pass(t)
    return run


def percentile(xs: list[float], q: float) -> float:
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(round(q * (len(xs) - 1))))] if xs else float("nan")
