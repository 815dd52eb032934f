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


async def test_a_click_around_a_dialog_closes_it_as_escape_does():
    """The dialogs had no way out by mouse: a click beside one did nothing."""
    from attn_tui.tui.screens.dialogs.preset_modal import PresetModal

    app = make_app(preset="mask")
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        before = app.workbench().workspace
        await pilot.press("p")
        await pilot.pause()
        assert isinstance(app.screen, PresetModal)
        await pilot.click(app.screen.query_one("OptionList"))  # inside: no closing
        await pilot.pause()
        assert isinstance(app.screen, PresetModal)
        await pilot.click(offset=(1, 1))  # on the dimmed workbench around it
        await pilot.pause()
        assert app.screen is app.workbench() and app.workbench().workspace == before


async def test_a_file_dialogs_words_accept_and_cancel_when_clicked(tmp_path, monkeypatch):
    """Save's dialog said "Enter accepts, Escape cancels" and had no button: a mouse user
    reached it from the quit question's Save and could go neither way."""
    from textual.widgets import Input

    from attn_tui.tui.screens.dialogs.file_modal import FileModal

    monkeypatch.chdir(tmp_path)
    app = make_app(preset="mask", confirm_quit=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        for words, saved in (("Escape cancels", False), ("Enter accepts", True)):
            await pilot.press("ctrl+s")
            await pilot.pause()
            dialog = app.screen
            assert isinstance(dialog, FileModal)
            dialog.query_one("#file-path", Input).value = "mine.json"
            hint = dialog.query_one("#file-hint")
            at = str(hint.render()).index(words)
            await pilot.click(hint, offset=(at + 1, 0))
            await pilot.pause()
            assert app.screen is app.workbench()
            assert (tmp_path / "mine.json").is_file() == saved


async def test_the_helps_esc_closes_is_a_click_where_help_covers_the_screen():
    from screen_text import screen_lines

    from attn_tui.tui.screens.help_screen import HelpScreen

    app = make_app(preset="mask")
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await pilot.press("question_mark")
        await pilot.pause()
        assert isinstance(app.screen, HelpScreen)
        y, line = next((y, line) for y, line in enumerate(screen_lines(app))
                       if "Esc closes" in line)
        await pilot.click(offset=(line.index("Esc closes") + 1, y))
        await pilot.pause()
        assert app.screen is app.workbench()
