"""Pictures of each lesson at 80×24: its first step, and its first question before it is answered.

Reviewed by eye (svg2png), then held still. Update with --snapshot-update only after looking.
"""

from __future__ import annotations

import pytest
from lesson_pilot import lesson_app, press, settle

from attn_tui.lessons import load

LESSONS = ["one", "select", "scale", "mask", "params", "nanogpt", "real-heads", "learning"]
FIRST_QUESTION = {name: next(k for k, s in enumerate(load(name).steps, start=1) if s.question)
                  for name in LESSONS}

# what a reviewer should see in each picture
FIRST = {
    "one": "Q, K, V of the three-key example with q's cells marked ›; panel: 'Step 1 of 7', "
           "q = (0.1, 0.2, 0.3) and the three keys in words, keys to try.",
    "select": "K's diagonal marked; panel names the three axes and the keys' vectors.",
    "scale": "the scaling lab with ÷√d_k off: the sd column 1.756 … 28.591 marked; "
             "'Step 1 of 5'.",
    "mask": "the 4×4 scores 2.0000 … marked on the map, mask none; 'Step 1 of 5'.",
    "params": "the model lab: attention 4 D² = 1,048,576 marked; panel with V, D, L, h, H.",
    "nanogpt": "torch float32, V = x[0] with all eight rows marked; panel lists x[0] to 4 places.",
    "real-heads": "the model screen: 13 tokens, the grid of 72 shade pictures above the panel; "
                  "'Step 1 of 7', 6 layers of 12 heads, 13 tokens.",
    "learning": "the train lab on previous (L 1, h 1, D 32, 200 steps) before training: no "
                "maps yet, the plot empty; 'Step 1 of 7' names the model and the task.",
}
QUESTION = {
    "one": "step 3: the ÷√d_k column marked; the question and its three choices; the panel's "
           "lower edge says 'a, b or c answers'.",
    "select": "step 3: the map in scores view, 2.5981 marked for dog and barked; the question.",
    "scale": "step 2: H raw 1.7771/0.1333 and max α raw 0.5492/0.9611 marked; the question.",
    "mask": "step 3: weights with every row summing to 1.0000, the sum column marked; "
            "the question about row 'the'.",
    "params": "step 3: attention's 1,048,576 marked; the question about 16 heads.",
    "nanogpt": "step 4: the masked scores, 0 and -inf, row t3 marked; the question.",
    "real-heads": "step 2: layer 1 head 3 in brackets in the grid, the large picture and the "
                  "summary hidden; the question about 'sat' and its four choices.",
    "learning": "step 2: the maps pane hidden (its title names the pattern); the question "
                "about where a trained row's weight goes, four choices.",
}


@pytest.mark.parametrize("name", LESSONS)
def test_first_step(snap_compare, name):
    """Each lesson as it opens: FIRST[name] says what a reviewer should see."""

    async def run_before(pilot) -> None:
        await settle(pilot)

    assert snap_compare(lesson_app(name), terminal_size=(80, 24), run_before=run_before), \
        FIRST[name]


@pytest.mark.parametrize("name", LESSONS)
def test_first_question(snap_compare, name):
    """Each lesson's first question, not yet answered: QUESTION[name] says what to look for."""

    async def run_before(pilot) -> None:
        await settle(pilot)
        await press(pilot, *["n"] * (FIRST_QUESTION[name] - 1))

    assert snap_compare(lesson_app(name), terminal_size=(80, 24), run_before=run_before), \
        QUESTION[name]


def test_mask_question_answered_wrong(snap_compare):
    """Step 3 answered 'a': '✗ Not quite: it is b) less than 1', why, and on the map row 'the'
    now 0.4551 with its sum 0.4551 marked; the status line says causal-after."""

    async def run_before(pilot) -> None:
        await settle(pilot)
        await press(pilot, "n", "n", "a")

    assert snap_compare(lesson_app("mask"), terminal_size=(80, 24), run_before=run_before)
