"""The Operators page (issue 40): the admin's staff, each with one role (``rivals.accounts.roles``).
An Administrator adds an operator with a role and a password, changes an operator's role and
removes an operator (offboarding: no sign-in from then on; their past actions stay attributed to
them) — each a service call and an event with the Administrator as actor (``OperatorCreated``,
``OperatorRoleChanged``, ``OperatorRemoved``); the last Administrator is neither removed nor
demoted. Every other role reads the page. The same from scripts: ``manage.py operator_add``,
``operator_role``, ``operator_remove``."""

from __future__ import annotations

from django import forms
from django.contrib import admin
from django.contrib.auth.forms import BaseUserCreationForm
from django.core.exceptions import ValidationError
from django.db.models import Q
from django.http import HttpResponseRedirect
from django.urls import reverse
from django.utils.html import format_html

from rivals.accounts.events import ADMIN_SIGNED_IN
from rivals.accounts.operators import operator_create, operator_remove, operator_role_change
from rivals.accounts.roles import ADMINISTRATOR, ROLE_CHOICES, ROLE_SUMMARY, role_label, role_of
from rivals.admin_actions import ObjectActionsMixin, ReasonForm, Row, actor_of, confirm_then_apply, permission_check
from rivals.admin_base import choice_filter
from rivals.admin_display import events_url, url, when
from rivals.errors import DomainError
from rivals.models import Account, Event, Operator


class OperatorAddForm(BaseUserCreationForm):
    """A new operator's username, role and password; saved by ``operator_create`` (an event),
    never by the form."""

    role = forms.ChoiceField(choices=ROLE_CHOICES, help_text="what they may do: see the Operators page")

    class Meta:
        model = Operator
        fields = ("username",)


class RoleForm(forms.Form):
    role = forms.ChoiceField(choices=ROLE_CHOICES, label="new role")
    reason = forms.CharField(
        required=False,
        max_length=300,
        label="Note (optional)",
        widget=forms.Textarea(attrs={"rows": 2, "cols": 60}),
        help_text="kept in the operator's history",
    )


def _administrators_besides(account: Account) -> int:
    return Account.objects.filter(is_staff=True, is_active=True, is_superuser=True).exclude(pk=account.pk).count()


def _label(account: Account) -> str:
    return f"{account.username} (#{account.pk}, {role_label(role_of(account))})"


def _last_administrator(account: Account) -> str | None:
    if role_of(account) == ADMINISTRATOR and not _administrators_besides(account):
        return "the last Administrator: make another Administrator first"
    return None


def _role_rows(a: Account) -> Row:
    skip = ("removed" if not a.is_active else None) or _last_administrator(a)
    lines = [f"{role} may do: {ROLE_SUMMARY[code]}" for code, role in ROLE_CHOICES]
    return Row(a, _label(a), ["takes the role you choose below, and only that one", *lines], skip)


@admin.action(description="Change the role", permissions=["manage"])
def change_role(modeladmin, request, queryset):
    def apply(a, d, actor):
        operator_role_change(account=a, role=d["role"], reason=d["reason"], actor=actor)
        return f"now {role_label(d['role'])}"

    return confirm_then_apply(
        modeladmin,
        request,
        queryset,
        name="change_role",
        title="Change roles",
        explain="Each operator below holds the new role from their next page on (one role each). The last "
        "Administrator keeps theirs.",
        form_class=RoleForm,
        rows=_role_rows,
        apply=apply,
    )


def _remove_rows(a: Account) -> Row:
    skip = ("already removed" if not a.is_active else None) or _last_administrator(a)
    lines = [
        (
            "can no longer sign in: the pages they have open stop working at their next click, their password is "
            "made unusable and their role taken away"
        ),
        "their past actions stay in the history under their name",
    ]
    return Row(a, _label(a), lines, skip)


@admin.action(description="Remove (offboarding)", permissions=["manage"])
def remove_operators(modeladmin, request, queryset):
    return confirm_then_apply(
        modeladmin,
        request,
        queryset,
        name="remove_operators",
        title="Remove operators",
        explain="Offboarding: each operator below can no longer sign in. The account stays (their past actions "
        "name them); it cannot be given a role again — add a new operator instead.",
        form_class=ReasonForm,
        rows=_remove_rows,
        apply=lambda a, d, actor: operator_remove(account=a, reason=d["reason"], actor=actor) and "removed",
        danger=True,
    )


StateFilter = choice_filter(
    "state", "state", {"active": ("active", Q(is_active=True)), "removed": ("removed", Q(is_active=False))}
)


@admin.register(Operator)
class OperatorAdmin(ObjectActionsMixin, admin.ModelAdmin):
    list_display = ("username", "role", "state", "last_sign_in", "added")
    list_filter = (StateFilter,)
    search_fields = ("username",)
    ordering = ("-is_active", "username")
    actions = [change_role, remove_operators]
    object_actions = (("change_role", "Change the role…"), ("remove_operators", "Remove…"))
    fields = ("username", "role", "may_do", "state", "added", "last_sign_in", "history")
    readonly_fields = fields
    add_fieldsets = (("A new operator", {"fields": ("username", "role", "password1", "password2")}),)
    has_manage_permission = permission_check("rivals.change_operator")

    def get_fieldsets(self, request, obj=None):
        return self.add_fieldsets if obj is None else [(None, {"fields": self.fields})]

    def get_readonly_fields(self, request, obj=None):
        return () if obj is None else self.readonly_fields

    def get_form(self, request, obj=None, **kwargs):
        if obj is None:
            kwargs["form"] = OperatorAddForm
            kwargs["fields"] = None
        return super().get_form(request, obj, **kwargs)

    def has_change_permission(self, request, obj=None):
        return False  # a role changes by its action (an event), never in a form

    def has_delete_permission(self, request, obj=None):
        return False  # removed, not deleted: their past actions name them

    def object_action_shown(self, obj: Account, name: str) -> bool:
        return obj.is_active

    def save_model(self, request, obj, form, change):
        """ "Add": the operator, through the service (``OperatorCreated``)."""
        try:
            made = operator_create(
                username=form.cleaned_data["username"],
                password=form.cleaned_data["password1"],
                role=form.cleaned_data["role"],
                actor=actor_of(request),
            )
        except DomainError as exc:
            raise ValidationError(exc.message) from exc
        obj.pk = made.pk
        obj.refresh_from_db()

    def save_related(self, request, form, formsets, change):
        return None  # the role was given by the service

    def response_add(self, request, obj, post_url_continue=None):
        """To the new operator's page, not back to the list."""
        super().response_add(request, obj, post_url_continue)  # its message
        return HttpResponseRedirect(reverse("admin:rivals_operator_change", args=[obj.pk]))

    @admin.display(description="role")
    def role(self, obj: Account) -> str:
        return role_label(role_of(obj)) if obj.is_active else "—"

    @admin.display(description="may do")
    def may_do(self, obj: Account) -> str:
        role = role_of(obj)
        return ROLE_SUMMARY[role] if obj.is_active and role else "nothing"

    @admin.display(description="state")
    def state(self, obj: Account) -> str:
        return "active" if obj.is_active else "removed: can no longer sign in"

    @admin.display(description="added")
    def added(self, obj: Account) -> str:
        return when(obj.date_joined)

    @admin.display(description="last sign-in")
    def last_sign_in(self, obj: Account) -> str:
        at = (
            Event.objects.filter(stream_id=obj.stream_id, type=ADMIN_SIGNED_IN)
            .order_by("-version")
            .values_list("recorded_at", flat=True)
            .first()
        )
        return when(at) if at else "never"

    @admin.display(description="history")
    def history(self, obj: Account):
        return format_html(
            '<a href="{}">added, roles, removal and sign-ins</a> · <a href="{}">what they did</a>',
            events_url(obj.stream_id),
            url("admin:rivals_event_changelist") + f"?actor=operator:{obj.pk}",
        )
