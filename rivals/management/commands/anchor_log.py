"""``python manage.py anchor_log``: what the ``log-anchor`` job does, now — check that the event log
extends its latest anchor, then write the next one (``rivals.eventanchor``). Exit 1, naming the
stream and version, when it does not.

    python manage.py anchor_log                      # RIVALS_ANCHOR_DIR
    python manage.py anchor_log --dir DIR
    python manage.py anchor_log --accept "restored from the 03:00 backup"

``--accept REASON`` anchors the log as it is even so — after a restore from backup, or once a
rewrite was investigated — in a full anchor that records the reason and every break it accepted.
"""

from __future__ import annotations

from django.core.management.base import BaseCommand, CommandError

from rivals.eventanchor import AnchorError, AnchorRefused, log_anchor_write


class Command(BaseCommand):
    help = "Check the event log against its latest anchor and write the next anchor (exit 1 on a rewrite)."

    def add_arguments(self, parser):
        parser.add_argument("--dir", metavar="DIR", help="the anchors' directory (default: RIVALS_ANCHOR_DIR)")
        parser.add_argument("--accept", metavar="REASON", default="", help="anchor the log as it is, recording why")

    def handle(self, *args, dir=None, accept="", **options):
        try:
            self.stdout.write(log_anchor_write(directory=dir, accept=accept.strip()))
        except (AnchorRefused, AnchorError) as exc:
            raise CommandError(str(exc)) from None
