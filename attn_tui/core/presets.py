"""The worked examples attn-tui opens with, as plain data (tokens and rows of numbers)."""

from __future__ import annotations

from typing import NamedTuple


class Preset(NamedTuple):  # not a frozen dataclass: ~0.7 ms of start-up to build
    name: str
    title: str
    tokens: tuple[str, ...]  # one per key (and per query when queries are the tokens themselves)
    q: tuple[tuple[float, ...], ...]
    k: tuple[tuple[float, ...], ...]
    v: tuple[tuple[float, ...], ...]
    query_tokens: tuple[str, ...]
    mask: str = "none"
    scale: bool = True


_ONE_K = ((0.4, 0.5, 0.6), (0.2, 0.1, 0.3), (0.6, 0.7, 0.8))
_SELECT_K = ((0.9, 0.0, 0.1), (0.0, 0.9, 0.1), (0.1, 0.0, 0.9))
_EYE3 = ((1.0, 0.0, 0.0), (0.0, 1.0, 0.0), (0.0, 0.0, 1.0))
# The chapter gives the 4x4 mask example as scores S directly; Q = S and K = I (unscaled)
# reproduce S = Q K^T exactly, so every stage after the scores is the chapter's.
_MASK_S = (
    (2.0, 1.0, 0.5, 1.5),
    (0.5, 2.0, 1.0, 0.5),
    (1.0, 0.5, 2.0, 1.0),
    (1.5, 1.0, 0.5, 2.0),
)
_EYE4 = tuple(tuple(1.0 if i == j else 0.0 for j in range(4)) for i in range(4))

PRESETS: dict[str, Preset] = {
    "one": Preset(
        "one", "one query, three keys (values = keys)", ("is", "the", "best"),
        q=((0.1, 0.2, 0.3),), k=_ONE_K, v=_ONE_K, query_tokens=("who",),
    ),
    "select": Preset(
        "select", "keys that disagree: (animal, vehicle, verb)", ("dog", "truck", "barked"),
        q=((5.0, 0.0, 0.0), (0.0, 0.0, 5.0), (2.0, 2.0, 2.0)), k=_SELECT_K, v=_EYE3,
        query_tokens=("animal?", "verb?", "undecided"),
    ),
    "mask": Preset(
        "mask", "the causal mask on four tokens (scores given, unscaled)",
        ("the", "dog", "barked", "loudly"), q=_MASK_S, k=_EYE4, v=_EYE4,
        query_tokens=("the", "dog", "barked", "loudly"), mask="causal", scale=False,
    ),
}
PRESET_NAMES = ("one", "select", "mask", "random")
# the nanoGPT lecture's tensors as Q, K, V: built by attn_tui.lessons.workspaces (torch's draws
# when torch is installed), named here so sessions, the picker and --preset know them
LECTURE_EXAMPLES = {
    "lecture-bow": "nanoGPT lecture: the bag-of-words average, 8 tokens",
    "lecture-head": "nanoGPT lecture: one head on batch 0, 8 tokens",
}
EXAMPLE_NAMES = (*PRESET_NAMES, *LECTURE_EXAMPLES)
