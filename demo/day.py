"""One simulated day, in Romanian wall-clock time (``demo.world`` holds the times).

Players come online during the day (daily bonus R-30…R-32, levels R-1…R-10, tournament
registration); in the evening a few play Quick Matches (R-12), Arenas (R-20) and Duels (R-19)
through the real queue — paired by rating (R-42) — and challenges; then the day's regular tournament runs (R-21…R-27) and the
Champions tournament (R-28, R-29) for those whose prizes this week qualify them — or it is
cancelled for too few players. The last day is today, cut at the present: what would happen
later today does not (a tournament still ahead stays upcoming, open for registration).
"""

from __future__ import annotations

import random
from datetime import date, datetime, time, timedelta

from demo import world as w
from demo.bots import play_level, play_match, play_round
from demo.world import Persona, World, at
from rivals import engine
from rivals.daily_bonus.services import daily_bonus_claim, daily_bonus_double
from rivals.errors import DomainError
from rivals.matches.models import Match, QueueTicket, Round
from rivals.matches.services import duel_accept, duel_challenge, duel_decline, queue_join, queue_pair
from tournaments.models import Table, Tournament
from tournaments.services.lifecycle import tournament_create
from tournaments.services.registration import tournament_register

REGULAR = {
    "minutes": 4,
    "min_players": 4,
    "multipliers": [1, 2, 3],
    # generous enough that a good week qualifies 16 players for Champions (R-28: 200 points)
    "prizes": [400, 300, 250, 200, 200, 200, 200, 200, 150, 120, 100, 100, 80, 60, 50, 50],
}
CHAMPIONS = {"minutes": 3, "min_players": 16, "multipliers": [2, 3], "prizes": [600, 400, 300, 200, 150, 100, 80, 50]}
PLAYED_MARGIN = timedelta(minutes=5)  # a tournament is played when it ends this long before the present
PHASES = ("sessions", "matches", "tournament", "champions", "beat")


def _create(world: World, day: date, kind: str, spec: dict, wall: time) -> Tournament | None:
    """The day's tournament of ``kind``, created by an operator just after midnight (R-21): one the
    world plays (over before the present), or one still well ahead of it (it stays upcoming for
    the real beat) — not one the present falls into, which nobody would play."""
    created_at = at(day, time(0, 5))
    starts_at = at(day, wall)
    ends_at = starts_at + timedelta(minutes=spec["minutes"])
    played = ends_at + PLAYED_MARGIN <= world.end
    upcoming = starts_at > world.end + timedelta(minutes=10)
    if created_at > world.end or not (played or upcoming):
        return None
    title = f"{'Champions Cup' if kind == 'champions' else 'Daily Cup'} {day:%a %d %b}"
    return tournament_create(
        actor="operator:demo",
        now=created_at,
        kind=kind,
        title=title,
        starts_at=starts_at,
        ends_at=ends_at,
        registration_opens_at=created_at,
        min_players=spec["min_players"],
        prize_table=spec["prizes"],
        multipliers=spec["multipliers"],
    )


def _register(world: World, t: Tournament | None, persona: Persona, now: datetime) -> bool:
    if t is None or now >= t.starts_at:
        return False
    try:
        tournament_register(tournament_id=t.pk, account=persona.account, now=now)
    except DomainError as exc:  # not enough tournament prizes this week
        world.tally.add(f"registrations refused ({exc.code})")
        return False
    world.tally.add(f"registrations ({t.kind})")
    return True


def _session(world: World, persona: Persona, start: datetime, regular: Tournament | None, rng: random.Random) -> None:
    """A player online: the daily bonus, a tournament registration, a few levels."""
    now = start
    if rng.random() < 0.85:
        daily_bonus_claim(account=persona.account, now=now)
        world.tally.add("daily bonus claims")
        if rng.random() < 0.3:  # watched the offer
            now += timedelta(seconds=35)
            daily_bonus_double(account=persona.account, now=now)
            world.tally.add("daily bonus doubled")
    if persona.competitive and rng.random() < 0.8:
        now += timedelta(seconds=rng.randint(5, 60))
        _register(world, regular, persona, now)
    levels = rng.choices((0, 1, 2, 3), weights=(10, 68, 18, 4))[0]
    for _ in range(max(levels, 1 if persona.bot_speed else 0)):
        level = persona.next_level
        if level > 1 and rng.random() < 0.1:  # replay a won level for a better time
            level = rng.randint(1, level - 1)
        if level > engine.MAX_LEVEL:
            break
        now = play_level(persona, level, now + timedelta(seconds=rng.randint(5, 90)), rng, world.tally)


def sessions(world: World, day: date, online: list[Persona], regular: Tournament | None) -> None:
    latest = world.end - timedelta(minutes=30)  # nothing a session does may lie in the future
    lo, hi = (at(day, wall) for wall in w.SESSIONS)
    starts = []
    for persona in online:
        rng = world.rng_for("session", day, persona.index)
        start = lo + timedelta(seconds=rng.uniform(0, (hi - lo).total_seconds()))
        if start <= latest:
            starts.append((start, persona.index, persona, rng))
    for start, _, persona, rng in sorted(starts, key=lambda s: s[:2]):
        _session(world, persona, start, regular, rng)


def _queue_evening(world: World, mode: str, group: list[Persona], now: datetime, rng: random.Random) -> datetime:
    """R-42: the group joins the queue of ``mode`` a few seconds apart; the queue pairs them by
    rating at each join and at the beat's sweeps (every 2 s, widening the windows); every match it
    makes is played. A player the queue could not pair within the window's 30 s is left waiting
    (its ticket expires)."""
    start = now
    for persona in group:
        now += timedelta(seconds=rng.randint(1, 6))
        queue_join(account=persona.account, mode=mode, now=now)
    sweep = now
    while sweep <= now + timedelta(seconds=32) and _waiting_of(group, mode):
        sweep += timedelta(seconds=2)
        queue_pair(mode=mode, now=sweep)
    matches = Match.objects.filter(mode=mode, status="running", created_at__gte=start).order_by("created_at", "pk")
    end = sweep
    for match in matches:
        world.tally.add(f"matches ({mode})")
        end = max(end, play_match(match, world.by_account, rng, world.tally))
    return end


def _waiting_of(group: list[Persona], mode: str) -> int:
    accounts = [p.account.pk for p in group]
    return QueueTicket.objects.filter(account_id__in=accounts, mode=mode, status="waiting").count()


def _duel(world: World, challenger: Persona, opponent: Persona, now: datetime, rng: random.Random) -> datetime:
    duel, _ = duel_challenge(account=challenger.account, opponent=opponent.account.pk, now=now)
    world.tally.add("duels challenged")
    answer = rng.random()
    if answer < 0.15:
        duel_decline(account=opponent.account, duel_id=duel.pk, now=now + timedelta(seconds=rng.randint(10, 120)))
        return now
    if answer < 0.3:  # never answered: the beat's sweep expires it
        return now
    duel = duel_accept(account=opponent.account, duel_id=duel.pk, now=now + timedelta(seconds=rng.randint(10, 200)))
    world.tally.add("matches (duel)")
    return play_match(duel.match, world.by_account, rng, world.tally)


def matches(world: World, day: date, online: list[Persona]) -> None:
    """Quick Matches and Arenas through the rating-aware queue (R-42) — a batch of the evening's
    players at a time — and Duels between two of them (two dozen players of the evening)."""
    now = at(day, w.MATCHES_AT)
    if now + timedelta(hours=1) > world.end or len(online) < 4:
        return
    rng = world.rng_for("matches", day)
    n = world.players
    plan = ["quick"] * max(1, n // 80) + ["arena"] * max(1, n // 160) + ["duel"] * max(1, n // 60)
    rng.shuffle(plan)
    for mode in plan:
        if mode == "duel":
            challenger, opponent = rng.sample(online, 2)
            now = _duel(world, challenger, opponent, now, rng)
        else:
            size = min(len(online), 8) // (4 if mode == "arena" else 2) * (4 if mode == "arena" else 2)
            now = _queue_evening(world, mode, rng.sample(online, size), now, rng)
        now += timedelta(seconds=rng.randint(20, 90))
    # one player waits for an Arena in vain: the ticket expires (the queue's TTL, by the sweep)
    queue_join(account=rng.choice(online).account, mode="arena", now=now)
    world.tally.add("queue tickets left to expire")


def run_tournament(world: World, t: Tournament | None) -> None:
    """From the start time: the beat's sweep starts it (or cancels it, R-22/R-29) and seats the
    waves (R-23); the bots play every table's round; after the end the sweep finalizes (R-26)."""
    if t is None or t.ends_at + PLAYED_MARGIN > world.end:
        return
    rng = world.rng_for("tournament", t.kind, t.starts_at.isoformat())
    now = t.starts_at
    w.beat(now, only=("tournaments.sweep",))
    while True:
        t.refresh_from_db()
        if t.status in ("finished", "cancelled") or now > t.ends_at + timedelta(minutes=30):
            break
        playing = Table.objects.filter(tournament=t, status="playing", round_id__isnull=False).values("round_id")
        for rnd in Round.objects.filter(pk__in=playing, status="running").order_by("starts_at", "pk"):
            now = max(now, play_round(rnd, world.by_account, rng, world.tally))
            world.tally.add("rounds played")
        now += timedelta(seconds=5)  # the next run of the sweep (every 5 seconds)
        w.beat(now, only=("tournaments.sweep",))
    world.tally.add(f"tournaments {t.status} ({t.kind})")


def champions_registrations(world: World, day: date, t: Tournament | None) -> None:
    """R-28: players who earned tournament prizes this week try to register; the service decides."""
    if t is None:
        return
    lo, hi = (at(day, wall) for wall in w.CHAMPIONS_REGISTRATION)
    rng = world.rng_for("champions", day)
    tries = []
    for persona in world.personas:
        if (persona.competitive and rng.random() < 0.9) or rng.random() < 0.02:
            tries.append((lo + timedelta(seconds=rng.uniform(0, (hi - lo).total_seconds())), persona.index, persona))
    for now, _, persona in sorted(tries, key=lambda x: x[:2]):
        if now <= world.end:
            _register(world, t, persona, now)


def simulate_day(world: World, day: date, progress=None) -> None:
    rng = world.rng_for("online", day)
    online = [p for p in world.personas if rng.random() < p.activity]
    regular = _create(world, day, "regular", REGULAR, w.REGULAR_AT)
    champions = _create(world, day, "champions", CHAMPIONS, w.CHAMPIONS_AT)
    steps = (
        lambda: sessions(world, day, online, regular),
        lambda: matches(world, day, online),
        lambda: run_tournament(world, regular),
        lambda: (champions_registrations(world, day, champions), run_tournament(world, champions)),
        lambda: _day_end(world, day),
    )
    for name, step in zip(PHASES, steps, strict=True):
        if progress is not None:
            progress.set_postfix_str(f"{day:%a %d %b} {name}")
        step()
        if progress is not None:
            progress.update(1)


def _signals(now: datetime) -> None:
    """R-42: the real beat runs the fair-play sweep every 30 s, a batch each; the simulated day's
    beat runs once, so it sweeps until every rated result of the day is scored."""
    from rivals.fairplay.tasks import signals_sweep

    while signals_sweep.run(now=now.isoformat()):
        pass


def _day_end(world: World, day: date) -> None:
    """The beat's jobs of the evening (sweeps, expiries), then the midnight roll of the rankings."""
    evening = at(day, w.BEAT_AT)
    if evening <= world.end:
        w.beat(evening)
        _signals(evening)
    midnight = at(day + timedelta(days=1), w.ROLL_AT)
    if midnight <= world.end:
        w.beat(midnight, only=("rankings.roll",))
