"""House style 6: an event's JSON shape is versioned — these pin, for representative events of
every feature, the exact data a constructor produces (keys, their order, values) and its schema
version. A change here is a new schema version, not an edit."""

from __future__ import annotations

from datetime import UTC, date, datetime
from uuid import UUID

import pytest

from rivals import event_types
from rivals.accounts import events as accounts
from rivals.clubs import events as clubs
from rivals.daily_bonus import events as daily_bonus
from rivals.fairplay import events as fairplay
from rivals.games import events as games
from rivals.matches import events as matches
from rivals.points import events as points
from rivals.purchases import events as purchases
from rivals.ratings import events as ratings
from rivals.reports import events as reports
from rivals.sichuan import events as sichuan
from tournaments import events as tournaments

AT = datetime(2026, 6, 1, 9, 0, 0, 250000, tzinfo=UTC)
ID = UUID("00000000-0000-4000-8000-000000000001")
OTHER = UUID("00000000-0000-4000-8000-000000000002")
SALT = "000102030405060708090a0b0c0d0e0f"  # R-40 (EXAMPLES.md)
COMMITMENT = "c" * 64
RATED = {  # one player of a RatingsUpdated (R-41): the result's place, as rated, before and after
    "account_id": 7,
    "place": 1,
    "idle": False,
    "rated_place": 1,
    "mu_before": 25.0,
    "sigma_before": 8.333333333333334,
    "mu_after": 27.635389493140497,
    "sigma_after": 8.06590141354368,
}

PINNED = [
    pytest.param(
        tournaments.tournament_cancelled(reason="operator", registered=4, minimum=2, at=AT, note="a bug in the deal"),
        ("TournamentCancelled", 2),
        {
            "reason": "operator",
            "registered": 4,
            "minimum": 2,
            "cancelled_at": "2026-06-01T09:00:00.250000+00:00",
            "note": "a bug in the deal",
        },
        id="tournaments: TournamentCancelled by an operator (version 2: the operator's note)",
    ),
    pytest.param(
        tournaments.table_scored(
            wave=2,
            table=1,
            round_id=ID,
            reason="idle",
            multiplier=3,
            results=[
                {"account_id": 7, "place": 1, "score": 900, "completed": False, "tp": 60, "pairs_removed": 9},
                {"account_id": 8, "place": 2, "score": 0, "completed": False, "tp": 0, "pairs_removed": 0},
            ],
            at=AT,
        ),
        ("TableScored", 2),
        {
            "wave": 2,
            "table": 1,
            "round_id": str(ID),
            "reason": "idle",
            "multiplier": 3,
            "results": [
                {"account_id": 7, "place": 1, "score": 900, "completed": False, "tp": 60, "pairs_removed": 9},
                {"account_id": 8, "place": 2, "score": 0, "completed": False, "tp": 0, "pairs_removed": 0},
            ],
            "ended_at": "2026-06-01T09:00:00.250000+00:00",
        },
        id="tournaments: TableScored (version 2: each row's pairs_removed, R-37)",
    ),
    pytest.param(
        tournaments.player_unregistered(account_id=7, reason="rescheduled", starts_at=AT),
        ("PlayerUnregistered", 1),
        {"account_id": 7, "reason": "rescheduled", "starts_at": "2026-06-01T09:00:00.250000+00:00"},
        id="tournaments: PlayerUnregistered ended by an operator's move of a Champions start (R-28)",
    ),
    pytest.param(
        tournaments.player_unregistered(account_id=7),
        ("PlayerUnregistered", 1),
        {"account_id": 7},
        id="tournaments: PlayerUnregistered, the player's own withdrawal",
    ),
    pytest.param(
        games.pair_removed(
            tiles=[4, 9],
            faces=["C1", "C1"],
            play_ms=5200,
            interval_ms=1800,
            points=200,
            record_ms=1800,
            record=True,
            decisive=False,
            status="playing",
            seq=3,
            round_id=ID,
        ),
        ("PairRemoved", 1),
        {
            "tiles": [4, 9],
            "faces": ["C1", "C1"],
            "play_ms": 5200,
            "interval_ms": 1800,
            "points": 200,
            "record_ms": 1800,
            "record": True,
            "decisive": False,
            "status": "playing",
            "seq": 3,
            "round_id": str(ID),
        },
        id="games: PairRemoved, rivals ruleset, on a round's board",
    ),
    pytest.param(
        games.pair_removed(
            tiles=[4, 9],
            faces=["C1", "C1"],
            play_ms=5200,
            interval_ms=1800,
            points=0,
            record_ms=None,
            status="won",
            seq=3,
        ),
        ("PairRemoved", 1),
        {
            "tiles": [4, 9],
            "faces": ["C1", "C1"],
            "play_ms": 5200,
            "interval_ms": 1800,
            "points": 0,
            "record_ms": None,
            "status": "won",
            "seq": 3,
        },
        id="games: PairRemoved, classic, solo",
    ),
    pytest.param(
        games.game_started(
            game_id=ID,
            account_id=7,
            mode="quick",
            ruleset="rivals",
            level=None,
            code="L08-0001",
            layout="L08",
            faces=("C1", "C1"),
            time_limit_ms=None,
            round_id=OTHER,
            starts_at=AT,
            salt=SALT,
            commitment=COMMITMENT,
        ),
        ("GameStarted", 2),
        {
            "game_id": str(ID),
            "account_id": 7,
            "mode": "quick",
            "ruleset": "rivals",
            "level": None,
            "code": "L08-0001",
            "layout": "L08",
            "faces": ["C1", "C1"],
            "time_limit_ms": None,
            "salt": SALT,
            "commitment": COMMITMENT,
            "round_id": str(OTHER),
            "starts_at": "2026-06-01T09:00:00.250000+00:00",
        },
        id="games: GameStarted of a round's board (version 2: R-40's salt and commitment)",
    ),
    pytest.param(
        games.hint_given(tiles=None, message="no free pair", cost=0, counted=False, play_ms=900, seq=2),
        ("HintGiven", 1),
        {"tiles": None, "message": "no free pair", "cost": 0, "counted": False, "play_ms": 900, "seq": 2},
        id="games: HintGiven, pool, no free pair",
    ),
    pytest.param(
        games.game_ended(reason="time_up", play_ms=600000, score=40),
        ("GameEnded", 1),
        {"reason": "time_up", "play_ms": 600000, "score": 40, "status": "ended"},
        id="games: GameEnded by the server's clock",
    ),
    pytest.param(
        games.game_won(play_ms=61000, score=3700, account_id=7, level=12),
        ("GameWon", 1),
        {"play_ms": 61000, "score": 3700, "account_id": 7, "level": 12, "status": "won"},
        id="games: GameWon",
    ),
    pytest.param(
        matches.round_scheduled(
            round_id=ID,
            match_id=OTHER,
            index=1,
            mode="quick",
            players=(7, 8),
            code="L08-0001",
            salt=SALT,
            commitment=COMMITMENT,
            layout="L08",
            starts_at=AT,
            hard_ends_at=AT,
            cutoff_at=None,
        ),
        ("RoundScheduled", 2),
        {
            "round_id": str(ID),
            "match_id": str(OTHER),
            "index": 1,
            "mode": "quick",
            "players": [7, 8],
            "code": "L08-0001",
            "salt": SALT,
            "commitment": COMMITMENT,
            "layout": "L08",
            "starts_at": "2026-06-01T09:00:00.250000+00:00",
            "hard_ends_at": "2026-06-01T09:00:00.250000+00:00",
            "cutoff_at": None,
        },
        id="matches: RoundScheduled (version 2: R-40's salt and commitment)",
    ),
    pytest.param(
        matches.queue_left(ticket_id=ID, reason="account_suspended"),
        ("QueueLeft", 1),
        {"ticket_id": str(ID), "reason": "account_suspended"},
        id="matches: QueueLeft by the server",
    ),
    pytest.param(
        matches.duel_declined(duel_id=ID, by="opponent"),
        ("DuelDeclined", 1),
        {"duel_id": str(ID), "by": "opponent"},
        id="matches: DuelDeclined by the opponent",
    ),
    pytest.param(
        accounts.account_created(account_id=7, display_name="Player 7"),
        ("AccountCreated", 2),
        {"account_id": 7, "display_name": "Player 7"},
        id="accounts: AccountCreated (version 2)",
    ),
    pytest.param(
        accounts.operator_created(account_id=41, display_name="night-shift", role="support"),
        ("OperatorCreated", 2),
        {"account_id": 41, "display_name": "night-shift", "role": "support"},
        id="accounts: OperatorCreated (version 2: the role)",
    ),
    pytest.param(
        accounts.operator_role_changed(account_id=41, role="viewer", previous_role="support", reason="moved team"),
        ("OperatorRoleChanged", 1),
        {"account_id": 41, "role": "viewer", "previous_role": "support", "reason": "moved team"},
        id="accounts: OperatorRoleChanged",
    ),
    pytest.param(
        accounts.operator_removed(account_id=41, role="viewer", reason="left the company"),
        ("OperatorRemoved", 1),
        {"account_id": 41, "role": "viewer", "reason": "left the company"},
        id="accounts: OperatorRemoved",
    ),
    pytest.param(
        accounts.display_name_changed(account_id=7, display_name_sealed="gAAAA…"),
        ("DisplayNameChanged", 2),
        {"account_id": 7, "display_name_sealed": "gAAAA…"},
        id="accounts: DisplayNameChanged (version 2, sealed)",
    ),
    pytest.param(
        accounts.jokers_changed(account_id=7, delta=-1, reason="joker_used", ref={"game_id": str(ID)}),
        ("JokersChanged", 2),
        {"account_id": 7, "delta": -1, "reason": "joker_used", "game_id": str(ID)},
        id="accounts: JokersChanged with its reference",
    ),
    pytest.param(
        accounts.jokers_changed(
            account_id=7,
            delta=5,
            reason="operator_grant",
            note="ticket #12",
            reason_code="outage",
            message="Sorry for the outage!",
        ),
        ("JokersChanged", 2),
        {
            "account_id": 7,
            "delta": 5,
            "reason": "operator_grant",
            "note": "ticket #12",
            "reason_code": "outage",
            "message": "Sorry for the outage!",
        },
        id="accounts: JokersChanged by an operator (version 2: the note apart from what the player is told)",
    ),
    pytest.param(
        accounts.account_data_exported(account_id=7, by="operator"),
        ("AccountDataExported", 1),
        {"account_id": 7, "by": "operator"},
        id="accounts: AccountDataExported on a subject access request (issue 39)",
    ),
    pytest.param(
        accounts.credentials_added(account_id=7),
        ("CredentialsAdded", 1),
        {"account_id": 7},
        id="accounts: CredentialsAdded by a guest",
    ),
    pytest.param(
        accounts.credentials_added(account_id=7, changed=True, tokens_revoked=2, device_unlinked=True),
        ("CredentialsAdded", 1),
        {"account_id": 7, "changed": True, "tokens_revoked": 2, "device_unlinked": True},
        id="accounts: CredentialsAdded replacing credentials",
    ),
    pytest.param(
        accounts.admin_sign_in_failed(account_id=7),
        ("AdminSignInFailed", 1),
        {"account_id": 7, "via": "admin"},
        id="accounts: AdminSignInFailed",
    ),
    pytest.param(
        fairplay.fair_play_flagged(
            account_id=7,
            flag_id=ID,
            kind="fast_pairs",
            subject=f"game-{OTHER}",
            game_id=str(OTHER),
            round_id=None,
            details={"fast_pairs": 5},
        ),
        ("FairPlayFlagged", 1),
        {
            "account_id": 7,
            "flag_id": str(ID),
            "kind": "fast_pairs",
            "subject": f"game-{OTHER}",
            "game_id": str(OTHER),
            "round_id": None,
            "details": {"fast_pairs": 5},
        },
        id="fairplay: FairPlayFlagged",
    ),
    pytest.param(
        fairplay.account_suspended(account_id=7, reason="bot speed (flag 97c6)", reason_code="fair_play", message=""),
        ("AccountSuspended", 2),
        {"account_id": 7, "reason": "bot speed (flag 97c6)", "reason_code": "fair_play", "message": ""},
        id="fairplay: AccountSuspended (version 2: the code and message for the player)",
    ),
    pytest.param(
        fairplay.account_suspension_lifted(account_id=7, reason="appeal", reason_code="other", message="Welcome back"),
        ("AccountSuspensionLifted", 2),
        {"account_id": 7, "reason": "appeal", "reason_code": "other", "message": "Welcome back"},
        id="fairplay: AccountSuspensionLifted (version 2)",
    ),
    pytest.param(
        points.points_awarded(
            account_id=7,
            amount=100,
            source="quick_match",
            counts=True,
            key=f"quick_match:{ID}:7",
            awarded_at=AT,
            ref={"match_id": str(ID)},
        ),
        ("PointsAwarded", 1),
        {
            "account_id": 7,
            "amount": 100,
            "source": "quick_match",
            "counts": True,
            "key": f"quick_match:{ID}:7",
            "awarded_at": "2026-06-01T09:00:00.250000+00:00",
            "ref": {"match_id": str(ID)},
        },
        id="points: PointsAwarded",
    ),
    pytest.param(
        daily_bonus.daily_bonus_claimed(
            account_id=7, day=date(2026, 6, 1), streak=10, points=100, jokers=1, claimed_at=AT
        ),
        ("DailyBonusClaimed", 1),
        {
            "account_id": 7,
            "day": "2026-06-01",
            "streak": 10,
            "points": 100,
            "jokers": 1,
            "claimed_at": "2026-06-01T09:00:00.250000+00:00",
        },
        id="daily_bonus: DailyBonusClaimed",
    ),
    pytest.param(
        clubs.club_owner_changed(club_id=ID, owner_id=8, previous_owner_id=7, reason="owner_left"),
        ("ClubOwnerChanged", 1),
        {"club_id": str(ID), "owner_id": 8, "previous_owner_id": 7, "reason": "owner_left"},
        id="clubs: ClubOwnerChanged",
    ),
    pytest.param(
        sichuan.sichuan_intent_accepted(seq=4, seat=0, action={"type": "discard", "tile": 17}),
        ("SichuanIntentAccepted", 1),
        {"seq": 4, "seat": 0, "action": {"type": "discard", "tile": 17}},
        id="sichuan: SichuanIntentAccepted",
    ),
    pytest.param(
        sichuan.engine_event(
            {
                "type": "HandWon",
                "seat": 2,
                "by": "discard",
                "from": 1,
                "tile": 17,
                "takes_tile": True,
                "fan": 2,
                "fans": ["pure_suit"],
                "value": 4,
            }
        ),
        ("HandWon", 1),
        {
            "seat": 2,
            "by": "discard",
            "from": 1,
            "tile": 17,
            "takes_tile": True,
            "fan": 2,
            "fans": ["pure_suit"],
            "value": 4,
        },
        id="sichuan: the engine's HandWon",
    ),
    pytest.param(
        accounts.display_name_reset(
            account_id=7,
            display_name="Player 7",
            previous_name_sealed="gAAAA…",
            reason="offensive",
            report_id=str(ID),
            reason_code="abusive_name",
            message="",
        ),
        ("DisplayNameReset", 2),
        {
            "account_id": 7,
            "display_name": "Player 7",
            "previous_name_sealed": "gAAAA…",
            "reason": "offensive",
            "report_id": str(ID),
            "reason_code": "abusive_name",
            "message": "",
        },
        id="accounts: DisplayNameReset (version 2: the code and message for the player)",
    ),
    pytest.param(
        clubs.club_renamed(
            club_id=ID,
            name="Good Club",
            name_key="GOOD CLUB",
            previous_name="Bad Club",
            reason="offensive",
            owner_id=7,
            reason_code="abusive_name",
            message="Pick a kinder name next time",
        ),
        ("ClubRenamed", 2),
        {
            "club_id": str(ID),
            "name": "Good Club",
            "name_key": "GOOD CLUB",
            "previous_name": "Bad Club",
            "reason": "offensive",
            "report_id": None,
            "owner_id": 7,
            "reason_code": "abusive_name",
            "message": "Pick a kinder name next time",
        },
        id="clubs: ClubRenamed (version 2: the owner told the code and message)",
    ),
    pytest.param(
        reports.report_filed(
            report_id=ID, reporter_id=7, subject="player:8", reason="personal_data", note_sealed="gAAAA…"
        ),
        ("ReportFiled", 1),
        {
            "report_id": str(ID),
            "reporter_id": 7,
            "subject": "player:8",
            "reason": "personal_data",
            "note_sealed": "gAAAA…",
        },
        id="reports: ReportFiled",
    ),
    pytest.param(
        reports.report_reviewed(report_id=ID, decision="upheld", action="name_reset", note="offensive"),
        ("ReportReviewed", 1),
        {"report_id": str(ID), "decision": "upheld", "action": "name_reset", "note": "offensive"},
        id="reports: ReportReviewed",
    ),
    pytest.param(
        purchases.jokers_purchased(account_id=7, transaction_id="tx-1", product="jokers_5", jokers=5, balance=7),
        ("JokersPurchased", 1),
        {"account_id": 7, "transaction_id": "tx-1", "product": "jokers_5", "jokers": 5, "balance": 7},
        id="purchases: JokersPurchased",
    ),
    pytest.param(
        purchases.joker_purchase_refunded(
            account_id=7, transaction_id="tx-2", product="jokers_5", jokers=5, taken=3, shortfall=2, balance=0
        ),
        ("JokerPurchaseRefunded", 1),
        {
            "account_id": 7,
            "transaction_id": "tx-2",
            "product": "jokers_5",
            "jokers": 5,
            "taken": 3,
            "shortfall": 2,
            "balance": 0,
        },
        id="purchases: JokerPurchaseRefunded",
    ),
    pytest.param(
        ratings.ratings_updated(
            result=f"match:{ID}",
            mode="quick",
            kind="one_to_one",
            model="openskill 6.2.0 PlackettLuce",
            players=[dict(RATED)],
            rated_at=AT,
        ),
        ("RatingsUpdated", 1),
        {
            "result": f"match:{ID}",
            "mode": "quick",
            "kind": "one_to_one",
            "model": "openskill 6.2.0 PlackettLuce",
            "players": [RATED],
            "rated_at": "2026-06-01T09:00:00.250000+00:00",
        },
        id="ratings: RatingsUpdated",
    ),
]


@pytest.mark.parametrize(("event", "kind", "data"), PINNED)
def test_a_constructor_writes_exactly_the_pinned_data_and_schema_version(event, kind, data):
    assert (event.type, event.schema_version) == kind
    assert list(event.data.items()) == list(data.items())  # the same keys in the same order, the same values
    assert event_types.event_type(event.type).schema_version == event.schema_version
