"""JSON bodies for Django-level 404/500 under the API prefix (the API's error format)."""

from django.http import JsonResponse
from django.views.defaults import page_not_found
from django.views.defaults import server_error as django_server_error

from rivals.api.errors import error_body


def not_found(request, exception=None):
    if request.path.startswith("/api/"):
        return JsonResponse(error_body("not_found", "no such endpoint"), status=404)
    return page_not_found(request, exception)


def server_error(request):
    if request.path.startswith("/api/"):
        return JsonResponse(error_body("server_error", "internal error"), status=500)
    return django_server_error(request)
