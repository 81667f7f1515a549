"""House style 6 (``rivals.event_types``): every event type has one payload type and one typed
constructor, registered by exactly one feature — the constructor writes exactly its payload, and
every type a play-through writes is one of them."""

from __future__ import annotations

import datetime as dt
import inspect
import random
import types
import typing
import uuid
from collections import abc
from datetime import timedelta
from pathlib import Path
from typing import Any, TypedDict

import jsonschema
import pytest
from django.contrib.auth.tokens import default_token_generator
from django.core import signing
from django.core.exceptions import ImproperlyConfigured
from django.test import Client
from django.utils import timezone

from rivals import event_types, projections
from rivals.accounts import credentials
from rivals.accounts.services import account_close, account_guest_signin, account_rename
from rivals.api.event_schema import data_schema
from rivals.clubs.services import club_found, club_join, club_leave
from rivals.daily_bonus.services import daily_bonus_claim, daily_bonus_double
from rivals.errors import Unauthenticated
from rivals.eventstore import NewEvent
from rivals.fairplay.services import account_suspend, account_suspension_lift, fairplay_flag, fairplay_flag_review
from rivals.matches.services import (
    duel_accept,
    duel_challenge,
    duel_decline,
    duel_expire_if_due,
    queue_join,
    queue_leave,
    queue_ticket_expire_if_due,
)
from rivals.models import Account, Event
from rivals.purchases.services import purchase_record
from rivals.reports.services import report_club_rename, report_file, report_name_reset, report_review
from rivals.sichuan import engine as sichuan_engine
from rivals.sichuan import services as sichuan
from tests.factories import AccountFactory, device_id_for
from tests.games.helpers import at, board_of, intent, new_game, plan_of, play_to_win
from tests.matches.helpers import complete, first_round, match
from tests.sichuan.test_api_table import choose
from tournaments.events import POT_EVENTS, REMINDER_EVENTS, SCHEDULE_EVENTS, TOURNAMENT_EVENTS

FEATURES = {
    "accounts",
    "clubs",
    "daily_bonus",
    "fairplay",
    "games",
    "matches",
    "periodic",
    "points",
    "purchases",
    "ratings",
    "reports",
    "sichuan",
    "tournaments",
}
PASSWORD = "tile-matcher-77"


def _feature_events() -> dict[str, frozenset[str]]:
    from rivals.accounts.events import ACCOUNT_EVENTS
    from rivals.clubs.events import CLUB_EVENTS
    from rivals.daily_bonus.events import DAILY_BONUS_EVENTS
    from rivals.fairplay.events import FAIRPLAY_EVENTS
    from rivals.games.events import GAME_EVENTS
    from rivals.matches.events import MATCH_EVENTS
    from rivals.periodic.events import JOB_EVENTS
    from rivals.points.events import POINTS_EVENTS
    from rivals.purchases.events import PURCHASE_EVENTS
    from rivals.ratings.events import RATING_EVENTS
    from rivals.reports.events import REPORT_EVENTS
    from rivals.sichuan.events import SICHUAN_EVENTS

    return {
        "accounts": ACCOUNT_EVENTS,
        "clubs": CLUB_EVENTS,
        "daily_bonus": DAILY_BONUS_EVENTS,
        "fairplay": FAIRPLAY_EVENTS,
        "games": GAME_EVENTS,
        "matches": MATCH_EVENTS,
        "periodic": JOB_EVENTS,
        "points": POINTS_EVENTS,
        "purchases": PURCHASE_EVENTS,
        "ratings": RATING_EVENTS,
        "reports": REPORT_EVENTS,
        "sichuan": SICHUAN_EVENTS,
        "tournaments": TOURNAMENT_EVENTS
        | POT_EVENTS
        | SCHEDULE_EVENTS
        | REMINDER_EVENTS,  # its constructors: tournaments/events.py
    }


def test_each_feature_registers_its_vocabulary_and_no_two_features_share_a_type_name():
    vocabularies = _feature_events()
    names = [name for vocabulary in vocabularies.values() for name in vocabulary]
    assert len(names) == len(set(names)), "two features name the same event type"
    registered = event_types.registered()
    assert {e.feature for e in registered} == FEATURES
    for feature in FEATURES:
        assert {e.name for e in registered if e.feature == feature} == vocabularies[feature], feature
    assert len({e.name for e in registered}) == len(registered)


def _hints(entry: event_types.EventType) -> dict:
    """The constructor's arguments and their types, resolved (``return`` left out)."""
    hints = typing.get_type_hints(entry.constructor, include_extras=True)
    hints.pop("return", None)
    return hints


def test_every_constructor_is_keyword_only_typed_and_named_after_its_type():
    for entry in event_types.registered():
        assert entry.constructor.__name__ == event_types.constructor_name(entry.name)
        package = "tournaments" if entry.feature == "tournaments" else f"rivals.{entry.feature}"
        assert entry.constructor.__module__ == f"{package}.events"
        params = inspect.signature(entry.constructor).parameters.values()
        assert all(p.kind is inspect.Parameter.KEYWORD_ONLY for p in params), entry.name
        hints = _hints(entry)  # resolvable: the payload test calls it with values of these types
        assert set(hints) == {p.name for p in params}, f"{entry.name}: an argument without a type"
        assert inspect.signature(entry.constructor).return_annotation == "NewEvent"


def test_the_registry_refuses_a_type_of_another_feature_and_a_constructor_it_cannot_call_by_keyword():
    from rivals.games import events as games_events

    class GameWonData(TypedDict):
        play_ms: int

    def game_won(*, play_ms: int) -> NewEvent:  # GameWon is the games feature's
        return NewEvent("GameWon", {"play_ms": play_ms})

    def pair_lost(tiles: list[int]) -> NewEvent:
        return NewEvent("PairLost", {"tiles": tiles})

    def pair_kept(*, tiles: list[int]) -> NewEvent:  # no PairKeptData
        return NewEvent("PairKept", {"tiles": tiles})

    module = types.SimpleNamespace(
        __name__="elsewhere.events",
        game_won=game_won,
        GameWonData=GameWonData,
        pair_lost=pair_lost,  # refused before its payload is looked for
        pair_kept=pair_kept,
    )
    with pytest.raises(ImproperlyConfigured, match="GameWon is registered by games and elsewhere"):
        event_types.register(feature="elsewhere", types={"GameWon"}, module=module)
    with pytest.raises(ImproperlyConfigured, match="keyword-only"):
        event_types.register(feature="elsewhere", types={"PairLost"}, module=module)
    with pytest.raises(ImproperlyConfigured, match="no constructor"):
        event_types.register(feature="elsewhere", types={"PairFound"}, module=module)
    with pytest.raises(ImproperlyConfigured, match="no payload TypedDict elsewhere.events.PairKeptData"):
        event_types.register(feature="elsewhere", types={"PairKept"}, module=module)
    before = event_types.registered()
    event_types.register(  # again: no-op
        feature="games",
        types=games_events.GAME_EVENTS,
        module=games_events,
        schema_versions=games_events.SCHEMA_VERSIONS,
    )
    assert event_types.registered() == before


INSTANT = dt.datetime(2026, 1, 2, 3, 4, 5, 678901, tzinfo=dt.UTC)
_PLACEHOLDERS: dict[Any, Any] = {
    bool: True,
    int: 1,
    float: 1.5,
    str: "x",
    dt.datetime: INSTANT,
    dt.date: dt.date(2026, 1, 2),
    uuid.UUID: uuid.UUID(int=1),
}


def _placeholder(hint: Any, full: bool) -> Any:
    """A value of ``hint`` (never stored): ``full``, lists have one item and rows every key; else
    lists are empty and rows have their required keys only."""
    origin = typing.get_origin(hint)
    if origin in (typing.Required, typing.NotRequired):
        return _placeholder(typing.get_args(hint)[0], full)
    if origin is typing.Annotated:
        base, *marks = typing.get_args(hint)
        if event_types.INSTANT_MARK in marks:
            return INSTANT.isoformat()
        return dt.date(2026, 1, 2).isoformat() if event_types.DAY_MARK in marks else _placeholder(base, full)
    if origin in (typing.Union, types.UnionType):
        return _placeholder(next(a for a in typing.get_args(hint) if a is not type(None)), full)
    if origin in (list, tuple, abc.Sequence, abc.Iterable):
        return [_placeholder(typing.get_args(hint)[0], full)] if full else []
    if event_types.is_typed_dict(hint):
        keys = typing.get_type_hints(hint, include_extras=True)
        required = set(event_types.required_keys(hint))
        return {k: _placeholder(h, full) for k, h in keys.items() if full or k in required}
    assert hint in _PLACEHOLDERS, hint
    return _PLACEHOLDERS[hint]


def _closed(schema: Any) -> Any:
    """``schema`` with no key allowed beyond those it names (the served schema allows more: a later
    schema version may add some)."""
    if isinstance(schema, list):
        return [_closed(s) for s in schema]
    if not isinstance(schema, dict):
        return schema
    closed = {k: _closed(v) for k, v in schema.items()}
    if "properties" in schema:
        closed["additionalProperties"] = False
    return closed


def test_every_constructor_writes_exactly_its_payload_type():
    """Called with every argument, with its required ones only, and with ``None`` wherever a
    required argument admits it, each constructor writes data its payload's schema validates with
    no other key: a constructor and its payload type cannot drift apart."""
    wrong = []
    for entry in event_types.registered():
        hints, params = _hints(entry), inspect.signature(entry.constructor).parameters
        required = [n for n, p in params.items() if p.default is p.empty]
        calls = {
            "every argument": {n: _placeholder(hints[n], full=True) for n in params},
            "the required ones": {n: _placeholder(hints[n], full=False) for n in required},
            "None where admitted": {
                n: None if type(None) in typing.get_args(hints[n]) else _placeholder(hints[n], full=False)
                for n in required
            },
        }
        validator = jsonschema.Draft202012Validator(
            _closed(data_schema(entry)), format_checker=jsonschema.Draft202012Validator.FORMAT_CHECKER
        )
        for call, arguments in calls.items():
            event = entry.constructor(**arguments)
            assert (event.type, event.schema_version) == (entry.name, entry.schema_version)
            wrong += [f"{entry.name} ({call}): {e.message}" for e in validator.iter_errors(event.data)]
    assert not wrong, wrong
    assert {e.payload.__name__ for e in event_types.registered()} == {
        event_types.payload_name(e.name) for e in event_types.registered()
    }


def test_every_type_a_projection_reads_has_a_registered_constructor():
    read = set().union(*(p.event_types for p in projections.registered()))
    registered = {e.name for e in event_types.registered()}
    assert read <= registered


def test_events_are_built_only_in_the_events_modules():
    """``NewEvent(…)`` outside a feature's ``events.py`` would bypass its typed constructors."""
    root = Path(__file__).resolve().parents[2]
    building = {
        str(path.relative_to(root))
        for package in ("rivals", "tournaments", "rankings", "demo")
        for path in (root / package).rglob("*.py")
        if path.name != "events.py" and "NewEvent(" in path.read_text(encoding="utf-8")
    }
    assert not building, f"events built outside the events modules: {sorted(building)}"


def test_the_sichuan_vocabulary_is_the_engines():
    from rivals.sichuan.events import ENGINE_EVENTS, SERVICE_EVENTS

    assert ENGINE_EVENTS == sichuan.ENGINE_EVENT_TYPES  # every type the engine folds (Table._on_<Type>)
    assert SERVICE_EVENTS == sichuan.SERVICE_EVENT_TYPES


def _purchase(account, transaction_id: str, kind: str, jokers: int) -> dict:
    return {
        "transaction_id": transaction_id,
        "account_id": account.pk,
        "product": "jokers_5",
        "jokers": jokers,
        "kind": kind,
    }


def _play_through() -> None:
    """Every feature of ``rivals`` through its services: accounts, credentials and the admin's
    sign-in, solo games, a Quick Match, the queue, duels, a club, fair play, the daily bonus and
    a Sichuan deal."""
    ann = AccountFactory.create(device_id="types-ann", jokers=2, display_name="Ann")
    bob = AccountFactory.create(device_id="types-bob")
    carl = AccountFactory.create(device_id="types-carl")
    account_guest_signin(device_id=device_id_for("types-bob"))
    credentials.credentials_add(account=ann, email="ann@example.org", password=PASSWORD)
    credentials.email_verify(
        token=signing.dumps({"a": ann.pk, "e": "ann@example.org"}, salt=credentials.VERIFY_SALT, compress=True)
    )
    with pytest.raises(Unauthenticated):
        credentials.login(email="ann@example.org", password="not-the-password")
    ann, key = credentials.login(email="ann@example.org", password=PASSWORD)
    credentials.password_change(account=ann, old_password=PASSWORD, new_password=PASSWORD + "!", keep_token=key)
    credentials.logout(account=ann, token_key=key)
    credentials.password_reset_request(email="ann@example.org")
    ann.refresh_from_db()
    reset = {"a": ann.pk, "t": default_token_generator.make_token(ann)}
    credentials.password_reset_confirm(token=signing.dumps(reset, salt=credentials.RESET_SALT), password=PASSWORD)

    level = new_game(ann, "single", level=1)
    intent(level, ann, "hint", now=at(1))
    intent(level, ann, "pause", now=at(2))
    intent(level, ann, "resume", now=at(3))
    board = board_of(level)
    blocked = next(t for t in range(board.layout.size) if (board.present >> t) & 1 and not board.is_free(t))
    intent(level, ann, "click_blocked", now=at(4), tile=blocked)
    intent(level, ann, "joker", now=at(5), tile=plan_of(level)[0][0])
    play_to_win(level, ann, 6, 90)
    classic = new_game(bob, "classic")
    intent(classic, bob, "remove_pair", now=at(1), tiles=list(plan_of(classic)[0]))
    intent(classic, bob, "undo", now=at(2))
    intent(classic, bob, "shuffle", now=at(3))
    intent(classic, bob, "end", now=at(4))
    practice = new_game(bob, "pool_practice")
    intent(practice, bob, "restart", now=at(1))

    quick = match("quick", [ann, bob])
    complete(first_round(quick), ann, 1)
    ticket, _ = queue_join(account=bob, mode="arena")
    queue_leave(account=bob, ticket_id=ticket.pk)
    queue_join(account=ann, mode="quick")
    queue_join(account=bob, mode="quick")  # the pair is matched
    later = timezone.now() + timedelta(hours=1)
    waiting, _ = queue_join(account=carl, mode="arena")
    queue_ticket_expire_if_due(ticket_id=waiting.pk, now=later)
    unanswered, _ = duel_challenge(account=carl, opponent=bob.pk)
    duel_expire_if_due(duel_id=unanswered.pk, now=later)
    declined, _ = duel_challenge(account=ann, opponent=bob.pk)
    duel_decline(account=bob, duel_id=declined.pk)
    accepted, _ = duel_challenge(account=bob, opponent=ann.pk)
    duel_accept(account=ann, duel_id=accepted.pk)

    club = club_found(account=ann, name="Types")
    club_join(account=bob, club_id=club.pk)
    account_rename(account=bob, display_name="Rude Bob")
    named = report_file(reporter=ann, subject=f"player:{bob.pk}", reason="name", note="rude")
    report_name_reset(report=named, reason="rude", actor="operator:test")
    report_review(
        report=report_file(reporter=bob, subject=f"player:{ann.pk}", reason="cheating"),
        decision="dismissed",
        note="no",
        actor="operator:test",
    )
    report_club_rename(
        report=report_file(reporter=carl, subject=f"club:{club.pk}", reason="name"),
        name="Types Renamed",
        reason="test",
        actor="operator:test",
    )
    purchase_record(**_purchase(ann, "types-1", "purchase", 5))
    purchase_record(**_purchase(ann, "types-2", "refund", 9))
    club_leave(account=ann, club_id=club.pk)  # the owner leaves: bob owns it
    club_leave(account=bob, club_id=club.pk)  # nobody is left: closed

    flag = fairplay_flag(account_id=bob.pk, kind="fast_pairs", subject="game-x", details={"fast_pairs": 5})
    fairplay_flag_review(flag=flag, decision="dismissed", note="", actor="operator:test")
    account_suspend(account=bob, reason="test", actor="operator:test")
    account_suspension_lift(account=bob, reason="test", actor="operator:test")
    daily_bonus_claim(account=ann)
    daily_bonus_double(account=ann)

    table = sichuan.sichuan_table_create(account=ann, seed=1)
    rng = random.Random(1)
    while not table.state.over:  # one deal to its end
        view = {"legal_actions": sichuan_engine.legal_actions(table.state, 0)}
        table = sichuan.sichuan_intent_apply(
            account=ann, table_id=table.table.pk, intent={"seq": table.table.seq, **choose(view, rng)}
        )
    account_close(account=carl, reason="test", actor="operator:test")
    Account.objects.create_superuser("types-operator", "op-password-1")
    admin = Client()
    admin.post("/admin/login/", {"username": "types-operator", "password": "wrong-password"})
    admin.post("/admin/login/", {"username": "types-operator", "password": "op-password-1"})


@pytest.mark.django_db
def test_every_event_type_a_play_through_writes_has_exactly_one_registered_constructor_of_its_version():
    _play_through()
    written = set(Event.objects.values_list("type", "schema_version").distinct())
    unregistered = {t for t, _ in written if t not in {e.name for e in event_types.registered()}}
    assert not unregistered, f"written without a registered constructor: {sorted(unregistered)}"
    for type_, version in written:
        assert event_types.event_type(type_).schema_version == version, type_
    assert {event_types.event_type(t).feature for t, _ in written} == FEATURES - {
        "tournaments",
        "live",
        "periodic",
    }  # tests/tournaments, tests/live, tests/periodic
    assert len(written) >= 60  # most of the vocabulary, not a corner of it
