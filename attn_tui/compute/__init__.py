"""attn-tui's numbers: written once against the Array API, run on numpy, torch or array-api-strict.

Nothing here imports textual or rich; torch is imported only when the torch backend is asked for.
The lecture, the parameter count and the scaling experiment load on first use: the workbench's
first frame needs none of them.
"""

import importlib

from attn_tui.compute.attend import MASK_WORDS, MASKS, Attention, Steps, attend
from attn_tui.compute.backend import (
    BACKENDS,
    DTYPES,
    BackendUnavailable,
    namespace,
    to_numpy,
    torch_available,
    torch_problem,
    torch_usable,
)
from attn_tui.compute.softmax import entropy_bits, naive_softmax, softmax

__all__ = [
    "Attention", "BACKENDS", "CHAPTER_DIMS", "CHAPTER_LENGTHS", "CHAPTER_MODEL", "DTYPES", "MASKS",
    "MASK_WORDS", "BackendUnavailable", "LectureRun", "ParamCount", "ScalingResult",
    "ScalingRow", "Steps", "attend", "count_params", "entropy_bits", "lecture", "namespace",
    "naive_softmax", "scaling_experiment", "sequence_cost", "softmax", "to_numpy",
    "torch_available", "torch_problem", "torch_usable",
]

_LAZY = {
    "LectureRun": "nanogpt", "lecture": "nanogpt",
    "CHAPTER_LENGTHS": "params", "CHAPTER_MODEL": "params", "ParamCount": "params",
    "count_params": "params", "sequence_cost": "params",
    "CHAPTER_DIMS": "scaling", "ScalingResult": "scaling", "ScalingRow": "scaling",
    "scaling_experiment": "scaling",
}


def __getattr__(name: str):
    if name in _LAZY:
        value = getattr(importlib.import_module(f"attn_tui.compute.{_LAZY[name]}"), name)
        globals()[name] = value
        return value
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
