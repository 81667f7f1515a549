"""The world's players: guest accounts from their devices (R-36), display names, a welcome gift
of jokers (R-11, an operator's grant), personas, and clubs (R-37) — through the real services."""

from __future__ import annotations

from datetime import time, timedelta

from demo.world import ADJECTIVES, CLUB_NAMES, NOUNS, Persona, World, at
from rivals.accounts.services import account_guest_signin, account_jokers_change, account_rename
from rivals.clubs.services import club_found, club_join
from rivals.errors import DomainError

WELCOME_JOKERS = 3
COMPETITIVE_SHARE = 0.25  # players who play the daily tournament most days
BOT_SPEED_SHARE = 0.015  # "a few" bot-speed players (at least one)
# issue 36: of the competitive players, a few take a solver's pair at a share of 30…100 % of their
# round pairs, and a few pairs pass their pairs on to each other on a tournament wave's deal
ASSISTED_SHARE = 0.03
COLLUDING_PAIRS_PER = 100  # one pair per this many players (at least one)


def _names(world: World) -> list[str]:
    names = [f"{a} {n}" for a in ADJECTIVES for n in NOUNS]
    world.rng.shuffle(names)
    return [names[i % len(names)] + ("" if i < len(names) else f" {i // len(names) + 1}") for i in range(world.players)]


def populate(world: World) -> None:
    """Sign every player in on the first simulated morning, name it and give it its persona."""
    rng = world.rng
    first = world.first_day()
    now = at(first, time(7, 0))
    names = _names(world)
    order = list(range(world.players))
    rng.shuffle(order)
    competitive = set(order[: max(8, round(world.players * COMPETITIVE_SHARE))])
    bot_speed = set(order[-max(1, round(world.players * BOT_SPEED_SHARE)) :])
    for i in range(world.players):
        now += timedelta(seconds=rng.randint(1, 20))
        account, _, _ = account_guest_signin(device_id=world.device_id(i), now=now)
        account = account_rename(account=account, display_name=names[i], now=now + timedelta(seconds=30))
        account = account_jokers_change(
            account=account,
            delta=WELCOME_JOKERS,
            reason="operator_grant",
            actor="operator:demo",
            ref={"note": "welcome gift"},
            now=now + timedelta(seconds=40),
        )
        skill = rng.uniform(0.3, 1.0)  # the hidden true skill (demo.world.Persona)
        pace_ms = int(rng.uniform(0.85, 1.15) * (4400 - 2800 * skill))  # the better, the faster: 1.6–3.6 s
        persona = Persona(
            index=i,
            account=account,
            skill=skill,
            pace_ms=pace_ms,
            activity=rng.uniform(0.25, 0.8),
            competitive=i in competitive,
            bot_speed=i in bot_speed,
        )
        if persona.competitive:
            persona.activity = max(persona.activity, 0.8)
        if persona.bot_speed:  # a bot plays every day
            persona.activity = 1.0
        world.personas.append(persona)
        world.by_account[account.pk] = persona
    _cheats(world, [p for p in world.personas if p.competitive and not p.bot_speed])
    world.tally.add("accounts created", world.players)
    _clubs(world, now + timedelta(minutes=10))


def _cheats(world: World, competitive: list) -> None:
    """Issue 36: assisted players and colluding pairs among the competitive ones (R-42 finds them)."""
    rng = world.rng_for("cheats")
    assisted = max(1, round(world.players * ASSISTED_SHARE))
    chosen = rng.sample(competitive, min(len(competitive), assisted + 2 * max(1, world.players // COLLUDING_PAIRS_PER)))
    for persona in chosen[:assisted]:
        persona.assist = round(rng.uniform(0.3, 1.0), 2)
    rest = chosen[assisted:]
    for a, b in zip(rest[::2], rest[1::2], strict=False):
        a.partner, b.partner = b.account.pk, a.account.pk
    world.tally.add("assisted players", sum(p.assist > 0 for p in chosen))
    world.tally.add("colluding pairs", len(rest) // 2)


def _clubs(world: World, now) -> None:
    """Some players found clubs; about a third of the others join one."""
    rng = world.rng
    count = max(1, min(len(CLUB_NAMES), world.players // 25))
    founders = rng.sample(world.personas, count)
    clubs = []
    for persona, name in zip(founders, CLUB_NAMES, strict=False):
        now += timedelta(seconds=rng.randint(30, 300))
        try:
            clubs.append(club_found(account=persona.account, name=name, now=now))
        except DomainError:  # the name is taken (another world in this database)
            continue
    if not clubs:
        return
    for persona in world.personas:
        if persona not in founders and rng.random() < 0.35:
            now += timedelta(seconds=rng.randint(5, 120))
            club_join(account=persona.account, club_id=rng.choice(clubs).pk, now=now)
            world.tally.add("club members")
    world.tally.add("clubs founded", len(clubs))
