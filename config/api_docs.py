"""The served OpenAPI schema's settings (drf-spectacular) and the sections its operations are grouped
in (API.md's): imported by config/settings.py. How the schema is made and proven: docs/contract.md."""

API_TAG_OF_ROOM = {
    "accounts": "Accounts",
    "games": "Boards and games",
    "matches": "Matches and rounds",
    "ratings": "Matches and rounds",
    "tournaments": "Tournaments",
    "daily_bonus": "Daily bonus and rankings",
    "rankings": "Daily bonus and rankings",
    "sichuan": "Sichuan table",
    "live": "Live updates",
    "clubs": "Community",
    "reports": "Community",
    "purchases": "Community",
}
SPECTACULAR_SETTINGS = {
    "TITLE": "Mahjong Rivals API",
    "DESCRIPTION": "Server-authoritative, event-sourced competition backend of Mahjong Rivals.\n\n"
    "**First steps**: `POST /api/v1/auth/guest` with a device id answers a token; send it as "
    "`Authorization: Token <token>`; `POST /api/v1/games` starts a game (its board: every tile with `id`, "
    "`x`, `y`, `z`, `face`, `free`); `POST /api/v1/games/{game_id}/intents` sends a move — every body here "
    "has examples the server accepts (Try it out).\n\n"
    '**Errors**: `{"error": {"code", "message", "details"}}`, `details` typed per `code` '
    "(a stale `seq`'s 409 says the `seq` to resend with). **Times**: UTC, `Z`, microseconds, everywhere. "
    "**Rule ids** (`T-5`, `R-14`, `S-16` …) are defined in the repository's `docs/rules.md`.",
    "VERSION": "1.0.0",
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "REDOC_DIST": "SIDECAR",
    # the system's fonts (no web font fetched: config/templates/drf_spectacular/redoc.html)
    "REDOC_UI_SETTINGS": {
        "theme": {
            "typography": {
                "fontFamily": "system-ui, -apple-system, 'Segoe UI', Roboto, 'Helvetica Neue', Arial, sans-serif",
                "headings": {"fontFamily": "system-ui, -apple-system, 'Segoe UI', Roboto, Arial, sans-serif"},
                "code": {"fontFamily": "ui-monospace, 'SFMono-Regular', Menlo, Consolas, monospace"},
            }
        }
    },
    "SERVE_INCLUDE_SCHEMA": False,
    # the operations grouped as API.md's sections (ReDoc's menu, generated clients' modules): a
    # room's operations take its section (API_TAG_OF_ROOM), a view may name another (``api_tag``)
    "TAGS": [
        {"name": "Accounts", "description": "Sign-in, credentials, your profile and your data (R-36, R-37)"},
        {"name": "Boards and games", "description": "Games, levels, layouts, records (Part T, R-1…R-16, Part P)"},
        {"name": "Matches and rounds", "description": "Queue, Quick Match, Duel, Arena, rounds (R-12…R-20)"},
        {"name": "Tournaments", "description": "Tournaments (R-21…R-29) and pot competitions (P-5)"},
        {"name": "Daily bonus and rankings", "description": "R-30…R-35"},
        {"name": "Sichuan table", "description": "One human against three AIs (Part S)"},
        {"name": "Live updates", "description": "The live socket's ticket and your notifications"},
        {"name": "Community", "description": "Players, clubs, reports (R-37, R-39) and the store's purchases"},
    ],
    "SERVE_PERMISSIONS": ["rest_framework.permissions.AllowAny"],
    "SERVE_AUTHENTICATION": [],
    "COMPONENT_SPLIT_REQUEST": True,
    # 3.1: a nullable object is `oneOf: [$ref, null]`, which every validator and generator reads alike
    # (3.0's `nullable` beside `allOf` is read two ways)
    "OAS_VERSION": "3.1.0",
    # events as a union on `type`, one schema per event type, read from the rooms' constructors
    "POSTPROCESSING_HOOKS": [
        "drf_spectacular.hooks.postprocess_schema_enums",
        "rivals.api.event_schema.events_as_a_union",
        "rivals.api.schema.requests_as_the_server_reads_them",
    ],
    # one name per choice set that appears under the same field name in several components
    "ENUM_NAME_OVERRIDES": {
        "GameIntentType": "rivals.games.services.INTENT_TYPES",
        "SichuanIntentType": "rivals.sichuan.services.INTENT_TYPES",
        "ErrorCode": "rivals.errors.ERROR_CODES",
        "GameStatus": ["playing", "paused", "won", "stuck", "ended"],
        "GameMode": "rivals.games.serializers.GAME_MODES",
        "SoloMode": ["classic", "pool_practice", "single"],
        "QueueMode": ["arena", "quick"],
        "MatchMode": "rivals.matches.serializers.MATCH_MODES",
        "RoundEndReason": "rivals.matches.serializers.END_REASONS",
        "QueueTicketStatus": ["waiting", "matched", "left", "expired"],
        "DuelStatus": ["pending", "accepted", "declined", "cancelled", "expired"],
        "MatchStatus": ["running", "finished"],
        "RoundStatus": ["scheduled", "running", "ended"],
        "SichuanTableStatus": ["playing", "finished"],
        "TournamentStatus": ["cancelled", "finished", "running", "upcoming"],
        "TournamentKind": ["regular", "champions"],
        "TournamentTableStatus": ["playing", "ended"],
        "ClubStatus": ["open", "closed"],
        "PotStatus": ["open", "finished"],
        "PotPhase": ["upcoming", "running", "finished"],
        "PotEntry": ["open", "listed"],
        "ReportStatus": ["open", "dismissed", "upheld"],
        "ReportReason": ["name", "personal_data", "cheating"],
        "PurchaseKind": ["purchase", "refund"],
        "TrophyKind": ["cup", "champions"],
        "MeldType": ["pong", "kong"],
    },
}
