"""scripts/bench_class.py stays runnable without root or sshd: its students, its table on
made-up numbers, its verdicts, and the hosting guide's Match block it puts in sshd_config."""

from __future__ import annotations

import itertools
import sys
from pathlib import Path

import pytest

SCRIPTS = Path(__file__).resolve().parents[1] / "scripts"


@pytest.fixture(scope="module")
def bench_class():
    sys.path.insert(0, str(SCRIPTS))
    try:
        import bench_class
        import bench_class_host

        yield bench_class, bench_class_host
    finally:
        sys.path.remove(str(SCRIPTS))


def fake(n: int, p50: float, p95: float, rss: int, **extra) -> dict:
    run = {"n": n, "arrived": n, "lost": 0, "stuck": 0, "apps": n, "rss": [rss] * n,
           "rss_sum": rss * n, "cpu": 0.5 * n, "app_cpu": 0.4 * n, "client_cpu": 0.3 * n, "wall": 60.0, "keys": 240 * n, "unanswered": 0,
           "bytes_per_key": 2000.0, "p50": p50, "p95": p95, "max": 2 * p95}
    run.update(extra)
    return run


def test_a_class_within_its_goals_passes_every_row(bench_class):
    bc, _ = bench_class
    heads, rows = bc.table([fake(1, 0.006, 0.012, 55_000), fake(30, 0.009, 0.030, 56_000)])
    assert heads == ["figure", "N = 1", "N = 30", "goal", "verdict"]
    verdicts = {row[0]: row[-1] for row in rows}
    assert verdicts["key → screen change, p50"] == "PASS"
    assert verdicts["key → screen change, p95"] == "PASS"
    assert verdicts["resident memory, sum"] == "PASS"
    assert "MISS" not in verdicts.values()
    p95 = next(row for row in rows if row[0] == "key → screen change, p95")
    assert p95[2] == "30.0 ms (2.50×)"
    assert "| figure | N = 1 | N = 30 | goal | verdict |" in bc.render(heads, rows, True)


def test_a_lost_session_a_slow_tail_or_a_stuck_process_is_a_miss(bench_class):
    bc, _ = bench_class
    _, rows = bc.table([fake(1, 0.006, 0.012, 55_000),
                        fake(30, 0.020, 0.040, 60_000, lost=1, stuck=2)])
    verdicts = {row[0]: row[-1] for row in rows}
    assert verdicts["sessions that drew and stayed"] == "MISS"
    assert verdicts["key → screen change, p50"] == "MISS"
    assert verdicts["key → screen change, p95"] == "MISS"
    assert verdicts["resident memory, sum"] == "MISS"  # 60 MB each against 1.05 × 55
    assert verdicts["processes left after disconnect"] == "MISS"


def test_a_class_where_no_session_drew_passes_nothing_it_did_not_measure(bench_class):
    """Two runs at once took each other's way in (an ACL removed under the other): N = 2 drew
    nothing, and its empty keys and memory rows read PASS beside nan ms."""
    bc, _ = bench_class
    nan = float("nan")
    _, rows = bc.table([fake(1, 0.006, 0.012, 55_000),
                        {**fake(2, nan, nan, 0, arrived=0, lost=2, apps=0, rss_sum=0, keys=0,
                                max=nan, bytes_per_key=nan), "rss": []}])
    verdicts = {row[0]: row[-1] for row in rows if row[-1]}
    assert verdicts == {"sessions that drew and stayed": "MISS",
                        "key → screen change, p50": "MISS", "key → screen change, p95": "MISS",
                        "keys answered / sent": "MISS", "resident memory, sum": "MISS",
                        "processes left after disconnect": "PASS"}


def test_students_are_seeded_and_type_only_keys_that_change_the_screen(bench_class):
    bc, _ = bench_class
    first = list(itertools.islice(bc.student_keys(3), 200))
    assert first == list(itertools.islice(bc.student_keys(3), 200))
    assert first != list(itertools.islice(bc.student_keys(4), 200))
    assert set("".join(first)) <= set("msv][0123456789.\r")


def test_the_account_gets_the_guides_match_block(bench_class):
    _, host = bench_class
    block = host.guide_match_block("attnb1", "/usr/bin/python3 -m attn_tui")
    lines = block.splitlines()
    assert lines[0] == "Match Group attnb1"
    assert "    ForceCommand /usr/bin/python3 -m attn_tui" in lines
    assert "    PermitTTY yes" in lines and "    AllowTcpForwarding no" in lines
