"""The same attention in float64, float32, float16 and bfloat16, and softmax done two ways.

float64 is the reference. Every other dtype (and the other library, numpy against torch) is
reported as the largest |difference| from it per stage. A multiplier scales the scores, so the
naive softmax's exp can be pushed past the largest number a dtype holds: ln(max) is about
709.78 in float64, 88.72 in float32, 88.72 in bfloat16 and 11.09 in float16.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from attn_tui.compute.attend import attend
from attn_tui.compute.backend import namespace, resolve_dtype, to_numpy, torch_usable
from attn_tui.compute.softmax import naive_softmax, softmax

TORCH_ONLY = ("float16", "bfloat16")
ALL_DTYPES = ("float64", "float32", "float16", "bfloat16")
STAGES = ("scores", "weights", "output")
BASE_SCORES = (1.0, 0.9, 0.5, 0.0)  # times the multiplier: the largest score is the multiplier
MULTIPLIERS = (1, 2, 5, 10, 20, 50, 100, 200, 500, 1000, 2000, 5000, 10000)


@dataclass(frozen=True)
class StageDiff:
    """Largest |this - reference| per stage; ``error`` when the inputs do not fit the dtype."""

    label: str  # "float32", "torch float16", "float64: numpy vs torch", ...
    backend: str
    dtype: str
    scores: float = math.nan
    weights: float = math.nan
    output: float = math.nan
    finite: bool = True  # every weight is a finite number
    error: str | None = None


@dataclass(frozen=True, eq=False)
class SoftmaxRow:
    dtype: str
    backend: str
    limit: float  # ln of the largest finite number: exp overflows above it
    top: float  # the largest score, as stored in this dtype
    exp_top: float  # exp(top) in this dtype: inf once top > limit
    exp_sum: float  # Σ exp(z) in this dtype: inf a little before exp_top is (float16 at 11)
    naive: np.ndarray
    stable: np.ndarray
    stable_error: float  # largest |stable - exact| (exact for the scores as stored)
    eps: float  # the gap between 1 and the next number this dtype holds

    @property
    def naive_broken(self) -> bool:
        """NaN from inf / inf, or every weight 0 from x / inf once the sum overflowed."""
        return not bool(np.all(np.isfinite(self.naive))) or math.isinf(self.exp_sum)

    @property
    def sum_overflows_alone(self) -> bool:
        """Each exp fits but their sum does not: the naive weights are all 0, no NaN."""
        return math.isinf(self.exp_sum) and not math.isinf(self.exp_top)


def available_dtypes() -> tuple[str, ...]:
    """Every dtype where torch imports; float64 and float32 where it does not."""
    return ALL_DTYPES if torch_usable() else ALL_DTYPES[:2]


def dtype_backend(dtype: str, backend: str) -> str:
    """float16 and bfloat16 always run on torch; the rest on the chosen backend."""
    return "torch" if dtype in TORCH_ONLY else backend


def _finfo(dtype: str, backend: str):
    if dtype_backend(dtype, backend) == "torch":
        import torch

        return torch.finfo(getattr(torch, dtype))
    return np.finfo(np.dtype(dtype))


def dtype_eps(dtype: str, backend: str = "numpy") -> float:
    """Machine epsilon: the relative rounding step of ``dtype``."""
    return float(_finfo(dtype, backend).eps)


def exp_limit(dtype: str, backend: str = "numpy") -> float:
    """ln of the largest finite value of ``dtype``: exp(x) is inf for x above this."""
    return math.log(float(_finfo(dtype, backend).max))


def attention_inputs(seed: int = 0, tokens: int = 6, d_k: int = 8) -> tuple[np.ndarray, ...]:
    """Seeded Q, K, V with N(0, 1) entries, in float64."""
    rng = np.random.default_rng(seed)
    return tuple(rng.standard_normal((tokens, d_k)) for _ in range(3))


def _diff(a: np.ndarray, b: np.ndarray) -> float:
    with np.errstate(invalid="ignore"):
        d = np.abs(a.astype(np.float64) - b.astype(np.float64))
    return float(np.max(d)) if not np.isnan(d).any() else math.nan


def _run(q, k, v, backend: str, dtype: str):
    with np.errstate(over="ignore", invalid="ignore"):
        return attend(q, k, v, backend=backend, dtype=dtype)


def compare_dtypes(multiplier: float = 1.0, seed: int = 0, backend: str = "numpy",
                   dtypes: tuple[str, ...] | None = None) -> tuple[StageDiff, ...]:
    """Each dtype against float64 on ``backend``; Q is multiplied so the scores grow with it."""
    q, k, v = attention_inputs(seed)
    q = q * multiplier
    ref = _run(q, k, v, backend, "float64")
    rows = []
    for dt in dtypes or available_dtypes():
        be = dtype_backend(dt, backend)
        label = dt if be == backend else f"{dt} ({be})"
        try:
            s = _run(q, k, v, be, dt)
        except ValueError:  # q * multiplier does not fit: float16 holds at most 65504
            rows.append(StageDiff(label, be, dt, finite=False,
                                  error=f"Q × {multiplier:g} overflows {dt} (its largest "
                                        f"number is {float(_finfo(dt, be).max):g})"))
            continue
        rows.append(StageDiff(
            label, be, dt, scores=_diff(s.scores, ref.scores),
            weights=_diff(s.weights, ref.weights), output=_diff(s.output, ref.output),
            finite=bool(np.all(np.isfinite(s.weights))),
        ))
    return tuple(rows)


def compare_backends(multiplier: float = 1.0, seed: int = 0) -> tuple[StageDiff, ...]:
    """numpy against torch on the same inputs, in float64 and float32 (empty without torch)."""
    if not torch_usable():
        return ()
    q, k, v = attention_inputs(seed)
    q = q * multiplier
    rows = []
    for dt in ("float64", "float32"):
        a, b = _run(q, k, v, "numpy", dt), _run(q, k, v, "torch", dt)
        rows.append(StageDiff(
            f"{dt}: numpy vs torch", "numpy/torch", dt, scores=_diff(a.scores, b.scores),
            weights=_diff(a.weights, b.weights), output=_diff(a.output, b.output),
            finite=bool(np.all(np.isfinite(a.weights)) and np.all(np.isfinite(b.weights))),
        ))
    return tuple(rows)


def exact_softmax(z: tuple[float, ...]) -> np.ndarray:
    """Softmax in float64 by plain Python arithmetic on differences from the maximum."""
    top = max(z)
    e = [math.exp(x - top) for x in z]
    total = math.fsum(e)
    return np.array([x / total for x in e])


def softmax_race(multiplier: float = 1.0, backend: str = "numpy",
                 dtypes: tuple[str, ...] | None = None,
                 base: tuple[float, ...] = BASE_SCORES) -> tuple[SoftmaxRow, ...]:
    """The naive softmax against the stable one on ``base`` x ``multiplier``, per dtype."""
    z = tuple(multiplier * b for b in base)
    rows = []
    for dt in dtypes or available_dtypes():
        be = dtype_backend(dt, backend)
        xp = namespace(be)
        scores = xp.asarray(np.asarray(z), dtype=resolve_dtype(xp, dt))
        # exact for the scores as this dtype stores them: the softmax's own error, not the
        # rounding of its inputs
        exact = exact_softmax(tuple(float(x) for x in to_numpy(scores).astype(np.float64)))
        with np.errstate(over="ignore", invalid="ignore"):
            top = xp.max(scores)
            exp_top = float(to_numpy(xp.exp(top)))
            exp_sum = float(to_numpy(xp.sum(xp.exp(scores))))
            naive = to_numpy(naive_softmax(scores))
            stable = to_numpy(softmax(scores))
        rows.append(SoftmaxRow(
            dt, be, exp_limit(dt, be), float(to_numpy(top)), exp_top, exp_sum, naive, stable,
            _diff(stable, exact), dtype_eps(dt, be),
        ))
    return tuple(rows)


@dataclass(frozen=True)
class AllcloseCheck:
    """The lecture's allclose(loops, matmul), and the element that comes closest to failing."""

    dtype: str
    backend: str
    ok: bool
    largest: float  # largest |a - b|
    worst_b: float  # |b| where |a - b| uses most of its allowance
    worst_diff: float
    worst_allowed: float  # atol + rtol |b| there


def allclose_check(dtype: str, backend: str, rtol: float = 1e-5,
                   atol: float = 1e-8) -> AllcloseCheck:
    from attn_tui.compute.nanogpt import lecture

    run = lecture(backend=backend, dtype=dtype)
    a, b = run.bow_matmul.astype(np.float64), run.bow_loops.astype(np.float64)
    diff, allowed = np.abs(a - b), atol + rtol * np.abs(b)
    i = np.unravel_index(np.argmax(diff / allowed), diff.shape)
    return AllcloseCheck(dtype, backend, run.allclose_matmul(), run.diff_matmul,
                         float(abs(b[i])), float(diff[i]), float(allowed[i]))
