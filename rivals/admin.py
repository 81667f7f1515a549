from django.contrib import admin
from django.contrib.auth.admin import UserAdmin

from rivals.models import Account, Event, IdempotencyRecord, Stream


class ReadOnlyAdmin(admin.ModelAdmin):
    """Events and ledgers are history: nobody adds, changes or deletes them here, superusers included."""

    def has_add_permission(self, request, obj=None):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False

    def get_actions(self, request):
        return {}


@admin.register(Event)
class EventAdmin(ReadOnlyAdmin):
    list_display = ("position", "stream_id", "version", "type", "recorded_at", "actor")
    list_filter = ("stream_type", "type")
    search_fields = ("=stream_id", "type")
    ordering = ("-position",)
    list_per_page = 100
    show_full_result_count = False

    @admin.display(description="actor")
    def actor(self, obj):
        return (obj.metadata or {}).get("actor")


@admin.register(Stream)
class StreamAdmin(ReadOnlyAdmin):
    list_display = ("id", "type", "version", "updated_at")
    list_filter = ("type",)
    search_fields = ("=id",)


@admin.register(IdempotencyRecord)
class IdempotencyRecordAdmin(ReadOnlyAdmin):
    list_display = ("owner", "key", "method", "path", "status_code", "created_at")
    search_fields = ("=owner", "=key")


@admin.register(Account)
class AccountAdmin(UserAdmin):
    list_display = ("id", "username", "display_name", "email", "jokers", "is_staff", "date_joined")
    search_fields = ("username", "display_name", "email", "device_id")
    ordering = ("-id",)
    readonly_fields = ("display_name", "jokers", "date_joined", "last_login", "device_id")
    fieldsets = (
        (None, {"fields": ("username", "password")}),
        ("Profile (projection of events)", {"fields": ("display_name", "jokers", "device_id")}),
        ("Credentials", {"fields": ("email", "email_verified")}),
        ("Permissions", {"fields": ("is_active", "is_staff", "is_superuser", "groups", "user_permissions")}),
        ("Dates", {"fields": ("last_login", "date_joined")}),
    )
    add_fieldsets = ((None, {"classes": ("wide",), "fields": ("username", "password1", "password2")}),)
    list_filter = ("is_staff", "is_active")


# --- games, levels, leaderboards, points, jokers -------------------------------------------------
from django import forms  # noqa: E402
from django.contrib import messages  # noqa: E402
from django.shortcuts import render  # noqa: E402
from django.urls import reverse  # noqa: E402
from django.utils.html import format_html  # noqa: E402

from rivals.models import (  # noqa: E402
    DailyBonusClaim,
    Game,
    Level,
    LevelBest,
    PointsLedgerEntry,
    RejectedIntent,
)


class GrantJokersForm(forms.Form):
    amount = forms.IntegerField(min_value=1, max_value=1000, initial=1)
    reason = forms.CharField(max_length=200, initial="operator grant")


def grant_jokers(modeladmin, request, queryset):
    """R-11: operators grant jokers; each grant is a ``JokersChanged`` event with the operator as actor."""
    from rivals.services.accounts import account_jokers_change

    if "apply" in request.POST:
        form = GrantJokersForm(request.POST)
        if form.is_valid():
            for account in queryset.order_by("pk"):
                account_jokers_change(
                    account=account, delta=form.cleaned_data["amount"], reason="operator_grant",
                    actor=f"operator:{request.user.pk}", ref={"note": form.cleaned_data["reason"]},
                )
            modeladmin.message_user(request, f"granted {form.cleaned_data['amount']} joker(s) to "
                                             f"{queryset.count()} account(s)", messages.SUCCESS)
            return None
    else:
        form = GrantJokersForm()
    return render(request, "admin/rivals/grant_jokers.html",
                  {"form": form, "accounts": queryset, "action": "grant_jokers",
                   "opts": modeladmin.model._meta, "title": "Grant jokers"})


grant_jokers.short_description = "Grant jokers (appends a JokersChanged event)"
AccountAdmin.actions = [grant_jokers]


@admin.register(Game)
class GameAdmin(ReadOnlyAdmin):
    """Games are projections of their event streams: read-only; the events link shows the stream."""

    list_display = ("id", "account", "mode", "level", "code", "status", "score", "seq", "started_at", "events")
    list_filter = ("mode", "status", "ruleset")
    search_fields = ("=id", "=code", "account__username", "account__display_name")
    raw_id_fields = ("account",)
    exclude = ("plan",)
    ordering = ("-started_at",)

    @admin.display(description="events")
    def events(self, obj):
        url = reverse("admin:rivals_event_changelist") + f"?q=game-{obj.pk}"
        return format_html('<a href="{}">events</a>', url)


@admin.register(Level)
class LevelAdmin(ReadOnlyAdmin):
    list_display = ("number", "code", "layout", "hard", "difficulty", "generated_at", "leaderboard")
    list_filter = ("hard", "layout")
    search_fields = ("=number", "=code")

    @admin.display(description="leaderboard")
    def leaderboard(self, obj):
        url = reverse("admin:rivals_levelbest_changelist") + f"?level={obj.number}"
        return format_html('<a href="{}">best times</a>', url)


@admin.register(LevelBest)
class LevelBestAdmin(ReadOnlyAdmin):
    list_display = ("level", "account", "best_ms", "achieved_at", "completions")
    list_filter = ("level",)
    search_fields = ("=level", "account__username", "account__display_name")
    ordering = ("level", "best_ms", "achieved_at")


@admin.register(PointsLedgerEntry)
class PointsLedgerAdmin(ReadOnlyAdmin):
    list_display = ("awarded_at", "account", "amount", "source", "counts", "award_key")
    list_filter = ("source", "counts")
    search_fields = ("=award_key", "account__username", "account__display_name")
    date_hierarchy = "awarded_at"


@admin.register(DailyBonusClaim)
class DailyBonusClaimAdmin(ReadOnlyAdmin):
    list_display = ("day", "account", "streak", "points", "jokers", "doubled")
    search_fields = ("account__username",)
    date_hierarchy = "day"


@admin.register(RejectedIntent)
class RejectedIntentAdmin(ReadOnlyAdmin):
    """R-38: refused intents, for fair-play review."""

    list_display = ("at", "account", "target", "code", "message")
    list_filter = ("code",)
    search_fields = ("=target", "account__username")
    date_hierarchy = "at"
