"""The mouse on the workbench and in a lesson: clicks select, they never crash or edit."""

from __future__ import annotations

import pytest
from screen_text import screen_lines, where

from attn_tui.tui.app import make_app
from attn_tui.tui.widgets.dims_bar import DimsBar
from attn_tui.tui.widgets.matrix_editor import MatrixEditor


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


async def test_a_click_on_a_dialogs_title_or_frame_keeps_it_open():
    """Read from where the click landed: one on the title or the frame is inside the dialog."""
    from attn_tui.tui.screens.dialogs.preset_modal import PresetModal

    app = make_app(preset="mask")
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await pilot.press("p")
        await pilot.pause()
        title = where(app, "Load an example")
        for x, y in ((title[0], title[1]), (title[0], title[1] - 1)):  # the title, the frame
            await pilot.click(offset=(x, y))
            await pilot.pause()
            assert isinstance(app.screen, PresetModal), (x, y)


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
    from attn_tui.tui.screens.help_screen import HelpScreen

    app = make_app(preset="mask")
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await pilot.press("question_mark")
        await pilot.pause()
        assert isinstance(app.screen, HelpScreen)
        x, y = where(app, "Esc or q closes")
        await pilot.click(offset=(x + 1, y))
        await pilot.pause()
        assert app.screen is app.workbench()
        await pilot.press("question_mark", "q")  # q closes it too, as its edge says: no quit
        await pilot.pause()
        assert app.screen is app.workbench() and app.is_running


async def _click_text(pilot, words: str, at: int = 0) -> None:
    """Click the character ``at`` of the first place the screen shows ``words``."""
    x, y = where(pilot.app, words)
    await pilot.click(offset=(x + at, y))
    await settle(pilot)


async def test_a_click_picks_a_bar_field_and_its_arrows_step_it():
    """The dimensions bar and a lab's controls could be reached by the mouse only on their
    first field: a click elsewhere on the bar left T picked, and no field stepped."""
    from attn_tui.tui.widgets.dims_bar import DimsBar

    app = make_app(preset="mask")
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        bar = app.screen.query_one(DimsBar)
        await _click_text(pilot, "d_k ‹4›")  # its name
        assert bar.has_focus and bar.current.key == "d_k"
        await _click_text(pilot, "d_k ‹4›", len("d_k ‹4"))  # its ›
        assert app.workbench().workspace.d_k == 5
        await _click_text(pilot, "d_k ‹5›", len("d_k "))  # its ‹
        assert app.workbench().workspace.d_k == 4
        await _click_text(pilot, "seed ‹0›", len("seed ‹"))  # another field's value
        assert bar.current.key == "seed" and app.workbench().workspace.d_k == 4


async def test_a_value_being_typed_is_kept_when_another_field_is_clicked():
    from attn_tui.tui.widgets.dims_bar import DimsBar

    app = make_app(preset="mask")
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await _click_text(pilot, "d_k ‹4›")
        await pilot.press("6")
        assert app.screen.query_one(DimsBar).editing == "6"
        await _click_text(pilot, "seed ‹0›")
        assert app.workbench().workspace.d_k == 6
        assert app.screen.query_one(DimsBar).current.key == "seed"


async def test_a_labs_controls_answer_clicks():
    from attn_tui.tui.widgets.control_bar import ControlBar

    app = make_app(lab="scaling")
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        bar = app.screen.query_one(ControlBar)
        before = app.screen.settings.keys
        await _click_text(pilot, f"keys ‹{before}›")
        assert bar.current.key == "keys"
        await _click_text(pilot, f"keys ‹{before}›", len(f"keys ‹{before}"))
        assert app.screen.settings.keys != before


async def test_an_arrow_clicked_on_another_field_while_typing_steps_it_after_the_typed_value():
    """Typed 4 into T, then a click on d_v's ›: T took the 4, but d_v was not stepped (the
    screen put the bar back to its settings as it took the 4, the step with them)."""
    app = make_app(preset="mask")
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        ws = app.workbench().workspace
        await _click_text(pilot, f"T keys ‹{ws.t_k}›")
        await pilot.press("6")
        await _click_text(pilot, f"d_v ‹{ws.d_v}›", len(f"d_v ‹{ws.d_v}"))
        after = app.workbench().workspace
        assert (after.t_k, after.d_v) == (6, ws.d_v + 1)


async def test_a_labs_arrow_clicked_on_another_field_while_typing_steps_it_too():
    from attn_tui.tui.widgets.control_bar import ControlBar

    app = make_app(lab="scaling")
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        s = app.screen.settings
        await _click_text(pilot, f"keys ‹{s.keys}›")
        await pilot.press("5")
        assert app.screen.query_one(ControlBar).editing == "5"
        await _click_text(pilot, f"trials ‹{s.trials}›", len(f"trials ‹{s.trials}"))
        assert app.screen.settings.keys == 5 and app.screen.settings.trials > s.trials


async def test_a_click_beside_the_save_dialog_keeps_the_name_typed_for_the_next():
    """A stray click beside the dialog (one that brings the window to the front) threw the
    typed name away, where Escape is the deliberate way to."""
    from textual.widgets import Input

    from attn_tui.tui.screens.dialogs.file_modal import FileModal

    app = make_app(preset="mask", confirm_quit=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await pilot.press("ctrl+s")
        await pilot.pause()
        app.screen.query_one("#file-path", Input).value = "mysess.json"
        await pilot.click(offset=(1, 1))
        await pilot.pause()
        assert app.screen is app.workbench()
        await pilot.press("ctrl+s")
        await pilot.pause()
        assert isinstance(app.screen, FileModal)
        assert app.screen.query_one("#file-path", Input).value == "mysess.json"


def _post_at(app, data: str, when: float) -> None:
    """A terminal's mouse report, read by Textual's parser, posted as made at ``when``."""
    from attn_tui.tui.textual_compat import xterm_parser

    parser = xterm_parser()()
    for event in [*parser.feed(data), *parser.feed("")]:
        event.set_sender(app)
        event.time = when
        app.post_message(event)


async def _double_click(pilot, x: int, y: int,
                        times: tuple[float, ...] = (0.0, 0.05, 0.15, 0.2)) -> None:
    """Two clicks at one place, each press and release posted as made at ``times`` (seconds
    from now), the app settled between them, as a person's double click is answered."""
    import time

    start = time.monotonic()
    for k, when in enumerate(times):
        kind = "M" if k % 2 == 0 else "m"  # press, release
        _post_at(pilot.app, f"\x1b[<0;{x + 1};{y + 1}{kind}", start + when)
        await settle(pilot)


async def _presets_open(pilot) -> tuple[int, int]:
    """p's list of examples open on a settled app: where its "mask" entry is."""
    await settle(pilot)
    await pilot.press("p")
    await settle(pilot)
    return where(pilot.app, "mask ")


@pytest.mark.parametrize("times", [
    (0.0, 0.05, 0.15, 0.2),
    (0.0, 0.12, 0.52, 0.6),  # the first press held longer: 0.48 s from release to release
    (0.0, 0.1, 0.25, 0.3, 0.55, 0.58),  # a triple click
])
async def test_a_double_click_on_a_preset_loads_it_and_opens_no_cell_under_it(times):
    """The second click reached the workbench the first had gone back to, and a double click
    there opens a cell for typing: K's dog·d1, which the next digit would have replaced."""
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        x, y = await _presets_open(pilot)
        await _double_click(pilot, x + 1, y, times)
        await settle(pilot)
        bench = app.workbench()
        assert app.screen is bench and bench.workspace.mask == "causal"
        assert [e.editing for e in bench.query(MatrixEditor)] == [None, None, None]


async def test_a_click_soon_after_a_key_opened_a_dialog_is_the_dialogs():
    """A click, p, and a click on the same spot within half a second: the second was dropped
    as if it were a double click's."""
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        x, y = await _presets_open(pilot)
        await pilot.press("escape")
        await settle(pilot)
        await _double_click(pilot, x + 1, y, (0.0, 0.05))  # one click on the workbench
        await pilot.press("p")
        await settle(pilot)
        await _double_click(pilot, x + 1, y, (0.2, 0.25))  # one click, 0.15 s on
        await settle(pilot)
        assert app.screen is app.workbench() and app.workbench().workspace.mask == "causal"


async def test_a_double_click_on_a_palette_command_runs_it_alone():
    app = make_app(preset="mask")  # a cell of Q or the step table under "Dimensions"
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await pilot.press("ctrl+p")
        await settle(pilot)
        await pilot.press("D", "i", "m", "e", "n")  # the list is longer than the window
        await settle(pilot)
        x, y = where(app, "Dimensions")
        await _double_click(pilot, x, y)
        await settle(pilot)
        bench = app.workbench()
        assert app.screen is bench and app.focused is bench.query_one(DimsBar)
        assert [e.editing for e in bench.query(MatrixEditor)] == [None, None, None]


async def test_a_double_click_on_a_cell_still_opens_it_for_typing():
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        x, y = where(app, "the     0.2")  # K's second row
        await _double_click(pilot, x + 8, y)
        await settle(pilot)
        assert app.workbench().query_one("#editor-k", MatrixEditor).editing == (1, 0)


@pytest.mark.parametrize(("row", "words"), [(2, "best    0.6   0.7   0.8"),
                                             (0, "is      0.4   0.5   0.6")])
async def test_a_cell_pressed_while_a_refused_value_moves_the_panes_is_the_cell_clicked(row, words):
    """Pressing on K while Q held a refused 'x' put Q's message up, which pushed K two rows
    down before the button came up: the click landed on another row, and 9 Enter edited that.
    On K's first row the release landed on its border, where no click is made at all."""
    from key_burst import from_the_terminal

    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await pilot.press("enter", "x")
        await settle(pilot)
        x, y = where(app, words)
        x += 14  # ·d2
        from_the_terminal(app, f"\x1b[<0;{x + 1};{y + 1}M")
        await settle(pilot)  # held: the message is up and the panes have moved
        assert "not a number" in "\n".join(screen_lines(app))
        from_the_terminal(app, f"\x1b[<0;{x + 1};{y + 1}m")
        await settle(pilot)
        k = app.workbench().query_one("#editor-k", MatrixEditor)
        assert k.grid.cursor_coordinate == (row, 1)
        await pilot.press("9", "enter")
        await settle(pilot)
        assert app.workbench().workspace.k[row][1] == 9


async def test_a_press_on_the_header_then_a_release_on_a_cell_moves_nothing():
    from key_burst import from_the_terminal

    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        k = app.workbench().query_one("#editor-k", MatrixEditor)
        x, y = where(app, "is      0.4   0.5   0.6")
        before = k.grid.cursor_coordinate
        from_the_terminal(app, f"\x1b[<0;{x + 15};{y}M")  # pressed on K's header, at d2
        await settle(pilot)
        from_the_terminal(app, f"\x1b[<0;{x + 15};{y + 2}m")  # released on the·d2
        await settle(pilot)
        assert k.grid.cursor_coordinate == before


async def test_a_double_click_opens_the_cell_clicked_though_the_first_click_scrolled_the_pane():
    """Deep in a scrolled column, the first click brought Q's title back into sight, which
    moved the cells under the pointer: the second click opened another row's cell."""
    from dataclasses import replace

    from attn_tui.core import state

    ws = replace(state.resize(state.from_preset("random"), t=20), selected=0)
    app = make_app(workspace=ws)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        inputs = app.screen.query_one("#inputs")
        inputs.scroll_to(y=12, animate=False)
        await settle(pilot)
        [y] = [y for y, line in enumerate(screen_lines(app)) if line.startswith("│t17 ")]
        await _double_click(pilot, 13, y)  # Q's t17·d2, the last row in sight
        await settle(pilot)
        q = app.workbench().query_one("#editor-q", MatrixEditor)
        assert q.editing == (16, 1)
