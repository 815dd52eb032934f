"""Every number the chapter's attention.py prints, recomputed by attn_tui.compute.

Expected values come from parsing ``shared/seeds/reference/attention.txt``; each is compared
at the number of decimals it was printed with (half a unit in the last place).
"""

from __future__ import annotations

import math
import subprocess
from pathlib import Path

import numpy as np
import pytest
from reference import (
    ENV_VAR,
    AttentionReference,
    Printed,
    PrintedArray,
    ReferenceNotFound,
    assert_printed,
    origin_sibling,
    reference_dir,
)

from attn_tui.compute import (
    CHAPTER_DIMS,
    CHAPTER_LENGTHS,
    CHAPTER_MODEL,
    attend,
    count_params,
    scaling_experiment,
    sequence_cost,
)

# attention.py defines step 2's keys but does not print them; values are the identity
# (the printed outputs equal the printed alphas, which test_step2 checks too).
SELECT_KEYS = {"dog": [0.9, 0.0, 0.1], "truck": [0.0, 0.9, 0.1], "barked": [0.1, 0.0, 0.9]}


def _floats(xs: list[Printed]) -> list[float]:
    return [float(x) for x in xs]


# ---------------------------------------------------------------- the reference itself


def test_missing_reference_folder_is_an_error_naming_where_it_looked(tmp_path: Path) -> None:
    with pytest.raises(ReferenceNotFound) as info:
        reference_dir(sibling=tmp_path / "nowhere", environ={ENV_VAR: str(tmp_path / "seeds")},
                      origin=None)
    message = str(info.value)
    assert str(tmp_path / "nowhere") in message
    assert str(tmp_path / "seeds") in message
    assert ENV_VAR in message and "attention.txt" in message


def test_reference_folder_found_through_env_var(tmp_path: Path) -> None:
    folder = tmp_path / "seeds" / "reference"
    folder.mkdir(parents=True)
    for name in ("attention.txt", "self_attention.txt"):
        (folder / name).write_text("x")
    found = reference_dir(sibling=tmp_path / "nowhere", environ={ENV_VAR: str(folder.parent)},
                          origin=None)
    assert found == folder


def test_a_scratch_clone_finds_the_folder_beside_the_checkout_it_came_from(tmp_path: Path):
    checkout, clone = tmp_path / "work" / "main", tmp_path / "scratch" / "clone"
    folder = tmp_path / "work" / "shared" / "seeds" / "reference"
    folder.mkdir(parents=True)
    checkout.mkdir(parents=True)
    subprocess.run(["git", "init", "-q", str(checkout)], check=True)
    subprocess.run(["git", "clone", "-q", str(checkout), str(clone)], check=True,
                   capture_output=True)
    assert origin_sibling(clone) == folder.resolve()
    subprocess.run(["git", "-C", str(clone), "remote", "set-url", "origin",
                    "https://example.org/attn-tui.git"], check=True)
    assert origin_sibling(clone) is None


def test_reference_has_the_expected_tables(attention_ref: AttentionReference) -> None:
    # guards the parser: a silently empty table would make the tests below vacuous
    assert len(attention_ref.one.rows) == 3
    assert len(attention_ref.select.queries) == 3
    assert [r.d_k for r in attention_ref.scaling.rows] == list(CHAPTER_DIMS)
    assert attention_ref.mask.tokens == ["the", "dog", "barked", "loudly"]
    assert [n for n, _, _ in attention_ref.params.lengths] == list(CHAPTER_LENGTHS)
    assert attention_ref.params.model == CHAPTER_MODEL


# ---------------------------------------------------------------- step 1


@pytest.fixture
def step1(attention_ref: AttentionReference, backend: str):
    one = attention_ref.one
    keys = [_floats(k) for k in one.keys.values()]
    return one, attend(_floats(one.q), keys, keys, backend=backend)


def test_step1_scale(step1) -> None:
    one, steps = step1
    assert steps.d_k == one.d_k
    assert_printed(steps.scale_factor, one.sqrt_d, "sqrt(d_k)")
    assert_printed(math.sqrt(one.d_k), one.sqrt_d, "sqrt(d_k)")


def test_step1_table(step1) -> None:
    one, steps = step1
    assert [r.token for r in one.rows] == list(one.keys)
    for i, row in enumerate(one.rows):
        assert_printed(steps.scores[i], row.qk, f"q . k for {row.token!r}")
        assert_printed(steps.scaled[i], row.scaled, f"q . k / sqrt(d) for {row.token!r}")
        assert_printed(steps.exp[i], row.exp, f"exp for {row.token!r}")
        assert_printed(steps.weights[i], row.alpha, f"alpha for {row.token!r}")


def test_step1_sums(step1) -> None:
    one, steps = step1
    assert_printed(np.sum(steps.exp), one.exp_sum, "sum of exp")
    assert_printed(steps.row_sums, one.alpha_sum, "sum of alpha")
    assert float(one.exp_sum) == 3.5701 and float(one.alpha_sum) == 1.0


def test_step1_output(step1) -> None:
    one, steps = step1
    for i, (alpha, v) in enumerate(one.contributions):
        assert_printed(steps.weights[i], alpha, f"alpha_{i} in the output sum")
        np.testing.assert_array_equal(steps.values[i], _floats(v))
        np.testing.assert_allclose(steps.contributions()[i], steps.weights[i] * np.array(v))
    for j, z in enumerate(one.output):
        assert_printed(steps.output[j], z, f"output zeta[{j}]")
    np.testing.assert_allclose(steps.contributions().sum(axis=0), steps.output, rtol=1e-6)


def test_step1_alpha_to_two_decimals(step1) -> None:
    one, steps = step1
    assert len(one.alpha_2dp) == 3
    for i, a in enumerate(one.alpha_2dp):
        assert_printed(steps.weights[i], a, f"alpha_{i} to 2 decimals")


def test_step1_entropy(step1) -> None:
    one, steps = step1
    assert_printed(steps.entropy, one.entropy, "entropy of alpha")
    assert_printed(steps.max_entropy, one.max_entropy, "maximum entropy over 3 keys")
    assert float(one.entropy) == 1.5811 and float(one.max_entropy) == 1.5850


# ---------------------------------------------------------------- step 2


@pytest.mark.parametrize("index", range(3))
def test_step2_query(attention_ref: AttentionReference, backend: str, index: int) -> None:
    query = attention_ref.select.queries[index]
    assert list(query.alpha) == list(SELECT_KEYS)
    steps = attend(
        _floats(query.q), list(SELECT_KEYS.values()), np.eye(3), backend=backend
    )
    for j, (token, alpha) in enumerate(query.alpha.items()):
        assert_printed(steps.weights[j], alpha, f"{query.name}: alpha for {token!r}")
    for j, z in enumerate(query.output):
        assert_printed(steps.output[j], z, f"{query.name}: output[{j}]")
    assert_printed(steps.entropy, query.entropy, f"{query.name}: entropy")


def test_step2_maximum_entropy(attention_ref: AttentionReference) -> None:
    steps = attend([2.0, 2.0, 2.0], list(SELECT_KEYS.values()), np.eye(3))
    assert_printed(steps.max_entropy, attention_ref.select.max_entropy, "log2(3)")
    assert_printed(steps.entropy, attention_ref.select.max_entropy, "undecided entropy")


# ---------------------------------------------------------------- step 3


def test_step3_scaling_table(attention_ref: AttentionReference, backend: str) -> None:
    table = attention_ref.scaling
    dims = tuple(r.d_k for r in table.rows)
    result = scaling_experiment(dims, n_keys=table.n_keys, backend=backend)
    assert [r.d_k for r in result.rows] == list(dims)
    assert (result.n_keys, result.trials, result.seed) == (8, 200, 0)
    for want, got in zip(table.rows, result.rows, strict=True):
        d = want.d_k
        assert_printed(got.sd, want.sd, f"d_k={d}: sd of q.k")
        assert_printed(got.entropy_raw, want.entropy_raw, f"d_k={d}: entropy raw")
        assert_printed(got.entropy_scaled, want.entropy_scaled, f"d_k={d}: entropy scaled")
        assert_printed(got.max_alpha_raw, want.max_alpha_raw, f"d_k={d}: max alpha raw")


def test_step3_defaults_are_the_chapters(attention_ref: AttentionReference) -> None:
    result = scaling_experiment()
    assert len(result.rows) == len(attention_ref.scaling.rows)
    for want, got in zip(attention_ref.scaling.rows, result.rows, strict=True):
        assert_printed(got.entropy_raw, want.entropy_raw, f"d_k={want.d_k}: entropy raw")


def test_step3_maximum_entropy(attention_ref: AttentionReference) -> None:
    result = scaling_experiment((4,), n_keys=attention_ref.scaling.n_keys, trials=1)
    assert_printed(result.max_entropy, attention_ref.scaling.max_entropy, "log2(8)")
    assert float(attention_ref.scaling.max_entropy) == 3.0


# ---------------------------------------------------------------- step 4


def _mask_steps(attention_ref: AttentionReference, mask: str, backend: str):
    # the chapter gives S as scores: Q = S against K = I, unscaled, reproduces S = Q K^T
    S = attention_ref.mask.scores.values
    n = S.shape[0]
    return attend(S, np.eye(n), np.eye(n), mask=mask, scale=False, backend=backend)


def _check_table(steps, table, what: str) -> None:
    printed_blocked = np.isnan(table.weights.values)
    np.testing.assert_array_equal(steps.blocked, printed_blocked, err_msg=f"{what}: blocked")
    assert np.all(steps.weights[printed_blocked] == 0.0), f"{what}: blocked cells not 0"
    shown = PrintedArray(
        np.where(printed_blocked, 0.0, table.weights.values), table.weights.decimals
    )
    assert_printed(steps.weights, shown, what)
    for i, total in enumerate(table.row_sums):
        assert_printed(steps.row_sums[i], total, f"{what}: sum of row {i}")


def test_step4_scores(attention_ref: AttentionReference, backend: str) -> None:
    steps = _mask_steps(attention_ref, "causal", backend)
    assert_printed(steps.scores, attention_ref.mask.scores, "S = Q K^T")
    np.testing.assert_array_equal(steps.scaled, steps.scores)  # scale off
    assert steps.scale_factor == 1.0


def test_step4_mask_then_softmax(attention_ref: AttentionReference, backend: str) -> None:
    steps = _mask_steps(attention_ref, "causal", backend)
    _check_table(steps, attention_ref.mask.mask_first, "mask then softmax")
    assert [float(s) for s in attention_ref.mask.mask_first.row_sums] == [1.0] * 4


def test_step4_softmax_then_mask(attention_ref: AttentionReference, backend: str) -> None:
    steps = _mask_steps(attention_ref, "causal-after", backend)
    _check_table(steps, attention_ref.mask.softmax_first, "softmax then mask")
    sums = [float(s) for s in attention_ref.mask.softmax_first.row_sums]
    assert sums == [0.4551, 0.6742, 0.8122, 1.0]
    assert_printed(steps.row_sums[0], attention_ref.mask.first_row_sum, "row 1 sum")
    for i, total in enumerate(attention_ref.mask.softmax_first.row_sums):
        lost = Printed(f"{1 - float(total):.{total.decimals}f}")
        assert_printed(steps.lost[i], lost, f"mass lost in row {i}")


# ---------------------------------------------------------------- step 5


def test_step5_parameter_count(attention_ref: AttentionReference) -> None:
    p = attention_ref.params
    counted = count_params(**p.model)
    assert counted.d_k == p.d_k == 64
    for field, value in p.counts.items():
        assert getattr(counted, field) == value, f"{field}: {getattr(counted, field)} != {value}"
    assert set(p.counts) == {
        "attention", "feed_forward", "layer_norms", "layer", "layers", "embeddings", "total"
    }
    assert counted.feed_forward > counted.attention
    assert counted.h * counted.d_k == counted.D


def test_step5_chapter_model_constant(attention_ref: AttentionReference) -> None:
    assert count_params(**CHAPTER_MODEL).total == attention_ref.params.counts["total"]


def test_step5_sequence_cost(attention_ref: AttentionReference) -> None:
    lengths = attention_ref.params.lengths
    assert len(lengths) == 5
    for n, squared, ratio in lengths:
        got_squared, got_ratio = sequence_cost(n)
        assert got_squared == squared, f"n={n}: {got_squared} scores, reference {squared}"
        assert_printed(got_ratio, ratio, f"n={n}: cost relative to n=512")
    assert [r.text for _, _, r in lengths] == ["0.06", "1.00", "16.00", "256.00", "4096.00"]
