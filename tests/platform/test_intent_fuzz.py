"""Hypothesis fuzz of intent bodies (issue 14, item 3): games of every solo mode, a competitive
round's board and a Sichuan table get bodies that are sometimes right (the current ``seq``, the
next pair of a winning plan) and mostly not (stale or odd ``seq``, unknown types, tiles off the
board, wrong JSON types, extra keys). After every answer:

- never a 5xx, and every refusal is in the API's error format;
- nothing partially written: every stream touched is gap-free and its projection's version is the
  stream's; a refusal appends nothing to its target (only the round clock may record an end that
  was due) and leaves the board's row as it was, and is kept as one ``RejectedIntent``; an accepted
  intent appends exactly the events it answered and moves ``seq`` by one.

The suite runs it seeded and small; ``make fuzz`` larger and time-bounded (tests/platform/fuzz.py).
"""

from __future__ import annotations

import pytest
from hypothesis import event
from hypothesis import strategies as st

from rivals import engine
from rivals.games.models import Game, RejectedIntent
from rivals.games.services import INTENT_TYPES
from rivals.models import Event, Stream
from rivals.sichuan.models import SichuanTable
from rivals.sichuan.services import INTENT_TYPES as SICHUAN_TYPES
from tests.platform.fuzz import fuzz

TARGETS = ("single", "classic", "pool_practice", "round", "sichuan")

_junk = st.one_of(
    st.none(),
    st.booleans(),
    st.floats(allow_nan=False, allow_infinity=False),
    st.text(max_size=4),
    st.lists(st.integers(-3, 3), max_size=3),
    st.dictionaries(st.text(max_size=2), st.integers(), max_size=2),
)


def _mostly(value, otherwise, tenths: int = 8):
    """``value`` ``tenths``/10 of the time (hypothesis weighs ``one_of`` branches its own way)."""
    return st.integers(0, 9).flatmap(lambda n: st.just(value) if n < tenths else otherwise)


_body = st.fixed_dictionaries(
    {
        "type": _mostly("valid", st.one_of(st.sampled_from(INTENT_TYPES + SICHUAN_TYPES), st.text(max_size=6), _junk)),
        "seq": _mostly("current", st.one_of(st.integers(-2, 60), _junk)),
        "tiles": _mostly("plan", st.one_of(st.lists(st.integers(-2, 150), max_size=3), _junk), 6),
        "tile": _mostly("free", st.one_of(st.integers(-2, 150), _junk), 6),
        "pick": st.integers(0, 1000),
    },  # which valid type and suit; not sent
    optional={"suit": st.sampled_from(["x", 1, None]), "extra": _junk},
)


@pytest.fixture
def targets(guest):
    """The fuzzed account and ``fresh(kind)``, which starts a new target of a kind (a finished one
    is replaced, so that accepted intents keep coming)."""
    from rivals.matches.services import match_create

    client, account_id = guest("fuzz-device")
    others = [guest(f"fuzz-opponent-{i}")[1] for i in range(3)]

    def fresh(kind: str) -> str:
        if kind == "round":
            return str(match_create(mode="arena", account_ids=[account_id, *others]).rounds.get().pk)
        if kind == "sichuan":
            return client.post("/api/v1/sichuan", {"seed": len(ids)}, format="json").json()["id"]
        body = {"mode": kind, **({"level": 1} if kind == "single" else {})}
        return client.post("/api/v1/games", body, format="json").json()["id"]

    ids: dict[str, str] = {}
    ids.update({kind: fresh(kind) for kind in TARGETS})
    return client, account_id, ids, fresh


def _board(kind: str, target: str, account_id: int) -> Game | SichuanTable:
    if kind == "sichuan":
        return SichuanTable.objects.get(pk=target)
    if kind == "round":
        return Game.objects.get(round_id=target, account_id=account_id)
    return Game.objects.get(pk=target)


def _next_pair(board: Game) -> list[int]:
    plan = board.plan or engine.deal_from_code(board.code).plan
    return next(([a, b] for a, b in plan if (board.present_mask >> a) & 1 and (board.present_mask >> b) & 1), [0, 1])


def _row(board) -> tuple:
    if isinstance(board, SichuanTable):
        return board.version, board.seq, board.status, list(board.scores)
    return board.version, board.seq, board.status, board.score, board.present, board.jokers_used, board.hints_used


def _consistent(stream_id: str, projection_version: int | None = None) -> None:
    versions = list(Event.objects.filter(stream_id=stream_id).order_by("version").values_list("version", flat=True))
    assert versions == list(range(1, len(versions) + 1)), (stream_id, versions)
    assert Stream.objects.get(pk=stream_id).version == len(versions)
    if projection_version is not None:
        assert projection_version == len(versions), (stream_id, projection_version, len(versions))


@pytest.mark.django_db
@fuzz(examples=60, share=0.2, which=st.sampled_from(TARGETS), body=_body)
def test_fuzzed_intents_are_never_a_5xx_and_never_write_half(targets, which, body):
    from rivals.matches.models import Round

    client, account_id, ids, fresh = targets
    kind = which
    board = _board(kind, ids[kind], account_id)
    if board.status in ("won", "ended", "finished"):
        ids[kind] = fresh(kind)
        board = _board(kind, ids[kind], account_id)
    target = ids[kind]
    pick = body.pop("pick")
    if body["type"] == "valid" and kind == "sichuan":  # one of the human's legal actions, if any
        from rivals.sichuan import engine as sichuan_engine
        from rivals.sichuan.services import HUMAN_SEAT, table_engine_state

        legal = sichuan_engine.legal_actions(table_engine_state(table=board), HUMAN_SEAT) or [{"type": "pass"}]
        body = {**body, **legal[pick % len(legal)]}
    elif body["type"] == "valid":
        body = {**body, "type": INTENT_TYPES[pick % len(INTENT_TYPES)]}
    if body.get("seq") == "current":
        body = {**body, "seq": board.seq}
    if body["tiles"] == "plan":
        body["tiles"] = _next_pair(board) if isinstance(board, Game) else [0, 1]
    if body["tile"] == "free":  # a free tile of a board (joker, click_blocked), a tile id at a table
        body["tile"] = _next_pair(board)[pick % 2] if isinstance(board, Game) else pick % 108
    body.setdefault("suit", "CDB"[pick % 3])
    path = {"sichuan": f"/api/v1/sichuan/{target}/intents", "round": f"/api/v1/rounds/{target}/intents"}.get(
        kind, f"/api/v1/games/{target}/intents"
    )
    stream = f"sichuan-{target}" if kind == "sichuan" else board.stream_id
    before_events = Event.objects.filter(stream_id=stream).count()
    before_row, records = _row(board), RejectedIntent.objects.count()

    res = client.post(path, body, format="json")

    assert res.status_code < 500, (res.status_code, body, res.content[:300])
    event(f"{kind}: {res.status_code}")
    answer = res.json()
    board = _board(kind, target, account_id)
    _consistent(stream, board.version)
    if kind == "round":
        rnd = Round.objects.get(pk=target)
        _consistent(rnd.stream_id, rnd.version)
    if res.status_code >= 400:
        assert set(answer["error"]) == {"code", "message", "details"}, answer
        assert RejectedIntent.objects.count() == records + 1
        new = list(
            Event.objects.filter(stream_id=stream).order_by("version")[before_events:].values_list("type", flat=True)
        )
        assert set(new) <= {"GameEnded"} and (not new or kind == "round"), (body, new)  # only the round clock's end
        if not new:
            assert _row(board) == before_row, (body, before_row, _row(board))
    else:
        assert res.status_code == 200 and answer["accepted"] is True
        assert RejectedIntent.objects.count() == records
        if kind == "sichuan":
            assert Event.objects.filter(stream_id=stream).count() > before_events
        else:
            assert Event.objects.filter(stream_id=stream).count() == before_events + len(answer["events"])
        assert board.seq == before_row[1] + 1
