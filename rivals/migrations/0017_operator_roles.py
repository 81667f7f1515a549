"""Issue 40: operators' roles — the Operator page (a proxy of Account), the permissions of what an
operator does to a player, and the four roles' groups. Every operator made before holds a role:
a superuser is an Administrator, any other staff account a Viewer (least privilege: an
Administrator gives it more). The groups' permissions are set after every migrate from
``rivals.accounts.roles`` (they name models of apps migrated after this one)."""

from django.db import migrations

import rivals.models.accounts

GROUPS = ("Administrator", "Game operations", "Support", "Viewer")  # rivals.accounts.roles.ROLES, as of now


def groups_create(apps, schema_editor):
    Group = apps.get_model("auth", "Group")
    Account = apps.get_model("rivals", "Account")
    db = schema_editor.connection.alias
    groups = {name: Group.objects.using(db).get_or_create(name=name)[0] for name in GROUPS}
    for account in Account.objects.using(db).filter(is_staff=True):
        if not account.groups.exists():
            account.groups.add(groups["Administrator" if account.is_superuser else "Viewer"])


class Migration(migrations.Migration):
    dependencies = [
        ("rivals", "0016_cache_table"),
        ("auth", "0012_alter_user_first_name_max_length"),
    ]

    operations = [
        migrations.CreateModel(
            name="Operator",
            fields=[],
            options={
                "verbose_name": "operator",
                "verbose_name_plural": "operators",
                "proxy": True,
                "indexes": [],
                "constraints": [],
            },
            bases=("rivals.account",),
            managers=[
                ("objects", rivals.models.accounts.OperatorManager()),
            ],
        ),
        migrations.AlterModelOptions(
            name="account",
            options={
                "permissions": [
                    ("grant_jokers", "Can grant and correct jokers"),
                    ("suspend_account", "Can suspend accounts and lift suspensions"),
                    ("close_account", "Can close and erase accounts"),
                    ("export_account", "Can export a player's data"),
                ]
            },
        ),
        migrations.RunPython(groups_create, migrations.RunPython.noop),
    ]
