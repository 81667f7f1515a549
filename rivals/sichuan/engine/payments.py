"""Payments of the Sichuan table (S-13 .. S-16) as pure functions.

Every function returns payment records ``{"reason", "payer", "payee", "amount"}``; the ledger
is zero-sum by construction (each record moves ``amount`` from payer to payee).
"""

from __future__ import annotations

from .rules import Rules

DEFAULT_RULES = Rules()
KONG_REASONS = ("kong_exposed", "kong_added", "kong_concealed")


def pay(reason: str, payer: int, payee: int, amount: int) -> dict:
    return {"reason": reason, "payer": payer, "payee": payee, "amount": amount}


def discard_win(discarder: int, winner: int, value: int, reason: str = "win_discard") -> list[dict]:
    """S-13: the discarder pays the base value to each winner (one call per winner).
    A robbed kong (S-7) is paid the same way by the robbed player (reason ``win_rob``)."""
    return [pay(reason, discarder, winner, value)]


def self_draw(winner: int, value: int, active_opponents, rules: Rules = DEFAULT_RULES) -> list[dict]:
    """S-14: each opponent still active pays base value + 1."""
    return [pay("win_self_draw", s, winner, value + rules.self_draw_bonus) for s in active_opponents]


def kong(
    kind: str, owner: int, active_opponents, discarder: int | None = None, rules: Rules = DEFAULT_RULES
) -> list[dict]:
    """S-15: exposed 2 from the discarder; added 1 / concealed 2 from each active opponent."""
    if kind == "exposed":
        return [pay("kong_exposed", discarder, owner, rules.exposed_kong_points)]
    if kind == "added":
        return [pay("kong_added", s, owner, rules.added_kong_points) for s in active_opponents]
    if kind == "concealed":
        return [pay("kong_concealed", s, owner, rules.concealed_kong_points) for s in active_opponents]
    raise ValueError(kind)


def exhaustion(
    active, pigs, ready_values: dict, ledger, rules: Rules = DEFAULT_RULES, all_seats=(0, 1, 2, 3)
) -> dict[str, list[dict]]:
    """S-16 wall-exhaustion settlement, in its three steps.

    ``active``: seats still active; ``pigs``: active seats still holding their missing suit;
    ``ready_values``: seat -> best value of its ready hand (absent or 0 = not ready);
    ``ledger``: the deal's payment records so far (kong income is read from it).
    Returns ``{"flower_pig": [...], "ready_check": [...], "kong_refund": [...]}``."""
    active = [s for s in all_seats if s in set(active)]
    pigs = set(pigs)
    ready = {s: v for s, v in ready_values.items() if v and s in active and s not in pigs}
    steps: dict[str, list[dict]] = {"flower_pig": [], "ready_check": [], "kong_refund": []}
    # S-16.1 flower pig pays 32 to each non-pig (Decision: active receivers only)
    receivers = active if rules.pig_pays_active_only else list(all_seats)
    for p in active:
        if p in pigs:
            for r in receivers:
                if r != p and r not in pigs:
                    steps["flower_pig"].append(pay("flower_pig", p, r, rules.flower_pig_points))
    # S-16.2 ready-hand check: not ready (and not pig) pays each ready its best value
    for s in active:
        if s in pigs or s in ready:
            continue
        for r in active:
            if r in ready:
                steps["ready_check"].append(pay("ready_check", s, r, ready[r]))
    # S-16.3 refund (Decision: the *not ready*, pigs included, return all kong income)
    if rules.refund_by == "not_ready":
        refunders = [s for s in active if s not in ready]
    else:
        refunders = [s for s in active if s in ready]
    for s in refunders:
        for rec in ledger:
            if rec["reason"] in KONG_REASONS and rec["payee"] == s:
                steps["kong_refund"].append(pay("kong_refund", s, rec["payer"], rec["amount"]))
    return steps


def totals(ledger, n: int = 4) -> list[int]:
    out = [0] * n
    for rec in ledger:
        out[rec["payer"]] -= rec["amount"]
        out[rec["payee"]] += rec["amount"]
    return out
