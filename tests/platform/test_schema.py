"""The served OpenAPI schema is one a generated client can trust (issue 21): it generates without a
single warning and validates; every operation has a stable, meaningful operationId; every answer
body is typed — no bare object but the documented free-form ones; events are a union on ``type``
with one schema per registered event type; and the docs are served by the app itself."""

from __future__ import annotations

import json

import pytest
from django.core.management import call_command

from rivals import event_types


@pytest.fixture(scope="module")
def schema():
    from drf_spectacular.generators import SchemaGenerator

    return json.loads(json.dumps(SchemaGenerator().get_schema(request=None, public=True), default=str))


def test_the_schema_generates_without_a_warning_and_validates(tmp_path):
    """drf-spectacular's own check: any warning or error fails (a colliding component name, an
    unnamed enum, an operationId collision …)."""
    call_command("spectacular", "--fail-on-warn", "--validate", "--file", str(tmp_path / "schema.yaml"))


def _operations(schema):
    for path, item in schema["paths"].items():
        for method, operation in item.items():
            if method in ("get", "post", "put", "patch", "delete"):
                yield method, path, operation


def test_every_operation_has_a_stable_name_and_declares_its_errors(schema):
    names = [operation["operationId"] for _, _, operation in _operations(schema)]
    assert len(names) == len(set(names))
    assert not [n for n in names if n.startswith("v1_") or n[-1].isdigit()], names
    for method, path, operation in _operations(schema):
        codes = set(operation["responses"])
        assert {"400", "503"} <= codes, (method, path)
        if method != "get":
            assert {"409"} <= codes, (method, path)
        for code in ("429", "503"):
            if code in codes:
                assert "Retry-After" in operation["responses"][code]["headers"], (method, path, code)


def test_state_changing_operations_declare_the_idempotency_key_and_suspension_where_they_refuse_it(schema):
    for method, path, operation in _operations(schema):
        headers = {p["name"] for p in operation.get("parameters", []) if p["in"] == "header"}
        if method == "post":
            assert "Idempotency-Key" in headers, path
    for path in ("/api/v1/games", "/api/v1/queue", "/api/v1/duels", "/api/v1/sichuan", "/api/v1/daily-bonus/claim"):
        assert "403" in schema["paths"][path]["post"]["responses"], path
    for path in ("/api/v1/games/{game_id}/intents", "/api/v1/rounds/{round_id}/intents"):
        assert "403" in schema["paths"][path]["post"]["responses"], path


def _untyped(node, where: str, found: list) -> None:
    """Objects with nothing said of their contents, outside the documented free-form places."""
    if isinstance(node, dict):
        free_form = "free-form" in node.get("description", "")
        if node.get("type") == "object" and not ({"properties", "additionalProperties", "oneOf"} & set(node)):
            if not free_form:
                found.append(where)
        for key, value in node.items():
            if key == "data" and where.split("/")[-1].endswith("Event"):
                continue  # an event's data: described by its type's component (read from its constructor)
            _untyped(value, f"{where}/{key}", found)
    elif isinstance(node, list):
        for i, value in enumerate(node):
            _untyped(value, f"{where}/{i}", found)


def test_no_answer_body_is_an_untyped_object_but_the_documented_free_form_ones(schema):
    found: list[str] = []
    for name, component in schema["components"]["schemas"].items():
        if name.endswith("Event") and name not in ("Event", "SichuanEvent"):
            continue  # the event types' own components (their nested rows are the constructors')
        _untyped(component, name, found)
    for method, path, operation in _operations(schema):
        for code, response in operation["responses"].items():
            content = response.get("content", {}).get("application/json")
            if content is not None:
                assert content.get("schema"), (method, path, code)
    assert not found, found


def test_events_are_a_union_on_type_with_one_schema_per_registered_event_type(schema):
    union = schema["components"]["schemas"]["Event"]
    assert union["discriminator"]["propertyName"] == "type"
    registered = {entry.name for entry in event_types.registered()}
    assert set(union["discriminator"]["mapping"]) == registered
    removed = schema["components"]["schemas"]["PairRemovedEvent"]["properties"]["data"]
    assert {"tiles", "faces", "play_ms", "interval_ms", "points", "status", "seq"} <= set(removed["required"])
    assert removed["properties"]["record_ms"]["type"] == ["integer", "null"]
    assert "round_id" not in removed["required"]  # only on a round's boards


def test_intent_bodies_are_a_union_on_type(schema):
    body = schema["paths"]["/api/v1/games/{game_id}/intents"]["post"]["requestBody"]["content"]["application/json"]
    union = schema["components"]["schemas"][body["schema"]["$ref"].rsplit("/", 1)[1]]
    assert union["discriminator"]["propertyName"] == "type"
    remove_pair = schema["components"]["schemas"]["RemovePairIntentRequest"]
    assert set(remove_pair["required"]) == {"seq", "type", "tiles"}


@pytest.mark.django_db  # the schema's rate limit counts in the database (config/caches.py)
def test_the_docs_are_served_by_the_app_itself(client):
    page = client.get("/api/docs/")
    assert page.status_code == 200 and b"/static/drf_spectacular_sidecar/swagger-ui-dist/" in page.content
    assert b"cdn" not in page.content.lower()
    assert client.get("/api/redoc/").status_code == 200
    shown = client.get("/api/schema.json")
    assert shown.status_code == 200 and shown["Content-Type"] == "application/json"
    assert b'href="/api/schema.json"' in client.get("/").content
