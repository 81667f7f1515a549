"""Issue 25: the board row (``rivals_game``) is rewritten whole by every accepted intent (the
deal's faces, the undo stack, the cached plan: about 1.4 KB). No indexed column changes on a pair
(the indexes hold ``id``, ``account_id``, ``status``, ``time_limit_ms`` and ``round_id``: the
status moves only when the game ends), so each UPDATE may be HOT — the new row version on the same
page, no index entry written — but only if the page has room for it. Pages packed full (the
default fillfactor, 100) leave none, and every pair then writes the row on another page and a new
entry in each of the table's five indexes. A fillfactor of 70 leaves 30 % of each page (about
2.4 KB: more than one row version) to the updates of the rows on it; the page's dead versions are
pruned as it fills up again.

The setting applies to pages filled from now on: existing rows stay where they are (a finished
game is never written again) until a table rewrite (``VACUUM FULL``) — not done here, as it would
lock the table.
"""

from django.db import migrations


class Migration(migrations.Migration):
    dependencies = [
        ("rivals", "0011_event_partitions"),
    ]

    operations = [
        migrations.RunSQL(
            "ALTER TABLE rivals_game SET (fillfactor = 70)",
            reverse_sql="ALTER TABLE rivals_game RESET (fillfactor)",
        ),
    ]
