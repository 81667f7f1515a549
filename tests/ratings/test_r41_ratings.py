"""R-41: every finished result rated once with the ``openskill`` package (Plackett–Luce, μ 25,
σ 25/3): EXAMPLES.md's cases against the package's own numbers, idle players rated last, the
rating of a result written twice (the timer task and the sweeper) once, provisional ratings, the
ordinal μ − 3σ, and the ratings as a projection of their events."""

from __future__ import annotations

import pytest
from openskill.models import PlackettLuce

from rivals.matches import services as svc
from rivals.models import Event
from rivals.ratings.models import Rating, RatingChange
from rivals.ratings.services import ratings_update
from tests.matches.helpers import accounts, at, blocked_tile, complete, first_round, match, pair, play, race
from tests.projections import assert_live_equals_rebuild

pytestmark = pytest.mark.django_db
PACKAGE = PlackettLuce()  # the package's defaults, as the service's


def _rated(stream: str) -> list[Event]:
    return list(Event.objects.filter(stream_id=f"rating-{stream}", type="RatingsUpdated"))


def _expected(places: list[int], start: list[tuple[float, float]] | None = None):
    """What the package itself says for one player per team with these ranks."""
    start = start or [(25.0, 25 / 3)] * len(places)
    teams = [[PACKAGE.rating(mu=mu, sigma=sigma)] for mu, sigma in start]
    return [(t[0].mu, t[0].sigma) for t in PACKAGE.rate(teams, ranks=places)]


def _after(account) -> tuple[float, float]:
    row = Rating.objects.get(account_id=account.pk)
    return row.mu, row.sigma


def test_r41_two_new_accounts_a_wins_a_quick_match_the_package_s_numbers(api):
    a, b = accounts(2)
    rnd = first_round(match("quick", [a, b]))
    complete(rnd, a, 1)  # A completes the board: the round ends, the match finishes, it is rated
    (event,) = _rated(f"match:{rnd.match_id}")
    (win, loss) = _expected([1, 2])
    assert [(p["account_id"], p["place"], p["rated_place"], p["idle"]) for p in event.data["players"]] == [
        (a.pk, 1, 1, False),
        (b.pk, 2, 2, True),
    ]
    assert [(p["mu_before"], p["sigma_before"]) for p in event.data["players"]] == [(25.0, 25 / 3)] * 2
    assert (_after(a), _after(b)) == (win, loss)
    # EXAMPLES.md: A's μ rises and B's falls by the same amount, both σ shrink, A's ordinal is above B's
    assert win[0] - 25 == pytest.approx(25 - loss[0]) and win[0] > 25
    assert win[1] < 25 / 3 and loss[1] < 25 / 3
    assert Rating.objects.get(account_id=a.pk).ordinal == PACKAGE.rating(mu=win[0], sigma=win[1]).ordinal()
    assert Rating.objects.get(account_id=a.pk).ordinal > Rating.objects.get(account_id=b.pk).ordinal
    assert event.data["kind"] == "one_to_one" and event.data["mode"] == "quick"
    assert event.data["model"].startswith("openskill ") and event.data["model"].endswith(" PlackettLuce")
    # what the API says: the package's μ and σ, the ordinal to two decimals
    body = api.get(f"/api/v1/ratings/{a.pk}").json()
    ordinal = PACKAGE.rating(mu=win[0], sigma=win[1]).ordinal()
    assert (body["mu"], body["sigma"], body["ordinal"]) == (win[0], win[1], round(ordinal * 100) / 100)
    assert body["provisional"] is True and body["rated"] == {"one_to_one": 1, "multi": 0} and body["place"] is None


def test_r41_an_arena_with_final_places_1_2_2_4_rates_the_tied_players_equally():
    a, b, c, d = accounts(4)
    players = [(a.pk, 1, False), (b.pk, 2, False), (c.pk, 2, False), (d.pk, 4, False)]
    assert ratings_update(result="arena-example", mode="arena", players=players, at=at(0), now=at(0))
    assert [_after(x) for x in (a, b, c, d)] == _expected([1, 2, 2, 4])
    assert _after(b) == _after(c)
    assert Rating.objects.get(account_id=a.pk).multi == 1 and Rating.objects.get(account_id=a.pk).one_to_one == 0


def test_r41_an_idle_player_is_rated_as_last():
    """R-18a: an idle player (no pair removed) is rated below every player who played — even below
    a player whose score is negative."""
    a, b, c, d = accounts(4)
    players = [(a.pk, 1, False), (b.pk, 2, True), (c.pk, 3, False), (d.pk, 4, False)]
    ratings_update(result="idle-example", mode="arena", players=players, at=at(0), now=at(0))
    (event,) = _rated("idle-example")
    assert [p["rated_place"] for p in event.data["players"]] == [1, 4, 2, 3]
    assert [_after(x) for x in (a, b, c, d)] == _expected([1, 4, 2, 3])
    # in a real Quick Match: A's 0 beats B's −100, and B who removed no pair is last anyway
    e, f = accounts(2, prefix="q")
    rnd = first_round(match("quick", [e, f]))
    pair(rnd, f, 1)  # +100
    play(rnd, f, "click_blocked", 2, tile=blocked_tile(rnd, f))
    play(rnd, f, "click_blocked", 3, tile=blocked_tile(rnd, f))  # F −100 after a pair
    svc.round_end_if_due(round_id=rnd.pk, now=at(40))  # E idle at 0: first by score, rated last
    (event,) = _rated(f"match:{rnd.match_id}")
    assert [(p["place"], p["idle"], p["rated_place"]) for p in event.data["players"]] == [(1, True, 2), (2, False, 1)]
    assert [_after(e), _after(f)] == _expected([2, 1])


def test_r41_a_result_nobody_played_is_not_rated():
    a, b = accounts(2)
    rnd = first_round(match("quick", [a, b]))
    svc.round_end_if_due(round_id=rnd.pk, now=at(30))
    assert _rated(f"match:{rnd.match_id}") == [] and not Rating.objects.exists()


@pytest.mark.django_db(transaction=True)
def test_r41_a_result_written_twice_task_and_sweeper_is_rated_once():
    a, b = accounts(2)
    rnd = first_round(match("quick", [a, b]))
    pair(rnd, a, 2)
    late = at(30)
    outcomes = race(
        lambda: svc.round_end_if_due(round_id=rnd.pk, now=late, via="task"),
        lambda: svc.rounds_end_due(now=late),
    )
    assert all(kind == "ok" for kind, _ in outcomes), outcomes
    assert len(_rated(f"match:{rnd.match_id}")) == 1
    assert RatingChange.objects.filter(result=f"match:{rnd.match_id}").count() == 2
    # written again by hand with the same key: nothing happens
    again = ratings_update(
        result=f"match:{rnd.match_id}", mode="quick", players=[(a.pk, 1, False), (b.pk, 2, True)], at=late
    )
    assert again is False and len(_rated(f"match:{rnd.match_id}")) == 1
    assert Rating.objects.get(account_id=a.pk).one_to_one == 1


@pytest.mark.django_db(transaction=True)
def test_r41_two_results_of_one_player_at_once_are_rated_one_after_the_other():
    a, b, c = accounts(3)
    outcomes = race(
        lambda: ratings_update(result="x", mode="duel", players=[(a.pk, 1, False), (b.pk, 2, False)], at=at(0)),
        lambda: ratings_update(result="y", mode="duel", players=[(a.pk, 1, False), (c.pk, 2, False)], at=at(0)),
    )
    assert outcomes == [("ok", True), ("ok", True)]
    first, second = sorted(_rated("x") + _rated("y"), key=lambda e: e.position)
    mine = [next(p for p in e.data["players"] if p["account_id"] == a.pk) for e in (first, second)]
    assert (mine[1]["mu_before"], mine[1]["sigma_before"]) == (mine[0]["mu_after"], mine[0]["sigma_after"])
    assert _after(a) == (mine[1]["mu_after"], mine[1]["sigma_after"])
    assert Rating.objects.get(account_id=a.pk).one_to_one == 2


def test_r41_provisional_until_12_one_to_one_or_5_multi_player_results(api):
    a, b, c, d = accounts(4)
    for n in range(12):
        assert api.get(f"/api/v1/ratings/{a.pk}").json()["provisional"] is True
        ratings_update(result=f"duel-{n}", mode="duel", players=[(a.pk, 1, False), (b.pk, 2, False)], at=at(n))
    assert api.get(f"/api/v1/ratings/{a.pk}").json()["provisional"] is False
    for n in range(5):
        assert Rating.objects.filter(account_id=c.pk, provisional=False).count() == 0
        ratings_update(
            result=f"arena-{n}",
            mode="arena",
            players=[(c.pk, 1, False), (d.pk, 2, False), (a.pk, 3, False), (b.pk, 4, False)],
            at=at(20 + n),
        )
    assert Rating.objects.get(account_id=c.pk).provisional is False
    body = api.get(f"/api/v1/ratings/{c.pk}").json()
    assert body["rated"] == {"one_to_one": 0, "multi": 5} and body["place"] is not None


def test_r41_the_rating_board_leaves_out_provisional_ratings_and_ties_share_a_place(api):
    top, one, two, low, three, four = accounts(6)
    for n in range(5):  # five arenas, always 1, 2, 2, 4: one and two always tied, rated alike
        players = [(top.pk, 1, False), (two.pk, 2, False), (one.pk, 2, False), (low.pk, 4, False)]
        ratings_update(result=f"a{n}", mode="arena", players=players, at=at(n))
    ratings_update(result="d", mode="duel", players=[(three.pk, 1, False), (four.pk, 2, False)], at=at(20))
    board = api.get("/api/v1/ratings?limit=10").json()
    shown = [(row["place"], row["player"]["id"], row["ordinal"]) for row in board["results"]]
    assert board["count"] == 4  # three and four are provisional: not on the board
    assert [place for place, _, _ in shown] == [1, 2, 2, 4]
    assert [a for _, a, _ in shown] == [top.pk, min(one.pk, two.pk), max(one.pk, two.pk), low.pk]
    assert shown[1][2] == shown[2][2]  # the same figure: one place
    # pages: offset and limit, the places of the whole board
    assert [(r["place"], r["player"]["id"]) for r in api.get("/api/v1/ratings?limit=2&offset=2").json()["results"]] == [
        (2, max(one.pk, two.pk)),
        (4, low.pk),
    ]
    assert api.get(f"/api/v1/ratings/{low.pk}").json()["place"] == 4
    assert api.get("/api/v1/ratings?offset=9").json() == {"count": 4, "results": []}


def test_r41_a_deep_page_seeks_through_the_histogram(api, monkeypatch):
    from rivals.ratings import selectors

    players = accounts(8)
    for n in range(12):
        for i in range(0, 8, 2):
            winner, loser = players[i], players[i + 1]
            ratings_update(
                result=f"{i}-{n}", mode="duel", players=[(winner.pk, 1, False), (loser.pk, 2, False)], at=at(n)
            )
    whole = api.get("/api/v1/ratings?limit=100").json()["results"]
    monkeypatch.setattr(selectors, "SEEK_FROM_OFFSET", 1)
    for offset in range(1, 8):
        assert api.get(f"/api/v1/ratings?limit=3&offset={offset}").json()["results"] == whole[offset : offset + 3]


def test_r41_a_suspended_account_leaves_the_board_and_comes_back_when_lifted(api):
    from rivals.fairplay.services import account_suspend, account_suspension_lift

    a, b = accounts(2)
    for n in range(12):
        ratings_update(result=f"s{n}", mode="duel", players=[(a.pk, 1, False), (b.pk, 2, False)], at=at(n))
    assert api.get("/api/v1/ratings").json()["count"] == 2
    account_suspend(account=a, reason="bot play", actor="operator:test")
    board = api.get("/api/v1/ratings").json()
    assert [(r["place"], r["player"]["id"]) for r in board["results"]] == [(1, b.pk)]
    assert api.get(f"/api/v1/ratings/{a.pk}").json()["place"] is None
    account_suspension_lift(account=a, reason="cleared", actor="operator:test")
    assert [r["player"]["id"] for r in api.get("/api/v1/ratings").json()["results"]] == [a.pk, b.pk]
    assert_live_equals_rebuild()


def test_r41_the_public_profile_and_the_live_notifications_carry_the_rating(api):
    from rivals.live.models import Notification

    a, b = accounts(2)
    ratings_update(result="p", mode="duel", players=[(a.pk, 1, False), (b.pk, 2, False)], at=at(0))
    profile = api.get(f"/api/v1/players/{a.pk}").json()
    assert profile["rating"] == api.get(f"/api/v1/ratings/{a.pk}").json()
    note = Notification.objects.get(account_id=a.pk, type="rating_changed")
    mu, sigma = _after(a)
    ordinal = PACKAGE.rating(mu=mu, sigma=sigma).ordinal()
    assert note.data == {
        "result": "p",
        "mode": "duel",
        "place": 1,
        "mu": mu,
        "sigma": sigma,
        "ordinal": round(ordinal * 100) / 100,
        "ordinal_before": 0.0,
    }
    assert api.get("/api/v1/ratings/0").status_code == 404
    assert api.get("/api/v1/ratings/nobody").status_code == 404


def test_r41_a_tournament_table_is_rated_by_its_places():
    """A tournament table is a match of mode ``tournament``: rated when its round ends, by the
    places its TableScored gives (R-18's order, the same as R-24's)."""
    a, b, c = accounts(3)
    rnd = first_round(match("tournament", [a, b, c]))
    pair(rnd, a, 1)
    pair(rnd, a, 2)
    pair(rnd, b, 3)
    svc.round_end_if_due(round_id=rnd.pk, now=at(60))
    (event,) = _rated(f"match:{rnd.match_id}")
    assert event.data["kind"] == "multi" and event.data["mode"] == "tournament"
    assert [(p["account_id"], p["rated_place"]) for p in event.data["players"]] == [(a.pk, 1), (b.pk, 2), (c.pk, 3)]
    assert [_after(x) for x in (a, b, c)] == _expected([1, 2, 3])


def test_r41_rating_a_result_costs_its_append_and_its_projections():
    """The round end's statements grow by the rating's: the players' ratings read under their
    locks, and the append, whose one statement carries the ratings' writes and the notifications
    (their rows read the event's position from the INSERT) — two round trips to the server,
    whatever the number of players (every statement sent is counted, the prepared ones too)."""
    from tests.statements import statements_sent

    players = accounts(4)
    with statements_sent() as sent:
        ratings_update(
            result="cost", mode="arena", players=[(p.pk, i + 1, False) for i, p in enumerate(players)], at=at(0)
        )
    assert len(sent) == 2, [q[:60] for q in sent]
    assert "INSERT INTO ratings_change" in sent[1] and "INSERT INTO live_notification" in sent[1]
    assert_live_equals_rebuild()


def test_r41_the_admin_shows_a_player_s_rating_and_its_history(operator):
    from django.urls import reverse

    a, b = accounts(2)
    for n in range(3):
        ratings_update(result=f"h{n}", mode="duel", players=[(a.pk, 1, False), (b.pk, 2, True)], at=at(n))
    page = operator.get(reverse("admin:rivals_account_change", args=[a.pk])).content.decode()
    row = Rating.objects.get(account_id=a.pk)
    assert "rating (R-41)" in page and f"ordinal <b>{row.figure / 100:.2f}</b>" in page
    assert page.count("<td>duel</td>") == 3 and "rating history" in page
    history = operator.get(reverse("admin:ratings_ratingchange_changelist") + f"?player={b.pk}").content.decode()
    assert history.count("h0") + history.count("h1") + history.count("h2") >= 3
    assert operator.get(reverse("admin:ratings_rating_changelist")).status_code == 200
    assert operator.get(reverse("admin:ratings_rating_change", args=[a.pk])).status_code == 200
