"""``manage.py dev_operator``: ``make run``'s development superuser (issue 22) — created through the
services (``OperatorCreated``) with a printed password, or given ``RIVALS_ADMIN_PASSWORD`` again
when it exists (how a lost password is set: that, or ``manage.py changepassword admin``)."""

import os

from django.core.management.base import BaseCommand

from rivals.accounts.operators import dev_operator_ensure


class Command(BaseCommand):
    help = "Create the development superuser (or set its password from RIVALS_ADMIN_PASSWORD)."

    def add_arguments(self, parser):
        parser.add_argument("--username", default=os.environ.get("RIVALS_ADMIN_USER", "admin"))

    def handle(self, *args, username, **options):
        dev = dev_operator_ensure(username=username, password=os.environ.get("RIVALS_ADMIN_PASSWORD") or None)
        if dev.created:
            self.stdout.write(self.style.WARNING(f"admin sign-in: {dev.username} / {dev.password}  (created now)"))
        elif dev.password:
            self.stdout.write(
                self.style.WARNING(f"admin sign-in: {dev.username} / {dev.password}  (RIVALS_ADMIN_PASSWORD)")
            )
        else:
            self.stdout.write(
                f"admin sign-in: {dev.username} (exists; password unchanged — RIVALS_ADMIN_PASSWORD=… make run "
                f"or manage.py changepassword {dev.username} sets a new one)"
            )
