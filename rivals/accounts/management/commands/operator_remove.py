"""``manage.py operator_remove NAME --reason R [--by OPERATOR]``: offboard an operator (issue 40) —
an ``OperatorRemoved`` event; they can no longer sign in, their past actions stay attributed to
them. The last Administrator cannot be removed."""

from __future__ import annotations

from django.core.management.base import BaseCommand, CommandError

from rivals.accounts.operators import operator_actor, operator_remove
from rivals.errors import DomainError
from rivals.models import Account


class Command(BaseCommand):
    help = "Remove an operator: no sign-in from now on; their past actions stay attributed."

    def add_arguments(self, parser):
        parser.add_argument("username")
        parser.add_argument("--reason", required=True, help="why (kept in the event, for operators)")
        parser.add_argument("--by", default="", help="the username of the operator doing it (else operator:cli)")

    def handle(self, *args, username, reason, by, **options):
        account = Account.objects.filter(username=username, is_staff=True).first()
        if account is None:
            raise CommandError(f"no operator is named {username!r}")
        try:
            operator_remove(account=account, reason=reason, actor=operator_actor(by))
        except DomainError as exc:
            raise CommandError(exc.message) from exc
        self.stdout.write(f"operator {username} removed: no sign-in from now on")
