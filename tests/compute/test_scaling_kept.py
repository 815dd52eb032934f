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


def test_progress_reaches_one_after_the_last_block() -> None:
    seen: list[float] = []
    scaling_experiment((4, 16, 64), trials=10, progress=seen.append)
    assert seen == sorted(seen) and len(seen) == 3 and seen[-1] == 1.0
