"""Every request gets its routing state (on the primary until ``ReplicaReads`` says otherwise),
and a request that may have written marks its caller when it ends (rivals.replica.marks).

Installed by config/settings.py only when ``DATABASE_REPLICA_URL`` is set."""

from __future__ import annotations

from rivals.replica import marks
from rivals.replica.routing import SAFE_METHODS, RequestRouting, _routing


class ReplicaMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        state = RequestRouting()
        token = _routing.set(state)
        try:
            response = self.get_response(request)
        finally:
            _routing.reset(token)
        if state.wrote or request.method not in SAFE_METHODS:
            user = getattr(request, "user", None)  # DRF sets the authenticated account on the request
            if user is not None and user.is_authenticated:
                marks.mark(user.pk)
        for account_id in state.accounts:
            marks.mark(account_id)
        return response
