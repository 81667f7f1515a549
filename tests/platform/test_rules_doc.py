"""The rules are in the repository (issue 39): every rule id the code cites — in a test's name
(``test_r14_…``), a comment (``# R-38: …``) or a docstring — is defined in ``docs/rules.md``, so that
a reader of the repository alone can look it up."""

from __future__ import annotations

import io
import re
import tokenize
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SOURCES = ("config", "demo", "rankings", "rivals", "tests", "tournaments")
RULE_ID = re.compile(r"(?<![\w-])([TRPS])-(\d+)([a-z]?)(?![\w-])")
TEST_NAME = re.compile(r"\bdef (test_([trps])(\d+)([a-z]?)_\w*)")
DEFINED = re.compile(r"^- \*\*([TRPS]-\d+[a-z]?)\b", re.MULTILINE)


def defined_ids() -> set[str]:
    return set(DEFINED.findall((ROOT / "docs" / "rules.md").read_text(encoding="utf-8")))


def _python_files():
    for top in SOURCES:
        for path in sorted((ROOT / top).rglob("*.py")):
            if "migrations" not in path.parts and path != Path(__file__).resolve():
                yield path  # (this module's own examples of ids are not citations)


def cited_ids() -> dict[str, set[str]]:
    """``{rule id: {where}}`` for every id cited in a comment, a string or a test's name."""
    cited: dict[str, set[str]] = {}
    for path in _python_files():
        text = path.read_text(encoding="utf-8")
        where = str(path.relative_to(ROOT))
        for token in tokenize.generate_tokens(io.StringIO(text).readline):
            if token.type in (tokenize.COMMENT, tokenize.STRING):
                for letter, number, suffix in RULE_ID.findall(token.string):
                    cited.setdefault(f"{letter}-{number}{suffix}", set()).add(f"{where}:{token.start[0]}")
        for name, letter, number, suffix in TEST_NAME.findall(text):
            cited.setdefault(f"{letter.upper()}-{number}{suffix}", set()).add(f"{where}: {name}")
    return cited


def test_every_rule_id_cited_in_the_code_is_defined_in_docs_rules_md():
    defined = defined_ids()
    undefined = {rule: sorted(places)[:3] for rule, places in cited_ids().items() if rule not in defined}
    assert not undefined, f"cited but not defined in docs/rules.md: {undefined}"


def test_docs_rules_md_defines_every_part_in_order():
    defined = defined_ids()
    for letter, last in (("T", 14), ("R", 42), ("P", 5), ("S", 19)):
        assert {f"{letter}-{n}" for n in range(1, last + 1)} <= defined, letter
    assert {"T-6a", "R-18a"} <= defined


def test_the_check_finds_an_undefined_id(tmp_path):
    """The check itself: a comment citing an id the page lacks is found (``R-99``), a sub-clause
    (``S-16.1``) resolves to its rule, and a hyphenated word that ends like one (``ECDSA-P-256``) is not."""
    assert RULE_ID.findall("# R-99: x") == [("R", "99", "")]
    assert RULE_ID.findall("# S-16.1 Decision") == [("S", "16", "")]
    assert RULE_ID.findall("# R-18a idle") == [("R", "18", "a")]
    assert not RULE_ID.findall("ECDSA-P-256, SHA-256, L-00")
