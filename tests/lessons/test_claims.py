"""What the lessons' words claim, held by numbers: each sentence that says more than a pane shows.

The lessons' own numbers are checked against the seeds in test_replay; these are the claims
around them (why the one-lesson query cannot choose, what a dot product rewards, what the
scaling table's sd is, what softmax-then-mask does to a row) recomputed from the same examples.
"""

from __future__ import annotations

import math

import numpy as np
import pytest

from attn_tui.compute import attend
from attn_tui.compute.params import count_params, sequence_cost
from attn_tui.compute.scaling import CHAPTER_DIMS, scaling_experiment
from attn_tui.core import state


def _steps(ws, q=None, mask=None, backend="numpy", dtype="float64"):
    q = ws.q if q is None else q
    return attend(np.asarray(q, float), ws.k, ws.v, mask=mask or ws.mask, scale=ws.scale,
                  backend=backend, dtype=dtype)


def test_one_its_query_is_undecided_because_it_is_short_not_because_the_keys_agree():
    ws = state.from_preset("one")
    scaled = _steps(ws).scaled[0]
    assert float(scaled.max() - scaled.min()) == pytest.approx(0.18, abs=0.005)
    # the same keys, a longer q along the same line: the entropy falls
    assert float(_steps(ws, [[1, 2, 3]]).entropy[0]) == pytest.approx(1.30, abs=0.005)
    assert float(_steps(ws, [[3, 6, 9]]).entropy[0]) == pytest.approx(0.54, abs=0.005)


def test_one_best_wins_q_dot_k_on_length_while_is_is_the_better_aligned():
    ws = state.from_preset("one")
    q, k = np.asarray(ws.q[0]), np.asarray(ws.k)
    is_, best = k[0], k[2]
    cos = [float(q @ x / np.linalg.norm(q) / np.linalg.norm(x)) for x in (is_, best)]
    assert cos == pytest.approx([0.975, 0.963], abs=0.0005)
    assert [float(np.linalg.norm(x)) for x in (is_, best)] == pytest.approx([0.88, 1.22], abs=0.005)
    assert q @ best > q @ is_  # and yet best scores higher


def test_one_entropy_is_minus_sum_alpha_log2_alpha_and_two_to_it_counts_the_keys():
    s = _steps(state.from_preset("one"))
    alpha = s.weights[0]
    h = -float(np.sum(alpha * np.log2(alpha)))
    assert float(s.entropy[0]) == pytest.approx(h, abs=1e-12)
    assert 2.9 < 2 ** h <= 3  # nearly all three keys share the weight


def _pooled_sd(d: int, n_keys: int = 8, trials: int = 200, seed: int = 0) -> float:
    """The spread of every score of the chapter's draws at d_k = d, not trial by trial."""
    rng = np.random.default_rng(seed)
    for dim in CHAPTER_DIMS:
        draws = rng.standard_normal((trials, dim + n_keys * dim))
        if dim == d:
            q, k = draws[:, :d], draws[:, d:].reshape(trials, n_keys, d)
            return float(np.std(np.einsum("tkd,td->tk", k, q)))
    raise AssertionError(d)


def test_scale_its_sd_column_is_the_spread_over_8_keys_a_tenth_under_root_d_k():
    rows = {row.d_k: row for row in scaling_experiment().rows}
    assert f"{rows[4].sd:.3f}" == "1.756" and f"{rows[1024].sd:.3f}" == "28.591"
    for d in (4, 1024):  # about 10 % under √d_k, where all scores together are √d_k
        assert 0.85 < rows[d].sd / math.sqrt(d) < 0.92
        assert _pooled_sd(d) / math.sqrt(d) == pytest.approx(1, abs=0.02)


def test_scale_a_collapsed_softmax_passes_back_little_gradient_but_not_none():
    top = scaling_experiment().rows[-1].max_alpha_raw  # 0.9611 at d_k = 1024
    alpha = np.array([top, *[(1 - top) / 7] * 7])
    jacobian = np.diag(alpha) - np.outer(alpha, alpha)  # ∂αᵢ/∂sⱼ = αᵢ(δᵢⱼ − αⱼ)
    assert 0 < np.abs(jacobian).max() < 0.04  # against 0.25 at most for an even pair


def test_mask_softmax_then_mask_is_exactly_the_row_sum_times_the_right_rows():
    ws = state.from_preset("mask")
    after, first = _steps(ws, mask="causal-after"), _steps(ws, mask="causal")
    np.testing.assert_allclose(after.weights, after.row_sums[:, None] * first.weights, atol=1e-12)
    np.testing.assert_allclose(after.output, after.row_sums[:, None] * first.output, atol=1e-12)


def test_mask_the_earliest_loses_most_for_this_s_but_not_for_every_s():
    sums = _steps(state.from_preset("mask"), mask="causal-after").row_sums
    assert list(sums) == sorted(sums)  # this S: the earlier, the more lost
    # an S whose first query scores its hidden keys low, its second query high
    other = np.array([[9.0, 0, 0, 0], [0, 0, 5, 5], [0, 0, 0, 0], [0, 0, 0, 0]])
    eye = np.eye(4)
    sums = attend(other, eye, eye, mask="causal-after", scale=False, backend="numpy",
                  dtype="float64").row_sums
    assert sums[0] > sums[1]


def test_mask_with_0_in_place_of_minus_inf_the_lectures_rows_are_an_eighth_everywhere():
    scores = np.zeros((8, 8))  # version 3 of the lecture: Q = K = 0
    future = np.triu(np.ones((8, 8), bool), 1)
    zeroed = np.where(future, 0.0, scores)
    e = np.exp(zeroed)
    np.testing.assert_allclose(e / e.sum(-1, keepdims=True), 1 / 8)
    with np.errstate(invalid="ignore"):  # every key masked: e^−∞ / Σ e^−∞ = 0 / 0
        row = np.exp(np.full(8, -np.inf))
        assert np.isnan(row / row.sum()).all()


def test_params_more_heads_halve_each_heads_share_not_the_blocks_total():
    eight, sixteen = count_params(32000, 512, 6, 8, 2048), count_params(32000, 512, 6, 16, 2048)
    assert eight.attention == sixteen.attention == 4 * 512**2
    assert sixteen.d_k == eight.d_k // 2 == 512 // 16
    assert sixteen.attention // 16 == eight.attention // 8 // 2
    # free in parameters, not in work: each head has its own n × n map
    n2, _ = sequence_cost(512)
    assert 16 * n2 == 2 * 8 * n2 == 2 * 8 * 512**2


def test_nanogpt_t7s_output_is_the_same_whatever_the_order_of_its_past():
    pytest.importorskip("torch")
    from attn_tui.lessons.workspaces import build

    ws = build("lecture-head")
    k, v = np.asarray(ws.k), np.asarray(ws.v)
    out = attend(ws.q, k, v, mask="causal", scale=True, backend="numpy", dtype="float64").output
    perm = np.r_[np.random.default_rng(0).permutation(7), 7]  # shuffle t0 … t6, t7 stays
    # x has no position embeddings: each token's k and v come from its own x row alone
    shuffled = attend(ws.q, k[perm], v[perm], mask="causal", scale=True, backend="numpy",
                      dtype="float64").output
    assert not np.array_equal(perm[:7], np.arange(7))
    np.testing.assert_allclose(shuffled[7], out[7], atol=1e-12)
    assert not np.allclose(shuffled[3], out[3])  # earlier rows see a different past


def test_nanogpt_the_steering_hints_name_the_column_where_t5s_key_stands_out():
    pytest.importorskip("torch")
    from attn_tui.core.state import set_cell
    from attn_tui.lessons import load
    from attn_tui.lessons.workspaces import build

    ws = build("lecture-head", backend="torch")
    task = next(s.task for s in load("nanogpt").steps if s.task and s.task.cell == (5, 4))
    (edit,) = task.solution
    assert edit.target == "Q" and edit.cell[0] == 5
    k = np.asarray(ws.k)[:6]  # the keys t6 (row 5) sees under the causal mask
    margin = [k[4, j] - np.delete(k[:, j], 4).max() for j in range(k.shape[1])]
    j = int(np.argmax(margin))
    assert edit.cell[1] == j and margin[j] > 0.5  # t5 (row 4) stands out there, clearly
    hint = task.hints[1]
    assert f"K's d{j + 1}: t5 has {k[4, j]:.3f}" in hint
    assert f"no other key up to t6 more than {np.delete(k[:, j], 4).max():.3f}" in hint
    assert f"Type {edit.value:g} into Q's t6, d{j + 1}" in hint

    def alpha(x: float) -> float:  # as the workbench computes it: torch, float32
        w = set_cell(ws, "Q", 5, j, x)
        return float(attend(w.q, w.k, w.v, mask="causal", scale=True, backend="torch",
                            dtype="float32").weights[5][4])

    assert alpha(3.6) < 0.5 <= alpha(3.8)  # "from about 3.7 up"
    assert "from about 3.7 up" in hint


def test_real_heads_the_even_heads_are_mostly_in_layer_0_and_one_in_the_last(minilm):
    """Step 3's hint said the even heads were "in the lowest layers": layer 5 head 6 meets the
    task's 3.3 bits too."""
    from attn_tui.lessons.tasks import MODEL_SENTENCE
    from attn_tui.models.summary import summarise_all

    run = minilm.run(MODEL_SENTENCE)
    even = [(s.layer, s.head) for row in summarise_all(run.weights) for s in row
            if round(s.entropy, 4) >= 3.3]
    assert [h for h in even if h[0] == 0] == [(0, 0), (0, 1), (0, 3)]  # the hint's "most"
    assert [h for h in even if h[0] != 0] == [(5, 6)]  # the why's "layer 5 head 6"


def test_real_heads_the_cls_count_is_the_number_of_heads_labelled_mostly_cls(minilm):
    """Step 4 said "in 30 of its 72 heads" where 31 read "mostly: [CLS]": layer 5 head 1 gives
    [CLS] 0.49997, written 0.5000, and the count wanted more than 0.5 unrounded."""
    from attn_tui.lessons.tasks import MODEL_SENTENCE
    from attn_tui.models.summary import summarise_all

    run = minilm.run(MODEL_SENTENCE)
    labelled = [(s.layer, s.head) for row in summarise_all(run.weights) for s in row
                if s.label == "[CLS]"]
    assert len(labelled) == 31 and (4, 0) in labelled
