"""Every periodic job, declared in one place. ``manage.py setup_periodic_tasks`` writes these into
django-celery-beat's tables (idempotent: update by name). Crontabs that mean "Romanian midnight"
carry the ``Europe/Bucharest`` timezone and run at 00:00–00:05 (Romania changes clocks at
03:00/04:00, so those minutes are never skipped or doubled); an hourly catch-up job makes the
rules hold even if beat misses a run (DST bugs, downtime).
"""

import os

ROMANIA = "Europe/Bucharest"
HEARTBEAT_INTERVAL_S = 60
# Issue 31: how often the event log's anchor is written (docs/security.md: what a rewrite between
# two anchors can hide until the next one)
ANCHOR_INTERVAL_S = int(os.environ.get("RIVALS_ANCHOR_INTERVAL_S", "600"))

PERIODIC_TASKS: list[dict] = [
    # Proves beat → worker → database end to end; one row rewritten once a minute (not an event).
    {
        "name": "heartbeat",
        "description": "Proves that beat, the broker, a worker and the database work together: rewrites one heartbeat row (shown on /healthz). Every minute.",
        "task": "rivals.heartbeat",
        "interval_seconds": HEARTBEAT_INTERVAL_S,
    },
    # Retention (settings RIVALS: 48 h of idempotency records, 90 days of rejected intents).
    {
        "name": "idempotency-prune",
        "description": "Deletes Idempotency-Key records older than 48 hours (RIVALS_IDEMPOTENCY_RETENTION_H). Hourly.",
        "task": "rivals.idempotency_prune",
        "interval_seconds": 3600,
    },
    {
        "name": "rejected-intents-prune",
        "description": "Deletes refused-intent records older than 90 days (RIVALS_REJECTED_INTENT_RETENTION_D). Nightly at 04:37 Romanian time.",
        "task": "rivals.rejected_intents_prune",
        "crontab": {"minute": "37", "hour": "4", "timezone": ROMANIA},
    },
    # Issue 26: the event log's monthly partitions are made three months ahead (an append never
    # needs this job: a catch-all partition takes what no month holds). Idempotent; daily.
    {
        "name": "event-partitions",
        "description": "Creates the event log's monthly partitions three months ahead (nothing when they exist; appends never wait for it: a catch-all partition takes what no month holds). Daily at 05:41 Romanian time.",
        "task": "rivals.event_partitions_ensure",
        "crontab": {"minute": "41", "hour": "5", "timezone": ROMANIA},
    },
    # Issue 31: a signed checkpoint of every stream head, outside the database (rivals/eventanchor.py).
    {
        "name": "log-anchor",
        "description": "Checks that the event log extends its latest anchor (no anchored stream gone or rewound, the new events linked), then writes the next anchor — a signed checkpoint of every stream head — outside the database (RIVALS_ANCHOR_DIR). Fails, naming the stream and version, if the log was rewritten. Every RIVALS_ANCHOR_INTERVAL_S seconds (10 minutes by default).",
        "task": "rivals.log_anchor",
        "interval_seconds": ANCHOR_INTERVAL_S,
    },
    # emails whose delivery failed (SMTP down) or was never enqueued (broker down) are retried.
    {
        "name": "emails-retry",
        "description": "Sends the verification and password-reset emails whose delivery failed or was never enqueued (backoff 30 s … 64 min; failed after 8 attempts, listed under Outbound emails). Every minute.",
        "task": "rivals.emails_retry",
        "interval_seconds": 60,
    },
    # P-4: pool games end when their server time runs out, even if the client stopped calling.
    {
        "name": "games-expire-due",
        "description": "Ends Pool games whose server time ran out, even if the player stopped playing. Every 15 seconds.",
        "task": "rivals.games_expire_due",
        "interval_seconds": 15,
    },
    # the safety net of the round clock (and of queue tickets' and duel challenges' expiry):
    # ends every round whose deadline passed even if its scheduled task was lost or the worker died.
    {
        "name": "matches-sweep",
        "description": "Ends competitive rounds whose deadline passed if their own timer task was lost, expires old queue tickets and duel challenges, and pairs the waiting players whose rating window has widened. Every 2 seconds.",
        "task": "matches.sweep",
        "interval_seconds": 2,
    },
    # move the AMR window at Romanian midnight (00:01 Bucharest; never skipped/doubled by DST).
    {
        "name": "rankings-roll",
        "description": "Moves the 365-day AMR window at Romanian midnight: days that left the window leave the totals. Daily at 00:01 Romanian time.",
        "task": "rankings.roll",
        "crontab": {"minute": "1", "hour": "0", "timezone": ROMANIA},
    },
    # hourly catch-up of the same idempotent roll (beat DST bugs, downtime): a no-op when done.
    {
        "name": "rankings-roll-catchup",
        "description": "The same roll again, hourly, in case midnight was missed (downtime, daylight-saving bugs); does nothing when already done. Hourly at :17.",
        "task": "rankings.roll",
        "crontab": {"minute": "17", "hour": "*", "timezone": ROMANIA},
    },
    # R-22…R-26, R-29: tournaments' starts/cancellations, next waves and finalizations that are due
    # (each is also scheduled for its moment on commit; this is the safety net). Cheap when idle.
    {
        "name": "tournaments-sweep",
        "description": "Starts, cancels, seats the next waves of and finalizes tournaments whose moment has come, if their own task was lost. Every 5 seconds.",
        "task": "tournaments.sweep",
        "interval_seconds": 5,
    },
    # recurring schedules create their instances days ahead, in Romanian wall-clock time
    # (hourly at :07 Bucharest; idempotent — one instance per schedule and Romanian date).
    {
        "name": "tournaments-schedules",
        "description": "Creates the coming instances of recurring tournament schedules, in Romanian time. Hourly at :07.",
        "task": "tournaments.schedules_materialize",
        "crontab": {"minute": "7", "hour": "*", "timezone": ROMANIA},
    },
    # API.md "Notifications": tournament_starting, 5 minutes before a tournament (one per tournament).
    {
        "name": "live-tournament-reminders",
        "description": "Tells the players registered for a tournament that it starts within 5 minutes (the tournament_starting notification), once per tournament. Every 30 seconds.",
        "task": "tournaments.reminders",
        "interval_seconds": 30,
    },
    # P-5: pot competitions are ranked and paid once their end time passed.
    {
        "name": "pots-sweep",
        "description": "Ranks and pays pot competitions whose end time passed. Every 15 seconds.",
        "task": "tournaments.pots_sweep",
        "interval_seconds": 15,
    },
    # R-42 (issue 36): the fair-play signals of each rated result, scored by a worker after the
    # result (never in an intent's request); flags for review, never a suspension.
    {
        "name": "fairplay-signals-sweep",
        "description": "Scores the fair-play signals (plan agreement, pace, collusion) of the rated results not scored yet and flags accounts above the thresholds for review. Every 30 seconds.",
        "task": "fairplay.signals_sweep",
        "interval_seconds": 30,
    },
]

# Issue 22: what the terminal shows at DEBUG only (config/logfilters.py) — the sends, receipts and
# successes of the jobs that run every minute or more often, and of the per-moment timers the game
# schedules by the hundred (a round's end, an expiry, a tournament's tick). Their failures, retries
# and everything else keep their level.
ROUTINE_TASKS = frozenset(
    {spec["task"] for spec in PERIODIC_TASKS if spec.get("interval_seconds", 3600) <= 60}
    | {
        "matches.round_end_check",
        "matches.rounds_end_check",
        "matches.queue_ticket_expire",
        "matches.duel_expire",
        "tournaments.tick",
        "tournaments.pot_tick",
    }
)
