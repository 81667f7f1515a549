"""The admin's help texts in an operator's words (issue 40): a model's help text may name the rule
it follows (``start + 5 minutes (R-17)``) for developers; the operators' pages leave the rule ids
out (they stay in the code and on an event's own page)."""

from __future__ import annotations

import re

from django import template

register = template.Library()

_ID = r"[RPTS]-\d+[a-z]?(?:…[RPTS]-\d+)?"
_PARENTHESISED = re.compile(rf"\s*\((?:{_ID}(?:,\s*)?)+\)")  # " (R-21, R-26)"
_LEADING = re.compile(rf"^{_ID}(?:,\s*{_ID})*:\s*")  # "R-40: the commitment's salt"
_TRAILING = re.compile(rf",\s*{_ID}(?=\))")  # "(… adds nothing, R-38)"


@register.filter
def without_rule_ids(text) -> str:
    """``"start + 5 minutes (R-17)"`` → ``"start + 5 minutes"``."""
    text = str(text or "")
    return _TRAILING.sub("", _LEADING.sub("", _PARENTHESISED.sub("", text)))
