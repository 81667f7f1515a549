"""R-1 / R-2: the shipped level table and the generator that made it."""

from __future__ import annotations

import gzip
import hashlib
import statistics

import pytest

from rivals.engine import MAX_LEVEL, deal_from_code, level_generator, level_info, parse_code
from rivals.engine import levels as levels_mod

# sha256 of the rows of levels 1..200 (TSV, one "\n"-terminated line each) as the release before
# the table shipped served them (generated on demand by the version-1 generator), and of the
# whole shipped table (header included): a level never changes.
FIRST_200_SHA256 = "ad90bb61f5d72fc5ac206b957963fa88acba827ff90012c48adbabdfa2726234"
TABLE_SHA256 = "e08f354c806eee34dab59763f22f2ea1f64607c70c2d674a25e8dcdfd9f45536"


def test_r1_level_range_is_1_to_11000():
    assert MAX_LEVEL == 11000
    for bad in (0, -1, 11001, "5", 2.0):
        with pytest.raises(ValueError):
            level_info(bad)


def test_r1_levels_are_deterministic_fixed_codes():
    sample = (1, 2, 10, 999, 10001, 11000)
    first = [level_info(n) for n in sample]
    levels_mod.table.cache_clear()
    again = [level_info(n) for n in sample]
    assert first == again
    for li in first:
        lid, _ = parse_code(li.code)
        assert lid == li.layout
        deal = deal_from_code(li.code)  # a normal, solvable game code
        assert len(deal.plan) * 2 == deal.layout.size
        assert isinstance(li.difficulty, float) and li.difficulty > 0


def test_r1_every_multiple_of_10_is_hard():
    for n in (1, 9, 10, 11, 20, 55, 100, 1230, 10999, 11000):
        assert level_info(n).hard == (n % 10 == 0)


@pytest.mark.parametrize("center", [20, 3020, 10020])
def test_r2_hard_levels_clearly_above_neighbours(center):
    rows = [level_info(n) for n in range(center - 4, center + 5)]
    hard = [r for r in rows if r.hard]
    assert [r.level for r in hard] == [center]
    others = [r.difficulty for r in rows if not r.hard]
    assert hard[0].difficulty > max(others)
    assert hard[0].difficulty >= statistics.mean(others) + 0.5


def test_r2_rolling_mean_rises_with_level():
    # sampled 100-level windows: every 5th level (normal ones, never a multiple of 10);
    # the full table's rolling mean is reported by tests/perf/bench_levels.py
    means = []
    for start in (1, 3001, 6501, 10001):
        window = [level_info(n).difficulty for n in range(start + 2, start + 100, 5)]
        means.append(statistics.mean(window))
    assert means == sorted(means) and len(set(means)) == len(means), means


def test_r2_target_rises_and_layouts_grow():
    targets = [level_generator.target_difficulty(n) for n in range(1, MAX_LEVEL + 1, 250)]
    assert targets == sorted(targets)
    assert level_info(1).layout in ("L08", "L05")
    assert deal_from_code(level_info(10990).code).layout.size >= 120


def test_r2_cli_writes_compact_table(tmp_path):
    out = tmp_path / "levels.tsv"
    assert levels_mod.main(["--from", "9", "--to", "11", "--out", str(out)]) == 0
    lines = out.read_text().splitlines()
    assert lines[0] == "level\tcode\tlayout\thard\tdifficulty"
    rows = [line.split("\t") for line in lines[1:]]
    assert [r[0] for r in rows] == ["9", "10", "11"]
    assert [r[3] for r in rows] == ["0", "1", "0"]
    assert rows[1][1] == level_info(10).code


def test_r1_shipped_table_is_the_frozen_one():
    with gzip.open(levels_mod.TABLE_PATH, "rt", encoding="utf-8") as fh:
        text = fh.read()
    assert hashlib.sha256(text.encode()).hexdigest() == TABLE_SHA256
    rows = levels_mod.table()
    assert len(rows) == MAX_LEVEL and [r.level for r in rows] == list(range(1, MAX_LEVEL + 1))
    first = "".join(levels_mod.format_row(r) + "\n" for r in rows[:200])
    assert hashlib.sha256(first.encode()).hexdigest() == FIRST_200_SHA256
    assert level_info(1) == levels_mod.LevelInfo(1, "MJ1-L08-UBWAMMT", "L08", False, 2.8)
    assert level_info(11000) == levels_mod.LevelInfo(11000, "MJ1-L00-G6DXUX4", "L00", True, 14.75)


def test_r1_first_200_levels_are_what_the_generator_makes():
    """The shipped rows of levels 1..200 are the version-1 generator's output (the levels the
    release before the table served, on demand)."""
    generated = [level_generator.generate_level(n) for n in range(1, 201)]
    assert generated == list(levels_mod.table()[:200])


def test_r1_table_rejects_a_damaged_file():
    good = levels_mod.HEADER + "\n" + "".join(levels_mod.format_row(r) + "\n" for r in levels_mod.table())
    assert levels_mod.parse_table(good) == levels_mod.table()
    lines = good.splitlines()
    for bad in (
        lines[:-1],
        [lines[0], lines[2], lines[1], *lines[3:]],
        [lines[0], lines[1].replace("\t0\t", "\t1\t"), *lines[2:]],
        ["level,code", *lines[1:]],
    ):
        with pytest.raises(ValueError):
            levels_mod.parse_table("\n".join(bad))


def test_r2_cli_check_compares_with_the_shipped_table(capsys):
    assert levels_mod.main(["--from", "1", "--to", "12", "--check"]) == 0
    assert "12 levels generated, 0 differ" in capsys.readouterr().out
