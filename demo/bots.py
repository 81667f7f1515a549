"""Bots: they choose their moves with the engine's solver and send them as intents to the real
services, on the simulated clock.

A bot mostly follows a winning plan (``engine.winning_plan``, recomputed when it deviated);
sometimes it takes another removable pair (a mistake that may make the board unsolvable), taps a
blocked tile (R-16), asks for a hint (T-10), gives up, or — stuck — uses a joker (R-8) or
restarts the level (R-10). A bot-speed player removes pairs faster than a human can, which the
fair-play checks flag (R-38).

Every intent goes in the way the API's intent endpoint takes it (``rivals.api.intents``): a
refusal is recorded as a ``RejectedIntent`` and shown to the fair-play checks, an accepted
intent's events too.
"""

from __future__ import annotations

import heapq
import random
from collections import OrderedDict
from dataclasses import dataclass
from datetime import datetime, timedelta
from functools import partial

from demo import play_style as style
from demo.world import Persona, Tally
from rivals import engine
from rivals.errors import DomainError
from rivals.fairplay.services import fairplay_intent_accepted, fairplay_intent_refused
from rivals.games.events import JOKER_USED, PAIR_REMOVED
from rivals.games.services import MAX_JOKERS_PER_GAME, game_board, game_create, game_intent_apply
from rivals.intents import rejected_intent_record
from rivals.matches.models import Match, Round
from rivals.matches.services import round_boards, round_end_if_due, round_intent_apply
from rivals.models import Account

HUMAN_FASTEST_MS = 450  # a human bot never goes below this (the fair-play threshold is 250 ms)
BOT_SPEED_MS = (60, 200)
COPY = 0.9  # a colluder's chance to replay its partner's next pair (issue 36)
PLAYED: OrderedDict[str, dict[int, list]] = OrderedDict()  # deal → account → its pairs (colluders read it)
PLAYED_MAX = 2000


def think_ms(persona: Persona, rng: random.Random) -> int:
    """The time a bot takes for its next pair."""
    if persona.bot_speed:
        return rng.randint(*BOT_SPEED_MS)
    return int(min(9000, max(HUMAN_FASTEST_MS, rng.lognormvariate(0, 0.4) * persona.pace_ms)))


class Mind:
    """What a bot knows of its board (its own copy) and how it picks the next intent."""

    def __init__(
        self,
        board: engine.Board,
        persona: Persona,
        rng: random.Random,
        *,
        plan: list | None = None,
        partner_pairs: list | None = None,
    ):
        self.board, self.persona, self.rng = board, persona, rng
        self.plan: list[tuple[int, int]] | None = plan
        self.partner_pairs, self.follow = partner_pairs, 0
        self.pairs: list[tuple[int, int]] = []  # what it removed, in order (a partner may replay them)

    def removed(self, tiles) -> None:
        self.board.remove(*tiles)
        self.pairs.append(tuple(tiles))

    def round_intent(self) -> tuple[dict | None, int]:
        """A competitive round's next intent and the time it takes (``demo.play_style``): a
        bot-speed player as in solo play; an assisted one takes the plan's pair at its share; a
        colluder replays its partner's pairs on the same deal; else a human's heuristic."""
        persona, board, rng = self.persona, self.board, self.rng
        if persona.bot_speed:
            return self.choose(), think_ms(persona, rng)
        pairs = board.removable_pairs()
        if not pairs:
            return None, think_ms(persona, rng)
        if persona.assist and rng.random() < persona.assist:
            self.plan = engine.winning_plan(board, self.plan)
            if self.plan:
                return {"type": "remove_pair", "tiles": list(self.plan[0])}, max(
                    HUMAN_FASTEST_MS, style.assisted_ms(rng)
                )
        ms = max(HUMAN_FASTEST_MS, style.human_ms(persona.pace_ms, board, pairs, rng))
        partner = self.partner_pairs
        if partner is not None:
            while self.follow < len(partner) and not board.can_remove(*partner[self.follow]):
                self.follow += 1  # gone on its own board
            if self.follow < len(partner) and rng.random() < COPY:
                self.follow += 1
                return {"type": "remove_pair", "tiles": list(partner[self.follow - 1])}, ms
        if rng.random() < persona.mistake_rate * 0.25:  # a tap on a blocked tile
            blocked = [t for t in board.tiles() if not board.is_free(t)]
            if blocked:
                return {"type": "click_blocked", "tile": rng.choice(blocked)}, ms
        return {"type": "remove_pair", "tiles": list(style.human_pair(board, pairs, persona.skill, rng))}, ms

    def choose(self, *, hinted: tuple[int, int] | None = None) -> dict | None:
        """The next intent (without ``seq``), or None when no pair is left (stuck or won)."""
        board, rng = self.board, self.rng
        pairs = board.removable_pairs()
        if not pairs:
            return None
        if hinted is not None and board.can_remove(*hinted):
            return {"type": "remove_pair", "tiles": list(hinted)}
        roll = rng.random()
        mistakes = 0.0 if self.persona.bot_speed else self.persona.mistake_rate
        if roll < mistakes * 0.25:  # a tap on a blocked tile
            blocked = [t for t in board.tiles() if not board.is_free(t)]
            if blocked:
                return {"type": "click_blocked", "tile": rng.choice(blocked)}
        if roll < mistakes:  # a pair off the plan: the board may become unsolvable
            return {"type": "remove_pair", "tiles": list(rng.choice(pairs))}
        self.plan = engine.winning_plan(board, self.plan)
        pair = self.plan[0] if self.plan else pairs[0]
        return {"type": "remove_pair", "tiles": list(pair)}

    def joker_tile(self) -> int | None:
        """A free tile to lift with a joker (R-8): one whose partner is still on the board."""
        board = self.board
        free = [t for t in board.free_tiles() if engine.joker_partner(board, t) is not None]
        return self.rng.choice(free) if free else None


def send(account: Account, target: str, intent: dict, apply, *, now: datetime, tally: Tally):
    """Apply one intent as the API's intent endpoint does; returns the result or None if refused."""
    try:
        result = apply()
        if result.refused:
            raise result.refused
    except DomainError as exc:
        rejected_intent_record(account=account, target=target, intent=intent, exc=exc)
        fairplay_intent_refused(account=account, exc=exc, now=now)
        tally.add("intents refused")
        return None
    fairplay_intent_accepted(account=account, events=result.events)
    tally.add("intents accepted")
    return result


def _moved(mind: Mind, intent: dict, events) -> None:
    """Mirror an accepted intent on the bot's own board."""
    for e in events:
        if e.type in (PAIR_REMOVED, JOKER_USED):
            mind.removed(e.data["tiles"])


# --- solo games (single player levels, R-1…R-10) -------------------------------------------------------


def play_level(persona: Persona, level: int, start: datetime, rng: random.Random, tally: Tally) -> datetime:
    """Play one level from ``start``; returns when the bot left it. Advances ``next_level`` on a win."""
    account = persona.account
    now = start
    game = game_create(account=account, mode="single", level=level, now=now)
    mind = Mind(game_board(game), persona, rng)
    target = str(game.pk)
    give_up_after = rng.randint(3, 15) if rng.random() < 0.06 * (1.5 - persona.skill) else None
    restarts, moves = 0, 0
    tally.add("levels started")

    def intent_at(intent: dict):
        nonlocal game
        full = {"seq": game.seq, **intent}
        result = send(
            account,
            target,
            full,
            lambda: game_intent_apply(account=account, game_id=game.pk, intent=full, now=now),
            now=now,
            tally=tally,
        )
        if result is not None:
            game = result.game
        return result

    while game.status in ("playing", "stuck"):
        now += timedelta(milliseconds=think_ms(persona, rng))
        if give_up_after is not None and moves >= give_up_after:
            if rng.random() < 0.5:  # an explicit end; else the board is simply left as it is
                intent_at({"type": "end"})
            tally.add("levels given up")
            break
        hinted = None
        if game.status == "playing" and not persona.bot_speed and rng.random() < 0.03:
            result = intent_at({"type": "hint"})  # T-10: the server's next pair of a winning plan
            tiles = result and result.events[0].data.get("tiles")
            hinted = tuple(tiles) if tiles else None
            now += timedelta(milliseconds=800)
        intent = mind.choose(hinted=hinted) if game.status == "playing" else None
        if intent is None:  # stuck (T-8): a joker, a restart or the end
            account.refresh_from_db(fields=["jokers"])
            tile = mind.joker_tile()
            may_joker = account.jokers > 0 and game.jokers_used < MAX_JOKERS_PER_GAME and tile is not None
            if may_joker and rng.random() < 0.6:
                intent = {"type": "joker", "tile": tile}
            elif restarts < 1 and rng.random() < 0.7:
                result = intent_at({"type": "restart"})
                if result:
                    restarts += 1
                    mind = Mind(game_board(game), persona, rng)
                    tally.add("levels restarted")
                continue
            else:
                intent_at({"type": "end"})
                break
        result = intent_at(intent)
        if result is None:
            break
        _moved(mind, intent, result.events)
        moves += 1
    if game.status == "won":
        tally.add("levels won")
        persona.next_level = max(persona.next_level, level + 1)
    return now


# --- competitive rounds (R-17) -----------------------------------------------------------------------


@dataclass
class _Seat:
    persona: Persona
    mind: Mind
    seq: int = 0
    quits_after: int | None = None
    moves: int = 0
    pending: dict | None = None  # the next intent, chosen when its thinking started


def play_round(rnd: Round, personas: dict[int, Persona], rng: random.Random, tally: Tally) -> datetime:
    """Every bot of the round plays its own board; the server's clock ends the round (the first
    completion, or — applied here as the beat sweeper would — its deadline). Returns the end."""
    seats: dict[int, _Seat] = {}
    queue: list[tuple[datetime, int, int]] = []
    plan = list(engine.deal_from_code(rnd.code).plan)
    played = PLAYED.setdefault(rnd.code, {})
    for k, game in enumerate(round_boards(rnd)):
        persona = personas[game.account_id]
        quits = rng.randint(2, 20) if rng.random() < 0.05 else None
        partner = played.get(persona.partner) if persona.partner is not None else None
        mind = Mind(game_board(game), persona, rng, plan=list(plan), partner_pairs=partner)
        seat = seats[game.account_id] = _Seat(persona, mind, quits_after=quits)
        seat.pending, ms = mind.round_intent()
        first = rnd.starts_at + timedelta(milliseconds=ms + rng.randint(300, 1500))
        heapq.heappush(queue, (first, k, game.account_id))
    try:
        return _round_loop(rnd, seats, queue, rng, tally)
    finally:
        for account_id, seat in seats.items():
            played[account_id] = seat.mind.pairs
        while len(PLAYED) > PLAYED_MAX:
            PLAYED.popitem(last=False)


def _round_loop(rnd: Round, seats: dict, queue: list, rng: random.Random, tally: Tally) -> datetime:
    ends_at = rnd.ends_at
    while queue:
        now, k, account_id = heapq.heappop(queue)
        if now >= ends_at:
            break
        seat = seats[account_id]
        if seat.quits_after is not None and seat.moves >= seat.quits_after:
            tally.add("rounds abandoned")
            continue
        intent, seat.pending = seat.pending, None
        if intent is None:  # stuck: a joker where the mode allows one, else wait for the end
            tile = seat.mind.joker_tile()
            account = seat.persona.account
            account.refresh_from_db(fields=["jokers"])
            if rnd.mode == "quick" or tile is None or account.jokers <= 0 or rng.random() < 0.5:
                continue
            intent = {"type": "joker", "tile": tile}
        full = {"seq": seat.seq, **intent}
        account = seat.persona.account
        result = send(
            account,
            f"round:{rnd.pk}",
            full,
            partial(round_intent_apply, account=account, round_id=rnd.pk, intent=full, now=now),
            now=now,
            tally=tally,
        )
        if result is None:
            continue
        seat.seq = result.game.seq
        seat.moves += 1
        _moved(seat.mind, intent, result.events)
        if result.round.status != "running":
            return result.round.ended_at
        ends_at = result.round.ends_at
        if result.game.status == "playing" or (result.game.status == "stuck" and rnd.mode != "quick"):
            seat.pending, ms = seat.mind.round_intent()
            heapq.heappush(queue, (now + timedelta(milliseconds=ms), k, account_id))
    round_end_if_due(round_id=rnd.pk, now=ends_at, via="sweeper")
    rnd.refresh_from_db()
    return rnd.ended_at or ends_at


def play_match(match: Match, personas: dict[int, Persona], rng: random.Random, tally: Tally) -> datetime:
    """Every round of a match in turn (an Arena's three, R-20); returns when the match finished."""
    end = match.created_at
    while True:
        match.refresh_from_db(fields=["status"])
        rnd = Round.objects.filter(match=match, status="running").order_by("index").first()
        if match.status != "running" or rnd is None:
            return end
        end = play_round(rnd, personas, rng, tally)
        tally.add("rounds played")
