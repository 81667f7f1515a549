"""Fair play's actions on the player page (R-38, issue 40): suspend and lift a suspension, each a
service call that appends an event with the operator as actor. Registered with the accounts room's
page (``rivals.accounts.admin.register_account_action``) by ``FairplayConfig.ready``."""

from __future__ import annotations

from django.contrib import admin

from rivals.accounts.admin import player_label, skip_operator
from rivals.admin_actions import Row, confirm_then_apply, notice_form, notice_of
from rivals.admin_base import player_commitments
from rivals.admin_display import when
from rivals.fairplay.services import account_suspend, account_suspension_lift
from rivals.models import Account

SUSPENDED = (
    "the player's moves and entries into play are refused; they leave every ranking and leaderboard and win no "
    "prize, trophy or points until the suspension is lifted"
)


def _suspend_rows(a: Account) -> Row:
    skip = (
        skip_operator(a)
        or (f"already suspended (since {when(a.suspended_at)})" if a.suspended_at else None)
        or ("closed" if a.closed_at else None)
    )
    return Row(a, player_label(a), [f"will be suspended: {SUSPENDED}", *player_commitments(a)], skip)


@admin.action(description="Suspend", permissions=["suspend_account"])
def suspend(modeladmin, request, queryset):
    return confirm_then_apply(
        modeladmin,
        request,
        queryset,
        name="suspend",
        title="Suspend accounts",
        form_class=notice_form("fair_play"),
        explain="Each player below is suspended and told the reason you choose and your message; your note "
        "stays here. Lifting the suspension later restores their play and rankings, but not what it ended now.",
        rows=_suspend_rows,
        apply=lambda a, d, actor: account_suspend(account=a, actor=actor, **notice_of(d)) and "suspended",
        danger=True,
    )


@admin.action(description="Lift the suspension", permissions=["suspend_account"])
def lift_suspension(modeladmin, request, queryset):
    def rows(a: Account) -> Row:
        skip = None if a.suspended_at else "not suspended"
        note = f"suspended since {when(a.suspended_at)} (operator's note: {a.suspension_reason})"
        lines = [note] if a.suspended_at else []
        return Row(a, player_label(a), [*lines, "may play again and returns to the rankings"], skip)

    return confirm_then_apply(
        modeladmin,
        request,
        queryset,
        name="lift_suspension",
        title="Lift suspensions",
        form_class=notice_form("other"),
        explain="They may play again and return to the rankings. Each is told the reason you choose and your "
        "message; your note stays here.",
        rows=rows,
        apply=lambda a, d, actor: account_suspension_lift(account=a, actor=actor, **notice_of(d)) and "lifted",
    )


def register() -> None:
    from rivals.accounts.admin import register_account_action

    register_account_action(suspend, "Suspend…", shown=lambda a: a.suspended_at is None, before="close_account")
    register_account_action(
        lift_suspension, "Lift the suspension…", shown=lambda a: a.suspended_at is not None, before="close_account"
    )
