"""Properties of attention that must hold for any input, checked with hypothesis."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays

from attn_tui.compute import (
    Attention,
    attend,
    entropy_bits,
    lecture,
    naive_softmax,
    namespace,
    scaling_experiment,
    softmax,
    to_numpy,
)

SETTINGS = settings(max_examples=30, deadline=None, database=None)


def matrices(rows: int, cols: int, bound: float = 5.0):
    return arrays(
        np.float64, (rows, cols),
        elements=st.floats(-bound, bound, allow_nan=False, allow_infinity=False),
    )


@st.composite
def qkv(draw, bound: float = 5.0, max_t: int = 6, max_d: int = 5):
    """Q (T_q, d), K (T_k, d), V (T_k, d_v) with bounded entries."""
    t_q = draw(st.integers(1, max_t))
    t_k = draw(st.integers(1, max_t))
    d = draw(st.integers(1, max_d))
    d_v = draw(st.integers(1, 4))
    return (
        draw(matrices(t_q, d, bound)), draw(matrices(t_k, d, bound)),
        draw(matrices(t_k, d_v, bound)),
    )


def _torch():
    return pytest.importorskip("torch")


# ---------------------------------------------------------------- weights and masks


@SETTINGS
@given(data=qkv(), mask=st.sampled_from(["none", "causal"]))
def test_weights_rows_sum_to_one(data, mask: str) -> None:
    steps = attend(*data, mask=mask)
    np.testing.assert_allclose(steps.row_sums, 1.0, rtol=0, atol=1e-12)
    np.testing.assert_allclose(steps.weights.sum(axis=-1), 1.0, rtol=0, atol=1e-12)
    assert np.all(steps.weights >= 0)
    np.testing.assert_allclose(steps.lost, 0.0, atol=1e-12)


@SETTINGS
@given(data=qkv(), mask=st.sampled_from(["none", "causal", "causal-after"]))
def test_blocked_cells_are_exactly_zero(data, mask: str) -> None:
    steps = attend(*data, mask=mask)
    t_q, t_k = steps.weights.shape
    expected = np.arange(t_k)[None, :] > np.arange(t_q)[:, None]
    if mask == "none":
        expected = np.zeros_like(expected)
    np.testing.assert_array_equal(steps.blocked, expected)
    assert np.all(steps.weights[steps.blocked] == 0.0)
    # masked is what the softmax receives: the future hidden from it only when masked first
    hidden = steps.blocked if mask == "causal" else np.zeros_like(steps.blocked)
    assert np.all(steps.masked[hidden] == -np.inf)
    assert np.all(steps.exp[hidden] == 0.0)
    np.testing.assert_array_equal(steps.masked[~hidden], steps.scaled[~hidden])
    with np.errstate(over="ignore"):
        np.testing.assert_array_equal(steps.exp, np.exp(steps.masked))
    np.testing.assert_allclose(steps.max_entropy, np.log2((~steps.blocked).sum(axis=-1)))


@SETTINGS
@given(S=st.integers(2, 6).flatmap(lambda n: matrices(n, n)), v_cols=st.integers(1, 3))
def test_causal_after_rows_lose_mass_except_the_last(S: np.ndarray, v_cols: int) -> None:
    # scores given directly (Q = S, K = I, unscaled): with |S| <= 5 the future always keeps a
    # share of at least e^-10 / n, far above float64 rounding, so the loss is visible
    n = S.shape[0]
    V = np.ones((n, v_cols))
    after = attend(S, np.eye(n), V, mask="causal-after", scale=False)
    assert np.all(after.row_sums[:-1] < 1.0), after.row_sums
    assert after.row_sums[-1] == pytest.approx(1.0, abs=1e-12)
    full = np.exp(S - S.max(axis=1, keepdims=True))
    full /= full.sum(axis=1, keepdims=True)
    np.testing.assert_allclose(after.row_sums, np.tril(full).sum(axis=1), rtol=1e-12)
    np.testing.assert_allclose(after.lost, np.triu(full, 1).sum(axis=1), atol=1e-12)
    # the kept cells are the unmasked softmax's, not renormalised
    np.testing.assert_allclose(after.weights, np.tril(full), rtol=1e-12, atol=1e-15)
    before = attend(S, np.eye(n), V, mask="causal", scale=False)
    np.testing.assert_allclose(before.row_sums, 1.0, atol=1e-12)


@SETTINGS
@given(t_q=st.integers(1, 12), t_k=st.integers(1, 12))
def test_causal_never_blocks_a_whole_row(t_q: int, t_k: int) -> None:
    steps = attend(np.ones((t_q, 2)), np.ones((t_k, 2)), np.ones((t_k, 1)), mask="causal")
    assert not np.any(steps.blocked.all(axis=-1))
    assert not steps.blocked[:, 0].any()  # key 0 is visible to every query
    assert np.all(np.isfinite(steps.weights))


@pytest.mark.parametrize("backend_name", ["numpy", "array_api_strict", "torch"])
def test_softmax_of_an_all_minus_inf_row_is_zeros(backend_name: str) -> None:
    if backend_name == "torch":
        _torch()
    xp = namespace(backend_name)
    z = xp.asarray([[-math.inf, -math.inf, -math.inf], [0.0, -math.inf, 1.0]], dtype=xp.float64)
    out = to_numpy(softmax(z))
    assert not np.any(np.isnan(out))
    np.testing.assert_array_equal(out[0], [0.0, 0.0, 0.0])
    np.testing.assert_allclose(out[1], [1 / (1 + math.e), 0.0, math.e / (1 + math.e)])


# ---------------------------------------------------------------- symmetry


@SETTINGS
@given(data=qkv(), seed=st.integers(0, 2**32 - 1))
def test_permuting_keys_and_values_together_leaves_the_output(data, seed: int) -> None:
    Q, K, V = data
    perm = np.random.default_rng(seed).permutation(K.shape[0])
    base = attend(Q, K, V)
    shuffled = attend(Q, K[perm], V[perm])
    np.testing.assert_allclose(shuffled.output, base.output, rtol=1e-12, atol=1e-12)
    np.testing.assert_allclose(shuffled.weights, base.weights[:, perm], rtol=1e-12, atol=1e-15)
    np.testing.assert_allclose(shuffled.entropy, base.entropy, rtol=1e-12, atol=1e-12)


# ---------------------------------------------------------------- backends agree


@SETTINGS
@given(data=qkv(bound=2.0), mask=st.sampled_from(["none", "causal", "causal-after"]))
def test_backends_agree_with_numpy(
    backend: str, dtype: str, tolerance: dict[str, float], data, mask: str
) -> None:
    # backend, dtype and tolerance are the session fixtures of tests/conftest.py
    other, tol = backend, tolerance
    ref = attend(*data, mask=mask, dtype=dtype)
    got = attend(*data, mask=mask, dtype=dtype, backend=other)
    assert got.backend == other and got.dtype == dtype
    assert got.weights.dtype == np.dtype(dtype)
    for field in ("scores", "scaled", "weights", "row_sums", "output", "entropy"):
        np.testing.assert_allclose(
            getattr(got, field), getattr(ref, field), **tol, err_msg=f"{other} {dtype} {field}"
        )
    np.testing.assert_array_equal(got.blocked, ref.blocked)


@SETTINGS
@given(
    data=qkv(bound=2.0), mask=st.sampled_from(["none", "causal", "causal-after"]),
    shape=st.sampled_from(["one query", "matrix", "batch"]),
)
def test_only_weights_and_output_are_the_stages_own(
    backend: str, dtype: str, data, mask: str, shape: str
) -> None:
    # every_stage=False is the forward pass's form: the same alpha and output, bit for bit
    Q, K, V = data
    if shape == "one query":
        Q = Q[0]
    elif shape == "batch":
        Q, K, V = (np.stack([a, 2.0 * a]) for a in (Q, K, V))
    full = attend(Q, K, V, mask=mask, dtype=dtype, backend=backend)
    lean = attend(Q, K, V, mask=mask, dtype=dtype, backend=backend, every_stage=False)
    assert isinstance(lean, Attention)
    assert (lean.d_k, lean.mask, lean.backend, lean.dtype) == (full.d_k, mask, backend, dtype)
    for field in ("weights", "output"):
        got, want = getattr(lean, field), getattr(full, field)
        assert isinstance(got, np.ndarray) and got.dtype == want.dtype
        np.testing.assert_array_equal(got, want, err_msg=field)


@pytest.mark.parametrize("backend_name", ["numpy", "array_api_strict", "torch"])
@SETTINGS
@given(z=matrices(3, 5, bound=30.0))
def test_softmax_and_entropy_on_every_backend(backend_name: str, z: np.ndarray) -> None:
    if backend_name == "torch":
        _torch()
    xp = namespace(backend_name)
    p = softmax(xp.asarray(z, dtype=xp.float64))
    expected = np.exp(z - z.max(axis=-1, keepdims=True))
    expected /= expected.sum(axis=-1, keepdims=True)
    np.testing.assert_allclose(to_numpy(p), expected, rtol=1e-12, atol=1e-300)
    h = to_numpy(entropy_bits(p))
    with np.errstate(divide="ignore", invalid="ignore"):
        terms = np.where(expected > 0, expected * np.log2(expected), 0.0)
    np.testing.assert_allclose(h, -terms.sum(axis=-1), rtol=1e-10, atol=1e-12)
    assert np.all(h >= -1e-12) and np.all(h <= np.log2(5) + 1e-12)


def test_array_api_strict_scaling_experiment_matches_numpy() -> None:
    kwargs = dict(dims=(2, 8, 32), n_keys=5, trials=16, seed=3)
    ref = scaling_experiment(**kwargs)
    got = scaling_experiment(**kwargs, backend="array_api_strict")
    assert len(got.rows) == 3
    for a, b in zip(got.rows, ref.rows, strict=True):
        assert a.d_k == b.d_k
        for field in ("sd", "entropy_raw", "entropy_scaled", "max_alpha_raw", "max_alpha_scaled"):
            assert getattr(a, field) == pytest.approx(getattr(b, field), rel=1e-12), field


def test_array_api_strict_lecture_matches_numpy() -> None:
    ref = lecture(backend="numpy", dtype="float64", seed=7)
    got = lecture(backend="array_api_strict", dtype="float64", seed=7)
    for field in (
        "x", "bow_loops", "bow_matmul", "bow_softmax", "toy_sum", "toy_avg", "avg_weights",
        "zero_scores_masked", "head_scores", "head_masked", "head_weights", "head_out",
    ):
        np.testing.assert_allclose(getattr(got, field), getattr(ref, field), rtol=1e-12,
                                   atol=1e-14, err_msg=field)
    assert got.allclose_matmul() and got.allclose_softmax()
    assert got.diff_matmul < 1e-12 and got.diff_softmax < 1e-12


# ---------------------------------------------------------------- shapes


@SETTINGS
@given(data=qkv(), mask=st.sampled_from(["none", "causal", "causal-after"]))
def test_one_query_is_the_first_row_of_the_matrix_form(data, mask: str) -> None:
    Q, K, V = data
    single = attend(Q[0], K, V, mask=mask)
    matrix = attend(Q, K, V, mask=mask)
    assert single.weights.shape == (K.shape[0],)
    assert single.output.shape == (V.shape[1],)
    assert single.row_sums.shape == single.entropy.shape == single.max_entropy.shape == ()
    for field in ("scores", "weights", "output", "entropy", "blocked", "max_entropy"):
        np.testing.assert_allclose(getattr(single, field), getattr(matrix, field)[0],
                                   rtol=1e-12, atol=1e-15, err_msg=field)


@SETTINGS
@given(
    batch=st.integers(1, 3), t=st.integers(1, 5), d=st.integers(1, 4), d_v=st.integers(1, 3),
    mask=st.sampled_from(["none", "causal", "causal-after"]), seed=st.integers(0, 2**16),
)
def test_batched_queries_match_one_matrix_at_a_time(
    batch: int, t: int, d: int, d_v: int, mask: str, seed: int
) -> None:
    rng = np.random.default_rng(seed)
    Q, K, V = (rng.normal(size=(batch, t, w)) for w in (d, d, d_v))
    steps = attend(Q, K, V, mask=mask)
    assert steps.weights.shape == steps.blocked.shape == (batch, t, t)
    assert steps.output.shape == (batch, t, d_v)
    assert steps.row_sums.shape == steps.entropy.shape == steps.max_entropy.shape == (batch, t)
    for b in range(batch):
        one = attend(Q[b], K[b], V[b], mask=mask)
        for field in ("weights", "output", "entropy", "row_sums", "blocked", "max_entropy"):
            np.testing.assert_allclose(getattr(steps, field)[b], getattr(one, field),
                                       rtol=1e-12, atol=1e-15, err_msg=field)
    # a shared (T, d) key matrix broadcasts against the batch of queries
    shared = attend(Q, K[0], V[0], mask=mask)
    np.testing.assert_allclose(shared.output[0], attend(Q[0], K[0], V[0], mask=mask).output,
                               rtol=1e-12, atol=1e-15)


def test_one_query_against_batched_keys_keeps_the_batch() -> None:
    # documented: a 1-D query drops the T_q axis and a batch adds a leading B axis
    rng = np.random.default_rng(0)
    q, K, V = rng.normal(size=3), rng.normal(size=(2, 5, 3)), rng.normal(size=(2, 5, 4))
    steps = attend(q, K, V)
    assert steps.weights.shape == (2, 5)
    assert steps.output.shape == (2, 4)
    for b in range(2):
        np.testing.assert_allclose(steps.output[b], attend(q, K[b], V[b]).output, rtol=1e-12)


# ---------------------------------------------------------------- against torch


@SETTINGS
@given(
    batch=st.integers(1, 3), t_q=st.integers(1, 6), t_k=st.integers(1, 6),
    d=st.integers(1, 6), d_v=st.integers(1, 5), causal=st.booleans(),
    seed=st.integers(0, 2**16),
)
def test_matches_torch_scaled_dot_product_attention(
    batch: int, t_q: int, t_k: int, d: int, d_v: int, causal: bool, seed: int
) -> None:
    torch = _torch()
    rng = np.random.default_rng(seed)
    Q = rng.normal(size=(batch, t_q, d))
    K = rng.normal(size=(batch, t_k, d))
    V = rng.normal(size=(batch, t_k, d_v))
    expected = torch.nn.functional.scaled_dot_product_attention(
        torch.from_numpy(Q), torch.from_numpy(K), torch.from_numpy(V), is_causal=causal
    ).numpy()
    steps = attend(Q, K, V, mask="causal" if causal else "none", backend="torch")
    np.testing.assert_allclose(steps.output, expected, rtol=1e-10, atol=1e-12)
    np.testing.assert_allclose(attend(Q, K, V, mask="causal" if causal else "none").output,
                               expected, rtol=1e-10, atol=1e-12)


# ---------------------------------------------------------------- softmax and entropy


@pytest.mark.parametrize("backend_name", ["numpy", "array_api_strict", "torch"])
@SETTINGS
@given(big=st.floats(800.0, 1e6), n=st.integers(2, 6))
def test_naive_softmax_overflows_where_softmax_does_not(
    backend_name: str, big: float, n: int
) -> None:
    if backend_name == "torch":
        _torch()
    xp = namespace(backend_name)
    z = xp.asarray([[big - i for i in range(n)]], dtype=xp.float64)  # exp(big) is inf
    with np.errstate(over="ignore", invalid="ignore"):
        naive = to_numpy(naive_softmax(z))
    assert np.any(np.isnan(naive))
    stable = to_numpy(softmax(z))
    assert np.all(np.isfinite(stable))
    assert stable.sum() == pytest.approx(1.0, abs=1e-12)
    expected = np.exp(-np.arange(n)) / np.exp(-np.arange(n)).sum()
    np.testing.assert_allclose(stable[0], expected, rtol=1e-9)


@SETTINGS
@given(n=st.integers(1, 64), data=st.data())
def test_entropy_of_one_hot_is_zero_and_uniform_is_log2_n(n: int, data) -> None:
    hot = data.draw(st.integers(0, n - 1))
    one_hot = np.zeros(n)
    one_hot[hot] = 1.0
    xp = namespace("numpy")
    h = float(to_numpy(entropy_bits(xp.asarray(one_hot))))
    assert h == 0.0 and not math.isnan(h)
    uniform = float(to_numpy(entropy_bits(xp.asarray(np.full(n, 1.0 / n)))))
    assert uniform == pytest.approx(math.log2(n), abs=1e-12)


@pytest.mark.parametrize("backend_name", ["numpy", "array_api_strict", "torch"])
def test_entropy_zero_times_log_zero_is_zero(backend_name: str) -> None:
    if backend_name == "torch":
        _torch()
    xp = namespace(backend_name)
    p = xp.asarray([[1.0, 0.0, 0.0, 0.0], [0.5, 0.5, 0.0, 0.0], [0.25, 0.25, 0.25, 0.25]],
                   dtype=xp.float64)
    h = to_numpy(entropy_bits(p))
    assert not np.any(np.isnan(h))
    np.testing.assert_allclose(h, [0.0, 1.0, 2.0], atol=1e-15)
    # the first causal row sees one key only: certain, 0 bits
    steps = attend(np.ones((3, 2)), np.ones((3, 2)), np.ones((3, 1)), mask="causal",
                   backend=backend_name)
    assert steps.entropy[0] == 0.0
    np.testing.assert_allclose(steps.entropy, np.log2([1, 2, 3]), atol=1e-12)
