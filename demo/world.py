"""The simulated world: its players (personas), its clock, and the beat it plays itself.

The clock is the services' ``now=``: the world walks through the simulated days in order and
every service call gets the instant at which the bot acts. Time-driven work is done as beat does
it — the same services the periodic tasks of ``config/periodic.py`` call, but at the simulated
instant (``beat``). The tasks the services schedule for real-time moments go to an in-memory
broker that nothing consumes (as in the tests): the simulated beat covers them.
"""

from __future__ import annotations

import contextlib
import random
import secrets
import uuid
from dataclasses import dataclass, field
from datetime import date, datetime, time, timedelta
from unittest import mock

from django.conf import settings
from django.db import connection

from rivals import direct
from rivals.models import Account, Event

# Wall-clock times of a simulated Romanian day (Europe/Bucharest)
SESSIONS = (time(8, 0), time(18, 0))  # players come and go: daily bonus, levels, registrations
MATCHES_AT = time(18, 15)  # Quick Matches, Arenas and Duels, one after another
REGULAR_AT = time(19, 0)  # the day's regular tournament
CHAMPIONS_REGISTRATION = (time(19, 40), time(20, 40))  # after the regular tournament's prizes
CHAMPIONS_AT = time(21, 0)
BEAT_AT = time(23, 30)
ROLL_AT = time(0, 1)  # the next day's rankings roll (config/periodic.py: 00:01 Bucharest)

ADJECTIVES = (
    "Amber",
    "Brave",
    "Calm",
    "Clever",
    "Crimson",
    "Dusky",
    "Eager",
    "Gentle",
    "Golden",
    "Jade",
    "Jolly",
    "Lucky",
    "Mellow",
    "Misty",
    "Nimble",
    "Noble",
    "Quiet",
    "Rapid",
    "Silent",
    "Silver",
    "Sly",
    "Steady",
    "Sunny",
    "Swift",
    "Tidy",
    "Velvet",
    "Wise",
    "Witty",
    "Young",
    "Zesty",
)
NOUNS = (
    "Bamboo",
    "Crane",
    "Dragon",
    "Falcon",
    "Fox",
    "Heron",
    "Koi",
    "Lantern",
    "Lotus",
    "Monkey",
    "Orchid",
    "Otter",
    "Panda",
    "Pearl",
    "Phoenix",
    "Plum",
    "Rabbit",
    "Sparrow",
    "Tiger",
    "Tortoise",
    "Willow",
    "Wind",
)
CLUB_NAMES = (
    "Bamboo Grove",
    "Red Dragons",
    "East Wind",
    "Jade Garden",
    "Four Seasons",
    "Lotus Pond",
    "Night Owls",
    "Tile Hunters",
    "Silver Cranes",
    "Golden Tortoise",
    "Plum Blossom",
    "White Tigers",
)


@dataclass
class Persona:
    """A bot player: how well, how fast and how often it plays."""

    index: int  # the player's number in the world (its device is ``demo-<seed>-<index>``)
    account: Account
    # 0…1, the bot's hidden true skill: the higher, the fewer mistakes and the faster its pairs. Never
    # stored: the ratings and the queue's pairing are judged against it (demo.summary)
    skill: float
    pace_ms: int  # mean time between two pairs
    activity: float  # chance to come online on a day
    competitive: bool  # plays tournaments (and so may qualify for Champions)
    bot_speed: bool = False  # removes pairs faster than a human can: fair play flags it
    # issue 36, the truth R-42's signals must find (never an input of theirs: demo.summary reads it):
    # the share of its round pairs a solver gives it, and the account it passes its pairs to
    assist: float = 0.0
    partner: int | None = None
    next_level: int = 1  # the first level not yet won (level n opens when n − 1 is won)

    @property
    def kind(self) -> str:
        return (
            "bot speed" if self.bot_speed else "assisted" if self.assist else "colluding" if self.partner else "honest"
        )

    @property
    def mistake_rate(self) -> float:
        return 0.02 + 0.10 * (1 - self.skill)


@dataclass
class Tally:
    """What the bots did (the database's counts are in ``demo.summary``)."""

    counts: dict[str, int] = field(default_factory=dict)

    def add(self, what: str, n: int = 1) -> None:
        self.counts[what] = self.counts.get(what, 0) + n


class World:
    def __init__(self, *, players: int, days: int, seed: int, end: datetime):
        self.players, self.days, self.seed, self.end = players, days, seed, end
        self.rng = random.Random(seed)
        self.personas: list[Persona] = []
        self.by_account: dict[int, Persona] = {}
        self.tally = Tally()

    def device_id(self, i: int) -> str:
        """A bot's device id: long and varied as a new one must be (rivals.accounts.services)."""
        return f"demo-{self.seed}-{i:06d}-bot-device"

    def device_digests(self) -> list[str]:
        """What the account rows keep of the bots' device ids (their SHA-256: rivals.secrets)."""
        from rivals.secrets import secret_digest

        return [secret_digest(self.device_id(i)) for i in range(self.players)]

    def rng_for(self, *key) -> random.Random:
        """A generator of its own for one activity: what one bot does does not shift the others."""
        return random.Random(f"{self.seed}:" + ":".join(map(str, key)))

    def first_day(self) -> date:
        from rivals.romanian_time import romanian_day

        return romanian_day(self.end) - timedelta(days=self.days - 1)


def at(day: date, wall: time, *, plus_s: float = 0) -> datetime:
    """The UTC instant of ``wall`` o'clock Romanian time on ``day``, plus seconds."""
    from tournaments.services.schedules import romanian_instant

    return romanian_instant(day, wall) + timedelta(seconds=plus_s)


# --- beat, on the simulated clock ------------------------------------------------------------------


# Every periodic task of config/periodic.py takes the instant it runs at (``now``), as the tasks
# themselves define it; the heartbeat is left out on purpose: it proves that the real beat and
# worker are alive; so is the log's anchor (issue 31): a checkpoint of the real clock, written into
# RIVALS_ANCHOR_DIR by the real beat.
NOT_SIMULATED = {"rivals.heartbeat", "rivals.log_anchor"}


def beat(now: datetime, only: tuple[str, ...] | None = None) -> None:
    """Run the periodic jobs (or ``only`` these) once at the simulated instant ``now``: each
    task's own function, in this process, as ``jobs_run_due`` finds them by name."""
    from config.celery import app
    from config.periodic import PERIODIC_TASKS

    app.loader.import_default_modules()
    names = dict.fromkeys(spec["task"] for spec in PERIODIC_TASKS)
    for name in names:
        if name not in NOT_SIMULATED and (only is None or name in only):
            app.tasks[name].run(now=now.isoformat())


# --- the process while the world runs ----------------------------------------------------------------


SMALL_LAYOUT_TILES = 72


def round_layouts(choice: str) -> list[str]:
    """``small``: the shipped layouts of at most 72 tiles (rounds are most of the simulation's
    work); ``all``: what the settings say (``RIVALS_ROUND_LAYOUTS``, empty = every layout); else a
    comma-separated list of layout ids."""
    from rivals import engine

    if choice == "all":
        return list(settings.RIVALS["ROUND_LAYOUTS"])
    if choice == "small":
        return [lay.id for lay in engine.all_layouts() if lay.size <= SMALL_LAYOUT_TILES]
    ids = [part.strip().upper() for part in choice.split(",") if part.strip()]
    for layout_id in ids:
        engine.get_layout(layout_id)  # LayoutError for an unknown id
    return ids


@contextlib.contextmanager
def running(seed: int, layouts: list[str]):
    """What the simulation changes in its own process, and only while it runs:

    * ids and tournament seeds drawn by the services come from a generator seeded with ``seed``
      (and the size of the event log, so that a second world in the same database gets new ids):
      the same seed on a fresh database gives the same world;
    * competitive rounds are dealt on ``layouts`` (``RIVALS["ROUND_LAYOUTS"]``);
    * scheduled tasks go to an in-memory broker nothing consumes (the simulated beat covers them);
    * the connection commits without waiting for the disk (``synchronous_commit = off``: a crash
      could lose the last few fake transactions, never corrupt anything).
    """
    from config.celery import app

    ids = random.Random(f"{seed}:{Event.objects.count()}")

    def uuid4():
        return uuid.UUID(int=ids.getrandbits(128), version=4)

    def randbits(k):
        return ids.getrandbits(k)

    broker = app.conf.broker_url
    app.conf.broker_url = "memory://localhost/"
    # a session's setting: not through a pooler in transaction mode, where it would stay on a
    # server connection other clients get (config/pooler.py) — the simulation is slower there
    session = not direct.pooled()
    if session:
        with connection.cursor() as cur:
            cur.execute("SET synchronous_commit = off")
    try:
        with (
            mock.patch.object(uuid, "uuid4", uuid4),
            mock.patch.object(secrets, "randbits", randbits),
            mock.patch.dict(settings.RIVALS, {"ROUND_LAYOUTS": layouts}),
        ):
            yield
    finally:
        if session:
            with connection.cursor() as cur:
                cur.execute("SET synchronous_commit = DEFAULT")
        app.conf.broker_url = broker


def production() -> bool:
    return bool(getattr(settings, "PRODUCTION", False))
