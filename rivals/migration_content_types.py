"""A model's content type follows it when it moves from one app to another (issue 33's state-only
moves out of ``rivals``), for the moves' migrations.

Its permissions, the operators' groups that hold them and the admin's log entries stay attached.
Where the target's content type exists already — ``post_migrate`` made it after a partial migrate
that ran the current code (a test migrates to an old state first) — the two are merged: each of
the source's permissions is folded into the target's of the same codename (the groups and
operators that held it keep it), the log entries are repointed, and the source's content type is
removed. Nothing is lost in either case.
"""

from __future__ import annotations

from django.conf import settings


def move_content_types(apps, source: str, target: str, models: tuple[str, ...]) -> None:
    ContentType = apps.get_model("contenttypes", "ContentType")
    for model in models:
        old = ContentType.objects.filter(app_label=source, model=model).first()
        if old is None:
            continue
        new = ContentType.objects.filter(app_label=target, model=model).first()
        if new is None:
            old.app_label = target
            old.save(update_fields=["app_label"])
            continue
        _merge(apps, old, new)


def _merge(apps, old, new) -> None:
    Permission = apps.get_model("auth", "Permission")
    Group = apps.get_model("auth", "Group")
    User = apps.get_model(settings.AUTH_USER_MODEL)
    holders = [Group.permissions.through, User.user_permissions.through]
    for perm in Permission.objects.filter(content_type=old):
        same = Permission.objects.filter(content_type=new, codename=perm.codename).first()
        if same is None:
            perm.content_type = new
            perm.save(update_fields=["content_type"])
            continue
        for through in holders:
            owner = next(f.name for f in through._meta.fields if f.name not in ("id", "permission"))
            for row in through.objects.filter(permission=perm):
                through.objects.get_or_create(**{owner: getattr(row, owner), "permission": same})
        perm.delete()
    try:
        LogEntry = apps.get_model("admin", "LogEntry")
    except LookupError:  # the admin's tables come later in this plan: no entry to keep
        LogEntry = None
    if LogEntry is not None:
        LogEntry.objects.filter(content_type=old).update(content_type=new)
    old.delete()
