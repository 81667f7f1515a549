"""Operators' roles (issue 40, API.md "Operators"): Django groups and permissions, least privilege.

- **Administrator**: everything, and manages operators — a superuser (``createsuperuser`` makes
  one), in the group of that name;
- **Game operations**: tournaments, schedules, pots, periodic jobs, a round's end, joker grants
  and corrections;
- **Support**: players' reports (name resets, club renames), fair-play review, suspensions and
  lifts, closing and erasing accounts, data exports;
- **Viewer**: reads everything, changes nothing.

Every role reads every page of the admin (the ``view`` permission of every model the admin shows);
what a role may change is ``GRANTS``. The admin enforces it with Django's own checks: each action
names the permissions it needs (``@admin.action(permissions=…)``, the ModelAdmin's
``has_<name>_permission``), so an action a role may not run is not offered, and a post of it
anyway is refused (``rivals.admin_actions.ActionsAllowedMixin``).

The groups are created by migration ``rivals 0016``; their permissions are set from this module
after every ``migrate`` (``roles_sync``, on ``post_migrate``) — so a model added later is readable
by every role without a migration of its own, and a role's grants are code, reviewed like code.
"""

from __future__ import annotations

ADMINISTRATOR, GAME_OPS, SUPPORT, VIEWER = "administrator", "game_ops", "support", "viewer"
# role → the group's name (what the admin shows)
ROLES = {
    ADMINISTRATOR: "Administrator",
    GAME_OPS: "Game operations",
    SUPPORT: "Support",
    VIEWER: "Viewer",
}
ROLE_CHOICES = tuple(ROLES.items())
# what each may do, as the Operators page says it
ROLE_SUMMARY = {
    ADMINISTRATOR: "everything, and manages operators (adds them, changes their role, removes them)",
    GAME_OPS: "tournaments, recurring schedules, pots, periodic jobs, ending a round, joker grants and corrections",
    SUPPORT: "players' reports, name resets and club renames, fair-play review, suspensions and lifts, closing and "
    "erasing accounts, data exports",
    VIEWER: "reads every page, changes nothing",
}

# what each role may change (``app_label.codename``), beyond reading everything
GRANTS: dict[str, tuple[str, ...]] = {
    GAME_OPS: (
        "tournaments.add_tournament",
        "tournaments.change_tournament",  # edit a scheduled one, cancel
        "tournaments.add_pot",
        "tournaments.add_recurringschedule",
        "tournaments.change_recurringschedule",  # edit, deactivate, retire, reactivate
        "django_celery_beat.change_periodictask",  # pause and resume
        "matches.change_round",  # end a round now
        "rivals.grant_jokers",  # grant and correct jokers
    ),
    SUPPORT: (
        "reports.change_report",  # dismiss, uphold, reset a display name, rename a club
        "fairplay.change_fairplayflag",  # review a flag
        "rivals.suspend_account",  # suspend, lift
        "rivals.close_account",  # close, erase
        "rivals.export_account",  # a player's data export
    ),
    VIEWER: (),
}
# apps whose models the admin does not show: no role reads them (Django's own bookkeeping)
UNSHOWN_APPS = frozenset({"admin", "auth", "contenttypes", "sessions"})


def role_label(role: str | None) -> str:
    return ROLES.get(role or "", "no role")


def role_of(account) -> str | None:
    """The operator's role (None: not an operator, or an operator in no role's group)."""
    if not account.is_staff:
        return None
    if account.is_superuser:
        return ADMINISTRATOR
    names = set(account.groups.values_list("name", flat=True))
    return next((role for role, group in ROLES.items() if group in names and role != ADMINISTRATOR), None)


def role_assign(account, role: str) -> None:
    """Make ``account`` hold ``role`` alone: its group, and superuser for an Administrator (the
    caller saves nothing else and appends the event)."""
    from django.contrib.auth.models import Group

    if role not in ROLES:
        raise ValueError(f"unknown role {role!r}")
    account.is_superuser = role == ADMINISTRATOR
    account.save(update_fields=["is_superuser"])
    group, _ = Group.objects.get_or_create(name=ROLES[role])
    account.groups.set([group])


def roles_sync(*, apps=None, using: str = "default") -> None:
    """The four groups and their permissions as this module says (idempotent). ``apps``: a
    migration's historical registry (else the current models). Permissions not created yet (a
    model added by a later migration) are left to the next ``migrate``'s run."""
    if apps is None:
        from django.apps import apps as current

        apps = current
    Group = apps.get_model("auth", "Group")
    Permission = apps.get_model("auth", "Permission")
    readable = [
        p.pk
        for p in Permission.objects.using(using).filter(codename__startswith="view_").select_related("content_type")
        if p.content_type.app_label not in UNSHOWN_APPS
    ]
    for role, name in ROLES.items():
        group, _ = Group.objects.using(using).get_or_create(name=name)
        if role == ADMINISTRATOR:
            group.permissions.set([])  # a superuser: every permission, of every model to come
            continue
        granted = []
        for dotted in GRANTS[role]:
            app_label, codename = dotted.split(".", 1)
            granted += list(
                Permission.objects.using(using)
                .filter(content_type__app_label=app_label, codename=codename)
                .values_list("pk", flat=True)
            )
        group.permissions.set(readable + granted)


def roles_sync_after_migrate(sender, using="default", **kwargs) -> None:
    """``post_migrate``: every app's permissions first (Django makes them app by app, and this
    may run before the last app's), then the groups'."""
    from django.apps import apps
    from django.contrib.auth.management import create_permissions

    for app_config in apps.get_app_configs():
        create_permissions(app_config, verbosity=0, using=using)
    roles_sync(using=using)
