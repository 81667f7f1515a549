"""What the player page shows (issue 22): the key figures of a player — points and places on the
three boards, the skill rating and its latest changes (R-41), jokers, trophies, club, games and
rounds played, last seen, open fair-play flags — and links to everything the player did. Read
from the projections and the rooms' extensions of the public profile (ranking places, trophies,
statistics, rating), whatever the account's state."""

from __future__ import annotations

from django.urls import reverse
from django.utils.html import format_html, format_html_join
from django.utils.http import urlencode
from django.utils.safestring import mark_safe

from rivals.accounts.selectors import player_figures
from rivals.admin_display import url, when
from rivals.games.models import Game, RejectedIntent
from rivals.models import Account, Event, Stream
from rivals.points.models import PointsLedgerEntry

BOARDS = (("amr", "365 days (AMR)"), ("weekly", "this week"), ("daily", "today"))


def _link(admin_name: str, label: str, count: int | None = None, **query) -> str:
    target = reverse(f"admin:{admin_name}_changelist") + ("?" + urlencode(query) if query else "")
    return format_html('<a href="{}">{}</a>{}', target, label, f" ({count})" if count is not None else "")


def last_seen(account: Account):
    """The last thing the player did: its newest own event on its account stream (sign-ins,
    renames, claims …) or the last move on its most recently started game."""
    own = (
        Event.objects.filter(stream_id=account.stream_id, metadata__actor=f"account:{account.pk}")
        .order_by("-version")
        .values_list("recorded_at", flat=True)
        .first()
    )
    game = Game.objects.filter(account_id=account.pk).order_by("-started_at").values_list("pk", flat=True).first()
    played = Stream.objects.filter(pk=f"game-{game}").values_list("updated_at", flat=True).first() if game else None
    seen = [t for t in (own, played) if t is not None]
    return max(seen) if seen else None


def _state(account: Account) -> str:
    if account.closed_at:
        return format_html("<b>closed</b> {}", when(account.closed_at))
    if account.suspended_at:
        note = account.suspension_reason  # the operator's note: the player was told a code (issue 40)
        return format_html("<b>suspended</b> since {} (operator's note: {})", when(account.suspended_at), note)
    return "active"


def _rating(rating: dict | None, account_id: int):
    """The rating's figures and its latest changes (the ratings room's history table)."""
    if not rating:
        return "—"
    from rivals.ratings.admin import rating_history_table

    rated = rating["rated"]
    return format_html(
        "ordinal <b>{}</b> (μ {}, σ {}) · {} · {} one-to-one, {} multi-player results · {}<br>{}",
        f"{rating['ordinal']:.2f}",
        f"{rating['mu']:.2f}",
        f"{rating['sigma']:.2f}",
        "provisional" if rating["provisional"] else "established",
        rated["one_to_one"],
        rated["multi"],
        f"place {rating['place']} on the rating board" if rating.get("place") else "not on the rating board",
        rating_history_table(account_id),
    )


def key_figures(account: Account):
    """The figures an operator looks at first, as one small table."""
    from rivals.clubs.models import ClubMember
    from rivals.fairplay.models import FairPlayFlag

    if account.is_staff:
        from rivals.accounts.roles import role_label, role_of

        return format_html(
            '<p>An operator ({}{}) — not a player: no public profile, no ranking, never listed. <a href="{}">Their '
            "role and removal: the Operators page</a>.</p>",
            role_label(role_of(account)),
            "" if account.is_active else ", removed: can no longer sign in",
            url("admin:rivals_operator_change", account.pk),
        )
    figures = player_figures(account=account)
    points, places, stats = figures.get("points", {}), figures.get("places", {}), figures.get("stats", {})
    boards = format_html_join(
        " · ",
        "{}: <b>{}</b> points, {}",
        ((label, points.get(b, 0), f"place {places[b]}" if places.get(b) else "no place") for b, label in BOARDS),
    )
    trophies = figures.get("trophies") or []
    trophy_text = (
        ", ".join(f"{t['title']}{' ×' + str(t['count']) if t.get('count') else ''}" for t in trophies) or "none"
    )
    member = ClubMember.objects.filter(account_id=account.pk).select_related("club").first()
    club = (
        format_html(
            '<a href="{}">{}</a>{}',
            url("admin:clubs_club_change", member.club_id),
            member.club.name,
            " (owner)" if member.club.owner_id == account.pk else "",
        )
        if member
        else "none"
    )
    open_flags = FairPlayFlag.objects.filter(account_id=account.pk, status="open").count()
    flags = _link(
        "fairplay_fairplayflag", f"{open_flags} open", None, account__id__exact=account.pk, status__exact="open"
    )
    rows = [
        ("state", _state(account)),
        ("points and places", boards),
        ("rating (R-41)", _rating(figures.get("rating"), account.pk)),
        ("jokers", format_html("<b>{}</b>", account.jokers)),
        ("trophies", trophy_text),
        ("club", club),
        (
            "played",
            (
                f"{stats.get('games_played', 0)} games ({stats.get('games_won', 0)} won), "
                f"{stats.get('rounds_played', 0)} rounds ({stats.get('rounds_won', 0)} won), "
                f"{stats.get('tournaments_played', 0)} tournaments"
            ),
        ),
        ("last seen", when(last_seen(account))),
        ("fair-play flags", flags),
    ]
    body = format_html_join("", "<tr><th>{}</th><td>{}</td></tr>", rows)
    return format_html('<table class="key-figures">{}</table>', body)


def account_hub(obj: Account):
    """Links (with counts) to every record of the player, and its latest flags."""
    from rivals.clubs.models import ClubMember
    from rivals.fairplay.models import FairPlayFlag
    from rivals.matches.models import Round
    from rivals.sichuan.models import SichuanTable

    pk = obj.pk
    links = [
        _link("games_game", "games", Game.objects.filter(account_id=pk).count(), account__id__exact=pk),
        _link("matches_round", "rounds", Round.objects.filter(players__contains=[pk]).count(), player=pk),
        _link(
            "sichuan_sichuantable",
            "Sichuan tables",
            SichuanTable.objects.filter(account_id=pk).count(),
            account__id__exact=pk,
        ),
        _link("rivals_event", "events (all streams of the player)", None, player=pk),
        _link(
            "points_pointsledgerentry",
            "points ledger",
            PointsLedgerEntry.objects.filter(account_id=pk).count(),
            player=pk,
        ),
        _link("rivals_event", "joker balance changes", None, player=pk, type__exact="JokersChanged"),
        _link(
            "games_rejectedintent", "rejected intents", RejectedIntent.objects.filter(account_id=pk).count(), player=pk
        ),
        _link(
            "fairplay_fairplayflag",
            "fair-play flags",
            FairPlayFlag.objects.filter(account_id=pk).count(),
            account__id__exact=pk,
        ),
        _link("purchases_purchase", "joker purchases", None, player=pk),
        _link("ratings_ratingchange", "rating history", None, player=pk),
        _link("reports_report", "reports about the player", None, q=f"player:{pk}"),
    ]
    member = ClubMember.objects.filter(account_id=pk).select_related("club").first()
    if member:
        links.append(
            format_html('club: <a href="{}">{}</a>', url("admin:clubs_club_change", member.club_id), member.club.name)
        )
    flags = FairPlayFlag.objects.filter(account_id=pk).order_by("-flagged_at")[:10]
    flag_rows = format_html_join(
        "",
        '<li><a href="{}">{}</a> · {} · {}{}</li>',
        (
            (
                url("admin:fairplay_fairplayflag_change", f.pk),
                f.get_kind_display(),
                when(f.flagged_at),
                f.status,
                format_html(
                    ' · <a class="flagged-game" href="{}">flagged game</a>', url("admin:games_game_change", f.game_id)
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
        format_html("<p><b>Fair-play flags</b></p><ul>{}</ul>", flag_rows) if flags else mark_safe(""),
    )
