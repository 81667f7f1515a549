"""The population of ``bench_fairplay.py`` (issue 36), no database: bots of three kinds play
competitive rounds with the engine directly, and the production signal code
(``rivals.fairplay.analysis`` and ``rivals.fairplay.scoring``) scores every board from what the
log holds of it — the deal, the pairs in order, their intervals — never from the bot's kind.

The bots' play is ``demo.play_style``'s (the demo world's): honest humans' heuristic, assisted
at a share of their pairs, colluding followers replaying their leader's pairs.

Rounds are tournament waves: 40 players on one deal, tables of 4 (R-23), each table ends at its
first completion or after 5 minutes (R-17); places by completion then pairs (R-18) rate the
players with the service's mathematics (``rivals.ratings.skill``), whose μ gives the band.
"""

from __future__ import annotations

import random
import time
from dataclasses import dataclass, field

from demo import play_style as style
from rivals import engine
from rivals.engine.assist import winning_plan
from rivals.fairplay import scoring
from rivals.fairplay.analysis import Move, analyse_board
from rivals.ratings import skill as rating

ROUND_MS = 5 * 60 * 1000
TABLE = 4
WAVE = 40


@dataclass
class Bot:
    index: int
    kind: str  # honest, assisted, leader, follower (the truth: never an input of the signals)
    skill: float
    pace_ms: int
    share: float = 0.0  # assisted: share of pairs from the plan; follower: chance to copy
    partner: int | None = None
    rating: rating.Skill = field(default_factory=rating.Skill)


def population(rng: random.Random, honest: int, assisted_shares: list[float], pairs: int, copy: float) -> list[Bot]:
    bots: list[Bot] = []

    def new(kind: str, share: float = 0.0) -> Bot:
        s = rng.uniform(0.3, 1.0)
        bot = Bot(len(bots), kind, s, int(rng.uniform(0.85, 1.15) * (4400 - 2800 * s)), share)
        bots.append(bot)
        return bot

    for _ in range(honest):
        new("honest")
    for share in assisted_shares:
        new("assisted", share)
    for _ in range(pairs):
        leader, follower = new("leader"), new("follower", copy)
        leader.partner, follower.partner = follower.index, leader.index
    return bots


def play(deal: engine.Deal, bot: Bot, rng: random.Random, leader_moves: list | None = None) -> list[tuple[int, Move]]:
    """One board: ``[(play clock ms, Move)]`` until won, stuck or 5 minutes."""
    board = engine.Board(deal.layout, deal.faces, "rivals")
    plan: list | None = list(deal.plan)
    clock, out, follow = rng.randint(1500, 4000), [], 0
    while clock < ROUND_MS:
        pairs = board.removable_pairs()
        if not pairs:
            break
        pair, ms = None, None
        if bot.kind == "assisted" and rng.random() < bot.share:
            plan = winning_plan(board, plan)
            if plan:
                pair = plan[0]
                ms = style.assisted_ms(rng)
        if bot.kind == "follower" and leader_moves is not None:
            while follow < len(leader_moves) and not board.can_remove(*leader_moves[follow]):
                follow += 1  # a pair gone on its own board: skip it
            if follow < len(leader_moves) and rng.random() < bot.share:
                pair = leader_moves[follow]
                follow += 1
        if pair is None:
            pair = style.human_pair(board, pairs, bot.skill, rng)
        if ms is None:
            ms = style.human_ms(bot.pace_ms, board, pairs, rng)
        ms = max(ms, 450)
        clock += ms
        out.append((clock, Move(tuple(pair), ms)))
        board.remove(*pair)
    return out


@dataclass
class Run:
    flagged: dict[int, dict] = field(default_factory=dict)  # bot → kinds
    pair_flags: set = field(default_factory=set)
    boards: int = 0
    per_board_ms: list[float] = field(default_factory=list)
    board_sizes: list[int] = field(default_factory=list)
    sims_honest: list[float] = field(default_factory=list)
    sims_pairs: list[float] = field(default_factory=list)
    scores: dict[int, dict] = field(default_factory=dict)


def simulate(bots: list[Bot], rounds: int, layouts: list[str], t: scoring.Thresholds, seed: int) -> Run:
    rng = random.Random(seed)
    run = Run()
    baselines = scoring.Baseline()
    states: dict[int, dict] = {b.index: {} for b in bots}
    pair_sims: dict[tuple[int, int], list[float]] = {}
    for r in range(rounds):
        order = [b.index for b in bots if b.kind != "follower"]
        rng.shuffle(order)
        # a follower sits in its leader's wave, at another table
        waves = [order[i : i + WAVE] for i in range(0, len(order), WAVE)]
        for wave in waves:
            for i in list(wave):
                if bots[i].partner is not None:
                    wave.append(bots[i].partner)
            code = engine.random_code(rng.randrange(1 << 34), rng.choice(layouts))
            wave_boards: list[dict] = []  # the boards of this deal scored so far (the worker's FairPlayBoard)
            deal = engine.deal_from_code(code)
            played = {}
            for i in wave:
                if bots[i].kind != "follower":
                    played[i] = play(deal, bots[i], rng)
            for i in wave:
                if bots[i].kind == "follower":
                    played[i] = play(deal, bots[i], rng, [m.tiles for _, m in played[bots[i].partner]])
            seats = [i for i in wave if bots[i].kind != "follower"]
            tables = [seats[k : k + TABLE] for k in range(0, len(seats), TABLE)]
            for f in (i for i in wave if bots[i].kind == "follower"):  # never at its leader's table
                lead = bots[f].partner
                min(
                    (tb for tb in tables if lead not in tb),
                    key=lambda tb: (len(tb), tables.index(tb)),
                    default=tables[0],
                ).append(f)
            for table in tables:  # each table is a rated result, scored as the worker scores it
                boards = _table(table, played, bots, deal.layout.size // 2)
                _score_table(run, deal, boards, bots, baselines, states, pair_sims, t, f"w{r}:{code}", wave_boards)
    return run


def _table(table, played, bots, pairs_total: int) -> dict[int, tuple[list[Move], float]]:
    """A table ends at its first completion (R-17); its places rate the players (R-41)."""
    done = [played[i][-1][0] for i in table if len(played[i]) == pairs_total]
    end = min(done) if done else ROUND_MS
    moves = {i: [m for c, m in played[i] if c <= end] for i in table}
    perf = [(len(moves[i]), -i) for i in table]
    places = [1 + sum(o > p for o in perf) for p in perf]
    after = rating.rate([bots[i].rating for i in table], places)
    boards = {}
    for i, s in zip(table, after, strict=True):
        boards[i] = (moves[i], bots[i].rating.mu)  # the band: μ before the result
        bots[i].rating = s
    return boards


def _score_table(run, deal, boards, bots, baseline, states, pair_sims, t, result, wave_boards) -> None:
    """``rivals.fairplay.signals.fairplay_result_score`` without the database: every board against
    the baseline as it was before the result, then the baseline, the windows and the pairs move."""
    layout = deal.layout.id
    entries = []
    for i, (moves, mu) in boards.items():
        started = time.process_time()
        board = analyse_board(
            deal.layout, deal.faces, moves, deal.plan, probes=t.probes, probe_budget=t.probe_nodes
        ).as_dict()
        band = scoring.band_of(mu, t.band_width)
        entry = scoring.board_entry(board, layout=layout, band=band, baseline=baseline, t=t)
        entry.update(result=result, account_id=i)
        grams = scoring.bigrams(board["free_pairs"])
        for other in wave_boards:
            if other["account_id"] == i or not scoring.worth_comparing(grams, other["grams"]):
                continue
            sim = scoring.similarity(board["free_pairs"], other["free_pairs"], t)
            if sim is None:
                continue
            key = (min(i, other["account_id"]), max(i, other["account_id"]))
            (run.sims_pairs if bots[i].partner == other["account_id"] else run.sims_honest).append(sim)
            pair_sims.setdefault(key, []).append(sim)
            if scoring.collusion_evidence(pair_sims[key], t):
                run.pair_flags.add(key)
        wave_boards.append({"account_id": i, "free_pairs": board["free_pairs"], "grams": grams})
        entries.append((i, band, board, entry))
        run.per_board_ms.append(1000 * (time.process_time() - started))
        run.board_sizes.append(deal.layout.size)
        run.boards += 1
    for i, band, board, entry in entries:
        baseline.add(layout, band, board)
        state = states[i]
        scoring.account_add(state, entry, t)
        state["scored"] = state.get("scored", 0) + 1
        for kind, (scores, why) in scoring.account_decide(state, t).items():
            state.setdefault("flagged", {})[kind] = state["scored"]
            run.flagged.setdefault(i, {})[kind] = {"why": why, **scores}
        run.scores[i] = state
