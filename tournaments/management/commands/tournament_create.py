"""``python manage.py tournament_create --kind regular --title T --starts-at ISO --ends-at ISO
[--registration-opens ISO] --min-players N --prizes 100,50,25 --multipliers 1,2,3`` prints the id."""

from __future__ import annotations

from django.core.management.base import BaseCommand, CommandError
from django.utils.dateparse import parse_datetime

from rivals.errors import DomainError
from tournaments.services.lifecycle import tournament_create


def _when(value: str, name: str):
    at = parse_datetime(value.replace("Z", "+00:00")) if value else None
    if at is None or at.tzinfo is None:
        raise CommandError(f"--{name}: an ISO 8601 date-time with offset, e.g. 2026-06-01T18:00:00Z")
    return at


class Command(BaseCommand):
    help = "Create a tournament (a TournamentCreated event with actor operator:cli) and print its id."

    def add_arguments(self, parser):
        parser.add_argument("--kind", choices=["regular", "champions"], default="regular")
        parser.add_argument("--title", required=True)
        parser.add_argument("--starts-at", required=True)
        parser.add_argument("--ends-at", required=True)
        parser.add_argument("--registration-opens", default="")
        parser.add_argument("--min-players", type=int, required=True)
        parser.add_argument("--prizes", default="", help="points per final place, e.g. 100,50,25")
        parser.add_argument("--multipliers", default="", help="TP multiplier per wave, 1…6, e.g. 1,2,3")
        parser.add_argument("--actor", default="operator:cli")

    def handle(self, *args, **o):
        settings = {
            "kind": o["kind"],
            "title": o["title"],
            "starts_at": _when(o["starts_at"], "starts-at"),
            "ends_at": _when(o["ends_at"], "ends-at"),
            "min_players": o["min_players"],
            "prize_table": o["prizes"],
            "multipliers": o["multipliers"],
        }
        if o["registration_opens"]:
            settings["registration_opens_at"] = _when(o["registration_opens"], "registration-opens")
        try:
            t = tournament_create(actor=o["actor"], **settings)
        except DomainError as exc:
            raise CommandError(f"{exc.message} {exc.details or ''}".strip()) from exc
        self.stdout.write(str(t.pk))
