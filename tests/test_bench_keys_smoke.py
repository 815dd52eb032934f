"""scripts/bench_keys.py stays runnable: a few of the student's keys, timed and tabled."""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path

SCRIPTS = Path(__file__).resolve().parents[1] / "scripts"


def test_a_few_keys_are_timed_and_tabled(monkeypatch):
    monkeypatch.syspath_prepend(str(SCRIPTS))
    import bench_keys

    monkeypatch.setattr(bench_keys, "QUIET", 0.02)
    out = asyncio.run(bench_keys.run(8, seed=0, profile=None))
    timed = [r for kind, rows in out.items() if not kind.startswith("no key") for r in rows]
    assert len(timed) == 8
    assert all(cpu > 0 and frames >= 1 and drew for cpu, frames, _, drew in timed)
    table = bench_keys.report(out)
    assert table.splitlines()[-1].startswith("all keys")
    sys.modules.pop("bench_keys", None)
