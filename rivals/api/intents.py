"""The base of every intent endpoint (``POST …/{id}/intents``): one way to take an intent in.

A subclass names the URL argument of its target and implements ``apply``, which returns
``Accepted(events, body)`` (raise a ``DomainError`` to refuse). The base refuses a suspended
account (403 ``forbidden``, R-38), parses the body (``rivals.api.parsers``), checks the target
id, makes the call idempotent (``Idempotency-Key``) and records every refusal — an unparsable or
hostile body included, as a sanitised copy — as a ``RejectedIntent`` (R-38) before answering in
the API's error format. Raising inside ``apply`` is caught inside the request's transaction: what
the service committed on purpose before refusing (P-4: the time-up end of a game) stays. Then it
tells whoever listens what happened (``rivals.signals.intent_accepted`` / ``intent_refused``: the
fair-play checks of ``rivals.fairplay``): the accepted events, or the refusal. An accepted
intent's answer is the whole game, or the compact one ``Prefer: return=minimal`` asks for
(``rivals.api.prefer``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from rest_framework.exceptions import ParseError
from rest_framework.permissions import IsAuthenticated
from rest_framework.response import Response
from rest_framework.views import APIView

from rivals.api.errors import error_response
from rivals.api.idempotency import idempotent
from rivals.api.parsers import RefusedJSON
from rivals.api.permissions import NotSuspended
from rivals.api.prefer import APPLIED, MINIMAL
from rivals.errors import DomainError, Invalid
from rivals.intents import rejected_intent_record
from rivals.signals import intent_accepted, intent_refused
from rivals.text import unsafe_character


@dataclass
class Accepted:
    """What an accepted intent appended (for the fair-play checks) and the answer's body;
    ``minimal`` when the body is the compact one ``Prefer: return=minimal`` asked for."""

    events: list
    body: dict[str, Any]
    minimal: bool = False


class IntentEndpoint(APIView):
    target_kwarg: str = ""  # the URL argument naming the target (``game_id``, ``table_id``)
    target_prefix: str = ""  # how the fair-play record names the target's kind (``sichuan:``)
    checks_own_url = True  # rivals.api.middleware leaves the target id to this view
    honours_prefer = False  # answers Prefer: return=minimal (rivals.api.prefer): says Vary: Prefer
    permission_classes = [IsAuthenticated, NotSuspended]

    def apply(self, request, target: str, intent: Any) -> Accepted:
        raise NotImplementedError

    @idempotent
    def post(self, request, **kwargs):
        target = kwargs[self.target_kwarg]
        intent: Any = None
        try:
            try:
                intent = request.data
            except RefusedJSON as exc:
                intent = exc.sanitised
                raise Invalid(str(exc.detail)) from None
            except ParseError as exc:
                raise Invalid(str(exc.detail)) from None
            bad = unsafe_character(target)
            if bad:
                raise Invalid(
                    f"{self.target_kwarg} contains {bad}: not an id", details={self.target_kwarg: ["not an id"]}
                )
            accepted = self.apply(request, target, intent)
        except DomainError as exc:
            rejected_intent_record(account=request.user, target=f"{self.target_prefix}{target}", intent=intent, exc=exc)
            intent_refused.send(sender=type(self), account=request.user, exc=exc)
            return error_response(exc.code, exc.message, exc.status_code, exc.details)
        intent_accepted.send(sender=type(self), account=request.user, events=accepted.events)
        response = Response(accepted.body, headers={"Vary": "Prefer"} if self.honours_prefer else None)
        if accepted.minimal:  # RFC 7240 (rivals.api.prefer)
            response[APPLIED] = MINIMAL
        return response
