"""Edge cases of size and magnitude: no NaN anywhere the learner looks."""

from __future__ import annotations

import numpy as np
import pytest
from screen_text import screen_text

from attn_tui.compute import attend
from attn_tui.core import state
from attn_tui.tui.app import make_app

CASES = {
    "T=1, d=1": ([[2.0]], [[3.0]], [[4.0]]),
    "all-equal scores": ([[1.0, 1.0]] * 3, [[1.0, 1.0]] * 3, [[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]]),
    "zero vectors": ([[0.0, 0.0]] * 2, [[0.0, 0.0]] * 2, [[0.0, 0.0]] * 2),
    "entries at +-1e6": ([[1e6, -1e6], [-1e6, 1e6]], [[1e6, 1e6], [-1e6, -1e6]],
                         [[1.0, 0.0], [0.0, 1.0]]),
    "one huge key": ([[1e6] * 4], [[1e6] * 4, [-1e6] * 4, [0.0] * 4], [[1.0]] * 3),
}


@pytest.mark.parametrize("mask", ["none", "causal", "causal-after"])
@pytest.mark.parametrize("dtype", ["float64", "float32"])
@pytest.mark.parametrize("case", CASES)
def test_no_nan_in_any_shown_stage(case, mask, dtype):
    q, k, v = CASES[case]
    s = attend(q, k, v, mask=mask, dtype=dtype)
    for name in ("scores", "scaled", "weights", "row_sums", "output", "entropy", "max_entropy"):
        assert not np.isnan(getattr(s, name)).any(), name
    assert not np.isnan(s.exp).any()  # exp may overflow to inf on purpose, but never NaN
    assert np.all(s.weights >= 0) and np.all(s.weights <= 1)
    if mask != "causal-after":
        np.testing.assert_allclose(s.row_sums, 1.0, rtol=1e-6)


def test_single_token_width_one_workspace_on_screen():
    ws = state.resize(state.from_preset("mask"), t=1, d_k=1, d_v=1)

    async def run():
        async with make_app(workspace=ws).run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            text = screen_text(pilot.app)
            assert "nan" not in text.lower().replace("nanogpt", "")
            assert "1.0000" in text

    import asyncio

    asyncio.run(run())


async def test_a_million_in_a_cell_keeps_the_weights_finite():
    async with make_app().run_test(size=(80, 24)) as pilot:
        await pilot.press("1", "e", "6", "enter")
        await pilot.pause()
        steps = pilot.app.screen.steps
        assert steps is not None and pilot.app.screen.workspace.q[0][0] == 1e6
        assert not np.isnan(steps.weights).any()
        assert steps.weights[0, 2] == pytest.approx(1.0)  # "best" has the largest first entry
        assert "nan" not in screen_text(pilot.app).lower()
