"""Security: every object endpoint checks ownership — generated from the URL conf.

Every API route with a path parameter is visited, with every method its view has, as a second
account and as nobody. Private routes (another account's game, round, match, ticket, duel,
Sichuan table) answer 404 to the second account — existence is not leaked — and 401 to nobody;
public reads (levels, rankings, players, clubs, tournaments, pots: their views allow anyone)
answer 200. Acting on a public object as oneself (joining someone's club) is listed below with
the exact answer. A route added later is covered without anyone remembering to: its parameter
needs an example value in ``EXAMPLES`` (the test fails and says so) and its answer must fit the
rules above.
"""

from __future__ import annotations

from datetime import timedelta
from types import SimpleNamespace

import pytest
from django.urls import URLPattern, URLResolver, get_resolver, reverse
from django.utils import timezone
from rest_framework.permissions import AllowAny
from rest_framework.test import APIClient

from rivals.models import Event
from tests.matches.helpers import CODE

METHODS = ("get", "post", "put", "patch", "delete")

# Acting on a public object as oneself: (route name, method) → the second account's answer.
SELF_SERVICE = {
    ("club-join", "post"): 200,  # anyone may join an open club
    ("club-leave", "post"): 200,  # … and leave it (joined just above: routes go in URL-conf order)
    ("club-owner", "post"): 403,  # only the owner hands a club over
    ("tournament-register", "post"): 201,  # anyone may register for an open tournament
    ("tournament-register", "delete"): 200,  # … and unregister (registered just above)
    ("pot-enter", "post"): 422,  # a pot with an entry list takes only its entrants
    ("ranking-me", "get"): 200,  # the caller's own place: the parameter names a board, no one's object
}
# A body that a missing ownership check would happily accept.
BODY = {"seq": 0, "type": "click_blocked", "tile": 0, "tiles": [0, 1], "owner": 1, "mode": "quick"}


def api_routes():
    """(name, parameter names) of every named route under /api/v1/ that has path parameters."""
    found = []

    def walk(patterns, prefix):
        for p in patterns:
            if isinstance(p, URLResolver):
                walk(p.url_patterns, prefix + str(p.pattern))
            elif isinstance(p, URLPattern):
                params = list(p.pattern.regex.groupindex)
                if (prefix + str(p.pattern)).startswith("api/v1/") and params:
                    found.append((p.name, params, p.callback))

    walk(get_resolver().url_patterns, "")
    return found


def _public(view_class, method: str) -> bool:
    view = view_class()
    view.request = SimpleNamespace(method=method.upper())
    return any(isinstance(p, AllowAny) for p in view.get_permissions())


@pytest.fixture
def world(db):
    """Account A owns one of everything; B is another account."""
    from rivals.clubs.services import club_found
    from rivals.games.services import game_create
    from rivals.matches import services as msvc
    from rivals.sichuan.services import sichuan_table_create
    from tests.factories import AccountFactory
    from tests.tournaments.helpers import new_tournament
    from tournaments.services.pots import pot_create

    a, b, c, d = (AccountFactory.create(device_id=f"authz-{n}") for n in "abcd")
    game = game_create(account=a, mode="classic")
    match = msvc.match_create(mode="quick", account_ids=[a.pk, c.pk], code=CODE)
    ticket, _ = msvc.queue_join(account=a, mode="arena")
    duel, _ = msvc.duel_challenge(account=a, opponent=d.pk)
    table = sichuan_table_create(account=a, seed=7).table
    club = club_found(account=a, name="Authz Club")
    now = timezone.now()
    tournament = new_tournament(
        now=now, registration_opens_at=now, starts_at=now + timedelta(hours=1), ends_at=now + timedelta(hours=2)
    )
    pot = pot_create(
        actor="operator:test",
        entrants=[a.pk],
        now=now,
        title="Authz Pot",
        code=CODE,
        open_entry=False,
        starts_at=now - timedelta(minutes=1),
        ends_at=now + timedelta(hours=1),
    )
    examples = {
        "game_id": game.pk,
        "round_id": match.rounds.get().pk,
        "match_id": match.pk,
        "ticket_id": ticket.pk,
        "duel_id": duel.pk,
        "table_id": table.pk,
        "club_id": club.pk,
        "player_id": a.pk,
        "account_id": a.pk,  # a player's rating (public)
        "number": 1,
        "board": "amr",
        "tournament_id": tournament.pk,
        "pot_id": pot.pk,
    }
    from rivals.accounts.services import token_issue

    clients = {}
    for who, account in (("owner", a), ("other", b)):
        client = APIClient()
        client.credentials(HTTP_AUTHORIZATION=f"Token {token_issue(account=account, kind='device')[1]}")
        clients[who] = client
    return SimpleNamespace(examples=examples, owner=clients["owner"], other=clients["other"], nobody=APIClient())


def _ghost(value):
    """An id of the same kind that names nothing."""
    import uuid

    if isinstance(value, int):
        return 987_654_321
    return uuid.uuid4() if isinstance(value, uuid.UUID) else value


def _call(client, method, url):
    kwargs = {"format": "json"} if method in ("post", "put", "patch") else {}
    return getattr(client, method)(url, BODY, **kwargs) if kwargs else getattr(client, method)(url)


def test_every_object_route_checks_ownership(world):
    routes = api_routes()
    assert len(routes) >= 20  # the walk found the API
    missing = sorted({p for _, params, _ in routes for p in params} - set(world.examples))
    assert not missing, f"add an example value for the new path parameter(s) {missing} to EXAMPLES"
    checked = []
    for name, params, callback in routes:
        view_class = getattr(callback, "view_class", None) or callback.cls
        url = reverse(name, kwargs={p: world.examples[p] for p in params})
        for method in (m for m in METHODS if hasattr(view_class, m)):
            public = _public(view_class, method)
            before = Event.objects.count()
            nobody = _call(world.nobody, method, url)
            other = _call(world.other, method, url)
            where = f"{method.upper()} {url} ({name})"
            assert nobody.status_code == (200 if public else 401), f"{where} as nobody: {nobody.status_code}"
            if not public:
                assert nobody.json()["error"]["code"] == "unauthenticated", where
            if (name, method) in SELF_SERVICE:
                assert other.status_code == SELF_SERVICE[(name, method)], f"{where}: {other.content[:300]}"
            elif public:
                assert other.status_code == 200, f"{where} as another account: {other.status_code}"
            else:
                # 404 — or, when the body is refused before the lookup, exactly the answer a
                # non-existent object gets: either way nothing tells the object exists
                if other.status_code != 404:
                    ghost = _call(
                        world.other, method, reverse(name, kwargs={p: _ghost(world.examples[p]) for p in params})
                    )
                    assert (other.status_code, other.json()) == (ghost.status_code, ghost.json()), where
                assert other.status_code in (400, 404), f"{where} as another account: {other.status_code}"
                assert Event.objects.count() == before, f"{where} appended events for another account"
            checked.append(where)
    # the owner is not refused the same private reads (the examples are real objects)
    for name in ("game", "round", "match", "queue-ticket", "duel", "sichuan-table"):
        params = next(p for n, p, _ in routes if n == name)
        res = world.owner.get(reverse(name, kwargs={p: world.examples[p] for p in params}))
        assert res.status_code == 200, (name, res.content[:200])
    assert len(checked) >= 29


def test_the_admin_needs_staff_and_an_api_token_does_not_open_it(world, client, django_user_model):
    token_client = world.owner
    res = token_client.get("/admin/")
    assert res.status_code == 302 and "/admin/login/" in res["Location"]
    res = token_client.get("/admin/rivals/account/")
    assert res.status_code == 302 and "/admin/login/" in res["Location"]
    player = django_user_model.objects.create_user("plain-player", "a-password-1")
    client.force_login(player)  # a signed-in player without staff status
    res = client.get("/admin/rivals/account/")
    assert res.status_code == 302 and "/admin/login/" in res["Location"]
