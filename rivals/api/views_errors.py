"""JSON bodies for Django-level 404/500 under the API prefix (the API's error format)."""

from django.http import JsonResponse
from django.views.defaults import page_not_found
from django.views.defaults import server_error as django_server_error


def not_found(request, exception=None):
    if request.path.startswith("/api/"):
        return JsonResponse(
            {"error": {"code": "not_found", "message": "no such endpoint", "details": {}}}, status=404
        )
    return page_not_found(request, exception)


def server_error(request):
    if request.path.startswith("/api/"):
        return JsonResponse(
            {"error": {"code": "server_error", "message": "internal error", "details": {}}}, status=500
        )
    return django_server_error(request)
