"""R-36: closing an account unlinks its device. Accounts closed before without erasure kept their
device id's digest (and the guest username made of it), so that device signed in to the closed
account: unlink them as ``account_close`` now does."""

from django.db import migrations


class Migration(migrations.Migration):
    dependencies = [("rivals", "0014_event_unlinked")]

    operations = [
        migrations.RunSQL(
            "UPDATE rivals_account SET "
            "username = CASE WHEN username = 'guest-' || left(device_id, 24) THEN 'closed-' || id ELSE username END, "
            "device_id = NULL, device_unlinked_at = NULL "
            "WHERE closed_at IS NOT NULL AND device_id IS NOT NULL",
            migrations.RunSQL.noop,
        )
    ]
