"""The mouse on the workbench and in a lesson: clicks select, they never crash or edit."""

from __future__ import annotations

from attn_tui.tui.app import make_app


async def settle(pilot) -> None:
    await pilot.pause()
    await pilot.app.workers.wait_for_complete()
    await pilot.pause()


async def _type_an_unsaved_value(pilot) -> None:
    for key in ("7", "enter"):
        await pilot.press(key)
    await pilot.pause()


async def test_double_clicking_the_step_table_keeps_the_app_and_the_unsaved_edit():
    app = make_app(preset="mask")
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        await _type_an_unsaved_value(pilot)
        edited = app.workbench().workspace
        assert edited.q[0][0] == 7
        await pilot.double_click("#steps")
        await pilot.pause()
        assert app.is_running and app._exception is None
        assert app.workbench().workspace == edited


async def test_double_clicking_the_step_table_in_a_lesson_keeps_the_lesson():
    app = make_app(lesson="mask")
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        before = app.workbench().workspace
        await pilot.double_click("#steps")
        await settle(pilot)
        assert app.is_running and app._exception is None
        assert app.workbench().workspace == before
