"""The player page (issue 22): a game-operator page, not Django's user-permissions form — the key
figures of the player, links to everything the player did, and the operator actions as buttons
(grant jokers, correct a grant, suspend, lift, close), each a service call that appends an event
with the operator as actor and, where it cannot be undone, a reason. Nothing on the page is
edited in place: every change to a player is an event. "Add" makes an operator (an event too).

Accounts are never deleted here: a deletion would orphan the account's events (and
``rebuild_projections`` could not restore it). Closing is an event (``AccountClosed``) and, with
erasure, destroys the player's personal data without rewriting any event (``rivals.personal``).
"""

from __future__ import annotations

from django import forms
from django.contrib import admin
from django.contrib.auth.forms import BaseUserCreationForm
from django.contrib.auth.models import Group
from django.core.exceptions import ValidationError
from django.db.models import Q
from django.http import Http404, HttpResponseNotAllowed, HttpResponseRedirect
from django.urls import reverse

from rivals.accounts import admin_security
from rivals.accounts.admin_page import account_hub, key_figures, last_seen
from rivals.admin_actions import ObjectActionsMixin, ReasonForm, Row, actor_of, confirm_then_apply
from rivals.admin_base import choice_filter, player_commitments
from rivals.admin_display import when
from rivals.errors import DomainError
from rivals.models import AccessToken, Account

SUSPENDED = (
    "its intents are refused (403); it leaves every ranking and leaderboard and receives no prize, trophy or "
    "points until the suspension is lifted"
)


class GrantJokersForm(forms.Form):
    amount = forms.IntegerField(min_value=1, max_value=1000, initial=1)
    reason = forms.CharField(max_length=200, help_text="recorded in the JokersChanged event")


class CorrectJokersForm(forms.Form):
    amount = forms.IntegerField(min_value=1, max_value=1000, label="jokers to take back")
    reason = forms.CharField(
        max_length=300, widget=forms.Textarea(attrs={"rows": 3, "cols": 60}), help_text="e.g. the mistaken grant"
    )


class CloseForm(ReasonForm):
    erase = forms.BooleanField(
        required=False, initial=False, label="Erase personal data (email, device id, sealed names: cannot be undone)"
    )


def _label(account: Account) -> str:
    return f"{account} (#{account.pk})"


def _skip_operator(account: Account) -> str | None:
    return "an operator's account, not a player" if account.is_staff else None


@admin.action(description="Grant jokers (JokersChanged)")
def grant_jokers(modeladmin, request, queryset):
    """R-11: each grant is a ``JokersChanged`` event with the operator as actor."""
    from rivals.accounts.services import account_jokers_change

    def apply(a, d, actor):
        a = account_jokers_change(
            account=a, delta=d["amount"], reason="operator_grant", actor=actor, ref={"note": d["reason"]}
        )
        return f"now {a.jokers} joker(s)"

    return confirm_then_apply(
        modeladmin,
        request,
        queryset,
        name="grant_jokers",
        title="Grant jokers",
        form_class=GrantJokersForm,
        explain="Each account below receives the jokers as a JokersChanged event with you as the actor and your "
        "reason. A mistaken grant is taken back with “Correct jokers”, never edited.",
        rows=lambda a: Row(a, _label(a), [f"has {a.jokers} joker(s)"], _skip_operator(a)),
        apply=apply,
    )


@admin.action(description="Correct jokers (a compensating JokersChanged)")
def correct_jokers(modeladmin, request, queryset):
    from rivals.accounts.services import account_jokers_correct

    def apply(a, d, actor):
        a = account_jokers_correct(account=a, amount=d["amount"], reason=d["reason"], actor=actor)
        return f"now {a.jokers} joker(s)"

    return confirm_then_apply(
        modeladmin,
        request,
        queryset,
        name="correct_jokers",
        title="Correct jokers",
        form_class=CorrectJokersForm,
        explain="Takes jokers back from each account below — a grant made by mistake — as a compensating "
        "JokersChanged (operator_correction) with your reason; the grant itself stays in the log. Jokers "
        "already spent cannot be taken back: the balance never goes below 0.",
        rows=lambda a: Row(a, _label(a), [f"has {a.jokers} joker(s)"], _skip_operator(a)),
        apply=apply,
    )


def _suspend_rows(a: Account) -> Row:
    skip = (
        _skip_operator(a)
        or (f"already suspended (since {when(a.suspended_at)})" if a.suspended_at else None)
        or ("closed" if a.closed_at else None)
    )
    return Row(a, _label(a), [f"will be suspended: {SUSPENDED}", *player_commitments(a)], skip)


@admin.action(description="Suspend (AccountSuspended: R-38)")
def suspend(modeladmin, request, queryset):
    from rivals.fairplay.services import account_suspend

    return confirm_then_apply(
        modeladmin,
        request,
        queryset,
        name="suspend",
        title="Suspend accounts",
        form_class=ReasonForm,
        explain="Appends AccountSuspended with your reason to each account below. Lifting the suspension "
        "later restores the account's play and rankings, but not what it ended now.",
        rows=_suspend_rows,
        apply=lambda a, d, actor: account_suspend(account=a, reason=d["reason"], actor=actor) and "suspended",
        danger=True,
    )


@admin.action(description="Lift the suspension (AccountSuspensionLifted)")
def lift_suspension(modeladmin, request, queryset):
    from rivals.fairplay.services import account_suspension_lift

    def rows(a: Account) -> Row:
        skip = None if a.suspended_at else "not suspended"
        lines = [f"suspended since {when(a.suspended_at)}: {a.suspension_reason}"] if a.suspended_at else []
        return Row(a, _label(a), [*lines, "may play again and returns to the rankings"], skip)

    return confirm_then_apply(
        modeladmin,
        request,
        queryset,
        name="lift_suspension",
        title="Lift suspensions",
        form_class=ReasonForm,
        explain="They may play again and return to the rankings. Appends AccountSuspensionLifted with your reason.",
        rows=rows,
        apply=lambda a, d, actor: account_suspension_lift(account=a, reason=d["reason"], actor=actor) and "lifted",
    )


def _close_rows(a: Account) -> Row:
    skip = ("an operator's account: remove it from the staff first" if a.is_staff else None) or (
        f"already closed ({when(a.closed_at)})" if a.closed_at else None
    )
    tokens = AccessToken.objects.filter(account=a).count()
    lines = [
        (
            f"can no longer sign in: {tokens} signed-in device(s) signed out, its password made unusable, its "
            "device unlinked (that device signs in as a new guest from then on, R-36)"
        ),
        (
            "leaves its club and every ranking and leaderboard; its games, rounds and points stay (other players' "
            "results depend on them)"
        ),
        *player_commitments(a),
        (
            "with erasure: its email and username are blanked and the key that seals its names in the "
            "log is destroyed — they read “Closed account” from then on"
        ),
    ]
    return Row(a, _label(a), lines, skip)


@admin.action(description="Close the account (AccountClosed; optional erasure)")
def close_account(modeladmin, request, queryset):
    from rivals.accounts.services import account_close

    def apply(a, d, actor):
        account_close(account=a, reason=d["reason"], actor=actor, erase=d["erase"])
        return "closed and erased" if d["erase"] else "closed"

    return confirm_then_apply(
        modeladmin,
        request,
        queryset,
        name="close_account",
        title="Close accounts",
        form_class=CloseForm,
        explain="Appends AccountClosed with your reason. A closed account is never reopened. Erasure (only if "
        "ticked) also destroys the player's personal data; no event is rewritten.",
        rows=_close_rows,
        apply=apply,
        danger=True,
    )


StateFilter = choice_filter(
    "state",
    "state",
    {
        "active": ("active", Q(suspended_at__isnull=True, closed_at__isnull=True)),
        "suspended": ("suspended", Q(suspended_at__isnull=False, closed_at__isnull=True)),
        "closed": ("closed", Q(closed_at__isnull=False)),
    },
)
RoleFilter = choice_filter(
    "role", "role", {"player": ("players", Q(is_staff=False)), "operator": ("operators", Q(is_staff=True))}
)


class OperatorCreationForm(BaseUserCreationForm):
    """An operator's username and password; saved by ``operator_create`` (an event), never by the form."""

    class Meta:
        model = Account
        fields = ("username",)


@admin.register(Account)
class AccountAdmin(ObjectActionsMixin, admin.ModelAdmin):
    list_display = ("id", "display_name", "role", "jokers", "state", "date_joined")
    list_display_links = ("id", "display_name")
    search_fields = ("=id", "username", "display_name", "email")
    search_help_text = "an id, a display name, a username, an email or a device id"
    ordering = ("-id",)
    list_filter = (StateFilter, RoleFilter)
    actions = [grant_jokers, correct_jokers, suspend, lift_suspension, close_account]
    object_actions = (
        ("grant_jokers", "Grant jokers…"),
        ("correct_jokers", "Correct jokers…"),
        ("suspend", "Suspend…"),
        ("lift_suspension", "Lift the suspension…"),
        ("close_account", "Close…"),
    )
    fieldsets = (
        ("Key figures", {"fields": ("figures",)}),
        ("Everything the player did", {"fields": ("hub",)}),
        (
            "Identity (the write model; the name, jokers and states are projections of events)",
            {
                "fields": (
                    "display_name",
                    "username",
                    "role",
                    "date_joined",
                    "seen",
                    "device",
                    "email",
                    "email_verified",
                )
            },
        ),
        ("Fair play", {"fields": ("suspended_at", "suspension_reason", "closed_at")}),
    )
    add_form = OperatorCreationForm
    add_fieldsets = (("A new operator (not a player)", {"fields": ("username", "password1", "password2")}),)

    def get_fieldsets(self, request, obj=None):
        return self.add_fieldsets if obj is None else self.fieldsets

    change_form_template = "admin/rivals/account_change_form.html"

    def get_urls(self):
        from django.urls import path

        export = path(
            "<path:object_id>/export/", self.admin_site.admin_view(self.export_view), name="rivals_account_export"
        )
        return [export, *super().get_urls()]

    def change_view(self, request, object_id, form_url="", extra_context=None):
        obj = self.get_object(request, object_id)
        if obj is not None and not obj.is_staff:
            extra_context = {
                **(extra_context or {}),
                "export_url": reverse("admin:rivals_account_export", args=[obj.pk]),
            }
        return super().change_view(request, object_id, form_url, extra_context)

    def export_view(self, request, object_id):
        """The player's data, downloaded by an operator (a subject access request, GDPR Art. 15):
        the same document as the player's ``GET /api/v1/account/export``, recorded as
        ``AccountDataExported`` with the operator as actor; never limited to one an hour. A POST
        (it records an event); a closed account's too — an erased one's says it holds nothing."""
        from rivals.accounts.api import export_response
        from rivals.accounts.services import account_export

        account = self.get_object(request, object_id)
        if request.method != "POST":
            return HttpResponseNotAllowed(["POST"])
        if account is None or account.is_staff:
            raise Http404("no such player")
        return export_response(account_export(account=account, actor=actor_of(request)))

    def get_form(self, request, obj=None, **kwargs):
        if obj is None:
            kwargs["form"] = self.add_form
        return super().get_form(request, obj, **kwargs)

    def get_search_results(self, request, queryset, search_term):
        """A device id typed in the search box is found by its digest (the row keeps no id)."""
        from rivals.secrets import secret_digest

        results, duplicates = super().get_search_results(request, queryset, search_term)
        if search_term:
            results = results | queryset.filter(device_id=secret_digest(search_term.strip()))
        return results, duplicates

    def has_change_permission(self, request, obj=None):
        return False  # every change to a player is an action: a service call and an event

    def has_delete_permission(self, request, obj=None):
        return False  # closing is an event (see the module docstring), deleting would orphan history

    def object_action_shown(self, obj: Account, name: str) -> bool:
        if obj.is_staff or obj.closed_at:
            return False
        if name == "lift_suspension":
            return obj.suspended_at is not None
        if name == "suspend":
            return obj.suspended_at is None
        return name != "correct_jokers" or obj.jokers > 0

    def save_model(self, request, obj, form, change):
        """The admin's "Add": an operator, through the service (``OperatorCreated``)."""
        from rivals.accounts.operators import operator_create

        try:
            made = operator_create(
                username=form.cleaned_data["username"], password=form.cleaned_data["password1"], actor=actor_of(request)
            )
        except DomainError as exc:
            raise ValidationError(exc.message) from exc
        obj.pk = made.pk
        obj.refresh_from_db()

    def response_add(self, request, obj, post_url_continue=None):
        """To the new operator's page (read-only like every account's), not back to the list."""
        super().response_add(request, obj, post_url_continue)  # its message
        return HttpResponseRedirect(reverse("admin:rivals_account_change", args=[obj.pk]))

    def save_related(self, request, form, formsets, change):
        return None  # nothing else to save: no groups, no permissions

    @admin.display(description="role")
    def role(self, obj: Account) -> str:
        return ("operator (superuser)" if obj.is_superuser else "operator") if obj.is_staff else "player"

    @admin.display(description="state")
    def state(self, obj: Account) -> str:
        return "closed" if obj.closed_at else "suspended" if obj.suspended_at else "active"

    @admin.display(description="last seen")
    def seen(self, obj: Account) -> str:
        return when(last_seen(obj))

    @admin.display(description="device")
    def device(self, obj: Account) -> str:
        if obj.device_id is None:
            return "none"
        unlinked = f"; no longer signs in since {when(obj.device_unlinked_at)}" if obj.device_unlinked_at else ""
        return f"a guest device (its id's SHA-256 only: a secret){unlinked}"

    @admin.display(description="the player at a glance")
    def figures(self, obj: Account):
        return key_figures(obj)

    @admin.display(description="the player's records")
    def hub(self, obj: Account):
        return account_hub(obj) if obj.pk else "—"


# Decision: operators are superusers (rivals.accounts.operators): no groups or permissions to hand out
admin.site.unregister(Group)

admin_security.install()  # the admin's sign-in: throttled and audited (issue 19)
