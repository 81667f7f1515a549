"""R-40: a competition's deal is secret until the competition is over, with a public commitment.

The exploit this closes (issue 31): ``GET /rounds/{id}`` showed the live round's ``code``; ``POST
/games {"mode": "classic", "code": …}`` dealt it again as a practice game with free hints, each the
next pair of the server's own plan; replaying them won the round. Every table of a tournament wave
plays one deal, and a pot's deal was on its page before it started.
"""

from __future__ import annotations

import hashlib
import re
from datetime import timedelta

import pytest
from django.utils import timezone

from rivals import engine
from rivals.deals.selectors import code_is_secret, deal_commitment, deal_fields
from rivals.deals.services import deal_new
from rivals.errors import NotAllowed
from rivals.games.models import Game
from rivals.games.services import game_create
from rivals.live import topics
from rivals.matches.models import Match, Round
from rivals.matches.selectors import match_view, round_view
from rivals.matches.services import round_end_now
from rivals.models import Account, Event
from tests.projections import assert_live_equals_rebuild
from tests.tournaments.helpers import at, new_tournament, players, register_all, seat_ids, tables
from tournaments.models import Pot, Wave
from tournaments.services.play import tournament_tick
from tournaments.services.pots import pot_create, pot_finalize

pytestmark = pytest.mark.django_db
HEX64 = re.compile(r"^[0-9a-f]{64}$")
REFUSED = {"code": "not_allowed", "message": "this deal cannot be played yet: try another code, or a fresh deal"}


def _practice(client, code: str, mode: str = "classic"):
    return client.post("/api/v1/games", {"mode": mode, "code": code}, format="json")


def _pot(code: str = "", starts_in: timedelta = timedelta(0)) -> Pot:
    """A pot of 10 minutes starting ``starts_in`` from now (``code`` empty: a fresh deal)."""
    now = timezone.now()
    return pot_create(
        actor="operator:1",
        title="Friday pot",
        code=code,
        time_limit_s=300,
        prize_split=[80, 40],
        starts_at=now + starts_in,
        ends_at=now + starts_in + timedelta(minutes=10),
    )


def _quick_match(guest):
    (alice, _), (bob, _) = guest("r40-alice"), guest("r40-bob")
    alice.post("/api/v1/queue", {"mode": "quick"}, format="json")
    match_id = bob.post("/api/v1/queue", {"mode": "quick"}, format="json").json()["match"]
    (round_ref,) = alice.get(f"/api/v1/matches/{match_id}").json()["rounds"]
    return alice, bob, match_id, round_ref["id"]


def test_r40_the_commitment_of_examples_md():
    code, salt = "MJ1-L01-AAAAAAB", "000102030405060708090a0b0c0d0e0f"
    expected = "5a929a0ba0e6d786be182035648dce3c94d353d6f80a2f67bc17871856135042"
    assert deal_commitment(code, salt) == expected == hashlib.sha256(f"{code}:{salt}".encode()).hexdigest()
    assert deal_fields(code=code, salt=salt, revealed=False) == {"commitment": expected, "code": None, "salt": None}
    assert deal_fields(code=code, salt=salt, revealed=True) == {"commitment": expected, "code": code, "salt": salt}


def test_r40_a_fresh_deal_is_unpredictable_and_its_salt_is_16_random_bytes():
    deals = [deal_new() for _ in range(20)]
    assert len({d.code for d in deals}) == 20 and len({d.salt for d in deals}) == 20
    for d in deals:
        assert re.fullmatch(r"[0-9a-f]{32}", d.salt)
        assert engine.deal_from_code(d.code).code == d.code  # a valid, solvable deal (T-9)


def test_r40_the_exploit_is_refused_end_to_end_and_the_reveal_verifies(guest):
    alice, bob, match_id, round_id = _quick_match(guest)
    code = Round.objects.get(pk=round_id).code  # what only the server knows while the round runs

    view = alice.get(f"/api/v1/rounds/{round_id}").json()
    assert view["status"] == "running" and view["code"] is None and view["salt"] is None
    assert HEX64.match(view["commitment"])
    match = alice.get(f"/api/v1/matches/{match_id}").json()
    assert (match["rounds"][0]["commitment"], match["rounds"][0]["code"]) == (view["commitment"], None)
    board = alice.get(f"/api/v1/games/{view['game_id']}").json()
    assert (board["code"], board["salt"], board["commitment"]) == (None, None, view["commitment"])
    started = alice.get(f"/api/v1/rounds/{round_id}/events").json()[0]
    assert started["type"] == "GameStarted" and started["data"]["code"] is None and started["data"]["salt"] is None

    # the exploit: the live round's deal as a practice game with free hints — refused, as pool practice
    for mode in ("classic", "pool_practice"):
        res = _practice(alice, code.lower(), mode)
        assert res.status_code == 422 and res.json()["error"] == {**REFUSED, "details": {}}, res.content
    assert Game.objects.filter(code=code, round_id__isnull=True).count() == 0  # nothing dealt, nothing written
    assert _practice(alice, "MJ1-L08-AAAAAAC").status_code == 201  # a code no competition holds

    # the round is won by hand: then its deal is an ordinary practice deal, and the reveal verifies
    plan = engine.deal_from_code(code).plan
    for seq, pair in enumerate(plan):
        res = alice.post(
            f"/api/v1/rounds/{round_id}/intents",
            {"seq": seq, "type": "remove_pair", "tiles": list(pair)},
            format="json",
        )
        assert res.status_code == 200, res.content
    over = bob.get(f"/api/v1/rounds/{round_id}").json()
    assert over["status"] == "ended" and over["code"] == code and re.fullmatch(r"[0-9a-f]{32}", over["salt"])
    assert over["commitment"] == view["commitment"] == hashlib.sha256(f"{code}:{over['salt']}".encode()).hexdigest()
    board = bob.get(f"/api/v1/games/{over['game_id']}").json()
    assert (board["code"], board["salt"]) == (code, over["salt"])
    assert bob.get(f"/api/v1/matches/{match_id}").json()["rounds"][0]["code"] == code
    replay = _practice(bob, code)
    assert replay.status_code == 201
    # the public engine replays the deal from the code: the same tiles in the same places
    assert {(t["id"], t["face"]) for t in replay.json()["tiles"]} == {
        (i, f) for i, f in enumerate(engine.deal_from_code(code).faces)
    }
    assert Game.objects.get(pk=over["game_id"]).initial_faces == list(engine.deal_from_code(code).faces)


def test_r40_every_secret_code_gets_the_same_refusal(guest):
    """Nothing in the answer tells a round's deal from a pot's: the same code, message and details."""
    client, _ = guest("r40-prober")
    _, _, _, round_id = _quick_match(guest)
    pot = _pot(starts_in=timedelta(hours=1))
    answers = [_practice(client, c).json() for c in (Round.objects.get(pk=round_id).code, pot.code)]
    assert answers[0] == answers[1] == {"error": {**REFUSED, "details": {}}}


def test_r40_a_tournament_waves_deal_stays_secret_until_its_last_table_ends():
    t = new_tournament()
    accounts = players(5)
    register_all(t, accounts)
    assert tournament_tick(tournament_id=t.pk, now=at(10)) == "started"
    wave = Wave.objects.get(tournament=t, number=1)
    seated = Event.objects.get(stream_id=t.stream_id, type="WaveSeated")
    assert (seated.schema_version, seated.data["code"], seated.data["salt"]) == (2, wave.code, wave.salt)
    assert seated.data["commitment"] == deal_commitment(wave.code, wave.salt)
    three, two = tables(t, 1)
    rounds = [Round.objects.get(pk=x.round_id) for x in (three, two)]
    assert {r.code for r in rounds} == {wave.code} and {r.salt for r in rounds} == {wave.salt}
    by_id = {a.pk: a for a in accounts}
    first_of_two = by_id[seat_ids(two)[0]]

    round_end_now(round_id=rounds[1].pk, actor="operator:test", now=at(11))
    rounds[1].refresh_from_db()
    view = round_view(rnd=rounds[1], account=first_of_two, now=at(11))
    assert view["status"] == "ended" and view["code"] is None and view["commitment"] == seated.data["commitment"]
    assert code_is_secret(wave.code)  # the other table still plays it
    with pytest.raises(NotAllowed):
        game_create(account=first_of_two, mode="classic", code=wave.code, now=at(11))

    round_end_now(round_id=rounds[0].pk, actor="operator:test", now=at(12))
    rounds[1].refresh_from_db()
    view = round_view(rnd=rounds[1], account=first_of_two, now=at(12))
    assert (view["code"], view["salt"]) == (wave.code, wave.salt)
    assert not code_is_secret(wave.code)
    assert game_create(account=first_of_two, mode="classic", code=wave.code, now=at(12)).code == wave.code


def test_r40_a_pots_deal_stays_secret_until_it_closes(guest):
    pot = _pot("MJ1-L08-AAAAAAB", starts_in=timedelta(minutes=-1))
    created = Event.objects.get(stream_id=pot.stream_id, type="PotCreated")
    assert created.schema_version == 2 and created.data["commitment"] == deal_commitment(pot.code, pot.salt)
    client, account_id = guest("r40-pot")
    page = client.get(f"/api/v1/pots/{pot.pk}").json()
    assert (page["code"], page["salt"], page["commitment"]) == (None, None, created.data["commitment"])
    assert _practice(client, pot.code, "pool_practice").status_code == 422
    entered = client.post(f"/api/v1/pots/{pot.pk}/enter", format="json").json()["game"]
    assert (entered["code"], entered["commitment"]) == (None, created.data["commitment"])
    assert client.get(f"/api/v1/games/{entered['id']}/events").json()[0]["data"]["code"] is None

    assert pot_finalize(pot_id=pot.pk, now=pot.ends_at)
    page = client.get(f"/api/v1/pots/{pot.pk}").json()
    assert (page["code"], page["salt"]) == (pot.code, pot.salt)
    assert client.get(f"/api/v1/games/{entered['id']}").json()["code"] == pot.code
    assert _practice(client, pot.code, "pool_practice").status_code == 201
    assert Account.objects.get(pk=account_id).games.filter(mode="pool_practice", code=pot.code).exists()


def test_r40_a_pot_without_a_code_gets_a_fresh_secret_deal():
    pot = _pot()
    assert engine.deal_from_code(pot.code).code == pot.code and code_is_secret(pot.code)


def test_r40_the_live_socket_never_pushes_a_deal():
    data = {"game_id": "g", "code": "MJ1-L08-AAAAAAB", "salt": "00" * 16, "commitment": "c" * 64, "faces": []}
    entry = {"p": 1, "s": "game-g", "t": "GameStarted", "at": "", "d": data, "r": "r", "o": 7, "sum": {}}
    own = topics.view(topics_topic("round", account_id=7), entry)
    assert (own["code"], own["salt"], own["commitment"]) == (None, None, "c" * 64)
    wave = {"p": 2, "s": "tournament-t", "t": "WaveSeated", "at": "", "d": {**data, "tables": [], "waiting": []}}
    shown = topics.view(topics_topic("tournament", account_id=7), wave)
    assert "code" not in shown and "salt" not in shown and shown["commitment"] == "c" * 64


def topics_topic(kind: str, account_id: int):
    from types import SimpleNamespace

    return SimpleNamespace(kind=kind, account_id=account_id, players={}, name=f"{kind}:x")


def test_r40_replays_and_rebuilds_keep_the_salt():
    from rivals.matches.services import match_create
    from tests.matches.helpers import accounts as made_by_events

    accounts = made_by_events(2, prefix="rb")
    m = match_create(mode="quick", account_ids=[a.pk for a in accounts], code="MJ1-L08-AAAAAAB")
    rnd = m.rounds.get()
    before = (m.salt, rnd.salt, sorted(Game.objects.filter(round_id=rnd.pk).values_list("salt", flat=True)))
    assert m.salt and rnd.salt == m.salt and before[2] == [m.salt, m.salt]
    scheduled = Event.objects.get(stream_id=rnd.stream_id, type="RoundScheduled")
    assert (scheduled.schema_version, scheduled.data["salt"]) == (2, rnd.salt)
    assert_live_equals_rebuild()
    view = match_view(match=Match.objects.get(pk=m.pk))
    assert view["rounds"][0]["commitment"] == deal_commitment(rnd.code, rnd.salt)
    assert Pot.objects.count() == 0
