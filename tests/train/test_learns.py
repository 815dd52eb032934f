"""Small configurations of each task reach their held-out accuracy in seconds."""

from __future__ import annotations

import pytest

from attn_tui.train import TASKS, default_config
from attn_tui.train.trainer import Run

# (task, changes from the task's defaults, steps): the smallest runs that clear the threshold
SMALL = [
    ("previous", dict(d_model=16), 60),
    ("reverse", dict(d_model=32), 60),
    pytest.param("sort", dict(d_model=32), 240, marks=pytest.mark.slow),
    ("induction", dict(d_model=32), 180),
]


@pytest.mark.parametrize(("task", "changes", "steps"), SMALL)
def test_a_small_run_reaches_the_task_threshold(task, changes, steps) -> None:
    run = Run(default_config(task, steps=steps, evals=4, frames=4, **changes))
    run.advance()
    assert not run.diverged
    assert run.step == steps
    assert run.evals[-1][0] == steps
    assert run.last_accuracy >= TASKS[task].target, run.evals


@pytest.mark.slow
def test_the_default_induction_run_looks_where_its_caption_says() -> None:
    """The caption said "just past the earlier copy", the textbook head; the default run puts
    next to nothing there and looks 2 to 7 keys past it (seed 0 of the caption's 0-3; 7 is the
    query's own previous token, which seed 0 looks at for 2 of its 7 queries)."""
    import numpy as np

    run = Run(default_config("induction", seed=0))
    run.advance()
    alpha = run.frames[-1][1][1, 0]  # layer 2, head 1
    second = range(8, alpha.shape[0])  # the second copy's queries; its earlier copy 8 back
    past = [int(np.argmax(alpha[q])) - (q - 8) for q in second]
    assert all(2 <= p <= 7 for p in past), past  # (here: 2, 2, 3, 4, 3, 7, 7)
    assert max(alpha[q, q - 7] for q in second) < 0.03  # one past the earlier copy
    assert "2 to 7 keys past its earlier copy" in TASKS["induction"].pattern
