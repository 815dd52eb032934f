"""Every tensor the nanoGPT lecture script prints, recomputed by ``lecture()``.

Expected values come from parsing ``shared/seeds/reference/self_attention.txt`` (torch, float32,
seed 1337); each is compared at the 4 decimals torch printed (whole-number tensors exactly).
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import pytest
from reference import LECTURE_PRINTS, PrintedArray, assert_printed

from attn_tui.compute import LectureRun, attend, lecture

pytest.importorskip("torch")


@pytest.fixture(scope="module")
def run() -> LectureRun:
    return lecture(backend="torch", dtype="float32", seed=1337)


def _tril(run: LectureRun) -> np.ndarray:
    # the lecture's tril(ones(T, T)), which it prints; it must agree with the compute layer's
    # causal mask and with where the -inf went
    T = run.tril.shape[0]
    from_mask = (~attend(np.zeros((T, 1)), np.zeros((T, 1)), np.zeros((T, 1)),
                         mask="causal").blocked).astype(np.float64)
    np.testing.assert_array_equal(run.tril, from_mask)
    np.testing.assert_array_equal(run.tril, np.isfinite(run.zero_scores_masked))
    return run.tril


TENSORS: dict[str, Callable[[LectureRun], np.ndarray]] = {
    "x[0]": lambda r: r.x[0],
    "bow_loops[0]": lambda r: r.bow_loops[0],
    "toy_sum": lambda r: r.toy_sum,
    "toy_tril": lambda r: r.toy_tril,
    "toy_avg_weights": lambda r: r.toy_avg_weights,
    "toy_avg": lambda r: r.toy_avg,
    "bow_matmul[0]": lambda r: r.bow_matmul[0],
    "tril": _tril,
    "zero_scores_masked": lambda r: r.zero_scores_masked,
    "avg_weights": lambda r: r.avg_weights,
    "bow_softmax[0]": lambda r: r.bow_softmax[0],
    "head_scores[0]": lambda r: r.head_scores[0],
    "head_masked[0]": lambda r: r.head_masked[0],
    "head_weights[0]": lambda r: r.head_weights[0],
}


def test_every_printed_item_is_checked() -> None:
    checked = set(TENSORS) | {"x.shape", "head_out.shape", "allclose_matmul", "allclose_softmax"}
    assert checked == set(LECTURE_PRINTS)


@pytest.mark.parametrize("name", list(TENSORS))
def test_tensor(run: LectureRun, lecture_ref: dict, name: str) -> None:
    expected = lecture_ref[name]
    assert isinstance(expected, PrintedArray)
    assert_printed(TENSORS[name](run), expected, name)


def test_shapes(run: LectureRun, lecture_ref: dict) -> None:
    assert run.x.shape == lecture_ref["x.shape"] == (4, 8, 2)
    assert run.head_out.shape == lecture_ref["head_out.shape"] == (4, 8, 16)
    assert run.head_size == 16
    assert run.head_x.shape == (4, 8, 32)


def test_allclose_lines_print_false_in_float32(run: LectureRun, lecture_ref: dict) -> None:
    # float32 rounding: the loop of means and the matmul differ by ~3e-8, over atol 1e-8
    assert lecture_ref["allclose_matmul"] is False
    assert lecture_ref["allclose_softmax"] is False
    assert run.allclose_matmul() is lecture_ref["allclose_matmul"]
    assert run.allclose_softmax() is lecture_ref["allclose_softmax"]
    assert 1e-8 < run.diff_matmul < 1e-6
    assert 1e-8 < run.diff_softmax < 1e-6


def test_masked_scores_keep_the_unmasked_scores(run: LectureRun) -> None:
    tril = _tril(run).astype(bool)
    np.testing.assert_array_equal(run.head_masked[:, tril], run.head_scores[:, tril])
    assert np.all(run.head_masked[:, ~tril] == -np.inf)
    np.testing.assert_allclose(run.head_weights.sum(axis=-1), 1.0, rtol=1e-6)
    assert np.all(run.head_weights[:, ~tril] == 0.0)


def test_float64_allclose_is_true() -> None:
    run64 = lecture(backend="torch", dtype="float64", seed=1337)
    assert run64.allclose_matmul() is True
    assert run64.allclose_softmax() is True
    assert run64.diff_matmul < 1e-12 and run64.diff_softmax < 1e-12


def test_float64_uses_the_same_draws(run: LectureRun) -> None:
    run64 = lecture(backend="torch", dtype="float64", seed=1337)
    np.testing.assert_array_equal(run64.x, run.x.astype(np.float64))
    np.testing.assert_allclose(run64.head_weights, run.head_weights, atol=1e-5)


def test_numpy_versions_agree() -> None:
    run_np = lecture(backend="numpy", dtype="float64", seed=1337)
    assert run_np.diff_matmul < 1e-12
    assert run_np.diff_softmax < 1e-12
    assert run_np.allclose_matmul() and run_np.allclose_softmax()
    running_mean = np.tril(np.ones((8, 8))) / np.arange(1, 9)[:, None]
    np.testing.assert_allclose(run_np.avg_weights, running_mean, rtol=1e-12)
    np.testing.assert_allclose(run_np.head_weights.sum(axis=-1), 1.0, rtol=1e-12)
    assert run_np.head_out.shape == (4, 8, 16)


def test_lectures_in_two_threads_draw_the_same_numbers() -> None:
    """The draws use a private generator: concurrent runs (a lesson computes in a thread) must
    not interleave on torch's global one."""
    pytest.importorskip("torch")
    from concurrent.futures import ThreadPoolExecutor

    import numpy as np

    from attn_tui.compute import lecture

    with ThreadPoolExecutor(4) as pool:
        runs = list(pool.map(lambda _: lecture(backend="torch", dtype="float32"), range(8)))
    for run in runs[1:]:
        np.testing.assert_array_equal(run.x, runs[0].x)
        np.testing.assert_array_equal(run.head_weights, runs[0].head_weights)


def test_print_nanogpt_shows_every_tensor_the_lecture_prints(lecture_ref: dict) -> None:
    """`attn-tui print nanogpt --backend torch --dtype float32` reproduces each printed
    tensor: some block of its output holds the same numbers (the 8x8 tril was missing)."""
    pytest.importorskip("torch")
    from attn_tui.report import render

    text = render("nanogpt", backend="torch", dtype="float32")
    blocks: list[list[list[float]]] = [[]]  # runs of lines that are all numbers
    for line in text.splitlines():
        try:
            row = [float(c) for c in line.split()]
        except ValueError:
            row = []
        if row:
            blocks[-1].append(row)
        elif blocks[-1]:
            blocks.append([])
    arrays = [np.array(b) for b in blocks if b and len({len(r) for r in b}) == 1]
    for name in TENSORS:
        want = lecture_ref[name]
        values = want.values if want.values.ndim == 2 else want.values.reshape(1, -1)
        assert any(a.shape == values.shape and np.allclose(a, values, atol=5e-5, rtol=0)
                   for a in arrays), name


@pytest.mark.parametrize("backend", ["numpy", "torch"])
def test_print_nanogpt_explains_an_allclose_only_where_it_prints_false(backend: str) -> None:
    """numpy's draws round both float32 versions within allclose: True, and no note that
    explains a False. torch's do not: each False is explained with its own difference."""
    from attn_tui.report import render

    lines = render("nanogpt", backend=backend, dtype="float32").splitlines()
    said = [i for i, line in enumerate(lines) if "allclose to version 1:" in line]
    assert len(said) == 2
    for i in said:
        close, diff = lines[i].split(": ", 1)[1].split("   largest |difference|: ")
        note = lines[i + 1].strip()
        if close == "True":
            assert not note.startswith("(False only because")
        else:
            assert note.startswith("(False only because") and f"by {diff} at most" in lines[i + 2]
    closes = [lines[i].split(": ", 1)[1].split()[0] for i in said]
    assert closes == (["True", "True"] if backend == "numpy" else ["False", "False"])
