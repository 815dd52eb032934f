"""The scaling experiment draws once per (d_k sweep, keys, trials, seed) and reuses the scores."""

from __future__ import annotations

import numpy as np
import pytest

from attn_tui.compute import scaling
from attn_tui.compute.scaling import forget_scores, scaling_experiment


@pytest.fixture(autouse=True)
def _fresh():
    forget_scores()
    yield
    forget_scores()


def _count_generators(monkeypatch) -> list[int]:
    made: list[int] = []
    real = np.random.default_rng

    def counting(seed=None):
        made.append(seed)
        return real(seed)

    monkeypatch.setattr(scaling.np.random, "default_rng", counting)
    return made


def test_a_new_temperature_reuses_the_draws_and_gives_the_same_numbers(monkeypatch) -> None:
    made = _count_generators(monkeypatch)
    first = scaling_experiment(temperature=1.0)
    warm = scaling_experiment(temperature=2.0)
    assert made == [0]  # one generator, one sweep of draws, for both
    fresh = scaling_experiment(temperature=2.0, reuse=False)
    assert made == [0, 0]
    assert warm == fresh  # identical to the last bit, not merely close
    assert first != warm


@pytest.mark.parametrize("change", [dict(seed=1), dict(n_keys=4), dict(trials=20),
                                    dict(dims=(4, 16)), dict(dtype="float32")])
def test_any_setting_of_the_draws_draws_again(monkeypatch, change: dict) -> None:
    made = _count_generators(monkeypatch)
    base = dict(dims=(4, 16, 64), n_keys=8, trials=50, seed=0)
    scaling_experiment(**base)
    scaling_experiment(**(base | change))
    assert len(made) == 2


def test_a_stopped_run_keeps_nothing(monkeypatch) -> None:
    made = _count_generators(monkeypatch)
    polls = iter([False, True])
    part = scaling_experiment((4, 16, 64), should_stop=lambda: next(polls, True))
    assert [r.d_k for r in part.rows] == [4]
    whole = scaling_experiment((4, 16, 64))
    assert [r.d_k for r in whole.rows] == [4, 16, 64] and len(made) == 2


def test_progress_rises_in_steps_of_at_least_five_percent_to_one() -> None:
    seen: list[float] = []
    scaling_experiment((4, 16, 64, 256, 1024), n_keys=64, trials=50, progress=seen.append)
    assert seen[-1] == 1.0 and len(seen) >= 5
    assert all(b - a >= 0.05 for a, b in zip(seen, seen[1:-1], strict=False))


def test_a_stop_asked_during_a_large_block_is_heard_before_it_ends() -> None:
    polls: list[int] = []

    def stop() -> bool:
        polls.append(1)
        return len(polls) > 3

    part = scaling_experiment((4096,), n_keys=64, trials=500, should_stop=stop)
    assert part.rows == () and len(polls) == 4  # three slices of trials drawn, not 500


def test_draws_taken_a_slice_of_trials_at_a_time_are_the_chapters() -> None:
    whole = np.random.default_rng(5).standard_normal((30, 9 * 64))
    rng = np.random.default_rng(5)
    sliced = np.concatenate([rng.standard_normal((7, 9 * 64)) for _ in range(4)]
                            + [rng.standard_normal((2, 9 * 64))])
    np.testing.assert_array_equal(whole, sliced)


@pytest.mark.parametrize("temperature", [0.01, 1.0, 25.0])
@pytest.mark.parametrize("backend, dtype, tol", [("numpy", "float64", 1e-12),
                                                 ("numpy", "float32", 2e-5),
                                                 ("torch", "float64", 1e-12)])
def test_the_table_is_softmax_then_entropy_one_d_k_at_a_time(temperature, backend, dtype,
                                                              tol) -> None:
    # scaling_rows reads entropy and the top weight off the shifted scores, never forming α:
    # held here against α formed row by row with the app's softmax and entropy_bits
    if backend == "torch":
        pytest.importorskip("torch")
    from attn_tui.compute.backend import to_numpy
    from attn_tui.compute.softmax import entropy_bits, softmax

    dims, keys, trials = (4, 64, 1024), 8, 40
    result = scaling_experiment(dims, keys, trials, 3, temperature=temperature,
                                backend=backend, dtype=dtype)
    blocks = scaling.kept_scores(dims, keys, trials, 3, backend=backend, dtype=dtype)
    for row, block in zip(result.rows, blocks, strict=True):
        s = to_numpy(block).astype(np.float64) / temperature
        for scaled, (h, top) in enumerate(((row.entropy_raw, row.max_alpha_raw),
                                           (row.entropy_scaled, row.max_alpha_scaled))):
            a = softmax(s / np.sqrt(row.d_k) if scaled else s)
            assert h == pytest.approx(np.mean(entropy_bits(a)), abs=tol)
            assert top == pytest.approx(np.mean(np.max(a, axis=-1)), abs=tol)
            assert h >= 0.0 and not (h == 0 and np.signbit(h))
        assert row.sd == pytest.approx(np.mean(np.std(to_numpy(block), axis=-1)), rel=1e-6)


def test_the_lab_and_its_lessons_sweep_d_k_in_steps_of_four_below_the_top():
    from attn_tui.compute.scaling import sweep_up_to

    assert sweep_up_to(1024) == (4, 16, 64, 256, 1024)  # the chapter's sweep
    assert sweep_up_to(4096) == (16, 64, 256, 1024, 4096)  # five at most
    assert sweep_up_to(5) == (1, 5) and sweep_up_to(1) == (1,)
