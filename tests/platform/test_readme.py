"""README's first screen plays (issue 39): the quick start's requests — a guest's sign-in, a game,
one real move — are sent as written, and the answers it shows are the service's."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from rest_framework.test import APIClient

pytestmark = pytest.mark.django_db
README = Path(__file__).resolve().parents[2] / "README.md"


def quick_start() -> str:
    text = README.read_text(encoding="utf-8")
    return text.split("**A first game**", 1)[1].split("```sh", 1)[1].split("```", 1)[0]


def shown(block: str) -> str:
    """The answers the block shows (its ``# →`` comments), as one line of text."""
    lines, answers = block.splitlines(), []
    for i, line in enumerate(lines):
        if line.lstrip().startswith("# →"):
            answers.append(line.split("# →", 1)[1])
            for more in lines[i + 1 :]:
                if not more.startswith("#   "):
                    break
                answers.append(more[1:])
    return re.sub(r"\s+", " ", " ".join(answers))


def fragment(value) -> str:
    return json.dumps(value)[1:-1]  # an object's members as the README writes them


def test_the_readme_quick_start_signs_in_starts_a_game_and_plays_a_real_move():
    block = quick_start()
    bodies = [json.loads(b) for b in re.findall(r"-d '(\{.*?\})'", block)]
    assert [list(b)[0] for b in bodies] == ["device_id", "mode", "seq"]
    client = APIClient()
    guest = client.post("/api/v1/auth/guest", bodies[0], format="json")
    assert guest.status_code == 201 and guest.json()["created"] is True
    client.credentials(HTTP_AUTHORIZATION=f"Token {guest.json()['token']}")
    game = client.post("/api/v1/games", bodies[1], format="json")
    assert game.status_code == 201
    move = client.post(
        f"/api/v1/games/{game.json()['id']}/intents", bodies[2], format="json", HTTP_PREFER="return=minimal"
    )
    assert move.status_code == 200
    answers, board, changed = shown(block), game.json(), move.json()
    assert fragment({"id": 0, "x": 4, "y": 0, "z": 0, "face": "6B", "free": True}) in answers
    assert fragment({"tiles_left": board["tiles_left"]}) in answers
    pair = changed["events"][0]
    assert pair["type"] == "PairRemoved" and fragment({"tiles": bodies[2]["tiles"]}) in answers
    assert fragment({"faces": pair["data"]["faces"]}) in answers
    assert f'"seq": {pair["data"]["seq"]}}}, "recorded_at"' in answers
    for key in ("seq", "score", "status", "tiles", "removed", "tiles_left", "awarded"):
        assert fragment({key: changed[key]}) in answers, key
