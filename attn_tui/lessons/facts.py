"""Numbers for a lesson's {placeholders}, read from live results so no number is typed into prose.

On the workbench a step's text may use:

- ``row``: the selected query, stage by stage: ``row.q``, ``row.scores``, ``row.scaled``,
  ``row.exp``, ``row.alpha``, ``row.exp_sum``, ``row.alpha_sum``, ``row.zeta``, ``row.entropy``,
  ``row.max_entropy``, ``row.sqrt_dk``, ``row.lost``, ``row.token``, and its largest weight
  ``row.top`` with the key that gets it, ``row.top_key``;
- ``s``: every query at once (the fields of ``attn_tui.compute.Steps``), e.g. ``s.weights[1][2]``;
- ``ws``: the workspace (``ws.q``, ``ws.mask``, ``ws.backend``, ``ws.dtype`` ...);
- on a lab, ``lab``: the lab screen's own fields, e.g. ``lab.result.rows[0].entropy_raw`` or
  ``lab.count.total`` (see each lab's module);
- ``lec`` / ``lec64``: the lecture run in float32 / float64 (``x0``, ``bow0``, ``avg_weights``,
  ``head_weights0``, ``diff_matmul``, ``diff_softmax``, ``allclose_matmul``, ``allclose_softmax``,
  ``backend``, ``seed``; and where allclose fails: ``misses`` of ``size`` values, the worst at
  ``miss_value`` in batch ``miss_batch``, off by ``miss_gap`` against a tolerance ``miss_tol``).

Arrays format element by element: ``{row.alpha:.2f}`` gives ``(0.34, 0.30, 0.36)``; a number
with no format spec shows four decimals, as the chapter prints them.
"""

from __future__ import annotations

import math
from functools import lru_cache
from typing import Any

import numpy as np


class Num(float):
    def __format__(self, spec: str) -> str:
        text = format(float(self), spec or ".4f")
        return text[1:] if text.startswith("-") and not any(ch in "123456789" for ch in text) \
            else text


class Arr:
    """An array that formats as (a, b, c), a matrix as rows of those."""

    def __init__(self, a: Any) -> None:
        self.a = np.asarray(a)

    def __getitem__(self, i: int) -> Any:
        return wrap(self.a[i])

    def __len__(self) -> int:
        return len(self.a)

    def __format__(self, spec: str) -> str:
        if self.a.ndim == 0:
            return format(Num(self.a), spec)
        if self.a.ndim == 1:
            return "(" + ", ".join(format(Num(x), spec) for x in self.a) + ")"
        return " ".join(format(Arr(r), spec) for r in self.a)

    def __str__(self) -> str:
        return format(self, "")


def wrap(x: Any) -> Any:
    """Numbers and arrays made to format well; other objects wrapped so their fields are too."""
    if isinstance(x, (bool, np.bool_)):
        return str(bool(x))
    if isinstance(x, (int, np.integer)):
        return int(x)
    if isinstance(x, (float, np.floating)):
        return Num(x)
    if isinstance(x, np.ndarray):
        return Arr(x)
    if isinstance(x, (tuple, list)):
        flat = np.asarray(x, dtype=object).ravel() if x else ()
        if len(flat) and all(isinstance(v, (int, float, np.number)) for v in flat):
            return Arr(np.asarray(x, dtype=float))
        return tuple(wrap(v) for v in x)
    if x is None or isinstance(x, str) or callable(x):
        return x
    return Wrapped(x)


class Wrapped:
    """Attribute access on any object, with numbers and arrays wrapped for formatting."""

    def __init__(self, obj: Any) -> None:
        self._obj = obj

    def __getattr__(self, name: str) -> Any:
        if name.startswith("_"):
            raise AttributeError(name)
        return wrap(getattr(self._obj, name))

    def __format__(self, spec: str) -> str:
        return format(self._obj, spec)


class RowFacts:
    """One query's stages, from a Steps result and the workspace it came from."""

    def __init__(self, steps: Any, ws: Any) -> None:
        i = ws.selected
        pick = (lambda a: a[i]) if steps.weights.ndim == 2 else (lambda a: a)
        self.token = ws.query_tokens[i]
        self.q = Arr(ws.q[i])
        self.scores, self.scaled = Arr(pick(steps.scores)), Arr(pick(steps.scaled))
        self.exp, self.alpha = Arr(pick(steps.exp)), Arr(pick(steps.weights))
        visible = ~pick(steps.blocked)
        self.exp_sum = Num(np.sum(pick(steps.exp)[visible]))
        self.alpha_sum = Num(pick(steps.row_sums))
        self.zeta = Arr(pick(steps.output))
        alpha = pick(steps.weights)
        self.top, self.top_key = Num(np.max(alpha)), ws.key_tokens[int(np.argmax(alpha))]
        self.entropy, self.max_entropy = Num(pick(steps.entropy)), Num(pick(steps.max_entropy))
        self.lost = Num(pick(steps.lost))
        self.sqrt_dk = Num(math.sqrt(steps.d_k))
        self.d_k = steps.d_k


class LectureFacts:
    def __init__(self, run: Any) -> None:
        self.backend, self.dtype, self.seed = run.backend, run.dtype, run.seed
        self.x0, self.bow0 = Arr(run.x[0]), Arr(run.bow_loops[0])
        self.matmul0, self.softmax0 = Arr(run.bow_matmul[0]), Arr(run.bow_softmax[0])
        self.avg_weights = Arr(run.avg_weights)
        self.head_scores0, self.head_weights0 = Arr(run.head_scores[0]), Arr(run.head_weights[0])
        self.diff_matmul, self.diff_softmax = Num(run.diff_matmul), Num(run.diff_softmax)
        self.allclose_matmul = str(run.allclose_matmul())
        self.allclose_softmax = str(run.allclose_softmax())
        # where allclose(matmul, loops) fails: |a - b| > 1e-8 + 1e-5 |b| (its defaults)
        gap = np.abs(run.bow_matmul - run.bow_loops)
        tol = 1e-8 + 1e-5 * np.abs(run.bow_loops)
        worst = np.unravel_index(np.argmax(gap - tol), gap.shape)
        self.misses = int(np.sum(gap > tol))
        self.size = int(gap.size)
        self.miss_value = Num(run.bow_loops[worst])
        self.miss_gap, self.miss_tol = Num(gap[worst]), Num(tol[worst])
        self.miss_batch = int(worst[0])


@lru_cache(maxsize=4)
def lecture_facts(dtype: str) -> LectureFacts:
    from attn_tui.compute import lecture
    from attn_tui.lessons.workspaces import LECTURE_SEED, lecture_backend

    return LectureFacts(lecture(backend=lecture_backend(), dtype=dtype, seed=LECTURE_SEED))


class Context(dict):
    """The names a text may use; the lecture runs are made only when a text asks for them."""

    def __missing__(self, key: str) -> Any:
        if key == "lec":
            return lecture_facts("float32")
        if key == "lec64":
            return lecture_facts("float64")
        raise KeyError(key)


def workbench_context(steps: Any, ws: Any) -> Context:
    return Context(row=RowFacts(steps, ws), s=Wrapped(steps), ws=Wrapped(ws))


def fill(text: str, context: dict[str, Any]) -> str:
    """The text with its placeholders filled; a placeholder that cannot be filled says so."""
    try:
        return text.format_map(context)
    except (KeyError, AttributeError, IndexError, ValueError, TypeError) as exc:
        return f"{text}  [could not fill a number: {type(exc).__name__}: {exc}]"
