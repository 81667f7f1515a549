"""How the review queue shows the evidence of R-42's flags (``solver_assist``, ``pace``,
``collusion``): a sentence per reason with the numbers and what players of the same rating do,
and the rounds that carry them, each a link to its round."""

from __future__ import annotations

from django.utils.html import format_html, format_html_join
from django.utils.safestring import SafeString

from rivals.admin_display import account_link, table_html, url
from rivals.fairplay.scoring import SIGNAL_KINDS


def _pct(x: float) -> str:
    return f"{100 * x:.0f} %"


def _round(round_id: str | None) -> SafeString | str:
    if not round_id:
        return "—"
    link = url("admin:matches_round_change", round_id)
    return format_html('<a href="{}">round {}</a>', link, round_id[:8]) if link else round_id[:8]


def summary(kind: str, details: dict) -> str:
    """One line for the queue's list."""
    s = details.get("scores") or {}
    if kind == "solver_assist":
        return (
            f"plan pair {_pct(s.get('plan_share', 0))} of {s.get('choices', 0)} choices (same rating: "
            f"{_pct(s.get('plan_expected', 0))}, z {s.get('plan_z', 0)}); kept solvable {_pct(s.get('keep_share', 0))} "
            f"of {s.get('critical', 0)} critical (same rating: {_pct(s.get('keep_expected', 0))}, z {s.get('keep_z', 0)})"
        )
    if kind == "pace":
        return (
            f"slowdown at hard positions {s.get('slowdown', 0)} (same rating {s.get('slowdown_expected', 0)}, "
            f"z {s.get('pace_z', 0)}); interval spread {s.get('interval_spread', 0)}"
        )
    return (
        f"same pairs as account #{details.get('partner_id')} on {s.get('near_identical', 0)} of "
        f"{s.get('shared_deals', 0)} shared deals (mean similarity {s.get('mean_similarity', 0)})"
    )


def _sentences(kind: str, details: dict) -> list[SafeString]:
    s = details.get("scores") or {}
    why = details.get("why") or []
    out = []
    if kind == "solver_assist":
        out.append(
            format_html(
                "{}Took the server's plan pair at <b>{}</b> of {} positions with a choice (<b>{}</b>); players of "
                "the same rating on these layouts: {} (z = {}).",
                "⚑ " if "plan" in why else "",
                s.get("plan_hits"),
                s.get("choices"),
                _pct(s.get("plan_share", 0)),
                _pct(s.get("plan_expected", 0)),
                s.get("plan_z"),
            )
        )
        out.append(
            format_html(
                "{}Kept the deal solvable at <b>{}</b> of {} positions where some free pair would lose it (<b>{}</b>); "
                "same rating: {} (z = {}).",
                "⚑ " if "keep" in why else "",
                s.get("kept"),
                s.get("critical"),
                _pct(s.get("keep_share", 0)),
                _pct(s.get("keep_expected", 0)),
                s.get("keep_z"),
            )
        )
    elif kind == "pace":
        out.append(
            format_html(
                "{}Slows down at hard positions by {} (mean log interval, hard − easy) over {} boards; players of the "
                "same rating: {} (z = {}).",
                "⚑ " if "no_slowdown" in why else "",
                s.get("slowdown"),
                s.get("pace_boards"),
                s.get("slowdown_expected"),
                s.get("pace_z"),
            )
        )
        out.append(
            format_html(
                "{}Spread of its {} intervals (standard deviation of their logs): {}; faster than its own history by {}.",
                "⚑ " if "regular" in why else "",
                s.get("intervals"),
                s.get("interval_spread"),
                _pct(s.get("faster_than_history", 0)),
            )
        )
    else:
        out.append(
            format_html(
                "⚑ The same pairs, in the same order, as {} on <b>{}</b> of {} shared deals (similarity at least {}; "
                "mean {}), the pairs a deal forces left out.",
                account_link(details.get("partner_id")),
                s.get("near_identical"),
                s.get("shared_deals"),
                s.get("similarity_at_least"),
                s.get("mean_similarity"),
            )
        )
    return out


def evidence_html(kind: str, details: dict) -> SafeString | str:
    """The sentences, then the rounds that carry them."""
    if kind not in SIGNAL_KINDS:
        return "—"
    sentences = format_html_join("", "<p>{}</p>", ((s,) for s in _sentences(kind, details)))
    if kind == "collusion":
        rows = [
            (_round(r.get("round_id")), _round(r.get("other_round_id")), r.get("similarity"))
            for r in details.get("shared", [])
        ]
        table = table_html(["round", "the other account's round", "similarity"], rows, css="fairplay-rounds")
    else:
        rows = [
            (
                _round(r.get("round_id")),
                r.get("layout"),
                f"{r.get('plan_hits')} / {r.get('choices')}",
                _pct(r.get("band_plan_rate", 0)),
                f"{r.get('kept')} / {r.get('critical')}",
                _pct(r.get("band_keep_rate", 0)),
            )
            for r in details.get("rounds", [])
        ]
        table = table_html(
            ["round", "layout", "plan pairs / choices", "same rating", "kept / critical", "same rating"],
            rows,
            css="fairplay-rounds",
        )
    return format_html('<div class="fairplay-evidence">{}{}</div>', sentences, table)
