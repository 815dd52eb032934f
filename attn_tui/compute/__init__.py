"""attn-tui's numbers: written once against the Array API, run on numpy, torch or array-api-strict.

Nothing here imports textual or rich; torch is imported only when the torch backend is asked for.
"""

from attn_tui.compute.attend import MASK_WORDS, MASKS, Steps, attend
from attn_tui.compute.backend import (
    BACKENDS,
    DTYPES,
    BackendUnavailable,
    namespace,
    to_numpy,
    torch_available,
)
from attn_tui.compute.nanogpt import LectureRun, lecture
from attn_tui.compute.params import (
    CHAPTER_LENGTHS,
    CHAPTER_MODEL,
    ParamCount,
    count_params,
    sequence_cost,
)
from attn_tui.compute.scaling import CHAPTER_DIMS, ScalingResult, ScalingRow, scaling_experiment
from attn_tui.compute.softmax import entropy_bits, naive_softmax, softmax

__all__ = [
    "BACKENDS", "CHAPTER_DIMS", "CHAPTER_LENGTHS", "CHAPTER_MODEL", "DTYPES", "MASKS",
    "MASK_WORDS", "BackendUnavailable", "LectureRun", "ParamCount", "ScalingResult",
    "ScalingRow", "Steps", "attend", "count_params", "entropy_bits", "lecture", "namespace",
    "naive_softmax", "scaling_experiment", "sequence_cost", "softmax", "to_numpy",
    "torch_available",
]
