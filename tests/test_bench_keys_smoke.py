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


def test_the_train_lab_key_probe_sees_the_seed_it_stepped(monkeypatch):
    """The bar draws ‹ value › in runs of their own; the probe reads the frame without styles."""
    monkeypatch.syspath_prepend(str(SCRIPTS))
    import bench_train

    times = asyncio.run(bench_train._keys(2, training=False))
    assert len(times) == 2
    assert all(0 < t < 1.0 for t in times)
    sys.modules.pop("bench_train", None)
