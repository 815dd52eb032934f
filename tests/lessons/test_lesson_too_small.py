"""A lesson started in a window too small to use: its steps still set up their own screen."""

from __future__ import annotations

from attn_tui.tui.app import make_app
from attn_tui.tui.screens import says_too_small
from attn_tui.tui.textual_compat import notifications


async def _settle(pilot) -> None:
    for _ in range(8):
        await pilot.pause()


async def test_a_lab_lesson_sets_up_its_lab_under_the_too_small_screen():
    # its actions ran against the too-small screen ("which TooSmallScreen does not have"),
    # and step 1 showed ÷√d_k on once the window grew
    app = make_app(lesson="scale")
    async with app.run_test(size=(30, 10)) as pilot:
        await _settle(pilot)
        assert says_too_small(app.screen)
        assert not any("does not have" in n.message for n in notifications(app))
        await pilot.resize_terminal(100, 30)
        await _settle(pilot)
        assert type(app.screen).__name__ == "ScalingLabScreen"
        assert app.screen.settings.scale is False


async def test_a_workbench_lesson_leaves_the_too_small_screen_up():
    # it popped every screen above the workbench, the too-small one too, and drew the squashed
    # layout at 30 x 10
    app = make_app(lesson="mask")
    async with app.run_test(size=(30, 10)) as pilot:
        await _settle(pilot)
        assert says_too_small(app.screen)
        await pilot.resize_terminal(100, 30)
        await _settle(pilot)
        assert app.screen is app.workbench() and app.tutor.index == 0
        assert not any("does not have" in n.message for n in notifications(app))
