"""The fair-play signals' arithmetic (R-42), pure (no Django): the rating band, what players of
the same rating do on the same layout (the baseline), an account's window of recent results, its
three scores and the decision to flag (R-38).

Everything is integer counts and sums kept in events and projections, so a rebuild from the log
gives the same numbers. The thresholds come from ``Thresholds`` (settings ``RIVALS["FAIRPLAY_SIGNALS"]``,
documented in docs/fairplay.md).

**Plan agreement** — at choice positions (several pairs removable, the deal still solvable) how often
the player took the server's plan pair; at critical positions (some removable pair loses the deal)
how often its pair kept the deal solvable. Each board's counts are set against the rate of the
account's rating band on that layout *at the time of scoring* (``Baseline.expected``): the expected
count and its binomial variance go into the board's entry, so a window sums observed, expected and
variance and its score is a z-score ``(observed − expected) / √variance``, with the excess rate
``(observed − expected) / positions`` beside it (a strong player of a band is a little above its
band; a solver is far above).

**Pace** — the board's mean log interval at critical ("hard") positions minus its mean at the
others: a human slows down where a wrong pair loses, a helped player does not. The window's mean
of that difference is set against the band's (per-board mean and spread, z-score of the window's
mean); the spread of the log intervals of the window (a bot is too regular) against an absolute
floor; the window's mean log interval against the account's own older history (how much faster).

**Collusion** — two boards of the same deal: the longest common subsequence of the pairs neither
deal forced (positions with a single removable pair left out), over the shorter of the two. A
pair of accounts is flagged once enough of its shared deals are near-identical.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from statistics import fmean

# --- thresholds -------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Thresholds:
    window: int = 20  # results per account window
    min_results: int = 5  # results in the window before any flag
    band_width: float = 2.5  # rating (μ) points per band
    prior_weight: int = 200  # positions of pseudo-count when a band or layout has little data
    prior_plan: float = 0.30  # the rates assumed before any data
    prior_keep: float = 0.85
    probes: int = 1  # solves per position to find a critical one (analysis.analyse_board)
    probe_nodes: int = 200  # each such solve's node budget (undecided: not losing — never evidence)
    plan_z: float = 4.0
    plan_excess: float = 0.08
    plan_min_choices: int = 60
    keep_z: float = 4.5
    keep_excess: float = 0.08
    keep_min_critical: int = 40
    pace_z: float = 5.0
    pace_min_boards: int = 5
    pace_min_sd: float = 0.10  # log-interval spread below which play is machine-regular
    pace_min_intervals: int = 100
    collusion_similarity: float = 0.80
    collusion_min_pairs: int = 12  # unforced pairs on each board before a comparison counts
    collusion_deals: int = 3  # near-identical shared deals (of the pair's recent ones) to flag
    collusion_window: int = 20  # shared deals remembered per pair of accounts

    @classmethod
    def of(cls, values: dict | None) -> Thresholds:
        return cls(**(values or {}))


def band_of(mu: float, width: float) -> int:
    """The rating band of a player's μ before the result (R-41's skill estimate)."""
    return int(math.floor(mu / width))


# --- the baseline: what players of one band do on one layout ------------------------------------------


def _rate(hits: float, n: float, prior: float, weight: int) -> float:
    return (hits + prior * weight) / (n + weight)


@dataclass
class Cell:
    """The sums of one (layout, band), or of a layout (band None), or of everything."""

    choices: int = 0
    plan_hits: int = 0
    critical: int = 0
    kept: int = 0
    pace_boards: int = 0
    pace_sum: float = 0.0
    pace_sq: float = 0.0

    def add(self, board: dict) -> None:
        self.choices += board["choices"]
        self.plan_hits += board["plan_hits"]
        self.critical += board["critical"]
        self.kept += board["kept"]
        slow = slowdown(board)
        if slow is not None:
            self.pace_boards += 1
            self.pace_sum += slow
            self.pace_sq += slow * slow


class Baseline:
    """Rates by (layout, band), shrunk towards the layout's, and the layout's towards everyone's
    (and everyone's towards the prior): a band with few positions borrows from its layout."""

    def __init__(self, cells: dict[tuple[str, int | None], Cell] | None = None):
        self.cells: dict[tuple[str, int | None], Cell] = cells or {}

    def cell(self, layout: str, band: int | None) -> Cell:
        return self.cells.setdefault((layout, band), Cell())

    def add(self, layout: str, band: int, board: dict) -> None:
        for key in ((layout, band), (layout, None), ("*", None)):
            self.cell(*key).add(board)

    def rates(self, layout: str, band: int, t: Thresholds) -> tuple[float, float]:
        """(plan rate, keep rate) expected of a player of ``band`` on ``layout``."""
        w = t.prior_weight
        every = self.cells.get(("*", None), Cell())
        lay = self.cells.get((layout, None), Cell())
        mine = self.cells.get((layout, band), Cell())
        plan = _rate(every.plan_hits, every.choices, t.prior_plan, w)
        keep = _rate(every.kept, every.critical, t.prior_keep, w)
        plan = _rate(lay.plan_hits, lay.choices, plan, w)
        keep = _rate(lay.kept, lay.critical, keep, w)
        return _rate(mine.plan_hits, mine.choices, plan, w), _rate(mine.kept, mine.critical, keep, w)

    def pace(self, layout: str, band: int) -> tuple[float, float, int]:
        """(mean, spread, boards) of the band's per-board slowdown on the layout (the layout's when
        the band has fewer than 30 boards)."""
        for key in ((layout, band), (layout, None), ("*", None)):
            c = self.cells.get(key)
            if c is not None and c.pace_boards >= 30:
                mean = c.pace_sum / c.pace_boards
                var = max(c.pace_sq / c.pace_boards - mean * mean, 1e-4)
                return mean, math.sqrt(var), c.pace_boards
        return 0.0, 0.0, 0


# --- one board's entry ------------------------------------------------------------------------------


def _logs(ms: list[int]) -> list[float]:
    return [math.log(max(m, 50)) for m in ms]


def slowdown(board: dict) -> float | None:
    """Mean log interval at hard positions minus at the others (None without both)."""
    hard, easy = board.get("hard_ms") or [], board.get("easy_ms") or []
    if not hard or len(easy) < 3:
        return None
    return fmean(_logs(hard)) - fmean(_logs(easy))


def board_entry(board: dict, *, layout: str, band: int, baseline: Baseline, t: Thresholds) -> dict:
    """A board's numbers with what its band was expected to do (frozen into the event)."""
    plan_rate, keep_rate = baseline.rates(layout, band, t)
    pace_mean, pace_sd, pace_boards = baseline.pace(layout, band)
    return {
        **board,
        "layout": layout,
        "band": band,
        "plan_rate": round(plan_rate, 6),
        "keep_rate": round(keep_rate, 6),
        "pace_mean": round(pace_mean, 6),
        "pace_sd": round(pace_sd, 6),
        "pace_boards": pace_boards,
    }


# --- an account's window ----------------------------------------------------------------------------

WINDOW_FIELDS = (
    "result",
    "round_id",
    "game_id",
    "layout",
    "band",
    "pairs",
    "choices",
    "plan_hits",
    "critical",
    "kept",
    "plan_rate",
    "keep_rate",
    "pace_mean",
    "pace_sd",
    "pace_boards",
)


def window_entry(entry: dict) -> dict:
    """What a window keeps of a board's entry: its counts, its band's rates, and its intervals
    summed (their logs: count, sum, sum of squares) and its slowdown — not the intervals."""
    logs = _logs((entry.get("hard_ms") or []) + (entry.get("easy_ms") or []))
    slow = slowdown(entry)
    return {
        **{k: entry.get(k) for k in WINDOW_FIELDS},
        "slow": None if slow is None else round(slow, 6),
        "log_n": len(logs),
        "log_sum": round(sum(logs), 6),
        "log_sq": round(sum(x * x for x in logs), 6),
    }


def _z(observed: float, expected: float, variance: float) -> float:
    return (observed - expected) / math.sqrt(variance) if variance > 0 else 0.0


def window_scores(entries: list[dict], history: dict) -> dict:
    """The scores of an account's window (``entries``: its recent boards, oldest first, each a
    ``board_entry``; ``history``: the sums of its older intervals). Every number the flag shows."""
    choices = sum(e["choices"] for e in entries)
    hits = sum(e["plan_hits"] for e in entries)
    exp_hits = sum(e["choices"] * e["plan_rate"] for e in entries)
    var_hits = sum(e["choices"] * e["plan_rate"] * (1 - e["plan_rate"]) for e in entries)
    critical = sum(e["critical"] for e in entries)
    kept = sum(e["kept"] for e in entries)
    exp_kept = sum(e["critical"] * e["keep_rate"] for e in entries)
    var_kept = sum(e["critical"] * e["keep_rate"] * (1 - e["keep_rate"]) for e in entries)
    slow = [(e["slow"], e) for e in entries if e["slow"] is not None and e["pace_boards"]]
    pace_z = 0.0
    if slow:
        # each board against its band's spread: the mean of n such boards has spread sd/√n
        pace_z = sum((e["pace_mean"] - s) / e["pace_sd"] for s, e in slow) / math.sqrt(len(slow))
    n = sum(e["log_n"] for e in entries)
    mean_log = sum(e["log_sum"] for e in entries) / n if n else 0.0
    spread = math.sqrt(max(sum(e["log_sq"] for e in entries) / n - mean_log * mean_log, 0.0)) if n > 1 else 0.0
    older = history.get("n", 0)
    faster = 1 - math.exp(mean_log - history["sum"] / older) if older and n else 0.0
    return {
        "results": len({e.get("result") for e in entries}),
        "boards": len(entries),
        "choices": choices,
        "plan_hits": hits,
        "plan_share": round(hits / choices, 4) if choices else 0.0,
        "plan_expected": round(exp_hits / choices, 4) if choices else 0.0,
        "plan_z": round(_z(hits, exp_hits, var_hits), 2),
        "critical": critical,
        "kept": kept,
        "keep_share": round(kept / critical, 4) if critical else 0.0,
        "keep_expected": round(exp_kept / critical, 4) if critical else 0.0,
        "keep_z": round(_z(kept, exp_kept, var_kept), 2),
        "pace_boards": len(slow),
        "slowdown": round(fmean(s for s, _ in slow), 4) if slow else 0.0,
        "slowdown_expected": round(fmean(e["pace_mean"] for _, e in slow), 4) if slow else 0.0,
        "pace_z": round(pace_z, 2),
        "intervals": n,
        "interval_spread": round(spread, 4),
        "faster_than_history": round(faster, 4),
    }


def solver_evidence(s: dict, t: Thresholds) -> list[str]:
    """Why the window's plan agreement flags (empty: it does not)."""
    why = []
    if s["choices"] >= t.plan_min_choices and s["plan_z"] >= t.plan_z:
        if s["plan_share"] - s["plan_expected"] >= t.plan_excess:
            why.append("plan")
    if s["critical"] >= t.keep_min_critical and s["keep_z"] >= t.keep_z:
        if s["keep_share"] - s["keep_expected"] >= t.keep_excess:
            why.append("keep")
    return why


def pace_evidence(s: dict, t: Thresholds) -> list[str]:
    why = []
    if s["pace_boards"] >= t.pace_min_boards and s["pace_z"] >= t.pace_z:
        why.append("no_slowdown")
    if s["intervals"] >= t.pace_min_intervals and s["interval_spread"] < t.pace_min_sd:
        why.append("regular")
    return why


# --- collusion --------------------------------------------------------------------------------------


def lcs(a: list, b: list) -> int:
    """Length of the longest common subsequence (O(len a · len b), rows of ints)."""
    if len(a) < len(b):
        a, b = b, a
    prev = [0] * (len(b) + 1)
    for x in a:
        cur = [0]
        for j, y in enumerate(b):
            cur.append(prev[j] + 1 if x == y else max(prev[j + 1], cur[j]))
        prev = cur
    return prev[-1]


def similarity(a: list, b: list, t: Thresholds) -> float | None:
    """The share of the unforced pairs two boards of one deal have in the same order (None when
    either board has too few to tell)."""
    if min(len(a), len(b)) < t.collusion_min_pairs:
        return None
    a = [tuple(p) for p in a]
    b = [tuple(p) for p in b]
    return round(lcs(a, b) / min(len(a), len(b)), 4)


def collusion_evidence(sims: list[float], t: Thresholds) -> bool:
    """A pair of accounts' recent shared deals (their similarities, oldest first)."""
    recent = sims[-t.collusion_window :]
    return sum(s >= t.collusion_similarity for s in recent) >= t.collusion_deals


def bigrams(pairs: list) -> set:
    """Consecutive pairs of unforced pairs: a cheap first look before ``similarity``."""
    keys = [tuple(p) for p in pairs]
    return set(zip(keys, keys[1:], strict=False))


def worth_comparing(a: set, b: set) -> bool:
    """Half of the shorter board's bigrams shared: only then is the LCS computed."""
    return bool(a and b) and len(a & b) >= 0.5 * min(len(a), len(b))


# --- an account's state and the decision ------------------------------------------------------------

SIGNAL_KINDS = ("solver_assist", "pace", "collusion")  # the flags' kinds of R-42's signals
WINDOW_KINDS = ("solver_assist", "pace")  # those an account's window decides (account_decide)


def account_add(state: dict, entry: dict, t: Thresholds) -> None:
    """Add one board's entry to an account's state (``entries``: the last ``window`` boards,
    ``history``: the sums of the log intervals of the boards that left it, ``scored``: results)."""
    entries = state.setdefault("entries", [])
    entries.append(window_entry(entry))
    history = state.setdefault("history", {"n": 0, "sum": 0.0})
    while len(entries) > t.window:
        old = entries.pop(0)
        history["n"] += old["log_n"]
        history["sum"] = round(history["sum"] + old["log_sum"], 6)


def account_decide(state: dict, t: Thresholds) -> dict[str, tuple[dict, list[str]]]:
    """The flags the account's window raises now: ``{kind: (scores, reasons)}`` for ``solver_assist``
    and ``pace``; none before ``min_results`` results, and a kind flagged again only once its whole
    window is new (``state["flagged"][kind]``: the ``scored`` count of its last flag)."""
    entries = state.get("entries", [])
    if len({e.get("result") for e in entries}) < t.min_results:
        return {}
    scores = window_scores(entries, state.get("history", {}))
    out = {}
    for kind, why in (("solver_assist", solver_evidence(scores, t)), ("pace", pace_evidence(scores, t))):
        last = state.get("flagged", {}).get(kind)
        if why and (last is None or state.get("scored", 0) - last >= t.window):
            out[kind] = (scores, why)
    return out
