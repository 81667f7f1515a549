"""The account page: the operator's hub for a player — links to every record of the player, and
the operator actions (grant jokers, suspend, lift, close), each a service call that appends an
event with the operator as actor.

Accounts are never deleted here: a deletion would orphan the account's events (and
``rebuild_projections`` could not restore it). Closing is an event (``AccountClosed``) and, with
erasure, destroys the player's personal data without rewriting any event (``rivals.personal``).
"""

from __future__ import annotations

from django import forms
from django.contrib import admin
from django.contrib.auth.admin import UserAdmin
from django.urls import reverse
from django.utils.html import format_html, format_html_join
from django.utils.http import urlencode

from rivals.accounts import admin_security
from rivals.admin_actions import ReasonForm, Row, confirm_then_apply
from rivals.models import Account, Game, PointsLedgerEntry, RejectedIntent


def _link(admin_name: str, label: str, count: int | None = None, **query) -> str:
    url = reverse(f"admin:{admin_name}_changelist") + ("?" + urlencode(query) if query else "")
    return format_html('<a href="{}">{}</a>{}', url, label, f" ({count})" if count is not None else "")


def account_hub(obj: Account) -> str:
    from rivals.clubs.models import ClubMember
    from rivals.fairplay.models import FairPlayFlag
    from rivals.matches.models import Round
    from rivals.sichuan.models import SichuanTable

    pk = obj.pk
    links = [
        _link("rivals_game", "games", Game.objects.filter(account_id=pk).count(), account__id__exact=pk),
        _link("matches_round", "rounds", Round.objects.filter(players__contains=[pk]).count(), player=pk),
        _link(
            "sichuan_sichuantable",
            "Sichuan tables",
            SichuanTable.objects.filter(account_id=pk).count(),
            account__id__exact=pk,
        ),
        _link("rivals_event", "events (all streams of the player)", None, player=pk),
        _link(
            "rivals_pointsledgerentry",
            "points ledger",
            PointsLedgerEntry.objects.filter(account_id=pk).count(),
            player=pk,
        ),
        _link("rivals_event", "joker balance changes", None, player=pk, type__exact="JokersChanged"),
        _link(
            "rivals_rejectedintent", "rejected intents", RejectedIntent.objects.filter(account_id=pk).count(), player=pk
        ),
        _link(
            "fairplay_fairplayflag",
            "fair-play flags",
            FairPlayFlag.objects.filter(account_id=pk).count(),
            account__id__exact=pk,
        ),
    ]
    member = ClubMember.objects.filter(account_id=pk).select_related("club").first()
    if member:
        links.append(
            format_html(
                'club: <a href="{}">{}</a>', reverse("admin:clubs_club_change", args=[member.club_id]), member.club.name
            )
        )
    flags = FairPlayFlag.objects.filter(account_id=pk).order_by("-flagged_at")[:10]
    flag_rows = format_html_join(
        "",
        '<li><a href="{}">{}</a> · {} · {}{}</li>',
        (
            (
                reverse("admin:fairplay_fairplayflag_change", args=[f.pk]),
                f.get_kind_display(),
                f.flagged_at.strftime("%Y-%m-%d %H:%M:%S"),
                f.status,
                format_html(
                    ' · <a class="flagged-game" href="{}">flagged game</a>',
                    reverse("admin:rivals_game_change", args=[f.game_id]),
                )
                if f.game_id
                else "",
            )
            for f in flags
        ),
    )
    return format_html(
        '<ul class="player-hub">{}</ul>{}',
        format_html_join("", "<li>{}</li>", ((x,) for x in links)),
        format_html("<p><b>Fair-play flags</b></p><ul>{}</ul>", flag_rows) if flags else "",
    )


# --- operator actions: a form, then a service call per account ---------------------------------


class GrantJokersForm(forms.Form):
    amount = forms.IntegerField(min_value=1, max_value=1000, initial=1)
    reason = forms.CharField(max_length=200, initial="operator grant")


class CloseForm(ReasonForm):
    erase = forms.BooleanField(
        required=False, initial=False, label="Erase personal data (email, device id, sealed names: cannot be undone)"
    )


def _label(account: Account) -> str:
    return f"{account} (#{account.pk}, jokers {account.jokers})"


def _account_action(modeladmin, request, queryset, *, name: str, title: str, explain: str, form_class, apply):
    """One intermediate page for every account action; ``apply(account, cleaned_data, actor)``
    calls the service."""
    return confirm_then_apply(
        modeladmin,
        request,
        queryset,
        name=name,
        title=title,
        explain=explain,
        form_class=form_class,
        rows=lambda a: Row(a, _label(a)),
        apply=apply,
    )


@admin.action(description="Grant jokers (appends a JokersChanged event)")
def grant_jokers(modeladmin, request, queryset):
    """R-11: each grant is a ``JokersChanged`` event with the operator as actor."""
    from rivals.accounts.services import account_jokers_change

    return _account_action(
        modeladmin,
        request,
        queryset,
        name="grant_jokers",
        title="Grant jokers",
        form_class=GrantJokersForm,
        explain="Each account below receives the jokers as a JokersChanged event with you as the actor.",
        apply=lambda a, d, actor: (
            account_jokers_change(
                account=a, delta=d["amount"], reason="operator_grant", actor=actor, ref={"note": d["reason"]}
            )
            and None
        ),
    )


@admin.action(description="Suspend (R-38: intents refused, absent from rankings)")
def suspend(modeladmin, request, queryset):
    from rivals.fairplay.services import account_suspend

    return _account_action(
        modeladmin,
        request,
        queryset,
        name="suspend",
        title="Suspend accounts",
        form_class=ReasonForm,
        explain="Their intents are refused (403) and they leave every ranking and leaderboard until lifted. "
        "Appends AccountSuspended with your reason.",
        apply=lambda a, d, actor: account_suspend(account=a, reason=d["reason"], actor=actor) and None,
    )


@admin.action(description="Lift the suspension")
def lift_suspension(modeladmin, request, queryset):
    from rivals.fairplay.services import account_suspension_lift

    return _account_action(
        modeladmin,
        request,
        queryset,
        name="lift_suspension",
        title="Lift suspensions",
        form_class=ReasonForm,
        explain="They may play again and return to the rankings. Appends AccountSuspensionLifted.",
        apply=lambda a, d, actor: account_suspension_lift(account=a, reason=d["reason"], actor=actor) and None,
    )


@admin.action(description="Close the account (AccountClosed; optional erasure)")
def close_account(modeladmin, request, queryset):
    from rivals.accounts.services import account_close

    return _account_action(
        modeladmin,
        request,
        queryset,
        name="close_account",
        title="Close accounts",
        form_class=CloseForm,
        explain="Closed accounts cannot sign in, leave their club and every ranking. Their games, rounds and "
        "points stay (other players' results depend on them). Erasure also blanks the email and device "
        "id and destroys the key that seals their names in the event log: no event is rewritten.",
        apply=lambda a, d, actor: account_close(account=a, reason=d["reason"], actor=actor, erase=d["erase"]) and None,
    )


@admin.register(Account)
class AccountAdmin(UserAdmin):
    list_display = ("id", "display_name", "username", "email", "jokers", "state", "date_joined")
    list_display_links = ("id", "display_name")
    search_fields = ("=id", "username", "display_name", "email")
    search_help_text = "an id, a display name, a username, an email or a device id"
    ordering = ("-id",)
    list_filter = ("is_staff", "is_active")
    actions = [grant_jokers, suspend, lift_suspension, close_account]
    readonly_fields = (
        "hub",
        "display_name",
        "jokers",
        "date_joined",
        "last_login",
        "device_id",
        "device_unlinked_at",
        "email",
        "email_verified",
        "pending_email",
        "is_active",
        "suspended_at",
        "suspension_reason",
        "closed_at",
    )
    fieldsets = (
        ("Player hub", {"fields": ("hub",)}),
        (None, {"fields": ("username", "password")}),
        ("Profile (projection of events)", {"fields": ("display_name", "jokers")}),
        ("Device (its id's SHA-256 only: a secret)", {"fields": ("device_id", "device_unlinked_at")}),
        ("Fair play (projection of events)", {"fields": ("suspended_at", "suspension_reason", "closed_at")}),
        ("Credentials", {"fields": ("email", "email_verified", "pending_email")}),
        ("Permissions", {"fields": ("is_active", "is_staff", "is_superuser", "groups", "user_permissions")}),
        ("Dates", {"fields": ("last_login", "date_joined")}),
    )
    add_fieldsets = ((None, {"classes": ("wide",), "fields": ("username", "password1", "password2")}),)

    def get_search_results(self, request, queryset, search_term):
        """A device id typed in the search box is found by its digest (the row keeps no id)."""
        from rivals.secrets import secret_digest

        results, duplicates = super().get_search_results(request, queryset, search_term)
        if search_term:
            results = results | queryset.filter(device_id=secret_digest(search_term.strip()))
        return results, duplicates

    def has_delete_permission(self, request, obj=None):
        return False  # closing is an event (see the module docstring), deleting would orphan history

    @admin.display(description="state")
    def state(self, obj: Account) -> str:
        return "closed" if obj.closed_at else "suspended" if obj.suspended_at else "active"

    @admin.display(description="the player's records")
    def hub(self, obj: Account):
        return account_hub(obj) if obj.pk else "—"


admin_security.install()  # the admin's sign-in: throttled and audited (issue 19)
