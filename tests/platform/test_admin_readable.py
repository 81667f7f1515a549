"""The admin reads like the game (issue 22): one time zone — Romanian time, named (EET/EEST) — on
lists and timelines alike; names and links where a person wants them instead of raw JSON and ids:
event data, actors, a round's result, a match's standings, fair-play details, club members,
rejected intents."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from django.utils import timezone

from rivals.admin_display import when
from rivals.models import Event
from tests.factories import AccountFactory
from tests.matches.helpers import accounts, complete, first_round, match

pytestmark = pytest.mark.django_db
ZONE = re.compile(r"\d\d:\d\d:\d\d(\.\d{3})? EES?T\b")


def _text(client, url: str) -> str:
    res = client.get(url)
    assert res.status_code == 200, url
    return res.content.decode()


def test_every_page_says_its_time_zone_and_lists_show_it(operator):
    AccountFactory.create(device_id="tz-ann", display_name="Ann Tz")
    home = _text(operator, "/admin/")
    assert "all times: Romanian time (EET / EEST)" in home
    events = _text(operator, "/admin/rivals/event/")
    assert ZONE.search(events), "a list's instants carry their zone"
    assert "+00:00" not in events and " UTC" not in events


def test_an_event_names_its_actor_and_links_what_its_data_names(operator):
    from rivals.fairplay.services import account_suspend

    ann = AccountFactory.create(device_id="ev-ann", display_name="Ann Event")
    account_suspend(account=ann, reason="bot speed", actor=f"operator:{operator.user.pk}")
    event = Event.objects.get(type="AccountSuspended")
    page = _text(operator, f"/admin/rivals/event/{event.pk}/change/")
    assert (
        f'<a href="/admin/rivals/account/{ann.pk}/change/">{ann.pk}</a> <span class="name">(Ann Event)</span>' in page
    )
    assert (
        f'operator <a href="/admin/rivals/account/{operator.user.pk}/change/">operator (#{operator.user.pk})</a>'
        in page
    )
    assert f'href="/admin/rivals/event/?q=account-{ann.pk}"' in page  # its stream's events
    assert ZONE.search(page)
    created = Event.objects.get(type="AccountCreated")
    assert created.data == {"account_id": ann.pk, "display_name": f"Player {ann.pk}"}
    from tournaments.services.lifecycle import tournament_create

    start = timezone.now() + timedelta(days=1)
    t = tournament_create(
        actor="operator:test",
        kind="regular",
        title="Data Cup",
        starts_at=start,
        ends_at=start + timedelta(hours=1),
        min_players=2,
        prize_table=[],
        multipliers=[],
    )
    made = Event.objects.get(stream_id=t.stream_id, type="TournamentCreated")
    page = _text(operator, f"/admin/rivals/event/{made.pk}/change/")
    assert f"({when(start, precise=start.microsecond != 0)})" in page  # the data's UTC instant, in Romanian time
    listed = _text(operator, "/admin/rivals/event/")
    assert f"operator (#{operator.user.pk})" in listed and f"operator:{operator.user.pk}" not in listed


def test_a_round_and_its_match_show_places_by_name_and_the_boards_in_romanian_time(operator):
    a, b = accounts(2)
    rnd = first_round(match("quick", [a, b], start_s=0))
    complete(rnd, a, 1)
    page = _text(operator, f"/admin/matches/round/{rnd.pk}/change/")
    assert "<th>place</th><th>player</th><th>score</th>" in page
    assert f"{a} (#{a.pk})</a>" in page and f"{b} (#{b.pk})</a>" in page
    assert "&quot;results&quot;" not in page and "'results'" not in page  # no raw JSON
    boards = page[page.index("side by side") :]
    assert ZONE.search(boards) and "Romanian time" in boards
    standings = _text(operator, f"/admin/matches/match/{rnd.match_id}/change/")
    assert f"{a} (#{a.pk})</a>" in standings and "&quot;account_id&quot;" not in standings


def test_club_members_fair_play_details_and_rejected_intents_read_as_words(operator, guest):
    from rivals.clubs.services import club_found, club_join
    from rivals.fairplay.services import fairplay_flag
    from rivals.games.models import RejectedIntent

    owner, member = (
        AccountFactory.create(device_id="c-own", display_name="Owner One"),
        AccountFactory.create(device_id="c-mem", display_name="Member Two"),
    )
    club = club_found(account=owner, name="Readers")
    club_join(account=member, club_id=club.pk)
    page = _text(operator, f"/admin/clubs/club/{club.pk}/change/")
    assert f"Member Two (#{member.pk})</a>" in page and f"{member.pk} in {club.pk}" not in page

    flag = fairplay_flag(
        account_id=member.pk, kind="fast_pairs", subject="game-x", details={"fast_pairs": 4, "threshold_ms": 250}
    )
    page = _text(operator, f"/admin/fairplay/fairplayflag/{flag.pk}/change/")
    assert "<b>fast pairs</b>: 4" in page and "{&quot;fast_pairs&quot;" not in page

    client, account_id = guest("refused-one")
    client.post("/api/v1/games/not-a-game/intents", {"seq": 0, "type": "remove_pair", "tiles": [1, 2]}, format="json")
    refused = RejectedIntent.objects.get(account_id=account_id)
    page = _text(operator, f"/admin/games/rejectedintent/{refused.pk}/change/")
    assert "RejectedIntent object" not in page and f"(#{account_id})</a>" in page
    assert '<pre class="event-data">' in page  # the intent as sent, pretty-printed
    listed = _text(operator, "/admin/games/rejectedintent/")
    assert f"(#{account_id})</a>" in listed


def test_an_old_admin_address_of_a_moved_model_is_sent_on_to_its_room(client):
    """Issue 33 moved games', points', daily bonus's and the outbox's models into their rooms: a
    bookmark of the old address answers 301 to the new one, the object and the filters kept."""
    res = client.get("/admin/rivals/game/5f0c/change/?status=playing")
    assert res.status_code == 301 and res["Location"] == "/admin/games/game/5f0c/change/?status=playing"
    res = client.get("/admin/rivals/dailybonusclaim/")
    assert res.status_code == 301 and res["Location"] == "/admin/daily_bonus/dailybonusclaim/"
    assert client.get("/admin/rivals/account/").status_code != 301  # not moved: the platform's own
