"""One env-driven settings module (django-environ).

Development needs no configuration: without ``DATABASE_URL`` an embedded PostgreSQL (pgserver)
is started under ``.data/``; without ``CELERY_BROKER_URL`` Celery uses kombu's filesystem
transport. Production sets ``DJANGO_PRODUCTION=1`` and must provide ``DJANGO_SECRET_KEY``
(there is no default then); see ``deploy/README.md``.
"""

from __future__ import annotations

from pathlib import Path

import environ
from django.core.exceptions import ImproperlyConfigured

from config import caches, embedded, keys, periodic, pooler, replica, serving

BASE_DIR = Path(__file__).resolve().parent.parent

env = environ.Env()

PRODUCTION = env.bool("DJANGO_PRODUCTION", default=False)
DEBUG = env.bool("DJANGO_DEBUG", default=False)

if PRODUCTION:
    SECRET_KEY = env.str("DJANGO_SECRET_KEY")  # required in production: no default
else:
    SECRET_KEY = env.str("DJANGO_SECRET_KEY", default="dev-only-insecure-key-not-for-production")

ALLOWED_HOSTS = env.list("DJANGO_ALLOWED_HOSTS", default=["*"] if not PRODUCTION else [])
CSRF_TRUSTED_ORIGINS = env.list("DJANGO_CSRF_TRUSTED_ORIGINS", default=[])

if PRODUCTION:
    # Behind a TLS-terminating proxy (deploy/README.md) that sets X-Forwarded-Proto: https.
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    SECURE_SSL_REDIRECT = env.bool("DJANGO_SECURE_SSL_REDIRECT", default=True)
    SECURE_REDIRECT_EXEMPT = [r"^healthz$"]  # load balancers probe over plain HTTP
    SECURE_HSTS_SECONDS = env.int("DJANGO_SECURE_HSTS_SECONDS", default=31_536_000)
    SECURE_HSTS_INCLUDE_SUBDOMAINS = env.bool("DJANGO_SECURE_HSTS_INCLUDE_SUBDOMAINS", default=True)
    # Decision: the HSTS preload list is opt-in (hard to leave once the domain is listed): the
    # operator sets DJANGO_SECURE_HSTS_PRELOAD=1 for the real domain; until then its check is off.
    SECURE_HSTS_PRELOAD = env.bool("DJANGO_SECURE_HSTS_PRELOAD", default=False)
    if not SECURE_HSTS_PRELOAD:
        SILENCED_SYSTEM_CHECKS = ["security.W021"]
    SESSION_COOKIE_SECURE = True
    CSRF_COOKIE_SECURE = True

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "rest_framework",
    "drf_spectacular",
    "drf_spectacular_sidecar",  # Swagger UI and ReDoc served by the app itself, pinned with the package
    "django_celery_beat",
    "pgtrigger",
    "rivals",
    "rivals.accounts",
    "rivals.points",
    "rivals.deals",
    "rivals.games",
    "rivals.daily_bonus",
    "rivals.sichuan",
    "rivals.matches",
    "rivals.ratings",
    "rivals.clubs",
    "rivals.fairplay",
    "rivals.live",
    "rivals.statistics",
    "rivals.reports",
    "rivals.purchases",
    "rivals.periodic",
    "rivals.play",  # the reference client at /play/ (static files; issue 37)
    "rankings",
    "tournaments",
    "demo",  # manage.py simulate: the demo world (imports the three apps above; nothing imports it)
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "rivals.context.RequestContextMiddleware",
    "rivals.api.middleware.UrlSafetyMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "rivals.api.middleware.DatabaseUnavailableMiddleware",
]

ROOT_URLCONF = "config.urls"
WSGI_APPLICATION = "config.wsgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "config" / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
            ],
        },
    },
]

# --- Database: DATABASE_URL, else the embedded PostgreSQL --------------------------------------
DATABASE_URL = env.str("DATABASE_URL", default="")
if not DATABASE_URL:
    if PRODUCTION:  # never start a development database silently in production
        raise ImproperlyConfigured(
            "DJANGO_PRODUCTION=1 needs DATABASE_URL (the embedded PostgreSQL is for development)"
        )
    DATABASE_URL = embedded.embedded_database_url()
DATABASES = {"default": env.db_url_config(DATABASE_URL)}
DATABASES["default"]["ENGINE"] = "django.db.backends.postgresql"
DATABASES["default"].setdefault("OPTIONS", {})
# Django's own cursors bind parameters client-side and never prepare; the hot path's statements
# (rivals.rawsql.execute_prepared) bind server-side, and psycopg has the server prepare one it has
# run this many times on a connection (Django's default, None, would turn that off).
# "off" (e.g. behind a pooler in transaction mode without prepared-statement support) disables it.
_prepare = env.str("DATABASE_PREPARE_THRESHOLD", default="5")
DATABASES["default"]["OPTIONS"].setdefault("prepare_threshold", None if _prepare == "off" else int(_prepare))
DATABASES["default"]["CONN_MAX_AGE"] = env.int("DATABASE_CONN_MAX_AGE", default=60)
DATABASES["default"]["CONN_HEALTH_CHECKS"] = True
# A pooler in transaction mode in front of the server (DATABASE_POOLER=transaction, PgBouncer): no
# prepared statements nor server-side cursors through it, and what needs a session on
# DATABASE_DIRECT_URL (config/pooler.py, rivals/direct.py)
DATABASE_POOLER, DATABASE_DIRECT_URL = pooler.install(env, DATABASES)
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

# --- Read replica (rivals/replica, docs/operating.md "Read replica"): a streaming replica of DATABASE_URL ---
# Public reads that tolerate lag go there while it is up and at most DATABASE_REPLICA_MAX_LAG_S
# behind (sampled every DATABASE_REPLICA_CHECK_S per process; a failure keeps it out for
# DATABASE_REPLICA_RETRY_S), never a read that follows the caller's own write. Unset: nothing of it
# is installed, every query goes to DATABASE_URL.
DATABASE_REPLICA_URL = env.str("DATABASE_REPLICA_URL", default="")
DATABASE_REPLICA_MAX_LAG_S = env.float("DATABASE_REPLICA_MAX_LAG_S", default=2.0)
DATABASE_REPLICA_CHECK_S = env.float("DATABASE_REPLICA_CHECK_S", default=0.2)
DATABASE_REPLICA_RETRY_S = env.float("DATABASE_REPLICA_RETRY_S", default=5.0)
if DATABASE_REPLICA_URL:
    DATABASE_ROUTERS = replica.install(env, DATABASE_REPLICA_URL, DATABASES, MIDDLEWARE, production=PRODUCTION)

AUTH_USER_MODEL = "rivals.Account"
AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
]

LANGUAGE_CODE = "en-us"
# Romanian time decides days and weeks; all stored instants are UTC.
TIME_ZONE = "Europe/Bucharest"
USE_I18N = True
USE_TZ = True
# The admin's dates: ISO-like, 24-hour, each instant with its zone's name (EET/EEST): config/formats
FORMAT_MODULE_PATH = "config.formats"

STATIC_URL = "static/"
# Admin static files are served by WhiteNoise: in production from STATIC_ROOT (collectstatic at
# build time, deploy/Dockerfile); in development straight from the apps (finders), so there is no
# STATIC_ROOT to collect into — and no "No directory at …/staticfiles/" warning on the first request.
STATIC_ROOT = env.path("DJANGO_STATIC_ROOT", default=str(BASE_DIR / "staticfiles")) if PRODUCTION else None
WHITENOISE_USE_FINDERS = not PRODUCTION

# Request bodies of game clients are small; anything bigger is refused with 413 (API error body).
DATA_UPLOAD_MAX_MEMORY_SIZE = env.int("DATA_UPLOAD_MAX_MEMORY_SIZE", default=64 * 1024)

# --- REST framework --------------------------------------------------------------------------
REST_FRAMEWORK = {
    "DEFAULT_AUTHENTICATION_CLASSES": [
        "rivals.api.authentication.AccountTokenAuthentication",
    ],
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.IsAuthenticated"],
    "DEFAULT_RENDERER_CLASSES": ["rivals.api.renderers.JSONRenderer"],
    # the one place where request bodies are parsed: refuses what cannot be processed or stored
    "DEFAULT_PARSER_CLASSES": ["rivals.api.parsers.JSONParser"],
    "EXCEPTION_HANDLER": "rivals.api.errors.api_exception_handler",
    "DEFAULT_SCHEMA_CLASS": "rivals.api.schema.AutoSchema",
    "DEFAULT_THROTTLE_CLASSES": [
        "rivals.api.throttling.AnonThrottle",
        "rivals.api.throttling.UserThrottle",
    ],
    "DEFAULT_THROTTLE_RATES": {
        "anon": env.str("THROTTLE_ANON", default="600/minute"),
        "user": env.str("THROTTLE_USER", default="6000/minute"),
        # R-36 sign-in and credential emails (rivals/api/throttling.py): per client IP, and per
        # email address and client IP whether it is registered or not (the limit itself reveals
        # nothing, and a stranger's attempts never use up the owner's)
        "login_ip": env.str("THROTTLE_LOGIN_IP", default="30/minute"),
        "login_account": env.str("THROTTLE_LOGIN_ACCOUNT", default="10/hour"),
        "email_send": env.str("THROTTLE_EMAIL_SEND", default="5/hour"),
        # reports per account (rivals/reports/api.py): the review queue is read by people
        "report": env.str("THROTTLE_REPORT", default="20/hour"),
    },
    "UNAUTHENTICATED_USER": "django.contrib.auth.models.AnonymousUser",
}

# The proxies in front of the service (comma-separated addresses or networks, e.g. "10.0.0.5,
# 172.18.0.0/16"): only from a connection of one of them is X-Forwarded-For read, for the client's
# address that rate limits key on (rivals/api/throttling.py). Empty (the default): the header is
# ignored and the connection's address is the client's.
RIVALS_TRUSTED_PROXIES = env.list("RIVALS_TRUSTED_PROXIES", default=[])

# The admin's sign-in page (rivals/accounts/admin_security.py): attempts per client address, and per
# username and client address; refused with 429 beyond.
THROTTLE_ADMIN_LOGIN_IP = env.str("THROTTLE_ADMIN_LOGIN_IP", default="10/minute")
THROTTLE_ADMIN_LOGIN_USER = env.str("THROTTLE_ADMIN_LOGIN_USER", default="5/minute")

# The served OpenAPI schema and its pages (drf-spectacular): config/api_docs.py
from config.api_docs import API_TAG_OF_ROOM, SPECTACULAR_SETTINGS  # noqa: E402, F401 - settings

# Rate limits and mail budgets: a cache every process shares — CACHE_URL (production: Redis), else
# this database's table rivals_cache (config/caches.py)
CACHES = caches.install(env)

# --- Email (R-36: verification and password reset) ---------------------------------------------
# EMAIL_URL: consolemail:// (default: printed by the web process), smtp+tls://user:pass@host:587 …
vars().update(env.email_url("EMAIL_URL", default="consolemail://"))
DEFAULT_FROM_EMAIL = env.str("DEFAULT_FROM_EMAIL", default="Mahjong Rivals <no-reply@localhost>")
PASSWORD_RESET_TIMEOUT = env.int("PASSWORD_RESET_TIMEOUT_S", default=3600)  # a reset code: one hour, once

# --- Celery ----------------------------------------------------------------------------------
CELERY_BROKER_URL = env.str("CELERY_BROKER_URL", default="") or "filesystem://localhost/"
# Time limits and the visibility timeout belong together: a task killed at the hard limit frees
# its message long before the broker's visibility timeout re-delivers it (Redis/SQS: a message
# a worker took and never acknowledged — SIGKILL, OOM — goes back to the queue only then). Jobs
# that may run longer are split into short idempotent chunks (levels: rivals.levels_generate_chunk).
CELERY_TASK_SOFT_TIME_LIMIT = env.int("CELERY_TASK_SOFT_TIME_LIMIT_S", default=240)
CELERY_TASK_TIME_LIMIT = env.int("CELERY_TASK_TIME_LIMIT_S", default=270)
CELERY_VISIBILITY_TIMEOUT = env.int("CELERY_VISIBILITY_TIMEOUT_S", default=300)
if CELERY_BROKER_URL.startswith("filesystem://"):
    import kombu.transport

    # kombu's filesystem transport, with messages renamed into place whole (config/broker.py)
    kombu.transport.TRANSPORT_ALIASES["filesystem"] = "config.broker:Transport"
    _broker_folder = str(embedded.filesystem_broker_folder())
    CELERY_BROKER_TRANSPORT_OPTIONS = {
        "data_folder_in": _broker_folder + "/in",
        "data_folder_out": _broker_folder + "/in",
        "processed_folder": _broker_folder + "/processed",
        "control_folder": _broker_folder + "/control",
        "store_processed": False,
    }
else:
    # Redis: look for abandoned messages every 10 s (kombu's default is a scan every ~100 s)
    CELERY_BROKER_TRANSPORT_OPTIONS = {
        "visibility_timeout": CELERY_VISIBILITY_TIMEOUT,
        "unacked_restore_interval": 10,
        "unacked_restore_throttle": 1,
    }
CELERY_TASK_SERIALIZER = "json"
CELERY_RESULT_SERIALIZER = "json"
CELERY_ACCEPT_CONTENT = ["json"]
CELERY_TASK_IGNORE_RESULT = True
# no result backend keeps results, so nothing expires: beat does not add its own daily
# celery.backend_cleanup (issue 40: a job listed that no one declared)
CELERY_RESULT_EXPIRES = None
CELERY_TASK_ACKS_LATE = True
CELERY_TASK_REJECT_ON_WORKER_LOST = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
CELERY_TIMEZONE = TIME_ZONE
CELERY_ENABLE_UTC = True
# django-celery-beat's schedule, with one active beat at a time: a second beat started by mistake
# waits as a standby on a session advisory lock and sends nothing (config/beat.py)
CELERY_BEAT_SCHEDULER = "config.beat:LeaderScheduler"
CELERY_TASK_ALWAYS_EAGER = env.bool("CELERY_TASK_ALWAYS_EAGER", default=False)
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
DJANGO_CELERY_BEAT_TZ_AWARE = True

# --- Live updates (rivals/live: one WebSocket per client, served by config.asgi) ----------------
# The channel layer that carries the log's ranges from the relay to every ASGI process:
# RIVALS_LIVE_LAYER_URL=redis://host:6379/2 uses channels-redis; unset, PostgreSQL's LISTEN/NOTIFY
# on the database itself (rivals/live/layers.py) — the embedded default needs no Redis.
_live_layer = env.str("RIVALS_LIVE_LAYER_URL", default="")
CHANNEL_LAYERS = {
    "default": {
        "BACKEND": "channels_redis.core.RedisChannelLayer",
        "CONFIG": {"hosts": [_live_layer], "capacity": 1000},
    }
    if _live_layer
    else {"BACKEND": "rivals.live.layers.PostgresChannelLayer", "CONFIG": {"capacity": 1000}}
}

# --- Logging ---------------------------------------------------------------------------------
LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    # config/logfilters.py: a 403 is one line, not a traceback (issue 22); one clock, UTC (issue 40)
    "filters": {"one_line_403": {"()": "config.logfilters.OneLineForbidden"}},
    "formatters": {"utc": {"()": "config.logfilters.UTCFormatter"}},
    "handlers": {"console": {"class": "logging.StreamHandler", "formatter": "utc"}},
    "root": {"handlers": ["console"], "level": env.str("LOG_LEVEL", default="INFO")},
    # pgserver narrates every start/join/exit of the embedded server at INFO: only its problems
    "loggers": {"pgserver": {"level": "WARNING"}, "django.request": {"filters": ["one_line_403"]}},
}

# The load benchmark's floor endpoint (rivals/api/views_floor.py): a bare intent-shaped endpoint
# that tests/perf/load.py measures the real intents against. Off by default; never in production.
RIVALS_BENCH_FLOOR = env.bool("RIVALS_BENCH_FLOOR", default=False)
if RIVALS_BENCH_FLOOR and PRODUCTION:
    raise ImproperlyConfigured("RIVALS_BENCH_FLOOR is a benchmark endpoint: never with DJANGO_PRODUCTION=1")

# the store backend signs its purchase reports (POST /api/v1/purchases) with this secret
# (HMAC-SHA256 of the raw body). Unset, the endpoint answers 503 and records nothing (the store
# retries until it is set): rivals/purchases/api.py.
PURCHASES_WEBHOOK_SECRET = env.str("PURCHASES_WEBHOOK_SECRET", default="")

# --- Game settings ---------------------------------------------------------------------------
RIVALS = {
    # the keys of the log's hash chain and of its anchors (config/keys.py: never in the database)
    "EVENT_CHAIN_KEY": keys.derived(env, "RIVALS_EVENT_CHAIN_KEY", SECRET_KEY),
    "ANCHOR_KEY": keys.derived(env, "RIVALS_ANCHOR_KEY", SECRET_KEY),
    # where the anchors go (production must name it: the job fails saying so), and a full anchor
    # (every head) after this many deltas (the heads changed since the one before)
    "ANCHOR_DIR": env.str("RIVALS_ANCHOR_DIR", default="" if PRODUCTION else str(BASE_DIR / ".data" / "anchors")),
    "ANCHOR_FULL_EVERY": env.int("RIVALS_ANCHOR_FULL_EVERY", default=144),
    # Live updates: how often the relay reads the commit-order horizon (ms), how often an idle relay
    # says where it stands (s), the messages a socket may have waiting before it is closed with
    # 4408, the topics of one socket, and the public URL of the socket (default: the request's host)
    "LIVE_POLL_MS": env.int("RIVALS_LIVE_POLL_MS", default=10),
    "LIVE_HEARTBEAT_S": env.float("RIVALS_LIVE_HEARTBEAT_S", default=1.0),
    "LIVE_QUEUE": env.int("RIVALS_LIVE_QUEUE", default=1000),
    "LIVE_MAX_TOPICS": env.int("RIVALS_LIVE_MAX_TOPICS", default=32),
    "LIVE_MAX_FRAME_BYTES": serving.LIVE_MAX_FRAME_BYTES,  # a client's bigger message: 1009 (config/serving.py)
    "LIVE_URL": env.str("RIVALS_LIVE_URL", default=""),
    # pairs faster than this (play time since the previous pair) are refused as physically
    # impossible. 0 = off, the default, so that scripted clients and integration tests can play at
    # machine speed; production sets it (deploy/docker-compose.yml: 150 ms).
    "MIN_PAIR_INTERVAL_MS": env.int("RIVALS_MIN_PAIR_INTERVAL_MS", default=0),
    # P-4: default time limit of a Pool game (server time).
    "POOL_TIME_LIMIT_S": env.int("RIVALS_POOL_TIME_LIMIT_S", default=600),
    # beat → worker → database liveness (config/periodic.py); /healthz calls it stale after 3 misses
    "HEARTBEAT_INTERVAL_S": periodic.HEARTBEAT_INTERVAL_S,
    # Retention (jobs idempotency-prune, rejected-intents-prune): an Idempotency-Key is for
    # retries of one request, so 48 h; fair-play records feed reviews of recent play, so 90 days.
    "IDEMPOTENCY_RETENTION_H": env.int("RIVALS_IDEMPOTENCY_RETENTION_H", default=48),
    "REJECTED_INTENT_RETENTION_D": env.int("RIVALS_REJECTED_INTENT_RETENTION_D", default=90),
    # Competitive rounds (rivals.matches). Decision: every round is a fresh solvable deal on one
    # of these layouts, chosen reproducibly from the round id (empty = every shipped layout).
    "ROUND_LAYOUTS": env.list("RIVALS_ROUND_LAYOUTS", default=[]),
    # Decision: a queue ticket waits at most this long for a group, then expires (rejoin).
    "QUEUE_TICKET_TTL_S": env.int("RIVALS_QUEUE_TICKET_TTL_S", default=120),
    # a waiting ticket accepts players whose rating μ is within START + GROWTH × seconds
    # waited of its own (Decision: 2 μ at once, 0.5 more a second — the figures of
    # tests/perf/bench_ratings.py), and anyone once it has waited ANYONE_S (R-42: 30 s).
    "QUEUE_WINDOW_START": env.float("RIVALS_QUEUE_WINDOW_START", default=2.0),
    "QUEUE_WINDOW_GROWTH_PER_S": env.float("RIVALS_QUEUE_WINDOW_GROWTH_PER_S", default=0.5),
    "QUEUE_WINDOW_ANYONE_S": env.float("RIVALS_QUEUE_WINDOW_ANYONE_S", default=30.0),
    # Decision: a duel challenge not answered within this time expires.
    "DUEL_TTL_S": env.int("RIVALS_DUEL_TTL_S", default=600),
    # where the links in emails point (the game's web page), and how long a code is valid
    "PUBLIC_URL": env.str("RIVALS_PUBLIC_URL", default="http://127.0.0.1:8000"),
    "EMAIL_TOKEN_MAX_AGE_S": env.int("RIVALS_EMAIL_TOKEN_MAX_AGE_S", default=86_400),
    # Mail budgets per mailbox, whoever asks (rivals/accounts/emails.py; beyond, answered alike, nothing sent)
    "EMAILS_PER_ADDRESS_HOUR": env.int("RIVALS_EMAILS_PER_ADDRESS_HOUR", default=5),  # each kind of code
    "NOTICES_PER_ADDRESS_DAY": env.int("RIVALS_NOTICES_PER_ADDRESS_DAY", default=1),  # "already has an account"
    # R-38 fair-play signals (rivals/fairplay): they flag for an operator's review, they refuse
    # nothing. A board is flagged once FAIRPLAY_FAST_PAIRS of its pairs each came faster than
    # FAIRPLAY_FAST_PAIR_MS after the previous one (Decision: 3 pairs under 250 ms — a human
    # needs two aimed taps per pair); an account once it had more than FAIRPLAY_REFUSED_MAX
    # refused intents inside FAIRPLAY_REFUSED_WINDOW_S; a round intent sent more than
    # FAIRPLAY_ROUND_GRACE_MS before the start or after the end (network latency is not cheating).
    # A guest's device id is its sign-in secret (docs/security.md): clients send 128 random bits
    # or more (a random UUID). A new device id shorter than this, or made of fewer different
    # characters, is refused. Decision: enforced by default in production only — API.md's contract
    # ("same device → same account") names no minimum, and development clients use short ids.
    "DEVICE_ID_MIN_LENGTH": env.int("RIVALS_DEVICE_ID_MIN_LENGTH", default=16 if PRODUCTION else 1),
    "DEVICE_ID_MIN_DISTINCT": env.int("RIVALS_DEVICE_ID_MIN_DISTINCT", default=6 if PRODUCTION else 1),
    "FAIRPLAY_FAST_PAIR_MS": env.int("RIVALS_FAIRPLAY_FAST_PAIR_MS", default=250),
    "FAIRPLAY_FAST_PAIRS": env.int("RIVALS_FAIRPLAY_FAST_PAIRS", default=3),
    "FAIRPLAY_REFUSED_MAX": env.int("RIVALS_FAIRPLAY_REFUSED_MAX", default=30),
    "FAIRPLAY_REFUSED_WINDOW_S": env.int("RIVALS_FAIRPLAY_REFUSED_WINDOW_S", default=600),
    "FAIRPLAY_ROUND_GRACE_MS": env.int("RIVALS_FAIRPLAY_ROUND_GRACE_MS", default=2000),
    # R-42 fair-play signals (issue 36): windows and thresholds of rivals.fairplay.scoring.Thresholds
    # (every field, documented in docs/fairplay.md; the defaults are the ones the benchmark
    # tests/perf/bench_fairplay.py measured). RIVALS_FAIRPLAY_SIGNALS: a JSON object of overrides.
    "FAIRPLAY_SIGNALS": env.json("RIVALS_FAIRPLAY_SIGNALS", default={}),
}
