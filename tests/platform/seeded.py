"""The states clients meet, seeded for schemathesis (issue 21): so that answers are checked against
the schema on real data, not only on 404s. ``seed(account)`` makes, for the fuzzed account and a few
other players: ranked players on every board, a suspended account, a won solo game, a finished
Quick Match and a running round, a pending duel and a waiting queue ticket, a Sichuan table, an open
club with members, tournaments upcoming and running (tables seated), an open and an upcoming pot;
for issue 24: named players to find, points of a past week and day (past boards), a report and a
purchase. It returns the ids to put into path parameters (``{"club_id": …}``)."""

from __future__ import annotations

from datetime import timedelta

from django.utils import timezone

from rivals import engine

CODE = engine.random_code(rng_seed=3, layout_id="L08")  # a 36-tile deal


def _players(n: int, prefix: str):
    from rivals.accounts.services import account_guest_signin

    return [account_guest_signin(device_id=f"{prefix}-device-{i}")[0] for i in range(n)]


def _finished_match(a, b):
    """A Quick Match ``a`` won by completing the board (R-12), and its round."""
    from rivals.matches import services as svc

    match = svc.match_create(mode="quick", account_ids=[a.pk, b.pk])
    rnd = match.rounds.get()
    board = svc.round_board_of(account=a, round_id=rnd.pk)
    for seq, pair in enumerate(engine.deal_from_code(board.code).plan):
        svc.round_intent_apply(
            account=a, round_id=rnd.pk, intent={"seq": seq, "type": "remove_pair", "tiles": list(pair)}
        )
    match.refresh_from_db()
    return match, rnd


def seed(account) -> dict[str, object]:
    from rivals.accounts.services import account_rename
    from rivals.clubs.services import club_found, club_join
    from rivals.fairplay.services import account_suspend
    from rivals.games.services import game_create, game_intent_apply
    from rivals.matches import services as svc
    from rivals.points.services import points_award
    from rivals.purchases.services import purchase_record
    from rivals.reports.services import report_file
    from rivals.sichuan.services import sichuan_table_create
    from tournaments.services.lifecycle import tournament_create
    from tournaments.services.play import tournament_tick
    from tournaments.services.pots import pot_create
    from tournaments.services.registration import tournament_register

    now = timezone.now()
    others = _players(5, "seeded")
    for i, player in enumerate([account, *others]):  # ranked players, one with equal points
        points_award(account=player, amount=100 - 10 * (i // 2), source="single_player", key=f"seeded:{i}")
    account_suspend(account=others[4], reason="seeded", actor="operator:seed")
    for i, player in enumerate(others[:3]):  # players to find (GET /players?q=), and past boards
        account_rename(account=player, display_name=f"Seeded Jade {i}")
        points_award(
            account=player, amount=30 + i, source="single_player", key=f"seeded:past:{i}", at=now - timedelta(days=8)
        )
    report_file(reporter=account, subject=f"player:{others[1].pk}", reason="name", note="seeded")
    purchase_record(
        transaction_id=f"seeded-{account.pk}", account_id=account.pk, product="jokers_5", jokers=5, kind="purchase"
    )

    game = game_create(account=account, mode="classic", code=CODE)
    for seq, pair in enumerate(engine.deal_from_code(CODE).plan):
        game_intent_apply(
            account=account, game_id=game.pk, intent={"seq": seq, "type": "remove_pair", "tiles": list(pair)}
        )
    match, _ = _finished_match(account, others[0])
    running = svc.match_create(mode="arena", account_ids=[account.pk, *[o.pk for o in others[:3]]])
    rnd = running.rounds.get(index=1)
    duel, _ = svc.duel_challenge(account=others[1], opponent=account.pk)
    ticket, _ = svc.queue_join(account=account, mode="arena")
    table = sichuan_table_create(account=account, seed=7).table

    club = club_found(account=others[0], name="Seeded Club")
    club_join(account=others[1], club_id=club.pk)

    upcoming = tournament_create(
        actor="operator:seed",
        kind="regular",
        title="Seeded Upcoming Cup",
        registration_opens_at=now - timedelta(hours=1),
        starts_at=now + timedelta(hours=2),
        ends_at=now + timedelta(hours=3),
        min_players=2,
        prize_table=[100, 50],
        multipliers=[1, 2],
    )
    tournament_register(tournament_id=upcoming.pk, account=others[2], now=now)
    started = tournament_create(
        actor="operator:seed",
        kind="regular",
        title="Seeded Running Cup",
        registration_opens_at=now - timedelta(hours=2),
        starts_at=now - timedelta(minutes=1),
        ends_at=now + timedelta(hours=1),
        min_players=2,
        prize_table=[100, 50],
        multipliers=[1],
        now=now - timedelta(hours=2),
    )
    for player in (account, *others[:3]):
        tournament_register(tournament_id=started.pk, account=player, now=now - timedelta(hours=1))
    tournament_tick(tournament_id=started.pk, now=now)
    pot = pot_create(
        actor="operator:seed",
        title="Seeded Pot",
        code="MJ1-L08-AAAAAAB",
        prize_split=[5, 2],
        starts_at=now - timedelta(minutes=1),
        ends_at=now + timedelta(minutes=30),
        entrants=[account.pk, others[0].pk],
    )
    pot_create(
        actor="operator:seed",
        title="Seeded Upcoming Pot",
        code="MJ1-L08-AAAAAAC",
        prize_split=[3],
        starts_at=now + timedelta(hours=1),
        ends_at=now + timedelta(hours=2),
    )
    return {
        "game_id": game.pk,
        "match_id": match.pk,
        "round_id": rnd.pk,
        "duel_id": duel.pk,
        "ticket_id": ticket.pk,
        "table_id": table.pk,
        "club_id": club.pk,
        "tournament_id": started.pk,
        "pot_id": pot.pk,
        "player_id": others[0].pk,
        "number": 1,
        "board": "amr",
    }
