"""Save, open, export, copy and quit, driven by keys through the real workbench."""

from __future__ import annotations

import contextlib
from dataclasses import replace
from pathlib import Path

import pytest
from textual.binding import Binding
from textual.widgets import Input

import attn_tui.tui.app
from attn_tui.core import session, state
from attn_tui.report.export import export_text
from attn_tui.tui.app import AttnApp
from attn_tui.tui.screens.dialogs.confirm_quit_modal import UNSAVED, ConfirmQuitModal
from attn_tui.tui.screens.dialogs.file_modal import FileModal
from attn_tui.tui.screens.workbench_screen import WorkbenchScreen
from attn_tui.tui.textual_compat import notifications


class Bench(WorkbenchScreen):
    BINDINGS = [Binding("ctrl+s", "save", "Save"), Binding("ctrl+o", "open", "Open"),
                Binding("e", "export", "Export"), Binding("c", "copy", "Copy")]

    def __init__(self, workspace: state.Workspace, **kwargs) -> None:
        super().__init__(workspace, **kwargs)
        self.saved_workspace = workspace


class SessionApp(AttnApp):
    CSS_PATH = str(Path(attn_tui.tui.app.__file__).with_name("app.tcss"))  # beside AttnApp, not here

    def get_default_screen(self) -> Bench:
        return Bench(self.initial_workspace)

    async def action_quit(self) -> None:
        self.session.quit_or_ask(self.workbench())


def make(preset: str = "one") -> SessionApp:
    return SessionApp(state.from_preset(preset))


async def type_path(pilot, path: Path) -> None:
    assert isinstance(pilot.app.screen, FileModal)
    pilot.app.screen.query_one(Input).value = str(path)
    await pilot.press("enter")
    await pilot.pause()


async def test_save_then_edit_then_save_again_without_asking(tmp_path: Path) -> None:
    app = make()
    async with app.run_test(size=(100, 30)) as pilot:
        bench = app.workbench()
        await pilot.press("ctrl+s")
        await pilot.pause()
        assert app.screen.query_one(Input).value == "attn-session.json"
        await type_path(pilot, tmp_path / "s.json")
        assert app.screen is bench and not bench.dirty
        assert session.load(tmp_path / "s.json") == (bench.workspace, "workbench")
        await pilot.press("m")
        await pilot.pause()
        assert bench.dirty and bench.workspace.mask == "causal"
        await pilot.press("ctrl+s")
        await pilot.pause()
        assert app.screen is bench and not bench.dirty
        assert session.load(tmp_path / "s.json")[0].mask == "causal"


async def test_opening_the_session_just_saved_then_quitting_asks_nothing(tmp_path: Path) -> None:
    """Edit, save, open that same file: quitting said the edits were "never saved", and offered
    u to bring back the numbers from before the edit."""
    app = make()
    async with app.run_test(size=(100, 30)) as pilot:
        bench = app.workbench()
        await pilot.press("m", "ctrl+s")
        await pilot.pause()
        await type_path(pilot, tmp_path / "s.json")
        await pilot.press("ctrl+o")
        await pilot.pause()
        await type_path(pilot, tmp_path / "s.json")
        assert app.screen is bench and bench.workspace.mask == "causal"
        assert not bench.dirty and not bench.unsaved_before_open()
        await pilot.press("u")  # the open is one change: back to the file left, as it was left
        await pilot.pause()
        assert bench.workspace.mask == "causal" and not bench.unsaved_before_open()
        await pilot.press("ctrl+q")
        await pilot.pause()
    assert not app.is_running and app.return_code == 0


async def test_a_labs_settings_are_saved_and_opened_again(tmp_path: Path) -> None:
    """Saved in the scaling lab with trials 7, the session reopened it at 200."""
    from attn_tui.tui.app import make_app

    path = tmp_path / "s.json"
    app = make_app(lab="scaling", confirm_quit=False)
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        assert app.screen.offer("trials", 7) and app.screen.offer("scale", True)
        await pilot.press("ctrl+s")
        await pilot.pause()
        await type_path(pilot, path)
        assert [n.message for n in notifications(app)][-1] == f"Saved {path}."
    ws, screen, saved, _ = session.load_full(path)
    assert screen == "lab:scaling" and saved["trials"] == 7 and saved["scale"] is True
    app = make_app(confirm_quit=False)
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.press("ctrl+o")
        await pilot.pause()
        await type_path(pilot, path)
        await app.workers.wait_for_complete()
        await pilot.pause()
        lab = app.screen
        assert lab.settings.trials == 7 and lab.settings.scale is True
        assert "trials ‹7›" in str(lab.query_one("#controls").render())


async def test_a_sessions_lab_settings_the_lab_refuses_keep_their_defaults(tmp_path):
    from attn_tui.cli.export import open_session
    from attn_tui.tui.app import make_app

    path = tmp_path / "s.json"
    session.save(state.from_preset("one"), path, screen="lab:scaling",
                 lab_settings={"trials": 0, "seed": 5, "colour": "red"})
    ws, lab, saved, _ = open_session(str(path))
    app = make_app(workspace=ws, lab=lab, confirm_quit=False, lab_options={"saved": saved})
    async with app.run_test(size=(100, 30)) as pilot:
        await app.workers.wait_for_complete()
        await pilot.pause()
        screen = app.screen
        assert (screen.settings.trials, screen.settings.seed) == (200, 5)
        assert screen.message == ("From the session, not taken: colour is not one of this "
                                  "lab's controls; trials must be between 1 and 500; 0 is "
                                  "outside.")


async def test_a_session_opened_with_another_lab_keeps_its_own_labs_settings_for_go_to(tmp_path):
    """`--session heads.json --lab model` showed the heads lab's defaults when Go to opened it:
    the session's h 4 and causal mask were dropped without a word."""
    from attn_tui.cli.export import open_session
    from attn_tui.tui.app import make_app
    from attn_tui.tui.screens.session_actions import restore_kept

    path = tmp_path / "s.json"
    session.save(state.from_preset("one"), path, screen="lab:heads",
                 lab_settings={"D": 512, "h": 4, "head": 1, "T": 6, "causal": True, "seed": 0})
    ws, lab, saved, kept = open_session(str(path), "model")
    assert (lab, saved) == ("model", {})
    app = make_app(workspace=ws, lab=lab, confirm_quit=False)
    restore_kept(app, kept)
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        assert type(app.screen).__name__ == "ModelLabScreen"
        app.reopen_lab("heads")
        await pilot.pause()
        controls = str(app.screen.query_one("#controls").render())
        assert "h ‹4›" in controls and "causal ‹on›" in controls, controls


@pytest.mark.parametrize("changes", [{"steps": 200_000}, {"lr": 1e-7}, {"layers": 6},
                                     {"heads": 16, "d_model": 32}])
async def test_train_settings_a_loaded_run_had_open_again_from_a_session(tmp_path, changes):
    """`train` and the run file take them; the lab's narrower bounds refused them on reopen."""
    pytest.importorskip("torch")
    from dataclasses import asdict

    from attn_tui.cli.export import open_session
    from attn_tui.train import default_config
    from attn_tui.tui.app import make_app

    config = default_config("previous", **changes).checked()
    path = tmp_path / "s.json"
    keys = ("task", "layers", "heads", "d_model", "steps", "lr", "seed")  # the lab's controls
    session.save(state.from_preset("one"), path, screen="lab:train",
                 lab_settings={k: v for k, v in asdict(config).items() if k in keys})
    ws, lab, saved, _ = open_session(str(path))
    app = make_app(workspace=ws, lab=lab, confirm_quit=False, lab_options={"saved": saved})
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        assert app.screen.settings == config
        assert app.screen.message == ""


async def test_a_refused_session_value_does_not_hide_why_the_lab_shows_nothing(tmp_path):
    from attn_tui.tui.app import make_app

    app = make_app(lab="heads", confirm_quit=False, lab_options={"saved": {"h": 10, "zzz": 1}})
    async with app.run_test(size=(100, 30)) as pilot:
        await app.workers.wait_for_complete()
        await pilot.pause()
        message = app.screen.message
        assert message.startswith("From the session, not taken: zzz is not one of this lab's "
                                  "controls. Still: ")
        assert "10" in message.split("Still: ")[1]  # D 512 does not split into 10 heads


async def test_a_session_names_a_task_and_the_task_brings_its_own_model_first():
    """{"task": "reverse"} kept sort's L, h, D and steps beside it: each value now goes through
    the lab's own update, as a change on the bar does."""
    from attn_tui.train.config import default_config
    from attn_tui.tui.app import make_app

    app = make_app(lab="train", confirm_quit=False, lab_options={"saved": {"task": "reverse",
                                                                           "seed": 3}})
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        s, want = app.screen.settings, default_config("reverse")
        assert (s.task, s.layers, s.heads, s.d_model, s.steps, s.seed) == (
            "reverse", want.layers, want.heads, want.d_model, want.steps, 3)
        assert app.screen.message == ""


async def test_a_value_typed_on_a_labs_bar_is_saved_as_enter_would_store_it(tmp_path):
    from attn_tui.tui.app import make_app

    app = make_app(lab="scaling", confirm_quit=False)
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        await pilot.press("right", "right", "enter", "7")  # trials ‹7▏›, no Enter
        await pilot.pause()
        await pilot.press("ctrl+s")
        await pilot.pause()
        await type_path(pilot, tmp_path / "s.json")
        assert session.load_full(tmp_path / "s.json").lab_settings["trials"] == 7
        assert app.screen.settings.trials == 7


async def test_the_model_screens_sentence_and_head_are_saved_and_opened_again(tmp_path):
    from attn_tui.tui.app import make_app
    from attn_tui.tui.screens.model_screen import ModelScreen

    path = tmp_path / "s.json"
    app = make_app(lab="minilm", confirm_quit=False)
    async with app.run_test(size=(100, 30)) as pilot:
        await app.workers.wait_for_complete()
        await pilot.pause()
        app.screen.action_set_text("The dog chased the ball.")
        app.screen.action_pick(4, 7)
        app.screen.action_set_query(3)
        await app.workers.wait_for_complete()
        await pilot.press("ctrl+s")
        await pilot.pause()
        await type_path(pilot, path)
        said = [n.message for n in notifications(app)]
        assert said[-1] == (f"Saved {path}. It reopens the model screen on this sentence and "
                            "head.")
    assert session.load_full(path)[1:] == (
        "lab:minilm", {"text": "The dog chased the ball.", "layer": 4, "head": 7, "query": 3}, {})
    app = make_app(confirm_quit=False)
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.press("ctrl+o")
        await pilot.pause()
        await type_path(pilot, path)
        await app.workers.wait_for_complete()
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, ModelScreen)
        assert screen.run_text == "The dog chased the ball." and screen.message == ""
        assert (screen.layer_index, screen.head_index, screen.query_index) == (4, 7, 3)
        assert "layer 5 head 8" in str(screen.query_one("#head-title").render())  # from 1


async def test_a_sessions_model_settings_the_screen_refuses_keep_its_own(tmp_path):
    from attn_tui.cli.export import open_session
    from attn_tui.tui.app import make_app
    path = tmp_path / "s.json"
    session.save(state.from_preset("one"), path, screen="lab:minilm",
                 lab_settings={"text": "bell\x07", "layer": 6, "head": 2, "query": -1,
                               "colour": "red"})
    ws, lab, saved, _ = open_session(str(path))
    app = make_app(workspace=ws, lab=lab, confirm_quit=False, lab_options={"saved": saved})
    async with app.run_test(size=(100, 30)) as pilot:
        await app.workers.wait_for_complete()
        await pilot.pause()
        screen = app.screen
        assert screen.run_text == "bell"  # taken as a paste would be, and said
        assert (screen.layer_index, screen.head_index, screen.query_index) == (0, 2, 0)
        assert screen.message == (
            "From the session, not taken: 'colour' is not one of this screen's settings; layer "
            "must be a whole number from 0 to 5 (an index: layer 1 is 0), not 6; query must be "
            "a whole number from 0 (an index: query 1 is 0), not -1. Taken: the session's "
            "sentence: removed 1 control character")
        assert "✗ From the session" in str(screen.query_one("#model-message").render())



async def test_a_sessions_query_past_the_sentence_is_said_not_moved_silently(tmp_path):
    from attn_tui.cli.export import open_session
    from attn_tui.tui.app import make_app

    path = tmp_path / "s.json"
    session.save(state.from_preset("one"), path, screen="lab:minilm",
                 lab_settings={"text": "Two words", "layer": 1, "head": 2, "query": 9})
    ws, lab, saved, _ = open_session(str(path))
    app = make_app(workspace=ws, lab=lab, confirm_quit=False, lab_options={"saved": saved})
    async with app.run_test(size=(100, 30)) as pilot:
        await app.workers.wait_for_complete()
        await pilot.pause()
        screen = app.screen
        assert screen.run.tokens == ["[CLS]", "two", "words", "[SEP]"]
        assert (screen.layer_index, screen.head_index, screen.query_index) == (1, 2, 3)
        assert screen.message == ("From the session, not taken: query 9 (token 10) is past the "
                                  "sentence's 4 tokens, so its last is shown")

BAD = {
    "truncated": ('{"format": "attn-tui-session", "version": 1, "work', "looks truncated"),
    "wrong version": ('{"format": "attn-tui-session", "version": 9}', "schema version 9"),
    "not JSON": ("q,k,v\n1,2,3\n", "not valid JSON"),
    "wrong shapes": (session.to_json(state.from_preset("one")).replace("[0.1, 0.2, 0.3]",
                                                                      "[0.1, 0.2]"),
                     "queries and keys need the same width"),
    "a directory": (None, "it is a directory"),
}


@pytest.mark.parametrize("kind", list(BAD))
async def test_a_bad_file_leaves_the_workspace_as_it_was(kind: str, tmp_path: Path) -> None:
    text, words = BAD[kind]
    if text is None:
        (tmp_path / "bad.json").mkdir()
    else:
        (tmp_path / "bad.json").write_text(text)
    app = make("select")
    async with app.run_test(size=(100, 30)) as pilot:
        bench = app.workbench()
        await pilot.press("m", "s")
        await pilot.pause()
        before = bench.workspace
        await pilot.press("ctrl+o")
        await pilot.pause()
        await type_path(pilot, tmp_path / "bad.json")
        modal = app.screen
        assert isinstance(modal, FileModal)
        assert words in str(modal.query_one("#file-error").render())
        await pilot.press("escape")
        await pilot.pause()
        assert app.screen is bench and bench.workspace == before and bench.dirty


async def test_open_replaces_the_workspace_and_u_undoes(tmp_path: Path) -> None:
    saved = replace(state.from_preset("mask"), mask="causal-after", selected=2)
    session.save(saved, tmp_path / "m.json")
    app = make()
    async with app.run_test(size=(100, 30)) as pilot:
        bench = app.workbench()
        first = bench.workspace
        await pilot.press("ctrl+o")
        await pilot.pause()
        await type_path(pilot, tmp_path / "m.json")
        assert bench.workspace == saved and not bench.dirty
        assert bench.steps is not None and float(bench.steps.row_sums[2]) < 1
        await pilot.press("u")
        await pilot.pause()
        assert bench.workspace == first


async def test_undoing_an_open_goes_back_to_the_first_file_too(tmp_path: Path) -> None:
    # A.json edited, B.json opened, u: A's workspace came back but ctrl+s wrote it over B.json
    a, b = tmp_path / "A.json", tmp_path / "B.json"
    session.save(state.from_preset("one"), a)
    session.save(state.from_preset("mask"), b)
    b_text = b.read_text()
    app = SessionApp(session.load(a)[0])
    async with app.run_test(size=(100, 30)) as pilot:
        bench = app.workbench()
        bench.session_path = str(a)  # as `attn-tui --session A.json` starts
        await pilot.press("s")  # an unsaved edit to A: scaling off
        await pilot.press("ctrl+o")
        await pilot.pause()
        await type_path(pilot, b)
        assert bench.session_path == str(b)
        await pilot.press("u")
        await pilot.pause()
        assert bench.session_path == str(a) and bench.dirty and not bench.workspace.scale
        # one notice names the open undone (it read "Undid: mask causal → none …" and a
        # second notice "Back to A.json", as if the cells had been typed)
        said = [n.message for n in notifications(app)]
        undid = [m for m in said if m.startswith("Undid: ")]
        assert len(undid) == 1 and undid[0].startswith("Undid: opening B.json (")
        assert undid[0].endswith(f"; now {a}.") and not any(m.startswith("Back to") for m in said)
        await pilot.press("ctrl+s")
        await pilot.pause()
        assert b.read_text() == b_text  # B untouched
        assert session.load(a)[0].scale is False  # the edit went to A
        await pilot.press("U")  # redo the open: B again, unedited
        await pilot.pause()
        assert bench.session_path == str(b) and not bench.dirty
        redid = [n.message for n in notifications(app) if n.message.startswith("Redid: ")]
        assert redid == [redid[0]] and redid[0].startswith("Redid: opening B.json (")
        assert redid[0].endswith(f"; now {b}.")


async def test_undo_after_a_save_keeps_the_file_it_was_saved_to(tmp_path: Path) -> None:
    # a first save (or a save-as) changed the session's path; undoing an edit made before it
    # went back to no file at all (or to the file the user had saved away from)
    a, b = tmp_path / "a.json", tmp_path / "b.json"
    app = make()
    async with app.run_test(size=(100, 30)) as pilot:
        bench = app.workbench()
        await pilot.press("s")  # an edit: scaling off
        await pilot.press("ctrl+s")
        await pilot.pause()
        await type_path(pilot, a)
        assert bench.session_path == str(a) and not bench.dirty
        await pilot.press("u")
        await pilot.pause()
        assert bench.session_path == str(a) and bench.dirty  # still a.json; now unsaved
        await pilot.press("U")
        await pilot.pause()
        assert not bench.dirty
        await pilot.press("m")  # another edit, then save it as b.json
        bench.action_save(ask=True)  # Save as: the dialog asks for a path
        await pilot.pause()
        await type_path(pilot, b)
        assert bench.session_path == str(b)
        await pilot.press("u")
        await pilot.pause()
        assert bench.session_path == str(b)  # undo never sends the next save back to a.json


async def test_undo_back_to_a_file_overwritten_since_counts_as_unsaved(tmp_path: Path) -> None:
    # --session a.json, open b.json, save it as a.json, u: a's old workspace came back marked
    # saved, and q quit without asking although a.json now held b's numbers
    a, b = tmp_path / "a.json", tmp_path / "b.json"
    session.save(state.from_preset("one"), a)
    session.save(state.from_preset("mask"), b)
    app = SessionApp(session.load(a)[0])
    async with app.run_test(size=(100, 30)) as pilot:
        bench = app.workbench()
        bench.session_path = str(a)
        await pilot.press("ctrl+o")
        await pilot.pause()
        await type_path(pilot, b)
        bench.action_save(ask=True)
        await pilot.pause()
        await type_path(pilot, a)  # a.json exists: Enter again replaces it
        await pilot.press("enter")
        await pilot.pause()
        assert session.load(a)[0] == session.load(b)[0]
        await pilot.press("u")
        await pilot.pause()
        assert bench.session_path == str(a) and bench.dirty


async def test_quit_asks_only_with_unsaved_edits(tmp_path: Path) -> None:
    app = make()
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.press("s")  # an edit: scaling off
        await pilot.press("q")
        await pilot.pause()
        assert isinstance(app.screen, ConfirmQuitModal)
        await pilot.press("q")  # pressing quit again does not stack a second question
        await pilot.pause()
        assert sum(isinstance(s, ConfirmQuitModal) for s in app.screen_stack) == 1
        await pilot.press("escape")
        await pilot.pause()
        assert app.screen is app.workbench() and app.is_running
        await pilot.press("q", "y")
        await pilot.pause()
    assert app.return_code == 0 and not app.is_running


async def test_quit_without_edits_just_quits() -> None:
    app = make("select")
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.press("down")  # looking at another query is not an edit
        await pilot.pause()
        assert app.workbench().workspace.selected == 1
        await pilot.press("q")
        await pilot.pause()
    assert not app.is_running


@pytest.mark.parametrize("dialog", ["ctrl+s", "ctrl+p", "g", "question_mark"])
async def test_ctrl_q_quits_from_inside_a_dialog(dialog: str) -> None:
    """Dialogs stop the keys of the screens below them, ctrl+q with them, though the help
    lists it under "Everywhere"; in a dialog with a text box, q itself is typed."""
    app = make()
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.press(dialog)
        await pilot.pause()
        assert app.screen is not app.workbench()
        await pilot.press("ctrl+q")
        await pilot.pause()
    assert not app.is_running and app.return_code == 0


async def test_ctrl_q_in_a_dialog_still_asks_about_unsaved_edits() -> None:
    app = make()
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.press("s", "ctrl+s")  # an edit, then the save dialog
        await pilot.pause()
        await pilot.press("ctrl+q")
        await pilot.pause()
        assert isinstance(app.screen, ConfirmQuitModal) and app.is_running
        await pilot.press("y")
        await pilot.pause()
    assert not app.is_running


async def test_quit_with_save_writes_the_file_then_quits(tmp_path: Path) -> None:
    app = make()
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.press("s", "q", "s")
        await pilot.pause()
        await type_path(pilot, tmp_path / "q.json")
    assert session.load(tmp_path / "q.json")[0].scale is False
    assert not app.is_running


async def test_copy_puts_the_markdown_tables_on_the_clipboard() -> None:
    app = make("select")
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.press("c")
        await pilot.pause()
        assert app.clipboard == export_text(app.workbench().workspace, "md")
        # query 'animal?' (5, 0, 0) against key 'barked' (0.1, 0, 0.9)
        assert "| barked | 0.5000 | 0.2887 | 1.3347 |" in app.clipboard


async def test_export_by_extension(tmp_path: Path) -> None:
    app = make("mask")
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.press("e")
        await pilot.pause()
        await type_path(pilot, tmp_path / "t.tex")
        ws = app.workbench().workspace
    assert (tmp_path / "t.tex").read_text() == export_text(ws, "tex")


async def test_the_export_dialog_offers_the_file_the_last_export_went_to(tmp_path: Path) -> None:
    """After an export to /tmp/t/wb.py, e offered attn-export.md in the folder attn-tui started
    in: a quick e Enter wrote there."""
    app = make("mask")
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.press("e")
        await pilot.pause()
        assert app.screen.query_one(Input).value == "attn-export.md"
        await type_path(pilot, tmp_path / "t.tex")
        await pilot.press("e")
        await pilot.pause()
        assert app.screen.query_one(Input).value == str(tmp_path / "t.tex")
        await pilot.press("enter")  # it exists: asks before replacing it
        await pilot.pause()
        assert "already exists. Enter again replaces it" in str(
            app.screen.query_one("#file-error").render())


async def test_an_existing_file_is_replaced_only_after_a_second_enter(tmp_path: Path) -> None:
    """e Enter twice silently replaced the first export; a typed path to any file would too."""
    keep = tmp_path / "notes.md"
    keep.write_text("a teacher's notes\n")
    app = make("mask")
    async with app.run_test(size=(100, 30)) as pilot:
        bench = app.workbench()
        await pilot.press("e")
        await pilot.pause()
        await type_path(pilot, keep)
        modal = app.screen
        assert isinstance(modal, FileModal)
        assert "already exists. Enter again replaces it" in str(
            modal.query_one("#file-error").render())
        assert keep.read_text() == "a teacher's notes\n"
        modal.query_one(Input).value = str(tmp_path / "other.md")  # a new name: no question
        await pilot.press("enter")
        await pilot.pause()
        assert app.screen is bench
        assert (tmp_path / "other.md").read_text() == export_text(bench.workspace, "md")
        await pilot.press("e")
        await pilot.pause()
        await type_path(pilot, keep)
        await pilot.press("enter")  # the second Enter on the same path replaces it
        await pilot.pause()
        assert app.screen is bench
        assert keep.read_text() == export_text(bench.workspace, "md")

        # saving again to the session's own file does not ask
        await pilot.press("ctrl+s")
        await pilot.pause()
        await type_path(pilot, tmp_path / "s.json")
        await pilot.press("m")
        await pilot.press("ctrl+s", "ctrl+s")  # the second opens nothing: saved in place
        await pilot.pause()
        assert app.screen is bench and not bench.dirty


async def test_a_path_that_looks_like_markup_is_shown_as_written(tmp_path: Path) -> None:
    folder = tmp_path / "[b]"
    folder.mkdir()
    app = make()
    async with app.run_test(size=(120, 30), notifications=True) as pilot:  # toasts drawn
        bench = app.workbench()
        await pilot.press("ctrl+s")
        await pilot.pause()
        await type_path(pilot, folder / "s[red].json")
        assert app.screen is bench and not bench.dirty
        await pilot.pause()
        await pilot.pause()
        toasts = [str(t.render()) for t in app.screen.query("Toast")]
        assert any("[b]" in t and "s[red].json" in t for t in toasts), toasts


async def test_a_value_still_being_typed_is_saved(tmp_path: Path) -> None:
    # "7" typed, no Enter, ctrl+s: the notice said Saved while the file kept the old value
    path = tmp_path / "s.json"
    session.save(state.from_preset("one"), path)
    app = make()
    async with app.run_test(size=(100, 30)) as pilot:
        bench = app.workbench()
        bench.file.path = str(path)
        await pilot.press("7")
        await pilot.press("ctrl+s")
        await pilot.pause()
        assert session.load(path)[0].q[0][0] == 7.0
        assert bench.workspace.q[0][0] == 7.0 and not bench.dirty


async def test_a_cell_that_is_not_a_number_is_not_saved(tmp_path: Path) -> None:
    path = tmp_path / "s.json"
    session.save(state.from_preset("one"), path)
    before = path.read_bytes()
    app = make()
    async with app.run_test(size=(100, 30)) as pilot:
        bench = app.workbench()
        bench.file.path = str(path)
        await pilot.press("1", "full_stop", "full_stop", "2")
        await pilot.press("ctrl+s")
        await pilot.pause()
        assert path.read_bytes() == before
        assert any("Not saved" in str(n.message) for n in notifications(app))
        editor = bench.query_one("#editor-q")
        assert editor.editing == (0, 0) and editor.buffer.text == "1..2"  # nothing typed lost


@pytest.mark.parametrize(("keys", "says", "can_save"), [
    (("7",), "You have unsaved changes", True),
    (("1", "full_stop", "full_stop", "2"), "A value being typed is refused", False),
])
async def test_quit_while_typing_in_a_cell_asks(keys, says, can_save) -> None:
    # "7" typed, no Enter, ctrl+q: the app quit at once and the 7 was gone
    app = make()
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.press(*keys)
        await app.run_action("quit")
        await pilot.pause()
        modal = app.screen
        assert isinstance(modal, ConfirmQuitModal)
        assert says in modal.question and modal.can_save == can_save
        assert bool(modal.query("#quit-save")) == can_save
        await pilot.press("s")  # no Save: s does nothing
        await pilot.pause()
        assert app.screen is modal or can_save


async def test_cancel_of_the_quit_question_puts_the_typed_value_back_to_be_typed() -> None:
    """"9" typed in a cell, ctrl+q, Esc: the 9 had gone into the cell as Enter would, the
    step table recomputed, though the learner had cancelled."""
    app = make()
    async with app.run_test(size=(100, 30)) as pilot:
        bench = app.workbench()
        before = bench.workspace
        await pilot.press("9", "left")  # the caret one back: "9" then, typed on, before it
        await app.run_action("quit")
        await pilot.pause()
        assert isinstance(app.screen, ConfirmQuitModal)
        await pilot.press("escape")
        await pilot.pause()
        editor = bench.query_one("#editor-q")
        assert bench.workspace == before and not bench.dirty
        assert editor.editing == (0, 0) and editor.buffer.text == "9"
        await pilot.press("1", "enter")
        await pilot.pause()
        assert bench.workspace.q[0][0] == 19
        await pilot.press("u")  # one change, as typed
        await pilot.pause()
        assert bench.workspace == before


async def test_a_refused_value_does_not_hide_the_other_unsaved_edits() -> None:
    """m, then "abc" typed in a cell: the question spoke only of the refused value, and y lost
    the mask change it never named."""
    app = make()
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.press("m", "enter", "a", "b", "c")
        await app.run_action("quit")
        await pilot.pause()
        modal = app.screen
        assert isinstance(modal, ConfirmQuitModal) and not modal.can_save
        assert modal.question == (
            "You have unsaved changes. A value being typed is refused (its message says why), "
            "so nothing can be saved now. To keep them, Cancel, mend the value (or Esc drops "
            "it), then save. Quit anyway (y) / Cancel (Esc)")


SENTENCE_UNSAVED = ("The sentence typed on the model screen is not saved. Save (s) / Quit "
                    "anyway (y) / Cancel (Esc)")


async def _quit_and_save(pilot, path: Path, question: str = UNSAVED) -> None:
    """ctrl+q asks ``question`` with Save; s, then the file's name."""
    await pilot.press("ctrl+q")
    await pilot.pause()
    modal = pilot.app.screen
    assert isinstance(modal, ConfirmQuitModal) and modal.can_save
    assert modal.question == question
    await pilot.press("s")
    await pilot.pause()
    await type_path(pilot, path)


async def test_a_sentence_typed_on_the_model_screen_is_asked_about_and_saved(tmp_path) -> None:
    # the model screen's sentence went into sessions, but quitting let a typed one go unasked
    from attn_tui.tui.app import make_app

    app = make_app(lab="minilm")
    async with app.run_test(size=(100, 30)) as pilot:
        await app.workers.wait_for_complete()
        await pilot.press("slash", "end", *" too", "enter", "down")  # typed; a head picked
        await app.workers.wait_for_complete()
        screen = app.screen
        assert screen.text.endswith(" too") and screen.has_unsaved_work()
        # named: "You have unsaved changes" over a workbench with none sent the learner looking
        await _quit_and_save(pilot, tmp_path / "m.json", SENTENCE_UNSAVED)
    assert not app.is_running
    assert session.load_full(tmp_path / "m.json")[2]["text"].endswith(" too")


async def test_looking_at_heads_or_a_saved_sentence_quits_without_asking(tmp_path) -> None:
    from attn_tui.tui.app import make_app

    app = make_app(lab="minilm")
    async with app.run_test(size=(100, 30)) as pilot:
        await app.workers.wait_for_complete()
        screen = app.screen
        screen.action_pick(3, 5)  # looking, not work
        await pilot.press("slash", "end", "x", "enter")
        await app.workers.wait_for_complete()
        assert screen.has_unsaved_work()
        await pilot.press("ctrl+s")
        await pilot.pause()
        await type_path(pilot, tmp_path / "m.json")
        assert not screen.has_unsaved_work()
        await pilot.press("ctrl+q")
        await pilot.pause()
    assert not app.is_running and app.return_code == 0


async def _left_with_a_typed_sentence(app, pilot) -> str:
    await app.workers.wait_for_complete()
    await pilot.press("slash", "end", *" too", "enter", "down")
    await app.workers.wait_for_complete()
    typed = app.screen.text
    await pilot.press("escape")
    await pilot.pause()
    assert isinstance(app.screen, WorkbenchScreen)
    return typed


async def test_a_sentence_typed_then_left_with_escape_is_asked_about_and_saved(tmp_path) -> None:
    # typed on the model screen, Esc, ctrl+q: the app quit at once and the sentence was gone;
    # and a session saved from the workbench did not keep it
    from attn_tui.tui.app import make_app

    app = make_app(lab="minilm")
    async with app.run_test(size=(100, 30)) as pilot:
        typed = await _left_with_a_typed_sentence(app, pilot)
        app.left_labs["minilm"]["pick"] = (2, 3, 1)
        await _quit_and_save(pilot, tmp_path / "s.json", SENTENCE_UNSAVED)
    assert not app.is_running
    kept = session.load_full(tmp_path / "s.json")
    assert kept.screen == "workbench"
    assert kept.kept == {"minilm": {"text": typed, "layer": 2, "head": 3, "query": 1}}


async def test_a_kept_sentence_comes_back_with_its_session_and_go_to_reopens_it(tmp_path) -> None:
    from attn_tui.cli.export import open_session
    from attn_tui.tui.app import make_app
    from attn_tui.tui.screens.session_actions import restore_kept

    path = tmp_path / "s.json"
    session.save(state.from_preset("one"), path,
                 kept={"minilm": {"text": "dogs bark", "layer": 1, "head": 2, "query": 9}})
    ws, lab, saved, kept = open_session(str(path))
    app = make_app(workspace=ws, lab=lab, session_path=str(path))
    restore_kept(app, kept)  # as attn-tui --session does
    async with app.run_test(size=(100, 30)) as pilot:
        app.reopen_lab("minilm")
        await pilot.pause()
        await app.workers.wait_for_complete()
        await pilot.pause()
        screen = app.screen
        # checked as a session's settings are: query 9 is past the last token, and said
        assert (screen.text, screen.layer_index, screen.head_index) == ("dogs bark", 1, 2)
        assert screen.query_index == len(screen.run.tokens) - 1 and "query 9" in screen.message
        assert not screen.has_unsaved_work()
        await pilot.press("escape")
        await pilot.pause()
        await pilot.press("ctrl+q")  # nothing typed since it was saved: no question
        await pilot.pause()
    assert not app.is_running and app.return_code == 0


async def test_a_left_sentence_beside_unsaved_edits_is_saved_with_them(tmp_path) -> None:
    from attn_tui.tui.app import make_app

    app = make_app(lab="minilm")
    async with app.run_test(size=(100, 30)) as pilot:
        typed = await _left_with_a_typed_sentence(app, pilot)
        await pilot.press("5", "enter")  # an edit on the workbench too
        await pilot.press("ctrl+s")
        await pilot.pause()
        await type_path(pilot, tmp_path / "s.json")
        assert app.left_labs["minilm"]["saved_text"] == typed  # saved: quit has nothing to ask
        await pilot.press("ctrl+q")
        await pilot.pause()
    assert not app.is_running and app.return_code == 0
    assert session.load_full(tmp_path / "s.json").kept["minilm"]["text"] == typed


async def test_a_left_sentence_saved_there_or_a_lessons_own_quits_without_asking(
        tmp_path) -> None:
    from attn_tui.tui.app import make_app

    app = make_app(lab="minilm")
    async with app.run_test(size=(100, 30)) as pilot:
        await _left_with_a_typed_sentence(app, pilot)
        app.reopen_lab("minilm")
        await pilot.pause()
        await app.workers.wait_for_complete()
        await pilot.press("ctrl+s")
        await pilot.pause()
        await type_path(pilot, tmp_path / "m.json")
        await pilot.press("escape")  # saved, then left: nothing to ask about
        await pilot.pause()
        assert isinstance(app.screen, WorkbenchScreen)
        app.left_labs["minilm"].update(text="a step's own", lesson_text="a step's own")
        await pilot.press("ctrl+q")
        await pilot.pause()
    assert not app.is_running and app.return_code == 0


async def test_a_sentence_a_lesson_step_replaced_is_asked_about() -> None:
    from attn_tui.tui.app import make_app

    app = make_app(lab="minilm")
    async with app.run_test(size=(100, 30)) as pilot:
        await app.workers.wait_for_complete()
        await pilot.press("slash", "end", *" mine", "enter")
        await app.workers.wait_for_complete()
        mine = app.screen.text
        app.tutor.start("real-heads")
        for _ in range(2):  # the step's set-up, then the maps it asked for
            await pilot.pause()
            await app.workers.wait_for_complete()
        await pilot.pause()
        screen = app.screen
        assert screen.text != mine and not screen.has_unsaved_work()  # the step's own sentence
        assert screen.replaced_by_lesson() == ("a lesson step",)
        await pilot.press("ctrl+q")
        await pilot.pause()
        modal = app.screen
        assert isinstance(modal, ConfirmQuitModal) and not modal.can_save
        assert modal.question.startswith("Edits of yours that a lesson step replaced")


async def test_quit_asks_about_edits_made_before_an_open(tmp_path: Path) -> None:
    # 5 Enter (unsaved), ctrl+o B.json, q: quit at once, and only u could have brought 5 back
    session.save(state.from_preset("mask"), tmp_path / "B.json")
    app = make()
    async with app.run_test(size=(100, 30)) as pilot:
        bench = app.workbench()
        await pilot.press("5", "enter")
        await pilot.pause()
        await pilot.press("ctrl+o")
        await pilot.pause()
        await type_path(pilot, tmp_path / "B.json")
        assert not bench.dirty and bench.unsaved_before_open()
        await app.run_action("quit")
        await pilot.pause()
        assert isinstance(app.screen, ConfirmQuitModal)
        assert "before you opened" in app.screen.question and not app.screen.can_save
        await pilot.press("escape", "u")
        await pilot.pause()
        assert bench.workspace.q[0][0] == 5.0


async def test_edits_saved_before_an_open_do_not_hold_up_quit(tmp_path: Path) -> None:
    session.save(state.from_preset("mask"), tmp_path / "B.json")
    app = make()
    async with app.run_test(size=(100, 30)) as pilot:
        bench = app.workbench()
        bench.file.path = str(tmp_path / "A.json")
        await pilot.press("5", "enter", "ctrl+s")
        await pilot.pause()
        await pilot.press("ctrl+o")
        await pilot.pause()
        await type_path(pilot, tmp_path / "B.json")
        assert not bench.unsaved_before_open()
        await app.run_action("quit")
        await pilot.pause()
    assert not app.is_running


@pytest.mark.parametrize("answer", ["enter", "escape"])
async def test_saving_over_a_file_changed_on_disk_asks_first(tmp_path: Path, answer) -> None:
    # ctrl+s wrote over a hand edit made since the file was saved, without a word
    import os

    path = tmp_path / "s.json"
    app = make()
    async with app.run_test(size=(100, 30)) as pilot:
        bench = app.workbench()
        await pilot.press("ctrl+s")
        await pilot.pause()
        await type_path(pilot, path)
        edited = path.read_text().replace('"seed": 0', '"seed": 42')
        path.write_text(edited)
        os.utime(path, ns=(1, 1))  # a different time even on a coarse clock
        await pilot.press("m", "ctrl+s")
        await pilot.pause()
        assert isinstance(app.screen, FileModal)
        assert "has changed on disk since attn-tui opened or saved it" in str(
            app.screen.query_one("#file-error").render())
        assert path.read_text() == edited  # nothing written yet
        await pilot.press(answer)
        await pilot.pause()
        assert app.screen is bench
        if answer == "enter":
            assert session.load(path)[0].mask == "causal" and not bench.dirty
            await pilot.press("m", "ctrl+s")  # saved by attn-tui again: no question
            await pilot.pause()
            assert app.screen is bench and session.load(path)[0].mask == "causal-after"
        else:
            assert path.read_text() == edited and bench.dirty


@pytest.mark.parametrize("lab", ["scaling", "model", "precision", "heads", "train"])
async def test_every_labs_controls_come_back_from_their_session_copy(lab: str) -> None:
    from attn_tui.tui.app import make_app

    app = make_app(lab=lab, confirm_quit=False)
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        screen = app.screen
        saved = screen.session_settings()
        assert saved and set(saved) == {f.key for f in screen.FIELDS}
        moved = type(screen)(saved=saved)
        assert moved.settings == screen.settings and moved.saved_refused == []


async def test_opening_a_model_screen_session_over_a_typed_sentence_asks_first(tmp_path) -> None:
    # typed, Esc, ctrl+o s.json (saved on the model screen): its sentence replaced the typed
    # one without a word, u had nothing to bring back, and quit no longer asked
    from attn_tui.tui.app import make_app

    saved = tmp_path / "s.json"
    session.save(state.from_preset("one"), saved, screen="lab:minilm",
                 lab_settings={"text": "dogs bark", "layer": 0, "head": 0, "query": 0})
    app = make_app(lab="minilm")
    async with app.run_test(size=(100, 30)) as pilot:
        typed = await _left_with_a_typed_sentence(app, pilot)
        await pilot.press("ctrl+o")
        await pilot.pause()
        await type_path(pilot, saved)
        modal = app.screen
        assert isinstance(modal, FileModal)  # not opened: said, and Enter again opens it
        assert "the sentence you typed there is in no session" in str(
            modal.query_one("#file-error").render())
        await pilot.press("escape")
        await pilot.pause()
        assert app.left_labs["minilm"]["text"] == typed  # kept
        await pilot.press("ctrl+o")
        await pilot.pause()
        await type_path(pilot, saved)
        await pilot.press("enter")  # again: opens it anyway
        await pilot.pause()
        await app.workers.wait_for_complete()
        assert app.screen.text == "dogs bark"


async def test_opening_a_session_that_kept_a_model_screen_asks_first_too(tmp_path) -> None:
    from attn_tui.tui.app import make_app

    saved = tmp_path / "s.json"
    session.save(state.from_preset("one"), saved, kept={"minilm": {"text": "dogs bark"}})
    app = make_app(lab="minilm")
    async with app.run_test(size=(100, 30)) as pilot:
        typed = await _left_with_a_typed_sentence(app, pilot)
        await pilot.press("ctrl+o")
        await pilot.pause()
        await type_path(pilot, saved)
        assert isinstance(app.screen, FileModal)
        await pilot.press("enter")  # again: opens it anyway, and Go to brings its sentence
        await pilot.pause()
        assert app.left_labs["minilm"] == {"saved": {"text": "dogs bark"}} != typed


async def test_opening_a_model_screen_session_with_nothing_typed_opens_at_once(tmp_path) -> None:
    from attn_tui.tui.app import make_app

    saved = tmp_path / "s.json"
    session.save(state.from_preset("one"), saved, screen="lab:minilm",
                 lab_settings={"text": "dogs bark", "layer": 0, "head": 0, "query": 0})
    app = make_app()
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.press("ctrl+o")
        await pilot.pause()
        await type_path(pilot, saved)
        await app.workers.wait_for_complete()
        assert app.screen.text == "dogs bark"


async def test_a_sentence_and_workbench_edits_unsaved_are_both_named() -> None:
    from attn_tui.tui.app import make_app

    app = make_app(lab="minilm")
    async with app.run_test(size=(100, 30)) as pilot:
        await _left_with_a_typed_sentence(app, pilot)
        await pilot.press("enter", "7", "enter")  # and a cell edited on the workbench
        await pilot.pause()
        await pilot.press("ctrl+q")
        await pilot.pause()
        assert app.screen.question == (
            "You have unsaved changes, the sentence typed on the model screen among them. "
            "Save (s) / Quit anyway (y) / Cancel (Esc)")


async def test_q_on_the_too_small_screen_over_the_quit_question_asks_once():
    """q on the question, the window shrunk (Too small: … q quits), q again: the enlarged
    window showed a second question over the first, and Escape had to be pressed twice."""
    from attn_tui.tui.app import make_app

    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await pilot.press("enter", "5", "enter")  # an unsaved edit: quitting asks
        await pilot.press("q")
        await pilot.pause()
        assert isinstance(app.screen, ConfirmQuitModal)
        await pilot.resize_terminal(39, 11)
        await pilot.pause()
        said = str(app.screen.query_one("#too-small-text").render())
        assert said.endswith("Enlarge the window to answer the question under this.")  # not q
        await pilot.press("q")
        await pilot.resize_terminal(80, 24)
        await pilot.pause()
        assert sum(isinstance(s, ConfirmQuitModal) for s in app.screen_stack) == 1
        await pilot.press("escape")
        await pilot.pause()
        assert app.screen is app.workbench()


async def test_the_quit_question_asked_while_too_small_shows_the_workbench_once_it_fits():
    """q on "Too small: 30×8" with unsaved edits, then the window enlarged: the question sat
    on a blank screen until Escape."""
    from screen_text import screen_text

    from attn_tui.tui.app import make_app

    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await pilot.press("enter", "5", "enter")
        await pilot.resize_terminal(30, 8)
        await pilot.pause()
        await pilot.press("q")
        await pilot.pause()
        assert isinstance(app.screen, ConfirmQuitModal)
        await pilot.resize_terminal(80, 24)
        await pilot.pause()
        shown = screen_text(app)
        assert "You have unsaved changes" in shown and "Q  queries" in shown
        assert "Too small" not in shown
        await pilot.press("escape")
        await pilot.pause()
        assert app.screen is app.workbench()
        await pilot.resize_terminal(30, 8)  # and small again: said again
        await pilot.pause()
        assert "Too small: 30×8" in screen_text(app)


@pytest.mark.parametrize(("size", "anyway"), [((40, 12), "Quit (y)"), ((80, 24), "Quit anyway (y)")])
async def test_the_quit_questions_buttons_fit_its_box_at_any_width(size, anyway):
    """At 40x12 "Cancel (Esc)", the focused button, ran past the dialog's edge."""
    from textual.containers import Vertical
    from textual.widgets import Button

    from attn_tui.tui.app import make_app

    app = make_app()
    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        await pilot.press("enter", "5", "enter", "q")
        await pilot.pause()
        dialog = app.screen
        assert isinstance(dialog, ConfirmQuitModal)
        box = dialog.query_one(Vertical).content_region
        buttons = list(dialog.query(Button))
        assert [str(b.label) for b in buttons] == ["Save (s)", anyway, "Cancel (Esc)"]
        for button in buttons:
            assert box.contains_region(button.region), (str(button.label), button.region, box)


async def test_the_file_dialog_shows_the_full_path_a_name_stands_for(tmp_path, monkeypatch):
    """Over SSH the folder attn-tui runs in is not always the one the learner thinks."""
    from screen_text import screen_text

    from attn_tui.core.files import OWN_FOLDER_ENV
    from attn_tui.tui.app import make_app

    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("HOME", str(tmp_path.parent))
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await pilot.press("ctrl+s")
        await pilot.pause()
        assert f"Full path: ~/{tmp_path.name}/attn-session.json" in screen_text(app)
        await pilot.press(*"notes/a.json")  # the name offered is selected: typed over
        await pilot.pause()
        assert f"Full path: ~/{tmp_path.name}/notes/a.json" in screen_text(app)
        await pilot.press("ctrl+a", "ctrl+k")
        await pilot.pause()
        assert "Full path" not in screen_text(app)
    monkeypatch.setenv(OWN_FOLDER_ENV, str(tmp_path))  # a browser's: its name alone says it
    await _save_dialog_has_no_full_path()


@contextlib.asynccontextmanager
async def _dialog(key: str):
    """A fresh app at 80×24 with the file dialog ``key`` opens: (app, pilot)."""
    from attn_tui.tui.app import make_app

    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await pilot.press(key)
        await pilot.pause()
        yield app, pilot


async def _save_dialog_has_no_full_path(*then: str) -> str:
    """ctrl+s on a fresh app: the dialog opens with no full path line; then the keys ``then``,
    and what the dialog's error line says after them."""
    from screen_text import screen_text

    async with _dialog("ctrl+s") as (app, pilot):
        assert "Save session" in screen_text(app) and "Full path" not in screen_text(app)
        await pilot.press(*then)
        await pilot.pause()
        return str(app.screen.query_one("#file-error").render())


def _run_in_a_folder_since_removed(tmp_path, chdir) -> None:
    gone = tmp_path / "gone"
    gone.mkdir()
    chdir(gone)
    gone.rmdir()


def test_the_full_path_shown_for_a_name_in_every_odd_case(tmp_path, monkeypatch):
    import os

    from attn_tui.tui.screens.dialogs.file_modal import full_path

    real = tmp_path / "real" / "u"
    (real / "proj").mkdir(parents=True)
    (tmp_path / "link").symlink_to(real)
    monkeypatch.setenv("HOME", str(tmp_path / "link"))  # a home reached through a symlink
    monkeypatch.chdir(tmp_path / "link" / "proj")  # getcwd() gives the resolved folder
    assert full_path("a.json") == "~/proj/a.json"
    assert full_path("~") == "~" and full_path("~/x/") == "~/x/"
    assert full_path("") is None
    assert full_path("a\x00b") is None  # Enter says why; the line just goes
    _run_in_a_folder_since_removed(tmp_path, os.chdir)
    assert full_path("a.json") is None  # the folder attn-tui runs in is no more
    assert full_path(str(tmp_path / "z.json")) == str(tmp_path / "z.json")


async def test_a_file_dialog_opens_where_the_folder_it_ran_in_is_gone(tmp_path, monkeypatch):
    # every file dialog crashed the app as it opened: the full path asked getcwd()


    _run_in_a_folder_since_removed(tmp_path, monkeypatch.chdir)
    said = await _save_dialog_has_no_full_path("enter")
    assert said.startswith("✗ Cannot save attn-session.json: the folder attn-tui runs in no "
                           "longer exists")


async def test_a_file_dialogs_error_goes_once_another_name_is_typed(tmp_path, monkeypatch):
    # "✗ Cannot open nothere.json: no such file." stayed under the next name typed
    monkeypatch.chdir(tmp_path)
    async with _dialog("ctrl+o") as (app, pilot):
        await pilot.press(*"nothere.json", "enter")
        await pilot.pause()
        error = app.screen.query_one("#file-error")
        assert str(error.render()).startswith("✗ Cannot open nothere.json") and error.display
        await pilot.press("backspace")
        await pilot.pause()
        assert not error.display and str(error.render()) == ""


async def test_a_file_dialogs_error_stays_after_a_name_and_enter_typed_in_one_burst(
        tmp_path, monkeypatch):
    # the Changed messages of the keys before Enter came after its error, and cleared it
    from key_burst import burst, settle

    monkeypatch.chdir(tmp_path)
    async with _dialog("ctrl+o") as (app, pilot):
        burst(app, "C-u n o . j s o n Enter")
        await settle(pilot)
        error = app.screen.query_one("#file-error")
        assert str(error.render()).startswith("✗ Cannot open no.json") and error.display


async def test_a_session_named_without_an_ending_is_saved_as_json(tmp_path, monkeypatch):
    """"mine" saved a file called mine, and in a browser Open then said "you have saved none
    yet": it lists .json files. The full path line says the name it will take."""
    from screen_text import screen_text

    from attn_tui.core.files import own_files
    from attn_tui.tui.app import make_app

    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("HOME", str(tmp_path.parent))
    (tmp_path / "notes").mkdir()
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await pilot.press("ctrl+s", *"mine")
        await pilot.pause()
        assert f"Full path: ~/{tmp_path.name}/mine.json" in screen_text(app)
        await pilot.press("enter")
        await pilot.pause()
        assert not (tmp_path / "mine").exists() and session.load(tmp_path / "mine.json")
        assert app.workbench().session_path == "mine.json"
        await pilot.press("ctrl+s")  # its own file: saved again, no dialog
        await pilot.pause()
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:  # a folder is a folder: no .json added
        await pilot.pause()
        await pilot.press("ctrl+s", *"notes")
        await pilot.pause()
        assert f"Full path: ~/{tmp_path.name}/notes" in screen_text(app)
        assert "notes.json" not in screen_text(app)
    monkeypatch.setenv("ATTN_TUI_OWN_FOLDER", str(tmp_path))  # as a browser's Open lists them
    assert own_files(".json") == ["mine.json"]
    monkeypatch.delenv("ATTN_TUI_OWN_FOLDER")
    # a file that exists is the one named: a session saved as "old" before names had endings,
    # opened and saved again, was written beside itself as old.json
    session.save(state.from_preset("mask"), tmp_path / "old")
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await pilot.press("ctrl+o", *"old", "enter")
        await pilot.pause()
        assert app.workbench().session_path == "old"
        await pilot.press("m", "ctrl+s", "ctrl+s")  # saved to its own file, asked nothing
        await pilot.pause()
        assert not (tmp_path / "old.json").exists()
        assert session.load(tmp_path / "old")[0].mask == app.workbench().workspace.mask
    from attn_tui.tui.screens.dialogs.file_modal import FileModal

    modal = FileModal("Save session", suffix=".json")
    assert modal.named("v1.2") == "v1.2.json" and modal.named("notes.txt") == "notes.txt"
    assert modal.named("old") == "old" and modal.named("new") == "new.json"
