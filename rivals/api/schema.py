"""The OpenAPI schema says every status an operation can answer — for every view, written or not.

Views declare their own successes and domain errors. What the platform adds to any operation is
added here, from what the operation is, so that endpoints written later are documented without
anyone remembering to: 400 (a malformed request: body, query or URL), 401 (a token-protected
operation, or any bad ``Authorization`` header), 403 (a state-changing operation a suspended
account may not use: ``NotSuspended``, R-38), 404 (an operation with path parameters), 413 and 415
(operations with a body), 409 (a state-changing operation: its Idempotency-Key reused with another
body, or a lock conflict its retries did not cure), 429 (throttled operations) and 503 (the
database is unavailable), both with their ``Retry-After`` header; the ``Idempotency-Key`` header on every operation that honours
it (``rivals.api.idempotency``). Path parameters whose URL pattern is a plain alternation
(``amr|weekly|daily``) become an ``enum`` instead of drf-spectacular's mis-anchored
``^amr|weekly|daily$`` pattern. The token scheme says its ``Token`` prefix.
"""

from __future__ import annotations

import functools
import re

from drf_spectacular.extensions import OpenApiAuthenticationExtension
from drf_spectacular.openapi import AutoSchema as SpectacularAutoSchema
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse
from rest_framework.permissions import SAFE_METHODS

from rivals.api import unions  # noqa: F401 - the ErrorBody and Notification unions (schema extensions)
from rivals.api.idempotency import HEADER, KEY_MAX
from rivals.api.permissions import NotSuspended
from rivals.text import NO_NUL, SAFE_TEXT

_ALTERNATION = re.compile(r"\^?(?:\(\?:)?([\w-]+(?:\|[\w-]+)+)\)?\$?")

_DESCRIPTIONS = {
    "400": "invalid: the request is malformed (body, query or URL)",
    "401": "unauthenticated: no or an invalid token",
    "403": "forbidden: the account is suspended (R-38); reads and withdrawals stay open",
    "404": "not_found",
    "409": "conflict: the Idempotency-Key was used with another request, or a concurrent change got there "
    "first (send it again after Retry-After)",
    "413": "invalid: the body is too large",
    "415": "invalid: the body is not JSON",
    "429": "throttled: too many requests; send it again after Retry-After seconds",
    "503": "unavailable: the database is briefly unavailable; send it again after Retry-After seconds",
}
_RETRY_AFTER = {
    "Retry-After": {"description": "seconds to wait before sending the request again", "schema": {"type": "integer"}}
}


class AutoSchema(SpectacularAutoSchema):
    def _platform_codes(self) -> list[str]:
        codes = ["400", "503"]
        if self.view.get_authenticators():
            codes.append("401")
        if self.method not in SAFE_METHODS and self.method != "DELETE" and self._refuses_suspended():
            codes.append("403")
        if self.view.get_throttles():
            codes.append("429")
        if re.search(r"\{\w+\}", self.path):
            codes.append("404")
        if self.method in ("POST", "PUT", "PATCH"):
            codes += ["413", "415"]
        if self.method not in SAFE_METHODS:
            codes.append("409")
        return codes

    def _refuses_suspended(self) -> bool:
        return any(isinstance(p, NotSuspended) for p in self.view.get_permissions())

    def _handler(self):
        return getattr(self.view, self.method.lower(), None)

    def get_override_parameters(self):
        parameters = list(super().get_override_parameters())
        if self.method == "POST":
            honoured = getattr(self._handler(), "idempotent", False)
            parameters.append(
                OpenApiParameter(
                    HEADER,
                    {"type": "string", "maxLength": KEY_MAX, "pattern": r"^[\x20-\x7e]*$"} if honoured else str,
                    OpenApiParameter.HEADER,
                    description=(
                        "retries of this request with the same key and body answer the first response and "
                        "change nothing; the same key with another body is 409"
                        if honoured
                        else "accepted and ignored: this operation is not replayed (a retry does it again — "
                        "a login issues another token, a logout revokes the calling token)"
                    )
                    + f" (at most {KEY_MAX} printable characters)",
                )
            )
        return parameters

    def _get_response_bodies(self, direction="response"):
        from rivals.api.serializers import ErrorOut

        responses = super()._get_response_bodies(direction)
        for code in self._platform_codes():
            if code not in responses:
                responses[code] = self._get_response_for_code(
                    OpenApiResponse(ErrorOut, description=_DESCRIPTIONS[code]), code, direction=direction
                )
        for code in ("429", "503"):
            if code in responses:
                responses[code].setdefault("headers", {}).update(_RETRY_AFTER)
        if getattr(self.view, "honours_prefer", False) and "200" in responses:  # rivals.api.prefer
            from rivals.api.prefer import APPLIED_HEADER

            responses["200"].setdefault("headers", {}).update(APPLIED_HEADER)
        return responses

    def get_tags(self) -> list[str]:
        """An operation's tag is the API.md section of its room (``rivals.games.api`` → ``games``
        → "Boards and games": settings ``API_TAG_OF_ROOM``), or the one its view names
        (``api_tag``): ReDoc's menu and generated clients' modules follow it."""
        from django.conf import settings

        named = getattr(self.view, "api_tag", None)
        if named:
            return [named]
        module = type(self.view).__module__.split(".")
        room = module[1] if module[0] == "rivals" and len(module) > 2 else module[0]
        return [getattr(settings, "API_TAG_OF_ROOM", {}).get(room, room)]

    def get_serializer_name(self, serializer, direction):
        """A component is named after what it is: ``GameOut`` is ``Game`` (an answer's shape),
        ``GameCreateIn`` is ``GameCreate`` (``GameCreateRequest`` once split as a request body)."""
        name = super().get_serializer_name(serializer, direction)
        for suffix in ("Out", "In"):
            if name.endswith(suffix) and len(name) > len(suffix):
                return name.removesuffix(suffix)
        return name

    def _resolve_path_parameters(self, variables):
        parameters = super()._resolve_path_parameters(variables)
        for parameter in parameters:
            schema = parameter.get("schema", {})
            match = _ALTERNATION.fullmatch(schema.get("pattern", ""))
            if match:
                del schema["pattern"]
                schema["enum"] = match.group(1).split("|")
        return parameters


class AccountTokenScheme(OpenApiAuthenticationExtension):
    """``Authorization: Token <key>`` — the scheme clients generate their auth from."""

    target_class = "rivals.api.authentication.AccountTokenAuthentication"
    name = "tokenAuth"

    def get_security_definition(self, auto_schema):
        return {
            "type": "apiKey",
            "in": "header",
            "name": "Authorization",
            "description": 'The word "Token", a space, and the token a sign-in answered: '
            "`Authorization: Token 0123…`. Each signed-in device has its own token.",
        }


def uuid_path(name: str, what: str) -> OpenApiParameter:
    """A path id the server reads as a UUID (anything else is 404 ``not_found``)."""
    return OpenApiParameter(name, OpenApiTypes.UUID, OpenApiParameter.PATH, description=f"the {what}'s id")


def int_path(name: str, what: str) -> OpenApiParameter:
    """A path id the server reads as a positive integer (anything else is 404 ``not_found``)."""
    return OpenApiParameter(name, OpenApiTypes.INT64, OpenApiParameter.PATH, description=f"the {what}'s id")


# --- what the served schema says, enforced by the server ----------------------------------------


def declared_query_parameters(view_class, method: str) -> frozenset[str] | None:
    """The query parameters the served schema declares for ``method`` on ``view_class`` (``None``:
    not an operation of the schema). Read once per process from the schema itself, so that what the
    schema states and what the server accepts are one list (``rivals.api.middleware``)."""
    return _declared_query().get((view_class, method.upper()))


@functools.cache
def _declared_query() -> dict[tuple[type, str], frozenset[str]]:
    from drf_spectacular.generators import SchemaGenerator

    generator = SchemaGenerator()
    schema = generator.get_schema(request=None, public=True)
    declared = {}
    for path, _regex, method, callback in generator.endpoints:
        operation = schema["paths"].get(path, {}).get(method.lower())
        view_class = getattr(callback, "cls", None)
        if operation is None or view_class is None:
            continue
        names = {p["name"] for p in operation.get("parameters", []) if p["in"] == "query"}
        declared[(view_class, method.upper())] = frozenset(names)
    return declared


def _walk_request_schema(node, components: dict, seen: set) -> None:
    """Say of every request body what the server refuses: text with a NUL (the JSON parser), keys
    with a NUL (``propertyNames``)."""
    if isinstance(node, dict):
        ref = node.get("$ref")
        if ref and ref.startswith("#/components/schemas/"):
            name = ref.rsplit("/", 1)[1]
            if name not in seen:
                seen.add(name)
                _walk_request_schema(components.get(name, {}), components, seen)
            return
        types_ = node.get("type")
        if (types_ == "string" or (isinstance(types_, list) and "string" in types_)) and "enum" not in node:
            node.setdefault("pattern", NO_NUL)
        if types_ == "object":
            node.setdefault("propertyNames", {"pattern": NO_NUL})

        for value in node.values():
            _walk_request_schema(value, components, seen)
    elif isinstance(node, list):
        for value in node:
            _walk_request_schema(value, components, seen)


def _needs_a_body(request_body: dict, components: dict) -> bool:
    """A body with a required property (or a union of such) must be sent; one whose properties
    are all optional may be left out (``POST /sichuan``: a random seed)."""
    for media in request_body.get("content", {}).values():
        schema = media.get("schema", {})
        ref = schema.get("$ref", "")
        schema = components.get(ref.rsplit("/", 1)[-1], schema) if ref else schema
        if schema.get("required") or "oneOf" in schema:
            return True
    return False


def requests_as_the_server_reads_them(result, generator, request, public):
    """drf-spectacular postprocessing hook: request bodies and query strings state the text the
    server refuses (NUL anywhere in a body; control, BOM and bidi characters in a query string)."""
    components = result.get("components", {}).get("schemas", {})
    seen: set[str] = set()
    for item in result.get("paths", {}).values():
        for operation in item.values():
            if not isinstance(operation, dict):
                continue
            for parameter in operation.get("parameters", []):
                schema = parameter.get("schema", {})
                if parameter.get("in") == "query" and schema.get("type") == "string" and "enum" not in schema:
                    schema.setdefault("pattern", SAFE_TEXT)
            if "requestBody" in operation and _needs_a_body(operation["requestBody"], components):
                operation["requestBody"]["required"] = True  # the body is what the operation reads
            body = operation.get("requestBody", {}).get("content", {})
            for media in body.values():
                _walk_request_schema(media.get("schema", {}), components, seen)
    return result
