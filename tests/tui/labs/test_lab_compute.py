"""The labs' numbers without a screen: precision, heads and the model presets."""

from __future__ import annotations

import math

import numpy as np
import pytest

from attn_tui.compute import count_params, softmax
from attn_tui.compute.heads import heads_inputs, split_heads
from attn_tui.compute.model_presets import MODEL_PRESETS, matching_preset
from attn_tui.compute.precision import (
    MULTIPLIERS,
    allclose_check,
    compare_backends,
    compare_dtypes,
    exact_softmax,
    exp_limit,
    softmax_race,
)

LIMITS = {"float64": 709.78, "float32": 88.72, "float16": 11.09, "bfloat16": 88.72}


# ---- precision: the naive softmax's overflow, the stable one's exactness
@pytest.mark.parametrize("dtype", ["float64", "float32"])
def test_exp_limits_numpy(dtype: str) -> None:
    assert round(exp_limit(dtype), 2) == LIMITS[dtype]


@pytest.mark.parametrize("dtype", ["float16", "bfloat16"])
def test_exp_limits_torch(dtype: str) -> None:
    pytest.importorskip("torch")
    assert round(exp_limit(dtype), 2) == LIMITS[dtype]


@pytest.mark.parametrize(
    ("dtype", "below", "above"),
    [("float64", 709.0, 710.0), ("float32", 88.0, 89.0), ("float16", 10.5, 11.2),
     ("bfloat16", 88.0, 89.0)],
)
def test_naive_softmax_overflows_just_past_the_limit(dtype: str, below: float,
                                                     above: float) -> None:
    if dtype in ("float16", "bfloat16"):
        pytest.importorskip("torch")
    (ok,) = softmax_race(below, dtypes=(dtype,))
    (broken,) = softmax_race(above, dtypes=(dtype,))
    assert math.isfinite(ok.exp_top) and not ok.naive_broken
    assert math.isinf(broken.exp_top) and broken.naive_broken
    assert np.isnan(broken.naive[0])  # inf / inf
    assert np.all(np.isfinite(broken.stable))
    assert broken.stable_error <= broken.eps


def test_float16s_sum_overflows_before_its_largest_exp_does() -> None:
    """At 11, e^11 fits float16 (59,874 < 65,504) but the four exps' sum does not: every
    naive weight was x / inf = 0, and the lab called that softmax fine."""
    pytest.importorskip("torch")
    (row,) = softmax_race(11.0, dtypes=("float16",))
    assert math.isfinite(row.exp_top) and math.isinf(row.exp_sum)
    assert row.naive_broken and row.sum_overflows_alone
    assert np.all(row.naive == 0) and np.all(np.isfinite(row.stable))


@pytest.mark.parametrize("multiplier", MULTIPLIERS)
def test_stable_softmax_is_exact_in_float64(multiplier: float) -> None:
    (row,) = softmax_race(multiplier, dtypes=("float64",))
    assert row.stable_error <= row.eps
    assert abs(float(row.stable.sum()) - 1.0) <= 2 * row.eps
    assert row.naive_broken == (multiplier > 709.78)


def test_stable_softmax_within_eps_in_every_dtype(backend: str) -> None:
    for m in MULTIPLIERS:
        for row in softmax_race(m, backend=backend, dtypes=("float64", "float32")):
            assert row.stable_error <= row.eps, (m, row.dtype)


def test_exact_softmax_matches_the_stable_one() -> None:
    z = (3.0, 1.0, -2.0)
    np.testing.assert_allclose(exact_softmax(z), np.asarray(softmax(np.asarray(z))),
                               rtol=0, atol=1e-16)


def test_dtype_differences_grow_as_precision_falls() -> None:
    rows = {r.dtype: r for r in compare_dtypes(1.0, 0, "numpy")}
    assert rows["float64"].weights == 0
    assert 1e-9 < rows["float32"].weights < 1e-6
    if "float16" in rows:
        assert rows["float32"].weights < rows["float16"].weights < 1e-2
        assert rows["float16"].weights < rows["bfloat16"].weights


def test_float16_inputs_too_large_are_reported_not_raised() -> None:
    pytest.importorskip("torch")
    rows = {r.dtype: r for r in compare_dtypes(100_000, 0, "numpy")}
    assert rows["float16"].error and "overflows float16" in rows["float16"].error
    assert rows["float64"].error is None


def test_numpy_and_torch_agree_to_rounding() -> None:
    pytest.importorskip("torch")
    f64, f32 = compare_backends(1.0, 0)
    assert f64.weights < 1e-14 and f32.weights < 1e-6


@pytest.mark.parametrize("multiplier", [1.0, 100.0])
def test_numpy_and_torch_differ_by_no_more_than_the_snapshots_hold_at_0(multiplier) -> None:
    pytest.importorskip("torch")
    from test_lab_snapshots import KERNEL_ROUNDING

    for row in compare_backends(multiplier, 0):
        bound = KERNEL_ROUNDING[row.dtype] * multiplier
        assert max(row.scores, row.weights, row.output) <= bound, row


def test_the_lectures_allclose_is_false_in_float32_only() -> None:
    pytest.importorskip("torch")
    f32, f64 = allclose_check("float32", "torch"), allclose_check("float64", "torch")
    assert not f32.ok and f64.ok
    assert f32.worst_diff > f32.worst_allowed and f32.largest == pytest.approx(3.2363e-8, 1e-3)


# ---- heads: a reshape of one projection, and no extra parameters
def _reference_heads(x, wq, wk, wv, wo, h):
    q, k, v = x @ wq, x @ wk, x @ wv
    d = x.shape[1] // h
    outs = []
    for i in range(h):
        sl = slice(i * d, (i + 1) * d)
        s = q[:, sl] @ k[:, sl].T / math.sqrt(d)
        a = np.exp(s - s.max(axis=1, keepdims=True))
        outs.append((a / a.sum(axis=1, keepdims=True)) @ v[:, sl])
    concat = np.concatenate(outs, axis=1)
    return concat, concat @ wo


@pytest.mark.parametrize("h", [1, 2, 8])
def test_heads_match_a_plain_reference(backend: str, h: int) -> None:
    inputs = heads_inputs(5, 32, seed=3)
    r = split_heads(*inputs, h, backend=backend)
    concat, out = _reference_heads(*inputs, h)
    np.testing.assert_allclose(r.concat, concat, rtol=1e-12, atol=1e-12)
    np.testing.assert_allclose(r.output, out, rtol=1e-12, atol=1e-12)


def test_output_projection_mixes_every_head() -> None:
    x, wq, wk, wv, wo = heads_inputs(4, 16, seed=1)
    r = split_heads(x, wq, wk, wv, wo, 4)
    d = r.d_k
    by_head = sum(r.heads[i].output @ wo[i * d:(i + 1) * d] for i in range(4))
    np.testing.assert_allclose(r.output, by_head, atol=1e-12)


def test_heads_are_free() -> None:
    inputs = heads_inputs(3, 24, seed=0)
    counts = {h: split_heads(*inputs, h).attention_params for h in (1, 2, 3, 4, 6, 8, 12, 24)}
    assert set(counts.values()) == {4 * 24 * 24}
    r = split_heads(*inputs, 6)
    assert r.h * r.params_per_head == r.attention_params


def test_heads_refuse_a_width_they_cannot_split() -> None:
    with pytest.raises(ValueError, match="does not split into h = 5 heads"):
        split_heads(*heads_inputs(3, 24, seed=0), 5)


def test_each_head_is_a_distribution() -> None:
    r = split_heads(*heads_inputs(6, 64, seed=2), 4, mask="causal")
    for s in r.heads:
        np.testing.assert_allclose(s.row_sums, 1.0, atol=1e-12)
        assert np.all(s.weights[np.triu_indices(6, 1)] == 0)


# ---- model presets: the published counts, accounted for
def test_chapter_preset_is_the_chapter() -> None:
    p = MODEL_PRESETS["chapter"]
    assert p.formula_total == p.accounted == 44_502_016


@pytest.mark.parametrize(("name", "total"), [("bert-base", 109_482_240),
                                             ("gpt2-small", 124_439_808)])
def test_extras_account_for_released_weights(name: str, total: int) -> None:
    p = MODEL_PRESETS[name]
    assert p.accounted == total
    assert f"{total:,}" in p.published


def test_transformer_base_is_near_its_rounded_figure() -> None:
    p = MODEL_PRESETS["transformer-base"]
    assert p.formula_total == count_params(**p.dims).total == 37_846_016
    assert 60e6 < p.accounted < 65e6


def test_matching_preset() -> None:
    assert matching_preset(V=30522, D=768, L=12, h=12, H=3072) == "bert-base"
    assert matching_preset(V=30522, D=768, L=12, h=6, H=3072) is None


def test_scores_too_large_to_store_defeat_even_the_stable_softmax() -> None:
    pytest.importorskip("torch")
    (row,) = softmax_race(70_000, dtypes=("float16",))  # float16 holds at most 65504
    assert math.isinf(row.top)
    assert row.naive_broken and np.isnan(row.stable).any()


def test_one_more_token_keeps_the_earlier_tokens_and_their_causal_weights():
    # T 6 -> 7 redrew every token, so under the causal mask row x2 went from 0.7772 0.2228 to
    # 0.9169 0.0831: it looked as if the new, later token had changed the past
    six = split_heads(*heads_inputs(6, 64, seed=0), 4, mask="causal")
    seven = split_heads(*heads_inputs(7, 64, seed=0), 4, mask="causal")
    x6, *w6 = heads_inputs(6, 64, seed=0)
    x7, *w7 = heads_inputs(7, 64, seed=0)
    np.testing.assert_array_equal(x7[:6], x6)
    for a, b in zip(w6, w7, strict=True):
        np.testing.assert_array_equal(a, b)
    for h6, h7 in zip(six.heads, seven.heads, strict=True):
        np.testing.assert_allclose(np.asarray(h7.weights)[:6, :6], np.asarray(h6.weights),
                                   rtol=0, atol=1e-12)
