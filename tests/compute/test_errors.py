"""Bad input gets a ValueError (or BackendUnavailable) that says what is wrong."""

from __future__ import annotations

import math
import re
import sys

import numpy as np
import pytest

from attn_tui.compute import (
    BACKENDS,
    DTYPES,
    MASKS,
    BackendUnavailable,
    attend,
    count_params,
    lecture,
    namespace,
    scaling_experiment,
    sequence_cost,
    torch_available,
)

Q = np.ones((2, 3))
K = np.ones((4, 3))
V = np.ones((4, 2))


def test_unknown_mask_names_the_choices() -> None:
    with pytest.raises(ValueError, match="unknown mask 'future'") as info:
        attend(Q, K, V, mask="future")
    for choice in MASKS:
        assert choice in str(info.value)


def test_unknown_backend_names_every_choice() -> None:
    assert set(BACKENDS) == {"numpy", "torch", "array_api_strict"}
    with pytest.raises(ValueError, match="unknown backend 'jax'") as info:
        namespace("jax")
    for choice in BACKENDS:
        assert choice in str(info.value), f"{choice!r} missing from: {info.value}"


@pytest.mark.parametrize(
    "call",
    [
        lambda: attend(Q, K, V, backend="jax"),
        lambda: scaling_experiment((4,), trials=1, backend="jax"),
        lambda: lecture(backend="jax"),
    ],
    ids=["attend", "scaling_experiment", "lecture"],
)
def test_unknown_backend_is_refused_everywhere(call) -> None:
    with pytest.raises(ValueError, match="unknown backend 'jax'; choose one of: numpy"):
        call()


@pytest.mark.parametrize(
    "call",
    [
        lambda: attend(Q, K, V, dtype="float8"),
        lambda: scaling_experiment((4,), trials=1, dtype="float8"),
        lambda: lecture(backend="numpy", dtype="float8"),
    ],
    ids=["attend", "scaling_experiment", "lecture"],
)
def test_unknown_dtype_names_the_choices(call) -> None:
    with pytest.raises(ValueError, match="unknown dtype 'float8'") as info:
        call()
    for choice in DTYPES:
        assert choice in str(info.value)


def test_dtype_missing_from_a_backend_says_so() -> None:
    with pytest.raises(ValueError, match="float16 is not available"):
        attend(Q, K, V, dtype="float16", backend="array_api_strict")


def test_query_and_key_widths_must_match(backend: str) -> None:
    with pytest.raises(ValueError, match="same width") as info:
        attend(np.ones((2, 3)), np.ones((4, 2)), np.ones((4, 2)), backend=backend)
    assert "(2, 3)" in str(info.value) and "(4, 2)" in str(info.value)


def test_one_query_width_must_match_keys() -> None:
    with pytest.raises(ValueError, match=re.escape("(1, 5)")) as info:
        attend(np.ones(5), K, V)
    assert "(4, 3)" in str(info.value)


def test_keys_and_values_need_the_same_rows(backend: str) -> None:
    with pytest.raises(ValueError, match="one row per key") as info:
        attend(np.ones((2, 3)), np.ones((4, 3)), np.ones((5, 2)), backend=backend)
    assert "(4, 3)" in str(info.value) and "(5, 2)" in str(info.value)


@pytest.mark.parametrize("bad", [math.nan, math.inf, -math.inf], ids=["nan", "inf", "-inf"])
@pytest.mark.parametrize("which", ["Q", "K", "V"])
def test_non_finite_input_names_the_matrix(backend: str, which: str, bad: float) -> None:
    arrays = {"Q": Q.copy(), "K": K.copy(), "V": V.copy()}
    arrays[which][1, 0] = bad
    for every_stage in (True, False):
        with pytest.raises(ValueError, match=rf"^{which} contains .*(nan or inf)"):
            attend(arrays["Q"], arrays["K"], arrays["V"], backend=backend,
                   every_stage=every_stage)


@pytest.mark.parametrize(
    "shapes", [((3,), (2, 2, 2, 3), (2, 2, 2, 1)), ((1, 1, 2, 3), (4, 3), (4, 2))]
)
def test_too_many_axes_are_refused(shapes) -> None:
    q, k, v = (np.ones(s) for s in shapes)
    with pytest.raises(ValueError, match="expected Q as"):
        attend(q, k, v)


def test_non_numbers_are_refused() -> None:
    with pytest.raises(ValueError, match="expected numbers"):
        attend([["a", "b"]], [["c", "d"]], [["e", "f"]])


def test_empty_keys_are_refused() -> None:
    with pytest.raises(ValueError, match="at least one key"):
        attend(np.ones((1, 3)), np.ones((0, 3)), np.ones((0, 2)))


def test_heads_must_divide_the_width() -> None:
    with pytest.raises(ValueError, match="divisible") as info:
        count_params(V=50000, D=512, L=6, h=7, H=2048)
    assert "D = 512" in str(info.value) and "h = 7" in str(info.value)
    # the suggested head counts do divide D
    suggested = re.search(r"fit are (\d+) and (\d+)\)", str(info.value))
    assert suggested is not None
    for h in map(int, suggested.groups()):
        assert 512 % h == 0


@pytest.mark.parametrize(("D", "h", "fit"), [(512, 9, "counts that fit are 8 and 16"),
                                             (512, 7, "counts that fit are 4 and 8"),
                                             (512, 12, "counts that fit are 8 and 16"),
                                             # one past the end: "counts … are 512" read oddly
                                             (512, 600, "count that fits is 512"),
                                             (768, 5, "counts that fit are 4 and 6")])
def test_suggested_head_counts_are_the_ones_just_below_and_above(D, h, fit) -> None:
    """h = 9 with D = 512 suggested 4 and 8 (the two closest), not 8 and 16."""
    with pytest.raises(ValueError, match=rf"nearest head {fit}\)$"):
        count_params(V=100, D=D, L=1, h=h, H=64)


@pytest.mark.parametrize(
    ("kwargs", "needle"),
    [
        (dict(V=0), "V must be at least 1"),
        (dict(L=2.5), "L must be a whole number"),
        (dict(h=True), "h must be a whole number"),
    ],
)
def test_count_params_refuses_non_positive_or_non_integers(kwargs, needle: str) -> None:
    args = dict(V=100, D=64, L=2, h=4, H=128) | kwargs
    with pytest.raises(ValueError, match=needle):
        count_params(**args)


def test_sequence_cost_needs_a_token() -> None:
    with pytest.raises(ValueError, match="at least 1"):
        sequence_cost(0)


@pytest.mark.parametrize(
    ("kwargs", "needle"),
    [
        (dict(n_keys=0), "at least one key"),
        (dict(trials=0), "one trial"),
        (dict(dims=(4, 0)), "at least 1"),
        (dict(temperature=0.0), "temperature"),
    ],
)
def test_scaling_experiment_refuses_bad_settings(kwargs, needle: str) -> None:
    with pytest.raises(ValueError, match=needle):
        scaling_experiment(**({"dims": (4,), "trials": 2} | kwargs))


def test_missing_torch_raises_backend_unavailable(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "torch", None)  # makes `import torch` raise ImportError
    with pytest.raises(BackendUnavailable) as info:
        namespace("torch")
    assert "pip install 'attn-tui[torch]'" in str(info.value)
    assert isinstance(info.value, RuntimeError)
    assert torch_available() is False
    with pytest.raises(BackendUnavailable, match=re.escape("attn-tui[torch]")):
        attend(Q, K, V, backend="torch")
    with pytest.raises(BackendUnavailable, match=re.escape("attn-tui[torch]")):
        lecture(backend="torch")
    # numpy keeps working without torch
    assert attend(Q, K, V).output.shape == (2, 2)


@pytest.mark.parametrize("backend", ["numpy", "torch"])
def test_a_number_too_large_for_float16_is_named_not_called_nan_or_inf(backend) -> None:
    if backend == "torch" and not torch_available():
        pytest.skip("torch is not installed")
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("error")  # numpy's "overflow encountered in cast" printed too
        with pytest.raises(ValueError) as info:
            attend([[1.0, 2.0]], [[1.0, 1.0], [-70000.0, 3.0]], [[1.0], [2.0]], backend=backend,
                   dtype="float16")
    assert str(info.value) == ("K holds -70000, more than float16 holds (at most 65,504): use "
                               "a wider dtype, or smaller numbers")


def test_float16_scores_that_overflow_are_shown_with_no_numpy_warning() -> None:
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("error")  # "overflow encountered in matmul" went to stderr
        steps = attend([[300.0] * 4], [[300.0] * 4, [0.0] * 4], [[1.0], [2.0]], scale=False,
                       dtype="float16")
    assert math.isinf(steps.scores[0, 0]) and math.isnan(steps.weights[0, 0])
