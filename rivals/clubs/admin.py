"""Clubs in the admin: projections of their streams — read-only, members inline, events linked."""

from django.contrib import admin
from django.db.models import Q
from django.utils.html import format_html

from rivals.admin_base import ReadOnlyAdmin, ReadOnlyInline, register_player_commitments, register_player_streams
from rivals.admin_display import account_link, stream_link, url
from rivals.clubs.models import Club, ClubMember


class MemberInline(ReadOnlyInline):
    model = ClubMember
    fields = ("player", "joined_at")

    def get_queryset(self, request):
        return super().get_queryset(request).select_related("account")

    @admin.display(description="member")
    def player(self, obj: ClubMember):
        return account_link(obj.account_id, {obj.account_id: str(obj.account)})


@admin.register(Club)
class ClubAdmin(ReadOnlyAdmin):
    list_display = ("name", "status", "owner", "members_count", "created_at", "closed_at")
    list_filter = ("status",)
    search_fields = ("name", "=id")
    inlines = [MemberInline]
    fields = ("id", "name", "status", "owner", "members_count", "created_at", "closed_at", "version", "events")
    readonly_fields = fields

    @admin.display(description="events")
    def events(self, obj: Club):
        return stream_link(obj.stream_id)


def _club_streams(account_ids: list[int]) -> Q:
    """The club events that name them."""
    q = Q()
    for a in account_ids:
        q |= Q(stream_type="club") & (Q(data__account_id=a) | Q(data__owner_id=a))
    return q


register_player_streams(_club_streams)


def _commitments(account) -> list[str]:
    """A club: a closure leaves it (its ownership passes on); a suspension keeps the member."""
    member = ClubMember.objects.filter(account_id=account.pk).select_related("club").first()
    if member is None:
        return []
    owner = (
        " (its owner: on a closure another member owns it, or it closes)" if member.club.owner_id == account.pk else ""
    )
    return [f"member of the club “{member.club.name}”{owner}: a closure leaves it, a suspension does not"]


register_player_commitments(_commitments)


# --- the player page's part (rivals.accounts.admin_page, registered in the room's ready) --------


def player_club_figure(account, figures):
    member = ClubMember.objects.filter(account_id=account.pk).select_related("club").first()
    if not member:
        return "none"
    return format_html(
        '<a href="{}">{}</a>{}',
        url("admin:clubs_club_change", member.club_id),
        member.club.name,
        " (owner)" if member.club.owner_id == account.pk else "",
    )


def player_links(account_id: int) -> list[tuple[int, str]]:
    member = ClubMember.objects.filter(account_id=account_id).select_related("club").first()
    if not member:
        return []
    link = format_html('club: <a href="{}">{}</a>', url("admin:clubs_club_change", member.club_id), member.club.name)
    return [(120, link)]
