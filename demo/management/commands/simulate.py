"""``python manage.py simulate [--players 200] [--days 14] [--seed 2026] [--until ISO] [--quiet]``: a demo world.

Bots sign in as guests, claim daily bonuses, play levels, Quick Matches, Arenas, Duels, a
tournament and a Champions tournament a day through the real services, on a simulated clock that
walks through the last ``--days`` Romanian days and stops at the present (``demo.day``). A few
bot-speed players get flagged by fair play; a few solver-assisted players and colluding pairs
(issue 36, ``demo.play_style``) are for R-42's signals to find — the summary sets the flags
against the bots' hidden kind. Refused in production: it writes fake players.
"""

from __future__ import annotations

import sys
import time as wall_time
from datetime import timedelta

from django.core.management.base import BaseCommand, CommandError
from django.utils import timezone
from django.utils.dateparse import parse_datetime
from tqdm import tqdm

from demo import day as days
from demo import world as w
from demo.population import populate
from demo.summary import flags_against_kind, ratings_against_skill, summary_lines, world_counts
from rivals.models import Account, Event

DEFAULT_SEED = 2026


class Command(BaseCommand):
    help = (
        "Fill the database with a demo world: bots play levels, matches and tournaments through the real "
        "services over the last DAYS days (never in production)."
    )

    def add_arguments(self, parser):
        parser.add_argument("--players", type=int, default=200, help="bot players (at least 8; default 200)")
        parser.add_argument("--days", type=int, default=14, help="simulated days up to today (default 14)")
        parser.add_argument(
            "--seed",
            type=int,
            default=DEFAULT_SEED,
            help=f"the same seed on a fresh database gives the same world (default {DEFAULT_SEED})",
        )
        parser.add_argument(
            "--round-layouts",
            default="small",
            help="layouts of the competitive rounds: small (at most 72 tiles, the default: "
            "fast), all (as the settings say) or ids, e.g. L00,L08",
        )
        parser.add_argument(
            "--until",
            default="",
            help="the present of the world, ISO 8601 with offset (default: now; with a fixed "
            "--until and --seed a fresh database gets the very same world)",
        )
        parser.add_argument("--quiet", action="store_true", help="no progress bar, only the summary")

    def handle(self, *args, **o):
        if w.production():
            raise CommandError(
                "simulate writes fake players and games: it refuses to run with DJANGO_PRODUCTION "
                "settings. Run it on a development or demo database."
            )
        players, n_days, seed = o["players"], o["days"], o["seed"]
        if players < 8:
            raise CommandError("--players must be at least 8 (a tournament needs a few tables)")
        if not 1 <= n_days <= 366:
            raise CommandError("--days must be 1…366")
        try:
            layouts = w.round_layouts(o["round_layouts"])
        except (KeyError, ValueError) as exc:  # an unknown layout id (LayoutError)
            raise CommandError(f"--round-layouts: {exc}") from exc
        end = timezone.now().replace(microsecond=0)
        if o["until"]:
            end = parse_datetime(o["until"].replace("Z", "+00:00"))
            if end is None or end.tzinfo is None or end > timezone.now():
                raise CommandError("--until: an ISO 8601 date-time with offset, not in the future")
        world = w.World(players=players, days=n_days, seed=seed, end=end)
        if Account.objects.filter(device_id=world.device_digests()[0]).exists():
            raise CommandError(
                f"this database already holds the demo world of seed {seed}: use another --seed or a fresh database"
            )
        started = wall_time.perf_counter()
        events_before = Event.objects.count()
        first = world.first_day()
        bar = tqdm(
            total=1 + n_days * len(days.PHASES),
            unit="step",
            disable=o["quiet"],
            file=sys.stderr,
            desc="simulate",
            dynamic_ncols=True,
        )
        with w.running(seed, layouts), bar:
            bar.set_postfix_str("players and clubs")
            populate(world)
            bar.update(1)
            for k in range(n_days):
                days.simulate_day(world, first + timedelta(days=k), progress=bar)
            w.beat(world.end)  # what is due at the present (the real beat takes over from here)
        counts = world_counts(device_digests=world.device_digests(), events_before=events_before)
        counts["ratings against the bots' hidden skill"] = ratings_against_skill(
            {p.account.pk: p.skill for p in world.personas}
        )
        counts["fair-play signals against the bots' hidden kind (R-42)"] = flags_against_kind(
            {p.account.pk: p.kind for p in world.personas}
        )
        elapsed = wall_time.perf_counter() - started
        self.stdout.write(
            self.style.SUCCESS(
                f"Simulated {players} players over {n_days} days ({first} … {world.end:%Y-%m-%d %H:%M} UTC) "
                f"in {elapsed:.0f} s:"
            )
        )
        for line in summary_lines(counts):
            self.stdout.write(line)
        if o["verbosity"] > 1:
            for what, n in sorted(world.tally.counts.items()):
                self.stdout.write(f"  bots: {what}: {n}")
