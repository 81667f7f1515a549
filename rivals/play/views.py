"""``/play/``: the reference client's one page. Everything after it is static files
(``rivals/play/static/play/``) and the public API; the page itself reads nothing of the database,
so it loads as fast as a static file."""

from django.shortcuts import render
from django.views.decorators.http import require_GET


@require_GET
def play(request):
    return render(request, "play/index.html")
