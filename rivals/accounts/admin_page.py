"""What the player page shows (issue 22): the key figures of a player — points and places on the
three boards, the skill rating and its latest changes (R-41), jokers, trophies, club, games and
rounds played, last seen, open fair-play flags — and links to everything the player did. Read
from the projections and the rooms' extensions of the public profile (ranking places, trophies,
statistics, rating), whatever the account's state.

The page names no room: each room registers its part in its ``AppConfig.ready`` — a row of the
key figures (``register_player_figure``), links with counts to its records of the player
(``register_player_links``), a section below them (``register_player_section``), and when the
player last did something there (``register_last_seen``)."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from datetime import datetime
from typing import Any

from django.urls import reverse
from django.utils.html import format_html, format_html_join
from django.utils.http import urlencode
from django.utils.safestring import mark_safe

from rivals.accounts.events import JOKERS_CHANGED
from rivals.accounts.selectors import player_figures
from rivals.admin_display import url, when
from rivals.models import Account, Event

BOARDS = (("amr", "365 days (AMR)"), ("weekly", "this week"), ("daily", "today"))


FigureRow = Callable[[Account, dict[str, Any]], Any]  # (account, its public figures) → the row's cell
PlayerLinks = Callable[[int], Iterable[tuple[int, Any]]]  # account id → (order, link) to the room's records
_FIGURES: list[tuple[int, str, FigureRow]] = []
_LINKS: list[PlayerLinks] = []
_SECTIONS: list[Callable[[int], Any]] = []
_LAST_SEEN: list[Callable[[int], datetime | None]] = []


def register_player_figure(label: str, fn: FigureRow, *, order: int) -> None:
    """A row of the key figures (rows sorted by ``order``: the page's own are 10, 20, 40, 50, 70, 80)."""
    if all(f is not fn for _, _, f in _FIGURES):
        _FIGURES.append((order, label, fn))


def register_player_links(fn: PlayerLinks) -> None:
    """Links (``hub_link``) to the room's records of the player, each with its place in the list
    (``(order, link)``; the page's own are 40 and 60)."""
    if fn not in _LINKS:
        _LINKS.append(fn)


def register_player_section(fn: Callable[[int], Any]) -> None:
    """A section below the links (``fn(account_id)``: HTML, empty for nothing)."""
    if fn not in _SECTIONS:
        _SECTIONS.append(fn)


def register_last_seen(fn: Callable[[int], datetime | None]) -> None:
    """When the player last did something in the room (its newest move), or None."""
    if fn not in _LAST_SEEN:
        _LAST_SEEN.append(fn)


def hub_link(admin_name: str, label: str, count: int | None = None, **query) -> str:
    target = reverse(f"admin:{admin_name}_changelist") + ("?" + urlencode(query) if query else "")
    return format_html('<a href="{}">{}</a>{}', target, label, f" ({count})" if count is not None else "")


def last_seen(account: Account):
    """The last thing the player did: its newest own event on its account stream (sign-ins,
    renames, claims …) or the newest the rooms know (the last move on its latest game)."""
    own = (
        Event.objects.filter(stream_id=account.stream_id, metadata__actor=f"account:{account.pk}")
        .order_by("-version")
        .values_list("recorded_at", flat=True)
        .first()
    )
    seen = [t for t in (own, *(fn(account.pk) for fn in _LAST_SEEN)) if t is not None]
    return max(seen) if seen else None


def _state(account: Account) -> str:
    if account.closed_at:
        return format_html("<b>closed</b> {}", when(account.closed_at))
    if account.suspended_at:
        note = account.suspension_reason  # the operator's note: the player was told a code (issue 40)
        return format_html("<b>suspended</b> since {} (operator's note: {})", when(account.suspended_at), note)
    return "active"


def key_figures(account: Account):
    """The figures an operator looks at first, as one small table."""
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
    rows = [
        (10, "state", _state(account)),
        (20, "points and places", boards),
        (40, "jokers", format_html("<b>{}</b>", account.jokers)),
        (50, "trophies", trophy_text),
        (
            70,
            "played",
            (
                f"{stats.get('games_played', 0)} games ({stats.get('games_won', 0)} won), "
                f"{stats.get('rounds_played', 0)} rounds ({stats.get('rounds_won', 0)} won), "
                f"{stats.get('tournaments_played', 0)} tournaments"
            ),
        ),
        (80, "last seen", when(last_seen(account))),
        *((order, label, fn(account, figures)) for order, label, fn in _FIGURES),
    ]
    rows.sort(key=lambda row: row[0])
    body = format_html_join("", "<tr><th>{}</th><td>{}</td></tr>", ((label, cell) for _, label, cell in rows))
    return format_html('<table class="key-figures">{}</table>', body)


def account_hub(obj: Account):
    """Links (with counts) to every record of the player, and what the rooms add below them (its
    latest fair-play flags)."""
    pk = obj.pk
    links: list[tuple[int, Any]] = [
        (40, hub_link("rivals_event", "events (all streams of the player)", None, player=pk)),
        (60, hub_link("rivals_event", "joker balance changes", None, player=pk, type__exact=JOKERS_CHANGED)),
    ]
    links += [item for fn in _LINKS for item in fn(pk)]
    links.sort(key=lambda item: item[0])
    sections = [section for fn in _SECTIONS if (section := fn(pk))]
    return format_html(
        '<ul class="player-hub">{}</ul>{}',
        format_html_join("", "<li>{}</li>", ((x,) for _, x in links)),
        mark_safe("".join(str(s) for s in sections)),
    )
