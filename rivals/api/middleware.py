"""Request edges shared by every endpoint, present and future.

- ``UrlSafetyMiddleware``: a URL argument (``/games/%00``) or query parameter carrying U+0000, a
  control character or another character no id or name has is refused with 400 ``invalid``
  before a view sees it — such text must not reach queries or stored records. Views that record
  refusals themselves (intent endpoints: ``checks_own_url``) check their target id instead.
- ``DatabaseUnavailableMiddleware``: outside DRF (admin, landing page) a lost database connection
  is 503 ``unavailable`` with ``Retry-After``, like the API's exception handler answers.
"""

from __future__ import annotations

from django.http import JsonResponse

from rivals.api.errors import database_unavailable, error_body, unavailable
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
