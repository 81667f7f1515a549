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
