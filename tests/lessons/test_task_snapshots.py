"""A lesson task on the panel, unmet and met, at 80×24 and 120×40: the goal in words, the live
value against its target, Task ○ … Not yet / Task ✓ … Done with why (marks and words, not colour alone)."""

from __future__ import annotations

import pytest
from lesson_pilot import lesson_app, press, settle

SIZES = [(80, 24), (120, 40)]
SOLVE = ["down", "down", "right", "right", "enter", "2", "enter"]  # K[barked, d3] = 2, in K


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_task_unmet(snap_compare, size):
    """select step 4: 'Task  Make the verb query select barked alone…' and
    'Task ○ … Not yet: α(verb? → barked) 0.83 · goal ≥ 0.90'; the edge names h hint and ctrl+r."""

    async def run_before(pilot) -> None:
        await settle(pilot)
        await press(pilot, "n", "n", "n")

    assert snap_compare(lesson_app("select"), terminal_size=size, run_before=run_before)


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_task_met(snap_compare, size):
    """select step 4 after K[barked, d3] = 2: 'Task ✓ … Done: α(verb? → barked) 0.99 · goal ≥ 0.90'
    and the why; K shows 2 in barked's d3; still step 4 (no automatic advance)."""

    async def run_before(pilot) -> None:
        await settle(pilot)
        await press(pilot, "n", "n", "n", *SOLVE)

    assert snap_compare(lesson_app("select"), terminal_size=size, run_before=run_before)
