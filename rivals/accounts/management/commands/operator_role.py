"""``manage.py operator_role NAME ROLE [--reason R] [--by OPERATOR]``: give an operator another
role (issue 40) — an ``OperatorRoleChanged`` event; the last Administrator keeps theirs."""

from __future__ import annotations

from django.core.management.base import BaseCommand, CommandError

from rivals.accounts.operators import operator_actor, operator_role_change
from rivals.accounts.roles import ROLES, role_label
from rivals.errors import DomainError
from rivals.models import Account


class Command(BaseCommand):
    help = "Change an operator's role (administrator, game_ops, support, viewer)."

    def add_arguments(self, parser):
        parser.add_argument("username")
        parser.add_argument("role", choices=list(ROLES))
        parser.add_argument("--reason", default="", help="a note for operators")
        parser.add_argument("--by", default="", help="the username of the operator doing it (else operator:cli)")

    def handle(self, *args, username, role, reason, by, **options):
        account = Account.objects.filter(username=username, is_staff=True).first()
        if account is None:
            raise CommandError(f"no operator is named {username!r}")
        try:
            operator_role_change(account=account, role=role, reason=reason, actor=operator_actor(by))
        except DomainError as exc:
            raise CommandError(exc.message) from exc
        self.stdout.write(f"operator {username} is now {role_label(role)}")
