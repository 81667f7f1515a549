"""The house rules of docs/architecture.md, checked on the source (Django only to read the stream
prefixes the rooms register): the platform imports no room and names none of their admin pages or streams (the rooms register them), the
engine imports nothing of Django, ``rivals`` never imports ``tournaments`` or ``rankings``, there
is no import cycle at module level, no two rooms depend on each other (function-level imports
included), a room reads another room's models only through its services and selectors, code
that reads events imports the event type names of the rooms' ``events.py`` (never retypes them), and no
module grows past ~400 lines but the few named here with their reason."""

from __future__ import annotations

import ast
import re
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PACKAGES = ("rivals", "tournaments", "rankings", "config", "demo")
# the rooms: every package of ``rivals`` that is a Django app of its own (its ``apps.py``)
ROOMS = tuple(sorted(f"rivals.{path.parent.name}" for path in (ROOT / "rivals").glob("*/apps.py")))
# the layers above ``rivals`` count as rooms for the room rules (cycles, reaching into models)
UPPER = ("tournaments", "rankings")
LONG_MODULES = {
    # the frozen reference solver: kept as it was, to compare the compiled core against
    "rivals/engine/solver_v1.py",
    # cohesive engines: one algorithm each, split only at the cost of reading them
    "rivals/engine/search.py",
    "rivals/sichuan/engine/table.py",
    # the vocabulary of tournaments, pots and schedules: each event type's payload and constructor
    "tournaments/events.py",
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


def _type_only(tree: ast.Module) -> set[int]:
    """The import statements under ``if TYPE_CHECKING:`` (types only: no dependency at run time)."""
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and getattr(node.test, "id", getattr(node.test, "attr", None)) == "TYPE_CHECKING":
            found |= {id(n) for stmt in node.body for n in ast.walk(stmt)}
    return found


def _imports(name: str, path: Path) -> tuple[set[str], set[str]]:
    """(imported at module level, imported anywhere at run time) — project modules only."""
    tree = ast.parse(path.read_text())
    type_only = _type_only(tree)
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
        if id(node) in type_only:
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
    cycles = _cycles(GRAPH, lambda v: GRAPH[v][0])
    assert not cycles, cycles


def test_no_module_past_400_lines_but_the_named_ones():
    sizes = defaultdict(int)
    for path in MODULES.values():
        sizes[str(path.relative_to(ROOT))] = len(path.read_text().splitlines())
    long = sorted(p for p, n in sizes.items() if n > MAX_LINES and p not in LONG_MODULES)
    assert not long, [(p, sizes[p]) for p in long]


def _room(module: str) -> str | None:
    return next((r for r in ROOMS + UPPER if _in(module, (r,))), None)


def _labels() -> set[str]:
    """The app labels of the rooms and the layers above (``label = "…"`` in their ``apps.py``)."""
    labels = set()
    for path in [*(ROOT / "rivals").glob("*/apps.py"), *(ROOT / u / "apps.py" for u in UPPER)]:
        found = [n.value.value for n in ast.walk(ast.parse(path.read_text())) if _assigns(n, "label")]
        labels.add(found[0] if found else path.parent.name)
    return labels


def _assigns(node, name: str) -> bool:
    return (
        isinstance(node, ast.Assign)
        and any(getattr(t, "id", None) == name for t in node.targets)
        and isinstance(node.value, ast.Constant)
    )


def _strings(path: Path) -> list[str]:
    """The string constants of a module, docstrings left out (f-strings: their literal parts)."""
    tree = ast.parse(path.read_text())
    docs = {
        id(node.body[0].value)
        for node in ast.walk(tree)
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef))
        and node.body
        and isinstance(node.body[0], ast.Expr)
        and isinstance(node.body[0].value, ast.Constant)
    }
    return [
        n.value
        for n in ast.walk(tree)
        if isinstance(n, ast.Constant) and isinstance(n.value, str) and id(n) not in docs
    ]


def _stream_prefixes() -> set[str]:
    """The stream ids' prefixes the rooms write: ``f"<prefix>-{…}"`` (``stream_id=…``, a function
    returning one), the account's (the platform's own) left out."""
    written = set()
    for name, path in MODULES.items():
        if not _in(name, ("rivals", *UPPER)):
            continue  # the demo's bots name their devices so
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.JoinedStr) and len(node.values) >= 2:
                head = node.values[0]
                if isinstance(head, ast.Constant) and isinstance(head.value, str):
                    if isinstance(node.values[1], ast.FormattedValue) and _PREFIX.match(head.value):
                        written.add(head.value)
    return written - NOT_STREAMS


_PREFIX = re.compile(r"^[a-z]+(-[a-z]+)*-$")
# f-strings shaped like a stream id that are not one: a closed account's username, a fair-play
# flag's subject (a window of time)
NOT_STREAMS = {"closed-", "window-"}


def test_the_rooms_are_the_apps_of_rivals():
    assert "rivals.games" in ROOMS and "rivals.accounts" in ROOMS and "rivals.engine" not in ROOMS, ROOMS


def test_the_platform_names_no_room_page_and_no_room_stream():
    """The rooms register their admin pages and stream prefixes (``rivals.admin_display.register_pages``,
    ``rivals.admin_base.register_player_streams``): the platform renders what is registered."""
    pages = tuple(f"admin:{label}_" for label in _labels())
    streams = tuple(_stream_prefixes() - {"account-"})
    platform = [m for m in MODULES if _in(m, ("rivals",)) and not _in(m, ROOMS)]
    wrong = sorted(
        (m, text)
        for m in platform
        for text in _strings(MODULES[m])
        if text.startswith(pages) or text.startswith(streams)
    )
    assert not wrong, wrong


def test_every_stream_prefix_written_is_known():
    """The prefixes found in the code: the 18 the rooms register for the admin's links (a new one
    is registered by its room, and named here)."""
    from rivals import admin_display  # the registry the rooms' apps fill (Django is set up by now)

    assert set(admin_display.stream_prefixes()) == _stream_prefixes()
    assert _stream_prefixes() == {
        "account-",
        "game-",
        "round-",
        "match-",
        "queue-",
        "duel-",
        "tournament-",
        "pot-",
        "schedule-",
        "reminder-",
        "club-",
        "sichuan-",
        "points-",
        "daily-bonus-",
        "report-",
        "job-",
        "rating-",
        "fairplay-",
    }


def _room_graph() -> dict[str, dict[str, list[tuple[str, str]]]]:
    graph: dict[str, dict[str, list[tuple[str, str]]]] = defaultdict(lambda: defaultdict(list))
    for module, (_, anywhere) in GRAPH.items():
        room = _room(module)
        for target in anywhere:
            other = _room(target)
            if room and other and other != room:
                graph[room][other].append((module, target))
    return graph


def _cycles(nodes, edges) -> list[list[str]]:
    """The strongly connected components of more than one node (Tarjan)."""
    index, low, stack, on, cycles = {}, {}, [], set(), []
    counter = [0]

    def visit(v):
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        for w in edges(v):
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

    for v in nodes:
        if v not in index:
            visit(v)
    return cycles


def test_no_room_cycle_through_function_level_imports():
    """Rooms depend one way, imports inside functions included (a function-level import hides a
    cycle from the module-level test): what a lower room needs of a higher one, it gets through a
    registry (profile extensions and fields, the player page's parts, account actions, export parts)."""
    graph = _room_graph()
    cycles = _cycles(list(graph), lambda room: list(graph[room]))
    assert not cycles, [(c, {a: {b: graph[a][b][:2] for b in c if b in graph[a]} for a in c}) for c in cycles]


# Where a room still reads another room's models directly, each with its reason (the rule: only
# through the other room's services and selectors). Shrink it; never grow it.
MODEL_READS = {
    # a round's boards are the games room's Game rows, read with the round in one statement (the
    # round end's statement count, tests/perf) and written by the round's intents
    ("rivals.matches.services.round_reads", "rivals.games.models"),
    ("rivals.matches.services.rounds", "rivals.games.models"),
    # fair play reads the refused intents' record (R-38) to flag and to show it (issue 36 works there)
    ("rivals.fairplay.admin", "rivals.games.models"),
    ("rivals.fairplay.services", "rivals.games.models"),
    # R-42's signals (issue 36) read a rated match's rounds and their boards (the deal, the faces)
    # in the worker that scores them, then each board's events from the log
    ("rivals.fairplay.signals", "rivals.games.models"),
    ("rivals.fairplay.signals", "rivals.matches.models"),
}


def test_no_room_reaches_into_another_rooms_models():
    reads = {
        (module, target)
        for module, (_, anywhere) in GRAPH.items()
        for target in anywhere
        if _room(module)
        and _room(target)
        and _room(module) != _room(target)
        and _in(target, (f"{_room(target)}.models",))
    }
    assert reads <= MODEL_READS, sorted(reads - MODEL_READS)


def test_the_matches_services_import_one_another_one_way_function_level_imports_included():
    """Issue 33: a round's end continues its match by an explicit call (``rounds.py`` imports
    ``matches.match_after_round`` at module level); both open rounds through ``round_open.py``,
    so no service of competitive play reaches another that imports it back from inside a function."""
    nodes = [m for m in GRAPH if m.startswith("rivals.matches.services.")]
    cycles = _cycles(nodes, lambda m: [t for t in GRAPH[m][1] if t in nodes])
    assert not cycles, cycles
    assert "rivals.matches.services.matches" in GRAPH["rivals.matches.services.rounds"][0]


# --- event types are named where they are read (issue 33) ---------------------------------------
# Each room's ``events.py`` names its event types once (``CLUB_RENAMED = "ClubRenamed"``, beside
# its ``*_EVENTS`` frozenset); code that reads events imports those names and never retypes the
# string. Tests keep the literals (they test the wire format); migrations are history.
# Code that writes its events as plain dicts and imports nothing of the platform.
EVENT_NAMES_WRITERS = {"rivals.sichuan.engine": "the pure engine emits its events as dicts (no Django, no store)"}
# (reader, owner) pairs where the import rules forbid importing the owner's names.
EVENT_NAMES_UNREACHABLE = {
    ("rivals", "tournaments"): "rivals never imports tournaments",
    ("rivals.accounts", "rivals.fairplay"): "fair play's events are on the account stream; fairplay needs accounts",
}


def _event_type_owners() -> dict[str, str]:
    """Every event type → the package of the ``events.py`` listing it in a ``*_EVENTS`` frozenset
    (spelled there as a string or as a module-level constant, ``PAIR_REMOVED = "PairRemoved"``)."""
    owners = {}
    for name, path in MODULES.items():
        if path.name != "events.py":
            continue
        body = ast.parse(path.read_text()).body
        constants = {
            node.targets[0].id: node.value.value
            for node in body
            if isinstance(node, ast.Assign)
            and isinstance(node.targets[0], ast.Name)
            and isinstance(node.value, ast.Constant)
            and isinstance(node.value.value, str)
        }
        for node in body:
            if isinstance(node, ast.Assign) and getattr(node.targets[0], "id", "").endswith("_EVENTS"):
                for n in ast.walk(node.value):
                    if isinstance(n, ast.Constant) and isinstance(n.value, str):
                        owners[n.value] = name.removesuffix(".events")
                    elif isinstance(n, ast.Name) and n.id in constants:
                        owners[constants[n.id]] = name.removesuffix(".events")
    return owners


def _event_type_literals() -> list[tuple[str, int, str, str]]:
    """(module, line, type, owner) of every event type spelled as a string outside events.py."""
    owners = _event_type_owners()
    found = []
    for name, path in MODULES.items():
        if path.name == "events.py":
            continue
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Constant) and isinstance(node.value, str) and node.value in owners:
                found.append((name, node.lineno, node.value, owners[node.value]))
    return found


def test_event_types_are_imported_where_read_never_retyped():
    assert len(_event_type_owners()) > 100  # the vocabulary was found
    left = []
    for module, line, type_name, owner in _event_type_literals():
        if _in(module, EVENT_NAMES_WRITERS):
            continue
        if any(_in(module, (reader,)) and _in(owner, (o,)) for reader, o in EVENT_NAMES_UNREACHABLE):
            continue
        left.append(f"{module}:{line} {type_name!r} (import it from {owner}.events)")
    assert not left, left
