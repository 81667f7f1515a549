"""The docs' examples run (issue 39): every operation of the served schema has words (a summary,
a description) and a tag of API.md's sections; every request body has examples, each a body the
server accepts — replayed here against a live game, round, table, club … as a client would send it
from Swagger UI's "Try it out", never answered 400 — and every documented answer is one the
schema allows (one realistic event, not the union). Values a browser rounds (integers past
2^53) appear nowhere."""

from __future__ import annotations

import hashlib
import hmac
import json

import jsonschema
import pytest
from django.contrib.auth.tokens import default_token_generator
from django.core import signing
from rest_framework.test import APIClient

from rivals.accounts import credentials
from rivals.accounts.emails import RESET_SALT, VERIFY_SALT
from rivals.accounts.examples import EMAIL, PASSWORD
from rivals.api.examples import SOME_ACCOUNT
from rivals.clubs.services import club_found, club_join
from rivals.games.models import Game
from rivals.matches import services as matches
from rivals.models import Account
from tests.contract import served_schema
from tests.factories import device_id_for

pytestmark = pytest.mark.django_db
SECRET = "store-shared-secret"
OPERATIONS = ("get", "post", "put", "patch", "delete")
SECTIONS = {
    "Accounts",
    "Boards and games",
    "Matches and rounds",
    "Tournaments",
    "Daily bonus and rankings",
    "Sichuan table",
    "Live updates",
    "Community",
}


def _operations():
    for path, item in served_schema()["paths"].items():
        for method, operation in item.items():
            if method in OPERATIONS:
                yield path, method, operation


def _request_examples():
    for path, method, operation in _operations():
        content = operation.get("requestBody", {}).get("content", {}).get("application/json")
        for title, example in (content or {}).get("examples", {}).items():
            yield pytest.param(path, method, example["value"], id=f"{operation['operationId']}: {title}")


def _validator(schema: dict) -> jsonschema.Draft202012Validator:
    return jsonschema.Draft202012Validator({**schema, "components": served_schema()["components"]})


def test_every_operation_has_words_a_section_and_its_bodies_examples():
    declared = {tag["name"] for tag in served_schema()["tags"]}
    assert declared == SECTIONS
    for path, method, operation in _operations():
        where = f"{method.upper()} {path}"
        assert operation.get("summary") and len(operation["summary"]) <= 60, where
        assert operation["summary"][0].isupper() and "_" not in operation["summary"], where  # words, not a name
        assert operation.get("description"), where
        assert len(operation["tags"]) == 1 and operation["tags"][0] in SECTIONS, where
        content = operation.get("requestBody", {}).get("content", {}).get("application/json")
        if content is not None:
            examples = content.get("examples", {})
            assert examples, f"{where}: a body without an example"
            validator = _validator(content["schema"])
            for title, example in examples.items():
                errors = [e.message for e in validator.iter_errors(example["value"])]
                assert not errors, (where, title, errors)


def test_documented_answers_are_answers_the_schema_allows_with_one_realistic_event():
    seen = 0
    for path, method, operation in _operations():
        for status, response in operation["responses"].items():
            content = response.get("content", {}).get("application/json", {})
            for title, example in content.get("examples", {}).items():
                errors = [e.message for e in _validator(content["schema"]).iter_errors(example["value"])]
                assert not errors, (method, path, status, title, errors)
                events = example["value"] if isinstance(example["value"], list) else example["value"].get("events", [])
                assert len(events) <= 2, (path, title)  # an example, not the union
                seen += 1
    assert seen >= 6


def _integers(value):
    if isinstance(value, bool):
        return
    if isinstance(value, int):
        yield value
    elif isinstance(value, dict):
        for v in value.values():
            yield from _integers(v)
    elif isinstance(value, list):
        for v in value:
            yield from _integers(v)


def test_no_example_holds_an_integer_a_browser_would_round():
    for path, method, operation in _operations():
        for holder in [operation.get("requestBody", {}), *operation["responses"].values()]:
            for example in holder.get("content", {}).get("application/json", {}).get("examples", {}).values():
                assert all(abs(n) < 2**53 for n in _integers(example["value"])), (method, path)


# --- the replay ------------------------------------------------------------------------------------


class World:
    """A live game for the examples: Ann (signed in, with a verified email and the documented
    password), Bo (another player, a member of Ann's club), and fresh objects per example."""

    def __init__(self):
        self.ann, self.ann_token = self._guest("examples-ann")
        self.bo, _ = self._guest("examples-bo")
        credentials.credentials_add(account=self.ann, email=EMAIL, password=PASSWORD)
        credentials.email_verify(token=self.verify_token())
        self.ann.refresh_from_db()
        self.club = club_found(account=self.ann, name="Examples Club")
        club_join(account=self.bo, club_id=self.club.pk)

    @staticmethod
    def _guest(label):
        res = APIClient().post("/api/v1/auth/guest", {"device_id": device_id_for(label)}, format="json")
        return Account.objects.get(pk=res.json()["account_id"]), res.json()["token"]

    def verify_token(self) -> str:
        return signing.dumps({"a": self.ann.pk, "e": EMAIL}, salt=VERIFY_SALT, compress=True)

    def pending(self) -> str:
        """The code a new address's email carries (a guest who just added it)."""
        guest, _ = self._guest(f"examples-pending-{Account.objects.count()}")
        credentials.credentials_add(account=guest, email=f"pending-{guest.pk}@example.org", password=PASSWORD)
        return signing.dumps({"a": guest.pk, "e": f"pending-{guest.pk}@example.org"}, salt=VERIFY_SALT, compress=True)

    def caller(self, operation_id: str) -> dict:
        """Who sends it: nobody for a sign-in; a guest with no credentials yet for adding them;
        else Ann."""
        if operation_id.startswith("auth_"):
            return {}
        if operation_id == "account_credentials_add":
            return {"HTTP_AUTHORIZATION": f"Token {self._guest(f'examples-new-{Account.objects.count()}')[1]}"}
        return self.auth()

    def reset_token(self) -> str:
        self.ann.refresh_from_db()
        return signing.dumps({"a": self.ann.pk, "t": default_token_generator.make_token(self.ann)}, salt=RESET_SALT)

    def path_value(self, name: str) -> str:
        """A fresh object of Ann's for a path parameter."""
        if name == "game_id":
            return str(
                APIClient().post("/api/v1/games", {"mode": "classic"}, format="json", **self.auth()).json()["id"]
            )
        if name == "round_id":
            matches.queue_join(account=self.ann, mode="quick")
            matches.queue_join(account=self.bo, mode="quick")
            return str(Game.objects.filter(account=self.ann, round_id__isnull=False).latest("started_at").round_id)
        if name == "table_id":
            return APIClient().post("/api/v1/sichuan", {"seed": 7}, format="json", **self.auth()).json()["id"]
        if name == "club_id":
            return str(self.club.pk)
        raise AssertionError(f"no live value for {{{name}}}: teach the replay")

    def auth(self) -> dict:
        return {"HTTP_AUTHORIZATION": f"Token {self.ann_token}"}

    def body(self, operation_id: str, value):
        """The example with what a real client would put there: the code its email carried, a
        real player, club or account where the example names one."""
        if isinstance(value, dict):
            out = {k: self.body(operation_id, v) for k, v in value.items()}
            if "token" in out:
                out["token"] = self.reset_token() if operation_id == "auth_password_reset_confirm" else self.pending()
            return out
        if isinstance(value, list):
            return [self.body(operation_id, v) for v in value]
        if value == SOME_ACCOUNT:
            return self.bo.pk
        if value == f"player:{SOME_ACCOUNT}":
            return f"player:{self.bo.pk}"
        if isinstance(value, str) and value.startswith("club:"):
            return f"club:{self.club.pk}"
        return value


@pytest.fixture
def world(settings):
    settings.PURCHASES_WEBHOOK_SECRET = SECRET
    return World()


@pytest.mark.parametrize(("path", "method", "example"), list(_request_examples()))
def test_every_documented_request_example_is_accepted_by_a_live_game(world, path, method, example):
    operation = served_schema()["paths"][path][method]
    body = world.body(operation["operationId"], example)
    for name in [p["name"] for p in operation.get("parameters", []) if p["in"] == "path"]:
        path = path.replace(f"{{{name}}}", world.path_value(name))
    raw = json.dumps(body).encode()
    headers = world.caller(operation["operationId"])
    if operation["operationId"] == "purchase_record":
        headers = {"HTTP_X_SIGNATURE": "sha256=" + hmac.new(SECRET.encode(), raw, hashlib.sha256).hexdigest()}
    res = getattr(APIClient(), method)(path, data=raw, content_type="application/json", **headers)
    assert res.status_code != 400 and res.status_code < 500, (path, body, res.status_code, res.content[:400])
    if operation["operationId"] in ("game_create", "queue_join", "sichuan_table_create", "auth_guest"):
        assert res.status_code in (200, 201), res.content[:300]  # these examples do what they say
