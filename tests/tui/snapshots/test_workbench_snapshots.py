"""Pictures of the workbench and help: reviewed by eye, then held still.

Update with `make test PYTEST_ARGS="--snapshot-update"` after looking at the new SVGs.
"""

from __future__ import annotations

import pytest

from attn_tui.tui.app import make_app

SIZES = [(80, 24), (120, 40)]


async def _settle(pilot) -> None:
    pilot.app.animation_level = "none"
    await pilot.app.workers.wait_for_complete()
    await pilot.pause()


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_first_screen(snap_compare, size):
    """The chapter's three-key example: q·k 0.3200/0.1300/0.4400, α 0.3369/0.3019/0.3611,
    sums 3.5701 and 1.0000, ζ = (0.4118, 0.4514, 0.5816), entropy 1.5811 of 1.5850."""
    assert snap_compare(make_app(), terminal_size=size, run_before=_settle)


@pytest.mark.parametrize("size", [(72, 24), (60, 20)], ids=lambda s: f"{s[0]}x{s[1]}")
def test_narrow_windows(snap_compare, size):
    """Under 76 columns Q, K and V give up six columns and the step table keeps α (72×24);
    under 70 the results sit below the inputs, each pane scrolling on its own (60×20)."""
    assert snap_compare(make_app(), terminal_size=size, run_before=_settle)


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
@pytest.mark.parametrize("presses", [0, 1, 2], ids=["causal", "causal-after", "none"])
def test_mask_modes(snap_compare, size, presses):
    """The 4×4 mask example. causal: every row sums to 1.0000 with '·' above the diagonal;
    causal-after: sums 0.4551 / 0.6742 / 0.8122 / 1.0000 and a lost column (▼0.5449 …);
    none: full rows. The status line names the mode in words."""

    async def run_before(pilot) -> None:
        for _ in range(presses):
            await pilot.press("m")
        await _settle(pilot)

    assert snap_compare(make_app(preset="mask"), terminal_size=size, run_before=run_before)


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_help_screen(snap_compare, size):
    """Help lists every key by section: everywhere, workbench, editors, tables, dimensions."""

    async def run_before(pilot) -> None:
        await pilot.press("question_mark")
        await _settle(pilot)

    assert snap_compare(make_app(), terminal_size=size, run_before=run_before)


def test_invalid_input_message(snap_compare):
    """Typing 'abc' into Q[who, d1]: the edit line keeps 'abc', a message says it is not a
    number and that 0.1 was kept; the numbers on the right are unchanged."""

    async def run_before(pilot) -> None:
        await pilot.press("enter", "a", "b", "c", "enter")
        await _settle(pilot)

    assert snap_compare(make_app(), terminal_size=(80, 24), run_before=run_before)


def test_example_picker_fits_80_columns(snap_compare):
    """p at 80×24: six examples, one line each (one, select, mask, random, lecture-bow,
    lecture-head), none wrapped; the first highlighted."""

    async def run_before(pilot) -> None:
        await pilot.press("p")
        await _settle(pilot)

    assert snap_compare(make_app(), terminal_size=(80, 24), run_before=run_before)
