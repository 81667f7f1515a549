"""Domain errors. Each maps to one HTTP status and one machine code of API.md."""

from __future__ import annotations

from typing import Any


class DomainError(Exception):
    status_code = 400
    code = "invalid"

    def __init__(self, message: str, *, details: dict[str, Any] | None = None, code: str | None = None):
        super().__init__(message)
        self.message = message
        self.details = details or {}
        if code:
            self.code = code


class Invalid(DomainError):
    status_code = 400
    code = "invalid"


class NotFound(DomainError):
    status_code = 404
    code = "not_found"


class Conflict(DomainError):
    """A stale sequence/version or a concurrent writer (HTTP 409)."""

    status_code = 409
    code = "conflict"


class NotAllowed(DomainError):
    """The rules forbid the action (HTTP 422)."""

    status_code = 422
    code = "not_allowed"


class NoJokers(NotAllowed):
    code = "no_jokers"


class LimitReached(NotAllowed):
    code = "limit_reached"


class NotEligible(DomainError):
    status_code = 403
    code = "not_eligible"


class Unauthenticated(DomainError):
    """Credentials that do not sign in (HTTP 401) — one answer whatever was wrong."""

    status_code = 401
    code = "unauthenticated"


class Forbidden(DomainError):
    """The caller may not do this at all (HTTP 403): e.g. a suspended account's intents (R-38)."""

    status_code = 403
    code = "forbidden"


class Throttled(DomainError):
    """Too many of these for now (HTTP 429): ``details.retry_after_s`` says when to ask again (the
    answer's ``Retry-After`` too)."""

    status_code = 429
    code = "throttled"

    def __init__(self, message: str, *, retry_after_s: int, details: dict[str, Any] | None = None):
        super().__init__(message, details={**(details or {}), "retry_after_s": int(retry_after_s)})


class OutsideRoundTime(NotAllowed):
    """An intent before a round's start or after its end (R-38: recorded for fair play)."""


class TooFast(NotAllowed):
    """A pair faster than the human minimum interval (R-38)."""


# Every ``error.code`` the API answers (API.md's list, and the platform's own): the schema's enum.
ERROR_CODES = (
    "invalid",
    "unauthenticated",
    "forbidden",
    "not_found",
    "method_not_allowed",
    "conflict",
    "not_allowed",
    "no_jokers",
    "limit_reached",
    "not_eligible",
    "throttled",
    "unavailable",
)
