"""scripts/bench.py stays runnable: figure 3 at toy size, and the table on made-up numbers.

The real benchmark takes minutes (`make bench`); this only checks the parts that need no pty and
no app, so a broken import or a renamed field shows up in `make test`.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

SCRIPTS = Path(__file__).resolve().parents[1] / "scripts"


@pytest.fixture(scope="module")
def bench():
    sys.path.insert(0, str(SCRIPTS))
    try:
        import bench
        import bench_common
        import bench_scaling

        yield bench, bench_common, bench_scaling
    finally:
        sys.path.remove(str(SCRIPTS))


FAKE = {
    "first_screen": (0.60, 0.40),
    "numpy_floor": {"t": (0.50, 0.40), "rss": (45_000, 40_000)},
    "lazy_imports": ["attn_tui.lessons", "attn_tui.lessons.loader"],
    "edit": {"bare": 0.002, "t8": 0.005, "t64": 0.007, "t256": 0.020, "t8_burst": 0.030},
    "scaling": {"loop": 0.100, "vectorised": 0.004, "draws": 0.003, "compute_speedup": 97.0,
                "loop_arithmetic": 0.050, "arithmetic": 0.002, "same": True},
    "scaling_lab": {"chapter": 0.009, "chapter_plots": 0.040, "chapter_sweeps": 0,
                    "largest": 0.020, "largest_plots": 0.050, "largest_sweeps": 0},
    "print_all": (0.30, 0.28),
    "memory": (50_000, 40_000),
    "idle": (0.2, 0.1, 10.0),
    "model": {"first": (1.2, 6.0), "load": (0.17, 0.11), "forward": (0.050, 0.040),
              "frame": 0.012, "frame_f64": 0.024, "t_long": 32},
    "train": {"bare": 0.010, "run": 0.0105, "lab": 0.0115, "key_idle": 0.004,
              "key_training": 0.012},
}


def test_scaling_figure_agrees_with_the_chapter_loop_at_toy_size(bench):
    _, _, scaling = bench
    out = scaling.scaling_figure(dims=(4, 16), trials=10, reps=1)
    assert out["same"] is True
    assert out["loop"] > 0 and out["vectorised"] > 0 and out["draws"] > 0


def test_the_lab_answers_a_key_that_needs_no_new_draws_without_drawing(bench):
    import asyncio

    _, _, scaling = bench
    times, plot_times, sweeps = asyncio.run(scaling._lab_answers(2, {}))
    assert len(times) == len(plot_times) == 2 and sweeps == 0
    assert all(0 < t <= p for t, p in zip(times, plot_times, strict=True))


def test_markdown_table_has_every_figure_and_target(bench):
    _, common, _ = bench
    rows = common.build_rows(FAKE)
    table = common.markdown_table(rows)
    for figure, _, target in common.FIGURES.values():
        assert figure.replace("|", "\\|") in table
        assert target in table
    lines = table.splitlines()
    assert len(lines) == 2 + len(common.FIGURES)  # header, rule, one row per figure
    assert all(line.startswith("|") and line.endswith("|") for line in lines)


def test_verdicts_follow_the_targets(bench):
    _, common, _ = bench
    rows = common.build_rows(FAKE)
    assert len(rows) == len(common.FIGURES)  # one row per figure, in the table's order
    verdicts = {key: row.result for key, row in zip(common.FIGURES, rows, strict=True)}
    assert verdicts == {
        "first_screen": "MISS",  # 1.5× against ≤ 1.3×
        "first_screen_numpy": "MISS",  # 1.2× the bare app that imports numpy, against ≤ 1.10×
        "first_screen_floor": "info",
        "lazy_imports": "MISS",  # lessons loaded
        "edit_t8": "info",  # 2.5× the bare app's key
        "edit_frame": "PASS",  # 5 ms, within half of 16.7 ms
        "edit_t64": "info",
        "edit_t256": "MISS",  # 4× against ≤ 3×
        "edit_burst": "info",
        "scaling": "PASS",  # 25× faster, net of the draws
        "scaling_whole": "info",
        "scaling_answer": "PASS",  # 9 ms, within a frame
        "scaling_answer_largest": "MISS",  # 20 ms, over a frame
        "scaling_plots": "info",
        "scaling_draws": "PASS",
        "print_all": "PASS",
        "memory": "PASS",
        "memory_floor": "info",
        "idle": "PASS",  # 0.2 % of a core
        "model_first": "PASS",  # 0.2×
        "model_load": "info",
        "model_forward": "MISS",  # 1.25× against ≤ 1×
        "model_frame": "PASS",  # 12 ms in float32, within 16.7 ms
        "model_frame_f64": "MISS",  # 24 ms in float64, over 16.7 ms
        "train_speed": "MISS",  # 1.15× the bare loop's time per step, against ≤ 1.11×
        "train_key": "MISS",  # 3× against ≤ 2×
    }
    text = common.text_table(rows)
    assert text.count("*** MISS:") == list(verdicts.values()).count("MISS") == 9


def test_bench_parses_its_flags(bench):
    main, _, _ = bench
    with pytest.raises(SystemExit):
        main.main(["--only", "nonsense"])


def test_quartiles_of_the_launch_ratios(bench):
    quartiles = bench[0]._quartiles
    assert quartiles([1.0, 2.0, 3.0, 4.0, 5.0]) == (1.5, 4.5)
    assert quartiles([1.3]) == (1.3, 1.3)


def test_an_edit_over_half_a_frame_misses_even_within_one(bench):
    _, common, _ = bench
    slow = {"edit": {**FAKE["edit"], "t8": 0.009}}  # 9 ms: within 16.7 ms, over 8.3 ms
    row = next(r for r in common.build_rows(slow) if "half a frame" in r.figure)
    assert (row.ratio, row.target, row.result) == ("0.54×", "≤ 0.5×", "MISS")
