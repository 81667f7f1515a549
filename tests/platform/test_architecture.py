"""The house rules of docs/architecture.md, checked on the source (no Django needed): the platform
imports no room, the engine imports nothing of Django, ``rivals`` never imports ``tournaments`` or
``rankings``, there is no import cycle at module level, and no module grows past ~400 lines but
the few named here with their reason."""

from __future__ import annotations

import ast
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PACKAGES = ("rivals", "tournaments", "rankings", "config", "demo")
ROOMS = tuple(
    f"rivals.{room}"
    for room in (
        "accounts",
        "points",
        "daily_bonus",
        "deals",
        "games",
        "matches",
        "sichuan",
        "clubs",
        "fairplay",
        "live",
        "statistics",
        "reports",
        "purchases",
        "periodic",
        "ratings",
    )
)
LONG_MODULES = {
    # the frozen reference solver: kept as it was, to compare the compiled core against
    "rivals/engine/solver_v1.py",
    # cohesive engines: one algorithm each, split only at the cost of reading them
    "rivals/engine/search.py",
    "rivals/sichuan/engine/table.py",
    # the settings: one flat list of what an operator can set, each with its reason, read top to bottom
    "config/settings.py",
}
MAX_LINES = 420


def _modules() -> dict[str, Path]:
    found = {}
    for package in PACKAGES:
        for path in (ROOT / package).rglob("*.py"):
            if "migrations" in path.parts:
                continue
            name = ".".join(path.relative_to(ROOT).with_suffix("").parts)
            found[name.removesuffix(".__init__")] = path
    return found


MODULES = _modules()


def _resolve(name: str) -> str:
    while name and name not in MODULES:
        name = name.rpartition(".")[0]
    return name


def _imports(name: str, path: Path) -> tuple[set[str], set[str]]:
    """(imported at module level, imported anywhere) — project modules only."""
    tree = ast.parse(path.read_text())
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    top_level = {id(node) for node in tree.body}
    top_level |= {id(n) for node in tree.body if isinstance(node, ast.If) for n in node.body}
    top, anywhere = set(), set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parts = package.split(".")
                base = ".".join(parts[: len(parts) - node.level + 1] + ([base] if base else []))
            subs = [f"{base}.{a.name}" for a in node.names]
            names = subs if all(_resolve(s) == s for s in subs) else [*subs, base]
        else:
            continue
        for imported in names:
            target = _resolve(imported)
            if target and target != name:
                anywhere.add(target)
                if id(node) in top_level:
                    top.add(target)
    return top, anywhere


GRAPH = {name: _imports(name, path) for name, path in MODULES.items()}


def _in(module: str, packages) -> bool:
    return any(module == p or module.startswith(p + ".") for p in packages)


def test_the_platform_imports_no_room():
    platform = [m for m in MODULES if _in(m, ("rivals",)) and not _in(m, ROOMS)]
    wrong = sorted((m, t) for m in platform for t in GRAPH[m][1] if _in(t, ROOMS + ("tournaments", "rankings")))
    assert not wrong, wrong


def test_rivals_never_imports_tournaments_or_rankings():
    wrong = sorted(
        (m, t) for m in MODULES if _in(m, ("rivals",)) for t in GRAPH[m][1] if _in(t, ("tournaments", "rankings"))
    )
    assert not wrong, wrong


def test_the_engine_imports_nothing_of_django():
    for name, path in MODULES.items():
        if _in(name, ("rivals.engine",)):
            assert "django" not in path.read_text(), name


def test_no_import_cycle_at_module_level():
    index, low, stack, on, cycles = {}, {}, [], set(), []
    counter = [0]

    def visit(v):
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        for w in GRAPH[v][0]:
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                cycles.append(sorted(component))

    for v in GRAPH:
        if v not in index:
            visit(v)
    assert not cycles, cycles


def test_no_module_past_400_lines_but_the_named_ones():
    sizes = defaultdict(int)
    for path in MODULES.values():
        sizes[str(path.relative_to(ROOT))] = len(path.read_text().splitlines())
    long = sorted(p for p, n in sizes.items() if n > MAX_LINES and p not in LONG_MODULES)
    assert not long, [(p, sizes[p]) for p in long]
