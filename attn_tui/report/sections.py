"""`attn-tui print`: each part of the course material as a plain-text report.

The numbers are the compute core's; the layout follows the chapter's tables so they can be
checked side by side. The words are attn-tui's own.
"""

from __future__ import annotations

import math
from collections.abc import Callable

import numpy as np

from attn_tui.compute import (
    CHAPTER_LENGTHS,
    CHAPTER_MODEL,
    attend,
    count_params,
    lecture,
    scaling_experiment,
    sequence_cost,
)
from attn_tui.core.presets import PRESETS
from attn_tui.report.fmt import bracket, count, num, vec

SECTIONS = ("one", "select", "scale", "mask", "params", "nanogpt")
RULE = " " + "-" * 56


def section_one(backend: str, dtype: str) -> str:
    p = PRESETS["one"]
    s = attend(p.q[0], p.k, p.v, backend=backend, dtype=dtype)
    out = ["ONE QUERY, THREE KEYS", ""]
    out.append(f" query '{p.query_tokens[0]}'  q = {bracket(p.q[0])}")
    for t, k in zip(p.tokens, p.k, strict=True):
        out.append(f" key '{t}'{'':<{6 - len(t)}} k = {bracket(k)}")
    out += ["", " The values are the keys again, so the arithmetic stays short.",
            f" d_k = {s.d_k}; each score is divided by sqrt({s.d_k}) = {num(math.sqrt(s.d_k))}", ""]
    out.append(f" {'key':<7}{'q . k':>9}{'/ sqrt(d)':>12}{'exp':>9}{'alpha':>9}")
    out.append(RULE[:49])
    for i, t in enumerate(p.tokens):
        out.append(f" {t:<7}{num(s.scores[i]):>9}{num(s.scaled[i]):>12}"
                   f"{num(s.exp[i]):>9}{num(s.weights[i]):>9}")
    out.append(RULE[:49])
    out.append(f" {'sum':<7}{'':>9}{'':>12}{num(s.exp.sum()):>9}{num(s.row_sums):>9}")
    out += ["", " output zeta = sum over keys of alpha * v"]
    for i in range(len(p.tokens)):
        out.append(f"   {num(s.weights[i])} x {bracket(p.v[i])}")
    out.append(f"   = {vec(s.output)}")
    out += ["", f" entropy of alpha: {num(float(s.entropy))} bits, "
            f"the most three keys allow is {num(float(s.max_entropy))}.",
            " Nearly uniform: the keys point the same way, so the query cannot choose",
            " and the output lands close to the plain mean of the values."]
    return "\n".join(out)


def section_select(backend: str, dtype: str) -> str:
    p = PRESETS["select"]
    s = attend(p.q, p.k, p.v, backend=backend, dtype=dtype)
    out = ["WHEN ATTENTION SELECTS", "",
           " Keys that disagree, on three axes (animal, vehicle, verb):"]
    for t, k in zip(p.tokens, p.k, strict=True):
        out.append(f"   {t:<7} k = {bracket(k)}")
    out.append(" Values are one-hot, so the output is alpha itself.")
    out.append("")
    for i, name in enumerate(("an animal query", "a verb query", "an undecided query")):
        cells = "  ".join(f"{t} {num(a)}" for t, a in zip(p.tokens, s.weights[i], strict=True))
        out.append(f" {name:<20} q = {bracket(p.q[i])}")
        out.append(f"   alpha   {cells}")
        out.append(f"   output  {vec(s.output[i])}   entropy {num(s.entropy[i])} bits")
        out.append("")
    out += [f" The undecided query sits at the maximum, log2(3) = {num(math.log2(3))} bits.",
            " Low entropy: the head has chosen. High entropy: it is averaging."]
    return "\n".join(out)


def section_scale(backend: str, dtype: str) -> str:
    r = scaling_experiment(backend=backend, dtype=dtype)
    out = ["WHY DIVIDE BY SQRT(d_k)", "",
           f" {r.trials} random trials per row: a query and {r.n_keys} keys, entries drawn from",
           f" N(0, 1) with seed {r.seed}. The spread of q . k grows like sqrt(d_k).", ""]
    out.append(f" {'d_k':>6}{'sd of q.k':>12}{'entropy raw':>14}{'entropy scaled':>16}"
               f"{'max alpha raw':>15}")
    out.append(" " + "-" * 63)
    for row in r.rows:
        out.append(f" {row.d_k:>6}{row.sd:>12.3f}{num(row.entropy_raw):>14}"
                   f"{num(row.entropy_scaled):>16}{num(row.max_alpha_raw):>15}")
    out += ["", f" The most entropy {r.n_keys} keys allow: {num(r.max_entropy)} bits.",
            " Unscaled, the softmax collapses onto one key as d_k grows, untrained, and a",
            " saturated softmax passes back almost no gradient. Scaled, it stays put."]
    return "\n".join(out)


def section_mask(backend: str, dtype: str) -> str:
    p = PRESETS["mask"]
    before = attend(p.q, p.k, p.v, mask="causal", scale=False, backend=backend, dtype=dtype)
    after = attend(p.q, p.k, p.v, mask="causal-after", scale=False, backend=backend, dtype=dtype)
    toks = p.tokens
    head = " " + " " * 10 + "".join(f"{t:>10}" for t in toks)
    out = ["THE CAUSAL MASK, AND WHICH COMES FIRST", "",
           " Query i may look at key j only when j <= i. Scores S (queries down, keys across):",
           "", head]
    for i, t in enumerate(toks):
        out.append(f" {t:<10}" + "".join(f"{x:>10.2f}" for x in before.scores[i]))

    def table(s, title: str) -> list[str]:
        rows = ["", f" {title}", "", head + f"{'sum':>8}"]
        for i, t in enumerate(toks):
            cells = "".join(f"{'.':>10}" if s.blocked[i, j] else f"{num(s.weights[i, j]):>10}"
                            for j in range(len(toks)))
            rows.append(f" {t:<10}{cells}{num(s.row_sums[i]):>8}")
        return rows

    out += table(before, "mask (set blocked scores to -inf), then softmax:")
    out += ["", " Each row sums to 1: the visible keys share all of the weight."]
    out += table(after, "softmax first, then zero the blocked cells:")
    out += ["", f" The first row keeps {num(after.row_sums[0])} of its weight; the rest is thrown",
            " away, not handed to the keys that remain. Earlier tokens lose the most."]
    return "\n".join(out)


def section_params(backend: str, dtype: str) -> str:
    c = count_params(**CHAPTER_MODEL)
    rule = " " + "-" * 62
    out = ["ONE TRANSFORMER LAYER, COUNTED", "",
           f" |V| = {c.V}, D = {c.D}, layers L = {c.L}, heads h = {c.h},",
           f" d_k = d_v = D/h = {c.d_k}, feed-forward H = {c.H}", ""]
    out.append(f" {'component':<26}{'formula':<22}{'parameters':>14}")
    out.append(rule)
    out.append(f" {'attention Q,K,V,O':<26}{'4 D^2':<22}{count(c.attention):>14}")
    out.append(f" {'feed-forward':<26}{'2 D H + H + D':<22}{count(c.feed_forward):>14}")
    out.append(f" {'layer norms':<26}{'4 D':<22}{count(c.layer_norms):>14}")
    out.append(rule)
    out.append(f" {'one layer':<48}{count(c.layer):>14}")
    out.append(f" {f'all {c.L} layers':<26}{'L x layer':<22}{count(c.layers):>14}")
    out.append(f" {'embeddings':<26}{'V D':<22}{count(c.embeddings):>14}")
    out.append(rule)
    out.append(f" {'total':<48}{count(c.total):>14}")
    out += ["", f" {c.h} heads of {c.d_k} cost what one head of {c.D} costs: h x d_k = D.",
            f" The feed-forward block ({count(c.feed_forward)}) outweighs attention "
            f"({count(c.attention)}).", "",
            " Sequence length is in no count above, but every token scores every token:", ""]
    out.append(f" {'tokens n':>10}{'n^2 scores per head':>22}{'vs n = 512':>13}")
    out.append(" " + "-" * 45)
    for n in CHAPTER_LENGTHS:
        cost, ratio = sequence_cost(n)
        out.append(f" {n:>10}{count(cost):>22}{ratio:>12.2f}x")
    out += ["", " Four times the context, sixteen times the scores."]
    return "\n".join(out)


def _matrix(a: np.ndarray) -> list[str]:
    return ["   " + " ".join(f"{num(float(x)):>8}" for x in row) for row in a]


def section_nanogpt(backend: str, dtype: str) -> str:
    if dtype not in ("float32", "float64"):
        dtype = "float32"
    run = lecture(backend=backend, dtype=dtype)
    out = ["FROM AVERAGING TO ATTENTION (the nanoGPT lecture)", ""]
    if backend == "torch":
        out.append(f" torch, seed {run.seed}, {dtype}: the lecture's own random draws.")
    else:
        out.append(f" {backend}, numpy.random.default_rng({run.seed}), {dtype}: not the lecture's")
        out.append(" draws (those need --backend torch), but every relation below still holds.")
    out += ["", " x[0], B, T, C = 4, 8, 2:"] + _matrix(run.x[0])
    out += ["", " 1. average of each token with its past, by loops:"] + _matrix(run.bow_loops[0])
    out += ["", " warm-up: ones(3,3) @ b sums b's columns:"] + _matrix(run.toy_sum)
    out += ["", " tril(ones(3,3)):"] + _matrix(run.toy_tril)
    out += ["", " rows scaled to sum to 1:"] + _matrix(run.toy_avg_weights)
    out += ["", " ... @ b gives running means:"] + _matrix(run.toy_avg)
    out += ["", " 2. the same averages as one matmul:"] + _matrix(run.bow_matmul[0])
    out += _allclose_lines(run.allclose_matmul(), run.diff_matmul, dtype)
    T = run.tril.shape[0]
    out += ["", f" 3. tril(ones({T},{T})): the keys each token may see"] + _matrix(run.tril)
    out += ["", "    zeros, -inf where tril is 0:"] + _matrix(run.zero_scores_masked)
    out += ["", "    after softmax, the same averaging weights:"] + _matrix(run.avg_weights)
    out += ["", "    applied to x:"] + _matrix(run.bow_softmax[0])
    out += _allclose_lines(run.allclose_softmax(), run.diff_softmax, dtype)
    out += ["", f" 4. one head, C = 32, head_size {run.head_size}: q k^T / sqrt({run.head_size})"]
    out += _matrix(run.head_scores[0])
    out += ["", "    masked:"] + _matrix(run.head_masked[0])
    out += ["", "    weights after softmax: data-dependent now"] + _matrix(run.head_weights[0])
    out += ["", f"    output shape: {tuple(run.head_out.shape)}"]
    return "\n".join(out)


def _allclose_lines(close: bool, diff: float, dtype: str) -> list[str]:
    """A version's allclose against the loops, and why, when it is False in float32 (the
    draws decide which versions round apart: numpy's and torch's differ)."""
    out = [f"    allclose to version 1: {close}   largest |difference|: {diff:.3g}"]
    if not close and dtype == "float32":
        out += ["    (False only because float32 rounds the loop's means and this version's sums",
                f"     differently, by {diff:.3g} at most: more than allclose allows there,",
                "     1e-8 + 1e-5·|value|.)"]
    return out


_RENDER: dict[str, Callable[[str, str], str]] = {
    "one": section_one, "select": section_select, "scale": section_scale,
    "mask": section_mask, "params": section_params, "nanogpt": section_nanogpt,
}


def render(section: str = "all", backend: str = "numpy", dtype: str = "float64") -> str:
    """The plain-text report of one section, or of all of them."""
    names = SECTIONS if section == "all" else (section,)
    for name in names:
        if name not in _RENDER:
            raise ValueError(f"unknown section {name!r}; choose one of: all, {', '.join(SECTIONS)}")
    return "\n\n\n".join(_RENDER[name](backend, dtype) for name in names) + "\n"
