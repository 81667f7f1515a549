"""Issue 37: the reference client's page and files as the app serves them (the fast lane; the
browser plays them in ``test_play_browser``): ``/play/`` is linked from the landing page and
served with its modules; every module it imports is one of its own files; nothing names another
host (it works offline); and every REST call sits in ``api.js``, each under a comment naming the
API.md section it follows."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

STATIC = Path(__file__).resolve().parents[2] / "rivals" / "play" / "static" / "play"
IMPORT = re.compile(r"""(?:from\s+|import\s*\(\s*)["']([^"']+)["']""")


def _modules() -> list[Path]:
    return sorted(STATIC.rglob("*.js"))


@pytest.mark.django_db
def test_the_landing_page_links_to_the_client_and_the_page_is_served_with_its_files(client):
    assert 'href="/play/"' in client.get("/").content.decode()
    page = client.get("/play/")
    assert page.status_code == 200 and page["Content-Type"].startswith("text/html")
    html = page.content.decode()
    assert '<script type="module" src="/static/play/app.js">' in html
    for url in re.findall(r'(?:src|href)="(/static/[^"]+)"', html):
        res = client.get(url)
        assert res.status_code == 200, url
        body = b"".join(res.streaming_content) if res.streaming else res.content
        assert body
    assert client.post("/play/").status_code == 405  # one page, read only
    csp = page["Content-Security-Policy"]  # nothing from another host, no inline script
    assert "default-src 'none'" in csp and "script-src 'self';" in csp and "connect-src 'self' ws://testserver" in csp


def test_every_module_imports_only_the_clients_own_files():
    assert {p.name for p in _modules()} >= {"app.js", "api.js", "live.js", "board.js", "faces.js", "verify.js", "ui.js"}
    for module in _modules():
        for spec in IMPORT.findall(module.read_text()):
            assert spec.startswith(("./", "../")), (module.name, spec)  # no CDN, no bare name
            assert (module.parent / spec).resolve().is_file(), (module.name, spec)


def test_nothing_names_another_host():
    for path in [*STATIC.rglob("*"), *(STATIC.parents[1] / "templates").rglob("*.html")]:
        if path.is_file():
            text = path.read_text()
            assert not re.search(
                r"(?:https?:)?//[a-z0-9.-]+\.[a-z]{2,}", text.replace("http://www.w3.org/2000/svg", "")
            ), path


def test_every_rest_call_is_in_api_js_under_its_section_of_api_md():
    for module in _modules():
        text = module.read_text()
        if module.name != "api.js":
            assert (
                "fetch(" not in text
                and '"/api/v1' not in text
                and "`/api/v1/" not in text.replace("/api/v1/live?ticket", "")
            ), module.name
    api = (STATIC / "api.js").read_text()
    exported = re.findall(r"^export (?:const|async function|function) (\w+)", api, re.M)
    assert len(exported) >= 25
    sections = re.findall(r"^// --- API\.md § ([A-Za-z ]+?) -", api, re.M)
    assert set(sections) >= {"Accounts", "Boards and games", "Matches and rounds", "Sichuan table", "Live updates"}
    calls = re.findall(r"/\*\*[^*]*(?:\*(?!/)[^*]*)*\*/\s*\nexport (?:const|async function) (\w+)", api)
    rest = [n for n in exported if n not in ("SLOT", "randomId", "deviceId", "session", "clockSkewMs", "ApiError")]
    assert set(rest) <= set(calls), set(rest) - set(calls)  # each call under its own comment
