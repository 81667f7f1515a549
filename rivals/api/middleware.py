"""Request edges shared by every endpoint, present and future.

- ``UrlSafetyMiddleware``: a URL argument (``/games/%00``) or query parameter carrying U+0000, a
  control character or another character no id or name has is refused with 400 ``invalid``
  before a view sees it — such text must not reach queries or stored records. Views that record
  refusals themselves (intent endpoints: ``checks_own_url``) check their target id instead. A
  query parameter the served schema does not declare for the operation is 400 ``invalid`` too:
  the schema's list is the server's (``rivals.api.schema.declared_query_parameters``).
- ``DatabaseUnavailableMiddleware``: outside DRF (admin, landing page) a lost database connection
  is 503 ``unavailable`` with ``Retry-After``, like the API's exception handler answers.
"""

from __future__ import annotations

from django.http import JsonResponse

from rivals.api.errors import database_unavailable, error_body, unavailable
from rivals.api.schema import declared_query_parameters
from rivals.text import unsafe_character


class UrlSafetyMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        return self.get_response(request)

    def process_view(self, request, view_func, view_args, view_kwargs):
        problems: dict[str, list[str]] = {}
        view_class = getattr(view_func, "view_class", None) or getattr(view_func, "cls", None)
        if not getattr(view_class, "checks_own_url", False):
            for name, value in view_kwargs.items():
                bad = isinstance(value, str) and unsafe_character(value)
                if bad:
                    problems[name] = [f"character {bad} is not allowed"]
        for name, values in request.GET.lists():
            bad = unsafe_character(name) or next(filter(None, map(unsafe_character, values)), None)
            if bad:
                problems[name] = [f"character {bad} is not allowed"]
        if not problems and request.GET and request.path.startswith("/api/v1/"):
            declared = declared_query_parameters(view_class, request.method) if view_class else None
            unknown = sorted(set(request.GET) - declared) if declared is not None else []
            if unknown:
                return JsonResponse(
                    error_body(
                        "invalid",
                        f"unknown query parameter {unknown[0]!r}",
                        {name: ["not a parameter of this operation"] for name in unknown},
                    ),
                    status=400,
                )
        if problems:
            return JsonResponse(
                error_body("invalid", "the URL contains characters that no id or parameter has", problems), status=400
            )
        return None


class DatabaseUnavailableMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        return self.get_response(request)

    def process_exception(self, request, exception):
        if not database_unavailable(exception):
            return None
        body, headers = unavailable()
        return JsonResponse(body, status=503, headers=headers)
