"""What the admin tests share: the messages an action left for the operator."""

from __future__ import annotations


def messages_of(res) -> list[tuple[str, str]]:
    """``(level, text)`` of the messages stored by the request behind ``res``."""
    from django.contrib.messages import get_messages

    return [(m.level_tag, str(m)) for m in get_messages(res.wsgi_request)]
