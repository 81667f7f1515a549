"""Every periodic job, declared in one place. ``manage.py setup_periodic_tasks`` writes these into
django-celery-beat's tables (idempotent: update by name). Crontabs that mean "Romanian midnight"
carry the ``Europe/Bucharest`` timezone and run at 00:00–00:05 (Romania changes clocks at
03:00/04:00, so those minutes are never skipped or doubled); an hourly catch-up job makes the
rules hold even if beat misses a run (DST bugs, downtime).
"""

ROMANIA = "Europe/Bucharest"

PERIODIC_TASKS: list[dict] = [
    # Proves beat → worker → database end to end; cheap, once a minute.
    {"name": "heartbeat", "task": "rivals.heartbeat", "interval_seconds": 60},
]
