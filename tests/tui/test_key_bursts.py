"""Keys that arrive together (a fast typist, an SSH link that sends several in one packet) take
effect in the order they were typed.

Textual runs a binding only once its key has bubbled up to the App, a few message hops after
the focused widget has read the keys queued behind it: `Right 5 Enter` put 5 into the cell the
cursor was leaving, and `Tab 5 Enter` typed into Q instead of K.
"""

from __future__ import annotations

import shutil

import pytest
from key_burst import burst, from_the_terminal, settle, typed_state
from late_timers import make_one_shot_timers_late
from textual import events

from attn_tui.tui.app import make_app
from attn_tui.tui.keys import key_line
from attn_tui.tui.widgets.matrix_editor import MatrixEditor


@pytest.mark.parametrize(("preset", "keys", "want"), [
    ("one", "Right 5 Enter", {("q", 0, 1): 5.0, ("q", 0, 0): 0.1}),
    ("one", "0 . 5 Enter Right 0 . 7 Enter Right 1 / 3 Enter",
     {("q", 0, 0): 0.5, ("q", 0, 1): 0.7, ("q", 0, 2): 1 / 3}),
    ("one", "End 8 Enter", {("q", 0, 2): 8.0, ("q", 0, 0): 0.1}),
    ("one", "Tab 5 Enter", {("k", 0, 0): 5.0, ("q", 0, 0): 0.1}),
    ("mask", "Down 9 Enter", {("q", 1, 0): 9.0}),
])
async def test_a_burst_edits_the_cells_it_names(preset, keys, want):
    app = make_app(preset=preset)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        before = app.screen.workspace
        burst(app, keys)
        await settle(pilot)
        ws = app.screen.workspace
        for (name, r, c), value in want.items():
            assert getattr(ws, name)[r][c] == pytest.approx(value), (name, r, c)
        if keys.startswith("Down"):
            assert ws.selected == 1  # the step table follows the cursor to the edited row
            assert ws.q[0] == before.q[0]


async def test_enter_right_after_a_commit_opens_the_cell_on_the_value_just_entered():
    # 7 Enter Enter in one read opened the cell on its old value, 0.1: Enter again stored it
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        burst(app, "7 Enter Enter")
        await settle(pilot)
        editor = app.screen.query_one("#editor-q", MatrixEditor)
        assert editor.editing == (0, 0) and editor.buffer.text == "7.0"
        burst(app, "Enter")
        await settle(pilot)
        assert app.screen.workspace.q[0][0] == 7.0


async def test_d_then_a_number_sets_t_not_a_cell():
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        before = app.screen.workspace
        burst(app, "D 6 Enter")
        await settle(pilot)
        ws = app.screen.workspace
        assert len(ws.k) == 6  # T counts the keys; the example's one query stays
        assert ws.q == before.q


async def test_a_burst_on_a_lab_control_bar_sets_the_field_it_moved_to():
    app = make_app(lab="model")
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        burst(app, "Right 1 2 3 4 Enter")
        await settle(pilot)
        assert app.screen.settings.V == 1234


async def test_a_binding_right_after_enter_sees_the_value_enter_stored(tmp_path):
    # 7 Enter u: "Nothing to undo", then the 7 landed; 7 Enter ctrl+s saved the old value;
    # D 6 Enter ctrl+s saved T = 3; 7 Enter q quit without asking
    from attn_tui.core import session
    from attn_tui.tui.screens.dialogs.confirm_quit_modal import ConfirmQuitModal

    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        bench = app.screen
        burst(app, "7 Enter u")
        await settle(pilot)
        assert bench.workspace.q[0][0] == 0.1  # undone, and not stored again afterwards
        path = tmp_path / "s.json"
        bench.file.path = str(path)
        burst(app, "7 Enter C-s")
        await settle(pilot)
        assert session.load(path)[0].q[0][0] == 7.0 and not bench.dirty
        burst(app, "D 6 Enter C-s")
        await settle(pilot)
        assert len(session.load(path)[0].k) == 6 and not bench.dirty
        burst(app, "Tab 8 Enter q")  # from the bar round to Q, then quit in the same burst
        await settle(pilot)
        assert isinstance(app.screen, ConfirmQuitModal)
        assert bench.workspace.q[0][0] == 8.0


async def test_a_lab_binding_right_after_enter_sees_the_typed_value():
    app = make_app(lab="model")
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        burst(app, "Right 1 2 3 4 Enter p")  # p: the next preset, from V = 1234's "custom"
        await settle(pilot)
        assert app.screen.settings.preset != "custom"
        assert app.screen.query_one("#controls").in_flight is None


async def test_keys_typed_as_a_dialog_opens_reach_its_input():
    # ctrl+p m a s k: the palette searched for "ask"; its input takes focus only once drawn,
    # and the m handed back before that went to the bare screen
    from textual.command import CommandPalette
    from textual.widgets import Input

    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        before = app.screen.workspace
        burst(app, "C-p m a s k")
        await settle(pilot)
        assert isinstance(app.screen, CommandPalette)
        assert app.screen.query_one(Input).value == "mask"
        burst(app, "Escape")
        await settle(pilot)
        assert app.screen.workspace == before  # m did not also cycle the mask


async def test_ctrl_q_right_after_typing_asks_about_the_typed_value():
    # 7 ctrl+q in one burst: ctrl+q (a priority key) was read before the 7 reached the grid,
    # so nothing was open or unsaved and the app quit, 7 and all
    from attn_tui.tui.screens.dialogs.confirm_quit_modal import ConfirmQuitModal

    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        burst(app, "7 C-q")
        await settle(pilot)
        assert app.is_running and isinstance(app.screen, ConfirmQuitModal)
        assert app.screen.can_save


async def test_d_then_a_number_from_the_step_table_sets_t():
    # Tab Tab Tab to the step table, then D 6 Enter: the 6 and Enter were lost on the table
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        burst(app, "Tab Tab Tab")
        await settle(pilot)
        assert app.focused is app.screen.query_one("#steps")
        burst(app, "D 6 Enter")
        await settle(pilot)
        assert len(app.screen.workspace.k) == 6


async def test_keys_after_ctrl_q_answer_the_question_it_asks():
    # 5 ctrl+q y: the y went into the cell ("5y is not a number") before the question opened
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        burst(app, "5 C-q y")
        await settle(pilot)
    assert not app.is_running and app.return_code == 0


# Keys typed across a dialog that closes: the key that closes it must have closed it before
# the next one is read, and the keys after it go to whatever is under (or opened by) it.

async def test_ctrl_s_enter_then_a_number_saves_the_default_name_and_types_the_number(
        tmp_path, monkeypatch):
    # saved to attn-session.json5: the 5 went into the path before Enter's submit was read
    monkeypatch.chdir(tmp_path)
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        burst(app, "C-s Enter 5 Enter")
        await settle(pilot)
        assert sorted(p.name for p in tmp_path.iterdir()) == ["attn-session.json"]
        assert app.screen.workspace.q[0][0] == 5.0


async def test_enter_in_an_open_file_dialog_closes_it_before_the_next_key(tmp_path,
                                                                           monkeypatch):
    from attn_tui.tui.screens.dialogs.file_modal import FileModal

    monkeypatch.chdir(tmp_path)
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        burst(app, "C-s")
        await settle(pilot)
        assert isinstance(app.screen, FileModal)
        burst(app, "Enter 5 Enter")
        await settle(pilot)
        assert sorted(p.name for p in tmp_path.iterdir()) == ["attn-session.json"]
        assert app.screen.workspace.q[0][0] == 5.0


@pytest.mark.parametrize("keys", ["? q 5 Enter", "? Escape 5 Enter", "g Escape 5 Enter",
                                  "p Escape 5 Enter"])
async def test_keys_after_a_dialog_is_closed_reach_the_workbench(keys):
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        burst(app, keys)
        await settle(pilot)
        assert app.screen.workspace.q[0][0] == 5.0


async def test_keys_after_choosing_an_example_edit_it():
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        burst(app, "p Down Enter Right 7 Enter")  # the second example is 'select'
        await settle(pilot)
        ws = app.screen.workspace
    select = make_app(preset="select").initial_workspace
    assert ws.k == select.k
    assert ws.q[0] == (select.q[0][0], 7.0, *select.q[0][2:])


async def test_keys_after_opening_a_lab_from_go_to_reach_the_lab():
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        burst(app, "g m o d e l Enter Right 1 2 3 4 Enter")
        await settle(pilot)
        assert type(app.screen).__name__ == "ModelLabScreen"
        assert app.screen.settings.V == 1234


async def test_enter_on_cancel_in_the_quit_question_then_keys_edit_again():
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        burst(app, "7 Enter q Enter 5 Enter")  # q asks (unsaved 7); Enter is on Cancel
        await settle(pilot)
        assert app.is_running and app.screen.workspace.q[0][0] == 5.0


# Lesson keys (n, p, a-d, Escape) are priority keys: the App reads them before the keys typed
# just ahead of them reach the grid, and a step replaces the numbers while it sets up.

@pytest.mark.parametrize(("keys", "step", "q00", "toast"), [
    ("7 Enter n", 1, 0.1, True),  # the 7 was stored, then step 2 set its own numbers: u
    ("n 7 Enter", 1, 7.0, False),  # typed into step 2 once it is set up (was lost)
    ("7 Enter n 8 Enter", 1, 8.0, True),
])
async def test_lesson_keys_in_a_burst_act_in_the_order_typed(keys, step, q00, toast):
    app = make_app(lesson="one")
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        burst(app, keys)
        await settle(pilot)
        assert app.tutor.index == step
        assert app.screen.workspace.q[0][0] == q00
        said = app.screen.query_one("#lesson-panel").plain
        assert ("starts from its own numbers" in said) == toast


async def test_a_lesson_key_after_a_digit_is_typed_into_the_cell_it_opened():
    app = make_app(lesson="one")
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        burst(app, "5 n")
        await settle(pilot)
        editor = app.screen.query_one("#editor-q")
        assert app.tutor.index == 0 and editor.buffer.text == "5n"


async def test_keys_after_replacing_a_file_in_one_burst_are_not_held_for_good(tmp_path,
                                                                               monkeypatch):
    # Enter Enter 6: the hand-back was queued on the dialog, which closed before running it;
    # every key after that joined a line that never moved (the keyboard was dead)
    monkeypatch.chdir(tmp_path)
    (tmp_path / "attn-session.json").write_text("old")
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        burst(app, "C-s Enter Enter 6 Enter")
        await settle(pilot)
        assert (tmp_path / "attn-session.json").read_text() != "old"
        assert app.screen.workspace.q[0][0] == 6.0
        burst(app, "Right 7 Enter")
        await settle(pilot)
        assert app.screen.workspace.q[0][1] == 7.0


@pytest.mark.parametrize("lab", [None, "model"])
async def test_enter_enter_in_the_command_palette_runs_the_command_once(lab, monkeypatch):
    # crashed (ScreenStackError) on the workbench and closed the lab under the palette; then,
    # on a highlighted hit, both Enters chose it and the command ran twice
    from textual.command import CommandList

    from attn_tui.tui.app import AttnApp
    from attn_tui.tui.screens.palette import Palette

    opened: list[str] = []
    real = AttnApp.open_lab
    monkeypatch.setattr(AttnApp, "open_lab", lambda self, name: (opened.append(name),
                                                                  real(self, name)))
    app = make_app(lab=lab)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        under = app.screen
        burst(app, "C-p")
        await settle(pilot)
        assert isinstance(app.screen, Palette)
        # nothing searched: the first Enter highlights the first command if the list is out
        # (a lab's short list is out at once), and the second runs it; the lab stays under it
        burst(app, "Enter Enter")
        await settle(pilot)
        assert app.is_running and under in app.screen_stack
        if app.screen is not under:
            await pilot.press("escape")
            await settle(pilot)
        assert app.screen is under
        burst(app, "C-p l a b h e a d s")  # not the real-heads lesson, which "heads" finds
        for _ in range(200):  # the search runs in a worker
            await pilot.pause()
            if isinstance(app.screen, Palette) and app.screen.query_one(
                    CommandList).highlighted is not None:
                break
        burst(app, "Enter Enter")
        await settle(pilot)
        assert opened[-1:] == ["heads"] and opened.count("heads") == 1
        assert type(app.screen).__name__ == "HeadsLabScreen"


async def test_a_too_small_terminal_at_start_does_not_hold_keys():
    # nothing there takes focus: each key waited out the start-up hold, q took 0.5 s
    app = make_app()
    async with app.run_test(size=(30, 10)) as pilot:
        await settle(pilot)
        burst(app, "x x x q")
        await settle(pilot)
        assert not app.is_running


async def test_a_key_after_the_terminal_loses_focus_is_not_held():
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        app.post_message(events.AppBlur())
        await settle(pilot)
        burst(app, "5 Enter")
        await settle(pilot)
        assert app.screen.workspace.q[0][0] == 5.0


async def test_a_paste_keeps_its_place_among_held_keys():
    # n, a paste of 7, Enter: the paste overtook the held keys and went into the old step
    app = make_app(lesson="one")
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        burst(app, "n")
        app.post_message(events.Paste("7"))
        burst(app, "Enter")
        await settle(pilot)
        assert app.tutor.index == 1 and app.screen.workspace.q[0][0] == 7.0


async def test_keys_typed_while_the_app_starts_wait_for_the_first_focus():
    # typed at launch, before the grid had focus, a 5 reached the bare screen and was lost
    app = make_app()

    class Early(type(app)):
        def on_mount(self) -> None:  # the App's own on_mount runs after this one
            burst(self, "5 Enter Right 7 Enter")

    app.__class__ = Early
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        assert app.screen.workspace.q[0][:2] == (5.0, 7.0)


async def test_keys_typed_before_the_workbench_has_filled_its_tables_wait_for_it(monkeypatch):
    # Textual focuses the Q grid before the workbench's on_mount fills it: under load an Enter
    # read then opened no cell, and "a b c" added a token and copied the table (CI saw it)
    import asyncio

    from attn_tui.tui.screens.workbench_screen import WorkbenchScreen

    filled = WorkbenchScreen.on_mount

    async def slow_mount(self) -> None:
        await asyncio.sleep(0.3)  # a loaded machine, between the focus and the filling
        filled(self)

    monkeypatch.setattr(WorkbenchScreen, "on_mount", slow_mount)
    app = make_app()

    class Early(type(app)):
        def on_mount(self) -> None:
            burst(self, "Enter a b c Enter")

    app.__class__ = Early
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        bench = app.screen
        assert bench.workspace.t_q == 1  # no token added by the a
        assert "'abc' is not a number" in bench.query_one("#editor-q").message


@pytest.mark.parametrize(("lesson", "keys"), [
    ("one", "Tab 5 Enter n 7 Enter"),  # the 7 went in before the 5
    ("one", "C-s C-u b a n d . j s o n Enter"),  # saved attn-session.jsonnd.json
    ("one", "e C-u b a n d . c s v"),  # the path read "ba"
    ("mask", "g l e s s o n Space o n e Enter"),  # lesson one, then an export dialog
    ("one", "C-p l e s s o n"),  # the palette searched "nlesso"
    ("mask", "C-u C-s m . 1 . s"),  # ctrl+u's binding was looked up again, in the dialog
    ("mask", "s m x u 5 Escape p 5"),  # u undid the step's set-up, then the x landed
])
async def test_a_burst_in_a_lesson_does_what_the_same_keys_typed_slowly_do(
        lesson, keys, tmp_path, monkeypatch, progress_dir):
    # a lesson key (n, p, a-d) in a word or after a dialog key put the keys around it out of
    # order: those typed before it were handed back behind those held after it
    monkeypatch.chdir(tmp_path)
    slow = await typed_state(lesson, keys, True, tmp_path)
    for name in (tmp_path).iterdir():
        name.unlink()
    shutil.rmtree(progress_dir, ignore_errors=True)  # the second run starts where the first did
    assert await typed_state(lesson, keys, False, tmp_path) == slow


@pytest.mark.parametrize(("keys", "tokens"), [("x u", 4), ("x x u", 3), ("a u", 4),
                                              ("x u U", 3)])
async def test_u_right_after_removing_a_token_undoes_that(keys, tokens):
    # x sends its change to the screen as a message; u, run at once, undid whatever came before
    # (or nothing), and then the x landed
    app = make_app(preset="mask")
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        burst(app, keys)
        await settle(pilot)
        assert app.screen.workspace.t_k == tokens


async def test_u_right_after_a_paste_undoes_the_paste():
    app = make_app(preset="mask")
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        before = app.screen.workspace
        app.post_message(events.Paste("9 9\n9 9"))
        burst(app, "u")
        await settle(pilot)
        assert app.screen.workspace == before


async def test_keys_held_when_the_window_becomes_too_small_are_dropped_not_delayed():
    # each held key waited 0.5 s for a focus the too-small screen never takes, q behind them
    # (5 s to quit), and after the resize they landed on the workbench instead of the lab
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        before = app.screen.workspace
        burst(app, "g s c a Enter Right Up Up 5 Enter")
        await pilot.resize_terminal(30, 10)
        await settle(pilot)
        assert not key_line(app).waiting
        await pilot.resize_terminal(80, 24)
        for _ in range(3):
            await settle(pilot)
        assert app.workbench().workspace == before


async def test_escape_and_the_key_after_it_in_one_read_are_two_keys():
    # the bytes of Escape then m are those of alt+m; of Escape then 3, WezTerm's Option+3 (£)
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("enter", "7")
        from_the_terminal(app, "\x1b3")  # cancel the 7, type a 3
        await settle(pilot)
        editor = app.screen.query_one("#editor-q", MatrixEditor)
        assert editor.editing is not None and editor.buffer.text == "3"
        from_the_terminal(app, "\r\x1bm")  # store it; Escape (nothing to cancel), then Mask
        await settle(pilot)
        ws = app.screen.workspace
        assert (ws.q[0][0], ws.mask) == (3.0, "causal")
        from_the_terminal(app, "\x1bD")  # Escape, then D: the dimensions bar
        await settle(pilot)
        assert app.focused.id == "dims"


def test_the_parser_reads_escape_and_the_key_after_it_as_typed_and_sequences_as_before():
    from attn_tui.tui.keys import read_escape_as_typed
    from attn_tui.tui.textual_compat import sequence_to_key_events, xterm_parser

    XTermParser = xterm_parser()
    read_escape_as_typed()
    patched = sequence_to_key_events()
    read_escape_as_typed()  # again, as every app made in one process does: not wrapped twice
    assert sequence_to_key_events() is patched

    def keys(data):
        parser = XTermParser()
        return [(e.key, e.character) for e in [*parser.feed(data), *parser.feed("")]
                if isinstance(e, events.Key)]

    esc = ("escape", "\x1b")
    assert keys("\x1bm") == [esc, ("m", "m")]
    assert keys("\x1bD") == [esc, ("D", "D")]
    assert keys("\x1b3") == [esc, ("3", "3")]  # was WezTerm's Option+3, "£"
    assert keys("\x1b\t") == [esc, ("tab", "\t")]  # was shift+tab
    assert keys("\x1b\r") == [esc, ("enter", "\r")]  # the Escape was dropped
    assert keys("\x1b?") == [esc, ("question_mark", "?")]
    assert keys("\x1b\x1b") == [esc, esc]
    assert keys("\x1b") == [esc]
    # more after the key, in the same read: the Escape was read back as a typed ^
    assert keys("\x1bj\x1b[B") == [esc, ("j", "j"), ("down", None)]
    assert keys("\x1b1\x1b2") == [esc, ("1", "1"), esc, ("2", "2")]
    assert keys("\x1b" + "j" * 40) == [esc] + [("j", "j")] * 40  # a key held down
    # ESC and a key are read at once, not after a wait for more
    assert [e.key for e in XTermParser().feed("\x1bm")] == ["escape", "m"]
    # kitty keys Textual cannot read: its parser raised, and the app died; now ignored
    assert keys("\x1b[97:65;2u") == keys("\x1b[:A") == keys("\x1b[1:~") == []
    # macOS Terminal's Option+←, Option+→ and Option+⌫ stay what a text field reads
    assert keys("\x1bb") == [("ctrl+left", None)]
    assert keys("\x1bf") == [("ctrl+right", None)]
    assert keys("\x1b\x7f") == [("ctrl+w", None)]
    # sequences stay what they were: arrows, Alt with an arrow, shift+tab, F1, a paste's keys
    assert keys("\x1b[A") == [("up", None)]
    assert keys("\x1b[1;3C") == [("alt+right", None)]
    assert keys("\x1b[Z") == [("shift+tab", None)]
    assert keys("\x1bOP") == [("f1", None)]
    assert keys("5\r") == [("5", "5"), ("enter", "\r")]


@pytest.mark.parametrize(("after", "editing", "focused"), [
    ("\r", "0.1", "grid-q"),  # Enter: the cell opened again, on its old value
    ("\t", None, "grid-k"),  # Tab: the next pane
])
async def test_escape_then_enter_or_tab_in_one_read_cancel_the_edit_first(after, editing, focused):
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("enter", "9")
        from_the_terminal(app, "\x1b" + after)
        await settle(pilot)
        editor = app.screen.query_one("#editor-q", MatrixEditor)
        assert app.screen.workspace.q[0][0] == 0.1  # the 9 was cancelled, not stored
        assert (editor.buffer.text if editor.editing is not None else None) == editing
        assert app.focused.id == focused


async def test_a_key_that_arrives_as_the_app_closes_is_dropped_not_an_error():
    """A key still on its way when the last screen closed reached Textual's own handling,
    which reads the screen on top: ScreenStackError as the app ended."""
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
    assert not app.screen_stack
    await app.on_event(events.Key("a", "a"))
    await app.on_event(events.Paste("1 2"))


async def test_keys_go_on_when_the_line_s_timer_starts_late(monkeypatch, progress_dir):
    # a y lined up in lesson one step 5 waited for good: Textual's set_timer had dropped the
    # line's 5 ms timer, its task held up past the delay before it slept (see late_timers)
    late = make_one_shot_timers_late(monkeypatch)
    app = make_app(lesson="one")
    assert app.progress.save("one", step=4) is None  # opens at step 5, a task
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        burst(app, "h h h y")
        await settle(pilot)
        assert any(name.startswith("_schedule") for name in late)  # the line's, late
        assert not key_line(app).waiting
        assert "Done:" in app.screen.query_one("#lesson-panel").plain
