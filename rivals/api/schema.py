"""The OpenAPI schema says every status an operation can answer — for every view, written or not.

Views declare their own successes and domain errors. What the platform adds to any operation is
added here, from what the operation is, so that endpoints written later are documented without
anyone remembering to: 400 (a malformed request: body, query or URL), 401 (a token-protected
operation, or any bad ``Authorization`` header), 404 (an operation with path parameters), 413 and
415 (operations with a body), 429 (throttled operations), 503 (the database is unavailable; with
``Retry-After``). Path parameters whose URL pattern is a plain alternation (``amr|weekly|daily``)
become an ``enum`` instead of drf-spectacular's mis-anchored ``^amr|weekly|daily$`` pattern.
"""

from __future__ import annotations

import re

from drf_spectacular.openapi import AutoSchema as SpectacularAutoSchema
from drf_spectacular.utils import OpenApiResponse

_ALTERNATION = re.compile(r"\^?(?:\(\?:)?([\w-]+(?:\|[\w-]+)+)\)?\$?")

_DESCRIPTIONS = {
    "400": "invalid: the request is malformed (body, query or URL)",
    "401": "unauthenticated: no or an invalid token",
    "404": "not_found",
    "413": "invalid: the body is too large",
    "415": "invalid: the body is not JSON",
    "429": "throttled: too many requests (Retry-After)",
    "503": "unavailable: the database is briefly unavailable (Retry-After)",
}


class AutoSchema(SpectacularAutoSchema):
    def _platform_codes(self) -> list[str]:
        codes = ["400", "503"]
        if self.view.get_authenticators():
            codes.append("401")
        if self.view.get_throttles():
            codes.append("429")
        if re.search(r"\{\w+\}", self.path):
            codes.append("404")
        if self.method in ("POST", "PUT", "PATCH"):
            codes += ["413", "415"]
        return codes

    def _get_response_bodies(self, direction="response"):
        from rivals.api.serializers import ErrorOut

        responses = super()._get_response_bodies(direction)
        for code in self._platform_codes():
            if code not in responses:
                responses[code] = self._get_response_for_code(
                    OpenApiResponse(ErrorOut, description=_DESCRIPTIONS[code]), code, direction=direction
                )
        return responses

    def _resolve_path_parameters(self, variables):
        parameters = super()._resolve_path_parameters(variables)
        for parameter in parameters:
            schema = parameter.get("schema", {})
            match = _ALTERNATION.fullmatch(schema.get("pattern", ""))
            if match:
                del schema["pattern"]
                schema["enum"] = match.group(1).split("|")
        return parameters
