"""What a training run is asked to do: the tasks, their defaults, and the checks on a config.

No torch here, so the command line and the lab can check flags and say what to install first.
"""

from __future__ import annotations

import math
from dataclasses import asdict, dataclass, replace
from typing import NamedTuple

from attn_tui.core.words import as_typed, whole


def _said(value: object) -> str:
    """A refused value: a number as typed (1e-9), anything else (from a file) as Python's."""
    number = isinstance(value, int | float) and not isinstance(value, bool)
    return as_typed(value) if number and math.isfinite(value) else repr(value)


INSTALL_TORCH_TRAIN = "training needs torch, which is not installed; install it with: pip install 'attn-tui[torch]'"

DIGITS = tuple(str(i) for i in range(10))
SEP = ">"
VOCAB = (*DIGITS, SEP)  # token id i is VOCAB[i]; the separator is id 10
HALF = 6  # reverse and sort: six digits, '>', six more
REPEAT = 8  # induction: eight distinct digits, twice
PREVIOUS_T = 12


def seq_len(task: str) -> int:
    """The length of the model's input for ``task``, as tasks.batch makes it (the last token
    is only ever a target): known without torch, so a screen's words need not load it."""
    return {"previous": PREVIOUS_T, "reverse": 2 * HALF, "sort": 2 * HALF,
            "induction": 2 * REPEAT - 1}[task]


class Task(NamedTuple):
    name: str
    line: str  # what the task is, and the pattern that solves it
    pattern: str  # the attention pattern to look for
    layers: int
    heads: int
    d_model: int
    steps: int
    lr: float
    target: float  # held-out accuracy it reaches within its default steps
    short: str = ""  # the pattern in a few words, for a title in a narrow pane
    # the input is the sequence less its last token, which is only ever a target (not so for
    # previous, whose targets are tokens it reads)
    last_only_predicted: bool = True
    layers_named: int = 1  # the pattern names this layer: a run with fewer has no such layer

    def pattern_for(self, layers: int) -> str:
        """``pattern``, said as measured on more layers than a run of ``layers`` has (the
        induction pattern is in layer 2: a 1-layer run has none)."""
        if layers >= self.layers_named:
            return self.pattern
        return (f"{self.pattern} (measured with {self.layers_named} layers; this run has "
                f"{layers}, so it has no layer {self.layers_named})")

    def short_for(self, layers: int) -> str:
        if layers >= self.layers_named:
            return self.short
        return f"needs L{self.layers_named}; this run has {layers}"


TASKS: dict[str, Task] = {t.name: t for t in (
    Task("previous", "copy the token one back", "a sub-diagonal: each token looks one back",
         1, 1, 32, 200, 1e-2, 0.99, "a sub-diagonal, one back", last_only_predicted=False),
    Task("reverse", "six digits, '>', then the six backwards",
         "an anti-diagonal after '>'", 1, 1, 32, 300, 1e-2, 0.99, "anti-diagonal after '>'"),
    Task("sort", "six digits, '>', then the same digits sorted",
         "after '>', each token looks at the next digit in order", 2, 2, 48, 2000, 3e-3, 0.95,
         "after '>', digits in order"),
    Task("induction", "eight distinct digits, then the same eight again",
         # measured on the default run, seeds 0-3: layer 2's most-weighted key is 2 to 7 past
         # the earlier copy (7: the query's own previous token, for 2 to 4 of its 7 queries),
         # and the key just past the earlier copy gets at most 0.03 (the copy is always 8
         # back: positions alone may find it, so the textbook head need not form)
         "in layer 2, each token of the second copy looks 2 to 7 keys past its earlier copy "
         "(seeds 0-3; at 7, its own previous token), reading what layer 1 has carried "
         "forward; the textbook induction head, one past the earlier copy, does not form here",
         2, 1, 32, 1000, 3e-3, 0.95, "L2: 2-7 past the earlier copy", layers_named=2),
)}

MAX_LR = 1e6  # far past divergence, so the learner can see one
MIN_LR = 1e-8  # far below any step that learns in a run's steps
LIMITS = {"layers": (1, 8), "heads": (1, 16), "d_model": (1, 512), "steps": (1, 1_000_000),
          "batch": (1, 4096), "seed": (0, 2**31 - 1), "frames": (1, 10_000), "evals": (1, 10_000)}


class TrainConfigError(ValueError):
    """A config that cannot be trained, said in one line."""


@dataclass(frozen=True)
class TrainConfig:
    task: str = "sort"
    layers: int = 2
    heads: int = 2
    d_model: int = 48
    steps: int = 2000
    lr: float = 3e-3
    seed: int = 0
    batch: int = 64
    frames: int = 50  # about this many α frames are captured over the run
    evals: int = 20  # and this many held-out accuracies

    @property
    def head_size(self) -> int:
        return self.d_model // self.heads

    @property
    def frame_every(self) -> int:
        return max(1, self.steps // self.frames)

    @property
    def eval_every(self) -> int:
        return max(1, self.steps // self.evals)

    def checked(self) -> TrainConfig:
        """This config, or TrainConfigError saying what is wrong with it."""
        if self.task not in TASKS:
            raise TrainConfigError(
                f"unknown task {self.task!r}; choose one of: {', '.join(TASKS)}")
        for name, (lo, hi) in LIMITS.items():
            value = getattr(self, name)
            if not isinstance(value, int) or not lo <= value <= hi:
                what = "steps: train for at least one step" if name == "steps" and value == 0 \
                    else (f"{name} must be a whole number from {whole(lo)} to {whole(hi)}, "
                          f"not {value!r}")
                raise TrainConfigError(what)
        if self.d_model % self.heads:
            raise TrainConfigError(
                f"d_model {self.d_model} does not split into {self.heads} heads: each head gets "
                f"d_model / heads columns, so pick a d_model divisible by {self.heads}")
        if not (isinstance(self.lr, int | float) and math.isfinite(self.lr) and MIN_LR <= self.lr <= MAX_LR):
            raise TrainConfigError(f"learning rate must be between {as_typed(MIN_LR)} and "
                                   f"{as_typed(MAX_LR)}, not {_said(self.lr)}")
        return self

    def as_dict(self) -> dict:
        return asdict(self)


def default_config(task: str = "sort", **changes) -> TrainConfig:
    """The task's own defaults (layers, heads, width, steps, learning rate), then ``changes``."""
    if task not in TASKS:
        raise TrainConfigError(f"unknown task {task!r}; choose one of: {', '.join(TASKS)}")
    t = TASKS[task]
    base = TrainConfig(task=task, layers=t.layers, heads=t.heads, d_model=t.d_model,
                       steps=t.steps, lr=t.lr)
    return replace(base, **changes)
