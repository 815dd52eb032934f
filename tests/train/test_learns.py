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
