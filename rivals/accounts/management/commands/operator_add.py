"""``manage.py operator_add NAME --role administrator|game_ops|support|viewer [--by OPERATOR]``:
onboard an operator (issue 40) — an ``OperatorCreated`` event with the acting operator (``--by``,
else ``operator:cli``). The password comes from ``RIVALS_OPERATOR_PASSWORD``, else it is asked
(twice, not echoed)."""

from __future__ import annotations

import getpass
import os

from django.contrib.auth.password_validation import validate_password
from django.core.exceptions import ValidationError
from django.core.management.base import BaseCommand, CommandError

from rivals.accounts.operators import operator_actor, operator_create
from rivals.accounts.roles import ROLES, role_label
from rivals.errors import DomainError


class Command(BaseCommand):
    help = "Add an operator with a role (password from RIVALS_OPERATOR_PASSWORD, else asked)."

    def add_arguments(self, parser):
        parser.add_argument("username")
        parser.add_argument("--role", required=True, choices=list(ROLES))
        parser.add_argument("--by", default="", help="the username of the operator doing it (else operator:cli)")

    def _password(self) -> str:
        password = os.environ.get("RIVALS_OPERATOR_PASSWORD", "")
        if not password:
            password = getpass.getpass("Password: ")
            if password != getpass.getpass("Password (again): "):
                raise CommandError("the two passwords differ")
        try:
            validate_password(password)
        except ValidationError as exc:
            raise CommandError("; ".join(exc.messages)) from exc
        return password

    def handle(self, *args, username, role, by, **options):
        try:
            actor = operator_actor(by)
            made = operator_create(username=username, password=self._password(), role=role, actor=actor)
        except DomainError as exc:
            raise CommandError(exc.message) from exc
        self.stdout.write(f"operator {made.username} (#{made.pk}) added: {role_label(role)}")
