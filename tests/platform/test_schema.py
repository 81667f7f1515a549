"""The served OpenAPI schema is one a generated client can trust (issue 21): it generates without a
single warning and validates; every operation has a stable, meaningful operationId; every answer
body is typed — no bare object but the documented free-form ones; events are a union on ``type``
with one schema per registered event type; and the docs are served by the app itself."""

from __future__ import annotations

import json
import re
from pathlib import Path

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


def untyped_places(node, where: str = "#") -> list[str]:
    """Every place of the schema that says nothing of its contents: an object with neither
    properties nor a typed ``additionalProperties`` (``false`` counts: nothing more is allowed), an
    ``additionalProperties: {}``, an array without ``items`` (or with ``items: {}``)."""
    found = []
    if isinstance(node, dict):
        kinds = node.get("type") if isinstance(node.get("type"), list) else [node.get("type")]
        composed = {"oneOf", "anyOf", "allOf", "$ref"} & set(node)
        extra = node.get("additionalProperties")
        if "object" in kinds and not composed and not node.get("properties") and not (extra is False or extra):
            found.append(f"{where} (object)")
        if extra == {}:
            found.append(f"{where} (additionalProperties)")
        if "array" in kinds and not node.get("items"):
            found.append(f"{where} (array)")
        for key, value in node.items():
            found += untyped_places(value, f"{where}/{key}")
    elif isinstance(node, list):
        for i, value in enumerate(node):
            found += untyped_places(value, f"{where}/{i}")
    return found


def free_form_on_purpose() -> set[str]:
    """The places ``docs/contract.md`` keeps free-form on purpose, each with its reason (its
    section "Kept free-form on purpose": ``- `#/components/…` — reason``)."""
    text = (Path(__file__).resolve().parents[2] / "docs" / "contract.md").read_text(encoding="utf-8")
    section = text.split("### Kept free-form on purpose", 1)[1].split("\n#", 1)[0]
    return set(re.findall(r"^- `(#/[^`]+)` — \S", section, re.MULTILINE))


def test_the_schema_walk_finds_no_untyped_place(schema):
    """Issue 39: every object and array of the served schema is typed — event data to the last
    array's items, notification data and error details by type and code — but the places
    docs/contract.md keeps free-form on purpose, each with its reason (none today)."""
    found = [place for place in untyped_places(schema) if place.rsplit(" ", 1)[0] not in free_form_on_purpose()]
    assert not found, found
    for method, path, operation in _operations(schema):
        for code, response in operation["responses"].items():
            content = response.get("content", {}).get("application/json")
            if content is not None:
                assert content.get("schema"), (method, path, code)


def test_the_walk_finds_what_is_untyped():
    assert untyped_places({"a": {"type": "object"}, "b": {"type": "array", "items": {}}}) == [
        "#/a (object)",
        "#/b (array)",
    ]
    assert untyped_places({"type": "object", "additionalProperties": {}}) == ["# (object)", "# (additionalProperties)"]
    assert not untyped_places({"type": "object", "properties": {}, "additionalProperties": False})
    assert not untyped_places({"type": ["array", "null"], "items": {"type": "integer"}})


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
