"""Debian's chromium driven by Playwright, for the tests that look at pages in a real browser (the
admin's, the API docs'): one launch per module, screenshots kept in ``.artifacts/<name>/``
(git-ignored; ``RIVALS_ARTIFACTS`` to put them elsewhere). Never ``playwright install``: the
browser is ``apt-get install -y chromium`` (``.ci/run`` does it); without it the module is skipped
(and fails under ``CI=true``)."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

CHROMIUM = "/usr/bin/chromium"
# as on this machine's probe: no background traffic (the network is closed), a fresh profile
ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


def skip_without_chromium() -> None:
    if not os.path.exists(CHROMIUM) and not os.environ.get("CI"):
        pytest.skip(
            "Debian's chromium is not installed (apt-get install -y chromium; .ci/run does it)",
            allow_module_level=True,
        )


def artifacts(name: str) -> Path:
    """A fresh folder for a module's screenshots."""
    root = Path(os.environ.get("RIVALS_ARTIFACTS", Path(__file__).resolve().parents[1] / ".artifacts"))
    folder = root / name
    shutil.rmtree(folder, ignore_errors=True)
    folder.mkdir(parents=True)
    return folder


@pytest.fixture(scope="module")
def browser():
    """One chromium for the module. Playwright's loop shares this thread with the ORM calls of
    the tests (hence DJANGO_ALLOW_ASYNC_UNSAFE while it runs)."""
    from playwright.sync_api import sync_playwright

    before = os.environ.get("DJANGO_ALLOW_ASYNC_UNSAFE")
    os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"
    try:
        with sync_playwright() as p:
            chromium = p.chromium.launch(executable_path=CHROMIUM, headless=True, args=ARGS)
            yield chromium
            chromium.close()
    finally:
        if before is None:
            os.environ.pop("DJANGO_ALLOW_ASYNC_UNSAFE", None)
        else:
            os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = before
