"""How the admin shows things to a person (issue 22): one time zone — Romanian time, labelled
(EET / EEST) — on every page, timelines included; people by name (with their id, linked to their
page) instead of bare ids; actors as who they are; event data pretty-printed with links to the
streams, accounts and records it names.

Pages of the rooms are reached by their URL names (``admin:<app>_<model>_change``), never by
importing the rooms: the platform imports no room. A name that does not resolve is shown as text.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable
from datetime import datetime
from typing import Any

from django.urls import NoReverseMatch, reverse
from django.utils import timezone
from django.utils.dateparse import parse_datetime
from django.utils.html import escape, format_html
from django.utils.http import urlencode
from django.utils.safestring import SafeString, mark_safe

TIME_LABEL = "Romanian time"  # settings.TIME_ZONE, Europe/Bucharest: what decides days and weeks

# keys of event data (and of projections' JSON) that name an account, or a list of accounts
ACCOUNT_KEYS = frozenset(
    {
        "account_id",
        "reporter_id",
        "owner_id",
        "previous_owner_id",
        "challenger_id",
        "opponent_id",
        "player",
        "opponent",
        "winner_id",
    }
)
ACCOUNT_LIST_KEYS = frozenset({"account_ids", "players", "waiting", "registered_ids"})
_ISO = re.compile(r"^\d{4}-\d\d-\d\dT\d\d:\d\d")

# What the rooms register in their ``AppConfig.ready`` (``register_pages``): the platform names
# no room's page and no room's stream. The platform's own: the account stream and page.
RECORD_PAGES: dict[str, str] = {}  # a data key naming a record → that record's admin page (URL name)
VALUE_PAGES: dict[str, str] = {}  # a value's prefix (``club:``) → the admin page of the record it names
ACTOR_PAGES: dict[str, tuple[str, str]] = {}  # an actor's kind (``schedule``) → (what it is, its admin page)
_STREAM_PREFIXES: list[str] = ["account-"]  # stream ids' prefixes: such a value links to its events


def register_pages(
    *,
    records: dict[str, str] | None = None,
    streams: tuple[str, ...] = (),
    values: dict[str, str] | None = None,
    actors: dict[str, tuple[str, str]] | None = None,
) -> None:
    """A room's part of what the admin links: the data keys that name its records
    (``{"game_id": "admin:games_game_change"}``), the prefixes of the streams it writes
    (``("game-",)``), values that name its records by a prefix (``{"club:": …}``) and the actors
    it writes events as (``{"schedule": ("recurring schedule", "admin:…_change")}``)."""
    RECORD_PAGES.update(records or {})
    VALUE_PAGES.update(values or {})
    ACTOR_PAGES.update(actors or {})
    _STREAM_PREFIXES.extend(p for p in streams if p not in _STREAM_PREFIXES)


def stream_prefixes() -> tuple[str, ...]:
    return tuple(_STREAM_PREFIXES)


def when(dt: datetime | None, *, precise: bool = False) -> str:
    """``2026-03-29 20:00:05 EEST``: the instant in Romanian time, its zone named."""
    if dt is None:
        return "—"
    local = timezone.localtime(dt)
    text = local.strftime("%Y-%m-%d %H:%M:%S")
    if precise:
        text += f".{local.microsecond // 1000:03d}"
    return f"{text} {local.tzname()}"


def clock(dt: datetime | None) -> str:
    """``20:00:05.250 EEST``: the time of day in Romanian time, for timelines of one game."""
    if dt is None:
        return "—"
    local = timezone.localtime(dt)
    return f"{local.strftime('%H:%M:%S')}.{local.microsecond // 1000:03d} {local.tzname()}"


def url(name: str, *args) -> str | None:
    try:
        return reverse(name, args=args)
    except NoReverseMatch:
        return None


def events_url(stream_id: str) -> str:
    return reverse("admin:rivals_event_changelist") + "?" + urlencode({"q": stream_id})


def stream_link(stream_id: str) -> SafeString:
    """A stream's id, linked to its events."""
    return format_html('<a href="{}">{}</a>', events_url(stream_id), stream_id)


def names_of(account_ids: Iterable[int]) -> dict[int, str]:
    """Display names (an operator's username when it has none) of these accounts, one query."""
    from rivals.models import Account

    ids = {int(a) for a in account_ids if isinstance(a, int) or (isinstance(a, str) and a.isdigit())}
    if not ids:
        return {}
    rows = Account.objects.filter(pk__in=ids).values_list("pk", "display_name", "username")
    return {pk: name or username for pk, name, username in rows}


def account_link(account_id: int | None, names: dict[int, str] | None = None) -> SafeString | str:
    """``Jade Tiger (#9)``, linked to the player's page."""
    if account_id is None:
        return "—"
    if names is None:
        names = names_of([account_id])
    name = names.get(int(account_id))
    label = f"{name} (#{account_id})" if name else f"#{account_id}"
    target = url("admin:rivals_account_change", account_id)
    return format_html('<a href="{}">{}</a>', target, label) if target else label


def accounts_links(account_ids: Iterable[int], names: dict[int, str] | None = None) -> SafeString:
    ids = list(account_ids)
    names = names if names is not None else names_of(ids)
    return mark_safe(", ".join(str(account_link(a, names)) for a in ids)) if ids else mark_safe("—")


def actor_html(actor: str | None, names: dict[int, str] | None = None) -> SafeString | str:
    """Who wrote an event: ``operator admin (#41)``, ``player Jade Tiger (#9)``, ``the server``,
    ``recurring schedule #3`` …"""
    if not actor:
        return "—"
    kind, _, ref = str(actor).partition(":")
    if kind in ("operator", "account") and ref.isdigit():
        who = "operator" if kind == "operator" else "player"
        return format_html("{} {}", who, account_link(int(ref), names))
    if kind in ACTOR_PAGES and ref.isdigit():
        what, page = ACTOR_PAGES[kind]
        target = url(page, int(ref))
        return format_html('<a href="{}">{} #{}</a>', target, what, ref) if target else actor
    plain = {
        "system": "the server",
        "anonymous": "not signed in",
        "operator:cli": "an operator (command line)",
        "operator:test": "an operator (test)",
    }
    if actor in plain:
        return plain[actor]
    return f"{actor}"


def _account_ids(value: Any, key: str | None = None, out: set | None = None) -> set[int]:
    out = set() if out is None else out
    if isinstance(value, dict):
        for k, v in value.items():
            _account_ids(v, k, out)
    elif isinstance(value, list):
        for v in value:
            _account_ids(v, key if key in ACCOUNT_LIST_KEYS else None, out)
    elif isinstance(value, int) and not isinstance(value, bool) and key in ACCOUNT_KEYS | ACCOUNT_LIST_KEYS:
        out.add(value)
    elif isinstance(value, str):
        if value.startswith("player:") and value[7:].isdigit():
            out.add(int(value[7:]))
        elif value.startswith("account-") and value[8:].isdigit():
            out.add(int(value[8:]))
        elif key in ACCOUNT_KEYS and value.isdigit():
            out.add(int(value))
    return out


def _scalar(value: Any, key: str | None, names: dict[int, str]) -> str:
    text = escape(json.dumps(value, ensure_ascii=False))
    target = None
    note = ""
    if isinstance(value, int) and not isinstance(value, bool) and key in ACCOUNT_KEYS | ACCOUNT_LIST_KEYS:
        target, note = url("admin:rivals_account_change", value), names.get(value, "")
    elif isinstance(value, str) and key in RECORD_PAGES and value:
        target = url(RECORD_PAGES[key], value)
    elif isinstance(value, str) and value.startswith("player:") and value[7:].isdigit():
        target, note = url("admin:rivals_account_change", int(value[7:])), names.get(int(value[7:]), "")
    elif isinstance(value, str) and value.startswith(tuple(VALUE_PAGES)):
        prefix = next(p for p in VALUE_PAGES if value.startswith(p))
        target = url(VALUE_PAGES[prefix], value[len(prefix) :])
    elif isinstance(value, str) and value.startswith(stream_prefixes()):
        target = events_url(value)
        if value.startswith("account-") and value[8:].isdigit():
            note = names.get(int(value[8:]), "")
    elif isinstance(value, str) and _ISO.match(value):
        instant = parse_datetime(value)
        if instant is not None and instant.tzinfo is not None:
            note = when(instant, precise=instant.microsecond != 0)  # the data's UTC, said in Romanian time
    if target:
        text = f'<a href="{escape(target)}">{text}</a>'
    if note:
        text += f' <span class="name">({escape(note)})</span>'
    return text


def _render(value: Any, key: str | None, depth: int, names: dict[int, str]) -> str:
    pad, inner = "  " * depth, "  " * (depth + 1)
    if isinstance(value, dict):
        if not value:
            return "{}"
        items = [
            f"{inner}{escape(json.dumps(k, ensure_ascii=False))}: {_render(v, k, depth + 1, names)}"
            for k, v in value.items()
        ]
        return "{\n" + ",\n".join(items) + "\n" + pad + "}"
    if isinstance(value, list):
        if not value:
            return "[]"
        item_key = key if key in ACCOUNT_LIST_KEYS else None
        if all(not isinstance(v, (dict, list)) for v in value) and len(value) <= 40:
            return "[" + ", ".join(_scalar(v, item_key, names) for v in value) + "]"
        items = [inner + _render(v, item_key, depth + 1, names) for v in value]
        return "[\n" + ",\n".join(items) + "\n" + pad + "]"
    return _scalar(value, key, names)


def data_html(data: Any, *, css: str = "event-data") -> SafeString:
    """JSON pretty-printed for a person: indented, the accounts it names linked and named, the
    games, rounds, matches, tournaments, clubs, flags and reports it names linked to their pages,
    the streams it names linked to their events."""
    names = names_of(_account_ids(data))
    return mark_safe(f'<pre class="{css}">{_render(data, None, 0, names)}</pre>')


def pairs_html(data: dict[str, Any]) -> SafeString | str:
    """A flat ``key: value`` list (fair-play details …), lists shortened."""
    if not data:
        return "—"
    rows = []
    for k, v in data.items():
        if isinstance(v, list):
            shown = ", ".join(str(x) for x in v[:20]) + (" …" if len(v) > 20 else "")
            v = f"[{shown}]"
        rows.append(format_html("<li><b>{}</b>: {}</li>", k.replace("_", " "), v))
    return mark_safe('<ul class="pairs">' + "".join(rows) + "</ul>")


def table_html(head: Iterable[str], rows: Iterable[Iterable[Any]], *, css: str = "") -> SafeString | str:
    """A small read-only table (rows' cells are escaped unless already safe)."""
    rows = list(rows)
    if not rows:
        return "—"
    th = "".join(format_html("<th>{}</th>", h) for h in head)
    body = "".join("<tr>" + "".join(format_html("<td>{}</td>", c) for c in row) + "</tr>" for row in rows)
    return mark_safe(f'<table class="{escape(css)}"><tr>{th}</tr>{body}</table>')
