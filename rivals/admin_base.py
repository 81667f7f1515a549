"""What every admin module shares: read-only history, and finding a player's records by name or
id (the account page links here; the search boxes use it)."""

from __future__ import annotations

from collections.abc import Callable

from django.contrib import admin
from django.db.models import CharField, Q, Value
from django.db.models.functions import Cast, Concat

MAX_PLAYERS_MATCHED = 20  # a search that names more players than this is too vague to widen


class ReadOnlyAdmin(admin.ModelAdmin):
    """Events and ledgers are history: nobody adds, changes or deletes them here, superusers
    included. A subclass may declare actions (a job's pause, a round's end): each names the
    permission it needs (``rivals.admin_actions``), and Django's bulk delete is never offered."""

    def has_add_permission(self, request, obj=None):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False


class ReadOnlyInline(admin.TabularInline):
    """Rows of a projection shown inside their parent's page: nothing added, changed or deleted.
    Subclasses set ``model`` and ``fields`` (all read-only)."""

    extra = 0
    can_delete = False

    def get_readonly_fields(self, request, obj=None):
        return self.fields

    def has_add_permission(self, request, obj=None):
        return False

    def has_change_permission(self, request, obj=None):
        return False


def players_matching(term: str) -> list[int]:
    """Accounts a search term names: ``12`` / ``#12`` / ``player:12`` by id, else by display name
    or username (case-insensitive part)."""
    from rivals.models import Account

    term = term.strip()
    raw = term.removeprefix("player:").removeprefix("#")
    if raw.isdigit():
        return [int(raw)]
    if len(term) < 2:
        return []
    return list(
        Account.objects.filter(Q(display_name__icontains=term) | Q(username__icontains=term))
        .order_by("pk")
        .values_list("pk", flat=True)[:MAX_PLAYERS_MATCHED]
    )


PlayerStreams = Callable[[list[int]], Q]
_PLAYER_STREAMS: list[PlayerStreams] = []


def register_player_streams(fn: PlayerStreams) -> None:
    """A feature names the event streams of a player it keeps (``fn(account_ids) -> Q`` over
    ``Event``): the events list's player filter and search find them."""
    if fn not in _PLAYER_STREAMS:
        _PLAYER_STREAMS.append(fn)


def stream_ids(qs, prefix: str, field: str = "id"):
    """``<prefix><field>`` of each row of ``qs``: the stream ids of the rows (a subquery)."""
    return qs.annotate(_s=Concat(Value(prefix), Cast(field, CharField()))).values("_s")


def player_streams_q(account_ids: list[int]) -> Q:
    """Every event stream of these players: their accounts', and what the rooms register (points
    ledger, daily bonus, games, Sichuan tables, rounds and matches, the club events naming them)."""
    q = Q(stream_id__in=[f"account-{a}" for a in account_ids]) if account_ids else Q()
    for fn in _PLAYER_STREAMS:
        q |= fn(account_ids)
    return q


class PlayerFilter(admin.SimpleListFilter):
    """``?player=<account id>``: the account page's links. Shown only while it is in use."""

    title = "player"
    parameter_name = "player"

    def lookups(self, request, model_admin):
        value = request.GET.get(self.parameter_name, "")
        return [(value, f"player #{value}")] if value.isdigit() else []

    def queryset(self, request, queryset):
        value = self.value()
        if not value or not value.isdigit():
            return queryset
        return self.filter_player(queryset, int(value))

    def filter_player(self, queryset, account_id: int):
        return queryset.filter(account_id=account_id)


def choice_filter(title: str, parameter: str, choices: dict[str, tuple[str, Q]]) -> type[admin.SimpleListFilter]:
    """A list filter of named subsets (``{value: (label, condition)}``): an account's state, a
    schedule's …"""

    class ChoiceFilter(admin.SimpleListFilter):
        def lookups(self, request, model_admin):
            return [(value, label) for value, (label, _) in choices.items()]

        def queryset(self, request, queryset):
            chosen = choices.get(self.value() or "")
            return queryset.filter(chosen[1]) if chosen else queryset

    ChoiceFilter.title, ChoiceFilter.parameter_name = title, parameter
    return ChoiceFilter


class PlayerSearchMixin:
    """The search box also finds the rows of the players a term names (a name or an id)."""

    player_field = "account_id"

    def get_search_results(self, request, queryset, search_term):
        results, duplicates = super().get_search_results(request, queryset, search_term)
        players = players_matching(search_term) if search_term else []
        if players:
            results = results | queryset.filter(**{f"{self.player_field}__in": players})
        return results, duplicates


# --- what a suspension or a closure would reach (the confirmation pages say it) -----------------

Commitments = Callable[[object], list[str]]
_COMMITMENTS: list[Commitments] = []


def register_player_commitments(fn: Commitments) -> None:
    """A feature says what a player has going on with it (``fn(account) -> [sentence, …]``):
    waiting queue tickets, pending duels, tournament registrations and seats, a club. The
    confirmation pages of a suspension or a closure list them as the action's consequences."""
    if fn not in _COMMITMENTS:
        _COMMITMENTS.append(fn)


def player_commitments(account) -> list[str]:
    return [line for fn in _COMMITMENTS for line in fn(account)]
