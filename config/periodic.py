"""Every periodic job, declared in one place. ``manage.py setup_periodic_tasks`` writes these into
django-celery-beat's tables (idempotent: update by name). Crontabs that mean "Romanian midnight"
carry the ``Europe/Bucharest`` timezone and run at 00:00–00:05 (Romania changes clocks at
03:00/04:00, so those minutes are never skipped or doubled); an hourly catch-up job makes the
rules hold even if beat misses a run (DST bugs, downtime).
"""

ROMANIA = "Europe/Bucharest"
HEARTBEAT_INTERVAL_S = 60

PERIODIC_TASKS: list[dict] = [
    # Proves beat → worker → database end to end; one row rewritten once a minute (not an event).
    {"name": "heartbeat", "task": "rivals.heartbeat", "interval_seconds": HEARTBEAT_INTERVAL_S},
    # Retention (settings RIVALS: 48 h of idempotency records, 90 days of rejected intents).
    {"name": "idempotency-prune", "task": "rivals.idempotency_prune", "interval_seconds": 3600},
    {"name": "rejected-intents-prune", "task": "rivals.rejected_intents_prune",
     "crontab": {"minute": "37", "hour": "4", "timezone": ROMANIA}},
    # P-4: pool games end when their server time runs out, even if the client stopped calling.
    {"name": "games-expire-due", "task": "rivals.games_expire_due", "interval_seconds": 15},
    # the safety net of the round clock (and of queue tickets' and duel challenges' expiry):
    # ends every round whose deadline passed even if its scheduled task was lost or the worker died.
    {"name": "matches-sweep", "task": "matches.sweep", "interval_seconds": 2},
    # move the AMR window at Romanian midnight (00:01 Bucharest; never skipped/doubled by DST).
    {"name": "rankings-roll", "task": "rankings.roll",
     "crontab": {"minute": "1", "hour": "0", "timezone": ROMANIA}},
    # hourly catch-up of the same idempotent roll (beat DST bugs, downtime): a no-op when done.
    {"name": "rankings-roll-catchup", "task": "rankings.roll",
     "crontab": {"minute": "17", "hour": "*", "timezone": ROMANIA}},
    # R-22…R-26, R-29: tournaments' starts/cancellations, next waves and finalizations that are due
    # (each is also scheduled for its moment on commit; this is the safety net). Cheap when idle.
    {"name": "tournaments-sweep", "task": "tournaments.sweep", "interval_seconds": 5},
    # recurring schedules create their instances days ahead, in Romanian wall-clock time
    # (hourly at :07 Bucharest; idempotent — one instance per schedule and Romanian date).
    {"name": "tournaments-schedules", "task": "tournaments.schedules_materialize",
     "crontab": {"minute": "7", "hour": "*", "timezone": ROMANIA}},
    # P-5: pot competitions are ranked and paid once their end time passed.
    {"name": "pots-sweep", "task": "tournaments.pots_sweep", "interval_seconds": 15},
]
