"""The player page (issue 22): a game-operator page, not Django's user-permissions form — the key
figures of the player, links to everything the player did, and the operator actions as buttons
(grant jokers, correct a grant, close; fair play's suspend and lift, registered by the fairplay
room: ``register_account_action``), each a service call that appends an event
with the operator as actor. Nothing on the page is edited in place: every change to a player is
an event. Operators have a page of their own (``rivals.accounts.admin_operators``).

Each action asks what its role needs (issue 40, ``rivals.accounts.roles``): joker grants and
corrections are Game operations', suspensions, lifts and closures Support's. What the player is
told (a reason code, a message written for them) is chosen on the form, apart from the
operator's note, which stays with the operators (``rivals.player_notice``).

Accounts are never deleted here: a deletion would orphan the account's events (and
``rebuild_projections`` could not restore it). Closing is an event and, with erasure, destroys
the player's personal data without rewriting any event (``rivals.personal``).
"""

from __future__ import annotations

from collections.abc import Callable

from django import forms
from django.contrib import admin
from django.contrib.auth.models import Group
from django.core.exceptions import PermissionDenied
from django.db.models import Q
from django.http import Http404, HttpResponseNotAllowed
from django.urls import reverse

from rivals.accounts import admin_security
from rivals.accounts.admin_page import account_hub, key_figures, last_seen
from rivals.accounts.roles import role_label, role_of
from rivals.admin_actions import (
    NoticeForm,
    ObjectActionsMixin,
    ReasonForm,
    Row,
    actor_of,
    confirm_then_apply,
    notice_form,
    notice_of,
    permission_check,
)
from rivals.admin_base import choice_filter, player_commitments
from rivals.admin_display import when
from rivals.models import AccessToken, Account


class GrantJokersForm(NoticeForm):
    amount = forms.IntegerField(min_value=1, max_value=1000, initial=1)
    field_order = ("amount", "reason_code", "message", "reason")


class CorrectJokersForm(NoticeForm):
    amount = forms.IntegerField(min_value=1, max_value=1000, label="jokers to take back")
    field_order = ("amount", "reason_code", "message", "reason")


class CloseForm(ReasonForm):
    erase = forms.BooleanField(
        required=False, initial=False, label="Erase personal data (email, device id, sealed names: cannot be undone)"
    )


def player_label(account: Account) -> str:
    return f"{account} (#{account.pk})"


def skip_operator(account: Account) -> str | None:
    return "an operator's account, not a player" if account.is_staff else None


@admin.action(description="Grant jokers", permissions=["grant_jokers"])
def grant_jokers(modeladmin, request, queryset):
    """R-11: each grant is a joker balance change with the operator as actor."""
    from rivals.accounts.services import account_jokers_grant

    def apply(a, d, actor):
        a = account_jokers_grant(account=a, amount=d["amount"], actor=actor, **notice_of(d))
        return f"now {a.jokers} joker(s)"

    return confirm_then_apply(
        modeladmin,
        request,
        queryset,
        name="grant_jokers",
        title="Grant jokers",
        form_class=notice_form("goodwill", GrantJokersForm),
        explain="Each player below receives the jokers, with you recorded as the giver. The player is told the "
        "reason you choose and your message; your note stays here. A mistaken grant is taken back with “Correct "
        "jokers”, never edited.",
        rows=lambda a: Row(a, player_label(a), [f"has {a.jokers} joker(s)"], skip_operator(a)),
        apply=apply,
    )


@admin.action(description="Correct jokers (take back a mistaken grant)", permissions=["grant_jokers"])
def correct_jokers(modeladmin, request, queryset):
    from rivals.accounts.services import account_jokers_correct

    def apply(a, d, actor):
        a = account_jokers_correct(account=a, amount=d["amount"], actor=actor, **notice_of(d))
        return f"now {a.jokers} joker(s)"

    return confirm_then_apply(
        modeladmin,
        request,
        queryset,
        name="correct_jokers",
        title="Correct jokers",
        form_class=notice_form("correction", CorrectJokersForm),
        explain="Takes jokers back from each player below — a grant made by mistake; the grant itself stays in "
        "the history. Jokers already spent cannot be taken back: the balance never goes below 0. The player is "
        "told the reason you choose and your message.",
        rows=lambda a: Row(a, player_label(a), [f"has {a.jokers} joker(s)"], skip_operator(a)),
        apply=apply,
    )


def _close_rows(a: Account) -> Row:
    skip = ("an operator: remove them on the Operators page" if a.is_staff else None) or (
        f"already closed ({when(a.closed_at)})" if a.closed_at else None
    )
    tokens = AccessToken.objects.filter(account=a).count()
    lines = [
        (
            f"can no longer sign in: {tokens} signed-in device(s) signed out, its password made unusable, its "
            "device unlinked (that device signs in as a new guest from then on)"
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
    return Row(a, player_label(a), lines, skip)


@admin.action(description="Close the account (optional erasure)", permissions=["close_account"])
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
        explain="A closed account is never reopened. Erasure (only if ticked) also destroys the player's personal "
        "data; the history is not rewritten.",
        rows=_close_rows,
        apply=apply,
        danger=True,
    )


_ACTION_SHOWN: dict[str, Callable[[Account], bool]] = {}


def register_account_action(action, label: str, *, shown: Callable[[Account], bool], before: str) -> None:
    """A room's action on players (fair play's suspend and lift): in the list's actions and as a
    button on the player's page (``label``) where ``shown(account)``, placed before ``before``."""
    name = action.__name__
    if name in _ACTION_SHOWN:
        return
    at = next(i for i, a in enumerate(AccountAdmin.actions) if a.__name__ == before)
    AccountAdmin.actions.insert(at, action)
    names = [n for n, _ in AccountAdmin.object_actions]
    at = names.index(before)
    AccountAdmin.object_actions = (*AccountAdmin.object_actions[:at], (name, label), *AccountAdmin.object_actions[at:])
    _ACTION_SHOWN[name] = shown


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


@admin.register(Account)
class AccountAdmin(ObjectActionsMixin, admin.ModelAdmin):
    list_display = ("id", "display_name", "role", "jokers", "state", "date_joined")
    list_display_links = ("id", "display_name")
    search_fields = ("=id", "username", "display_name", "email")
    search_help_text = "an id, a display name, a username, an email or a device id"
    ordering = ("-id",)
    list_filter = (StateFilter, RoleFilter)
    actions = [grant_jokers, correct_jokers, close_account]  # and the rooms' (register_account_action)
    object_actions: tuple[tuple[str, str], ...] = (
        ("grant_jokers", "Grant jokers…"),
        ("correct_jokers", "Correct jokers…"),
        ("close_account", "Close…"),
    )
    fieldsets = (
        ("Key figures", {"fields": ("figures",)}),
        ("Everything the player did", {"fields": ("hub",)}),
        (
            "Identity (the name, jokers and states follow from the player's history)",
            {
                "fields": (
                    "display_name",
                    "username",
                    "role",
                    "joined",
                    "seen",
                    "device",
                    "email_address",
                    "email_state",
                )
            },
        ),
        ("Fair play", {"fields": ("suspension", "closure")}),
    )
    readonly_fields = ("joined", "email_address", "email_state", "suspension", "closure")
    has_grant_jokers_permission = permission_check("rivals.grant_jokers")
    has_suspend_account_permission = permission_check("rivals.suspend_account")
    has_close_account_permission = permission_check("rivals.close_account")

    change_form_template = "admin/rivals/account_change_form.html"

    def get_urls(self):
        from django.urls import path

        export = path(
            "<path:object_id>/export/", self.admin_site.admin_view(self.export_view), name="rivals_account_export"
        )
        return [export, *super().get_urls()]

    def change_view(self, request, object_id, form_url="", extra_context=None):
        obj = self.get_object(request, object_id)
        if obj is not None and not obj.is_staff and request.user.has_perm("rivals.export_account"):
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

        if not request.user.has_perm("rivals.export_account"):  # Support and Administrators (issue 40)
            raise PermissionDenied("a player's data export is not allowed to your role")
        account = self.get_object(request, object_id)
        if request.method != "POST":
            return HttpResponseNotAllowed(["POST"])
        if account is None or account.is_staff:
            raise Http404("no such player")
        return export_response(account_export(account=account, actor=actor_of(request)))

    def get_search_results(self, request, queryset, search_term):
        """A device id typed in the search box is found by its digest (the row keeps no id)."""
        from rivals.secrets import secret_digest

        results, duplicates = super().get_search_results(request, queryset, search_term)
        if search_term:
            results = results | queryset.filter(device_id=secret_digest(search_term.strip()))
        return results, duplicates

    def has_add_permission(self, request):
        return False  # players sign up through the API; operators are added on the Operators page

    def has_change_permission(self, request, obj=None):
        return False  # every change to a player is an action: a service call and an event

    def has_delete_permission(self, request, obj=None):
        return False  # closing is an event (see the module docstring), deleting would orphan history

    def object_action_shown(self, obj: Account, name: str) -> bool:
        if obj.is_staff or obj.closed_at:
            return False
        if name in _ACTION_SHOWN:
            return _ACTION_SHOWN[name](obj)
        return name != "correct_jokers" or obj.jokers > 0

    @admin.display(description="role")
    def role(self, obj: Account) -> str:
        return f"operator: {role_label(role_of(obj))}" if obj.is_staff else "player"

    @admin.display(description="state")
    def state(self, obj: Account) -> str:
        return "closed" if obj.closed_at else "suspended" if obj.suspended_at else "active"

    @admin.display(description="joined")
    def joined(self, obj: Account) -> str:
        return when(obj.date_joined)

    @admin.display(description="email")
    def email_address(self, obj: Account) -> str:
        return obj.email or "none"

    @admin.display(description="email verified")
    def email_state(self, obj: Account) -> str:
        if obj.pending_email:
            return "an address waits for its verification"
        return "yes" if obj.email_verified else "no"

    @admin.display(description="suspension")
    def suspension(self, obj: Account) -> str:
        if obj.suspended_at is None:
            return "not suspended"
        return f"since {when(obj.suspended_at)} — operator's note (the player never sees it): {obj.suspension_reason}"

    @admin.display(description="closed")
    def closure(self, obj: Account) -> str:
        return when(obj.closed_at) if obj.closed_at else "no"

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


# Roles are groups (rivals.accounts.roles), given on the Operators page: the groups themselves are
# code, not edited here
admin.site.unregister(Group)

admin_security.install()  # the admin's sign-in: throttled and audited (issue 19)

from rivals.accounts import admin_operators, admin_outbox  # noqa: E402,F401  register the Operators and outbox pages
