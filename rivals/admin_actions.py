"""Operator actions that never lie (issue 22), shared by every admin module:

- ``confirm_then_apply``: an intermediate page inside the admin's frame that lists each selected
  row with the consequences the action will have on it (and whether it will be skipped, and
  why), asks for what the action needs — a reason for everything destructive or irreversible,
  recorded in the event — and only then calls the service once per row;
- ``report``: what the action did, row by row: a success message only for what succeeded, a
  warning naming each row it skipped and why;
- ``ObjectActionsMixin``: the same actions as buttons on an object's own page (they post to the
  list's action with that one row, and come back to the page);
- roles (issue 40, ``rivals.accounts.roles``): every action names the permissions it needs
  (``@admin.action(permissions=[…])`` and the ModelAdmin's ``has_<name>_permission``, e.g.
  ``permission_check("rivals.suspend_account")``); Django offers an operator only the actions
  their role allows, and ``ActionsAllowedMixin`` refuses a post of any other, saying so;
- ``NoticeForm``: an act on a player's account keeps the operator's note (``reason``, in the
  event for operators) apart from what the player is told (a reason code and, optionally, a
  message written for them: ``rivals.player_notice``).

Nothing irreversible is pre-ticked: the forms' checkboxes start unticked.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field

from django import forms
from django.contrib import admin, messages
from django.http import HttpResponseRedirect
from django.shortcuts import render
from django.urls import reverse
from django.utils.http import url_has_allowed_host_and_scheme

from rivals.errors import DomainError
from rivals.player_notice import MESSAGE_MAX, REASON_CODES

NOTE_HELP = "kept for operators (in the event and on these pages); the player never sees it"


class ReasonForm(forms.Form):
    reason = forms.CharField(
        max_length=300,
        label="Operator's note",
        widget=forms.Textarea(attrs={"rows": 3, "cols": 60}),
        help_text=NOTE_HELP,
    )


class NoticeForm(ReasonForm):
    """What the player is told (a reason code, an optional message for them) and the operator's
    note, under labels that say who reads each."""

    reason_code = forms.ChoiceField(
        label="Reason the player is told", choices=list(REASON_CODES.items()), help_text="the player reads this"
    )
    message = forms.CharField(
        required=False,
        max_length=MESSAGE_MAX,
        label="Message to the player (optional)",
        widget=forms.Textarea(attrs={"rows": 2, "cols": 60}),
        help_text="the player reads this, word for word — write it for them",
    )
    field_order = ("reason_code", "message", "reason")


def notice_form(default_code: str, base: type[forms.Form] = NoticeForm) -> type[forms.Form]:
    """``base`` (a ``NoticeForm``) with ``default_code`` chosen first."""

    class Form(base):
        def __init__(self, *args, **kwargs):
            super().__init__(*args, **kwargs)
            self.fields["reason_code"].initial = default_code

    Form.__name__ = base.__name__
    return Form


def notice_of(data: dict) -> dict:
    """The service keywords of a ``NoticeForm``'s cleaned data: the note and what the player is told."""
    return {"reason": data["reason"], "reason_code": data["reason_code"], "message": data.get("message", "")}


def permission_check(perm: str):
    """A ModelAdmin's ``has_<name>_permission`` for an action's ``permissions=[name]``: the
    operator's role holds ``perm`` (``app_label.codename``)."""

    def check(self, request, obj=None) -> bool:
        return request.user.has_perm(perm)

    return check


@dataclass
class Row:
    """One selected row on the confirmation page: its label, what the action will do to it, and
    why it will be skipped (None: it will not be)."""

    obj: object
    label: str
    consequences: list = field(default_factory=list)
    skip: str | None = None


def actor_of(request) -> str:
    return f"operator:{request.user.pk}"


def _next_url(request) -> str | None:
    target = request.POST.get("next") or ""
    if target and url_has_allowed_host_and_scheme(target, allowed_hosts={request.get_host()}):
        return target
    return None


def report(modeladmin, request, title: str, done: list[str], skipped: list[tuple[str, str]]) -> None:
    """The messages of an action: what it did (only if it did something), each row it skipped
    and why, and "nothing done" when it did nothing."""
    if done:
        modeladmin.message_user(request, f"{title}: {len(done)} done — {'; '.join(done)}", messages.SUCCESS)
    for label, why in skipped:
        modeladmin.message_user(request, f"{title}: skipped {label} — {why}", messages.WARNING)
    if not done:
        modeladmin.message_user(request, f"{title}: nothing done", messages.WARNING)


def confirm_then_apply(
    modeladmin,
    request,
    queryset,
    *,
    name: str,
    title: str,
    explain: str,
    rows: Callable[[object], Row],
    apply: Callable[[object, dict, str], str | None],
    form_class: type[forms.Form] = ReasonForm,
    ordering: Iterable[str] = ("pk",),
    danger: bool = False,
):
    """The intermediate page of ``name``, then ``apply(obj, cleaned_data, actor)`` per row that is
    not skipped; ``apply`` returns what it did in words (or raises ``DomainError``: then the row
    is reported as skipped with the service's reason)."""
    objects = list(queryset.order_by(*ordering))
    planned = [rows(obj) for obj in objects]
    applying = "apply" in request.POST
    form = form_class(request.POST if applying else None)
    if applying and form.is_valid():
        done, skipped = [], []
        for row in planned:
            if row.skip:
                skipped.append((row.label, row.skip))
                continue
            try:
                said = apply(row.obj, form.cleaned_data, actor_of(request))
            except DomainError as exc:
                skipped.append((row.label, exc.message))
                continue
            done.append(f"{row.label}{': ' + said if said else ''}")
        report(modeladmin, request, title, done, skipped)
        target = _next_url(request)
        return HttpResponseRedirect(target) if target else None
    context = {
        **modeladmin.admin_site.each_context(request),
        "title": title,
        "explain": explain,
        "form": form,
        "rows": planned,
        "acting": sum(1 for r in planned if not r.skip),
        "action": name,
        "danger": danger,
        "next": _next_url(request) or "",
        "opts": modeladmin.model._meta,
        "action_checkbox_name": admin.helpers.ACTION_CHECKBOX_NAME,
    }
    return render(request, "admin/rivals/confirm_action.html", context)


class ActionsAllowedMixin:
    """A post of an action the operator's role does not allow (Django's own list leaves it out,
    so it would only say "No action selected", or nothing when the role has no action at all)
    changes nothing and says so."""

    def changelist_view(self, request, extra_context=None):
        name = request.POST.get("action", "") if request.method == "POST" else ""
        if name and name not in self.get_actions(request):
            declared = {n: description for _, n, description in self._get_base_actions()}
            if name in declared:
                roles = ", ".join(request.user.groups.values_list("name", flat=True)) or "none"
                self.message_user(
                    request,
                    f"“{declared[name]}” is not allowed to your role ({roles}): nothing was changed",
                    messages.ERROR,
                )
                return HttpResponseRedirect(_next_url(request) or request.get_full_path())
        return super().changelist_view(request, extra_context)


class ObjectActionsMixin(ActionsAllowedMixin):
    """Buttons on an object's page for the list's actions: ``object_actions`` names them with
    the button's label, ``object_action_shown(obj, name)`` hides those that do not apply to it
    (and those the operator's role does not allow: ``get_actions``)."""

    object_actions: tuple[tuple[str, str], ...] = ()
    change_form_template = "admin/rivals/change_form_actions.html"

    def object_action_shown(self, obj, name: str) -> bool:
        return True

    def _object_buttons(self, request, obj) -> list[dict]:
        actions = self.get_actions(request)
        changelist = reverse(f"admin:{self.opts.app_label}_{self.opts.model_name}_changelist")
        here = request.get_full_path()
        return [
            {"action": name, "label": label, "url": changelist, "pk": obj.pk, "next": here}
            for name, label in self.object_actions
            if name in actions and self.object_action_shown(obj, name)
        ]

    def change_view(self, request, object_id, form_url="", extra_context=None):
        obj = self.get_object(request, object_id)
        if obj is not None:
            extra_context = {
                **(extra_context or {}),
                "object_buttons": self._object_buttons(request, obj),
                "action_checkbox_name": admin.helpers.ACTION_CHECKBOX_NAME,
            }
        return super().change_view(request, object_id, form_url, extra_context)
