"""A training run as work to keep: e saves it as .npz, and quitting asks about one not saved,
in the lab or left there with Esc."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest
from lab_pilot import lab_app, settle
from pilot_wait import until
from screen_text import screen_lines
from textual.widgets import Input
from train_pilot import hold_after, paused_where_held, small_run, trained, type_path

from attn_tui.train import default_config
from attn_tui.train.runfile import encode, load
from attn_tui.tui.screens.dialogs.confirm_quit_modal import ConfirmQuitModal
from attn_tui.tui.screens.dialogs.file_modal import FileModal
from attn_tui.tui.textual_compat import notifications

torch = pytest.importorskip("torch")
from attn_tui.train.trainer import Run  # noqa: E402


def _question(app) -> str:
    assert isinstance(app.screen, ConfirmQuitModal)
    return str(app.screen.query_one("#quit-question").render())


async def test_e_saves_a_finished_run_that_load_reopens_and_quit_then_asks_nothing(
        tmp_path: Path) -> None:
    app = lab_app("train")
    async with app.run_test(size=(80, 24)) as pilot:
        await trained(pilot, 30)
        screen = app.screen
        assert screen.state == "done"
        await pilot.press("e")
        await pilot.pause()
        assert app.screen.query_one("#file-title").render().plain == \
            "Save the training run (.npz)"
        await type_path(pilot, tmp_path / "prev.npz")
        assert app.screen is screen
        assert str(screen.query_one("#train-status").render()).endswith("· done, saved")
        said = notifications(app)[-1].message
        assert said == f"Saved the run (30 steps) to {tmp_path / 'prev.npz'}: ctrl+o reopens it."
        record = load(str(tmp_path / "prev.npz"))
        assert record.losses.tolist() == screen.losses and record.config == screen.settings
        await pilot.press("q")
        await pilot.pause()
    assert not app.is_running


async def test_a_paused_run_is_saved_with_a_frame_at_the_step_it_paused_at(
        tmp_path: Path, monkeypatch) -> None:
    """Frames are taken every few steps: paused at 13, the file's last α and accuracy must be
    step 13's, the weights' own, and the lab shows that frame too."""
    reached, release = hold_after(13, monkeypatch)
    app = lab_app("train")
    async with app.run_test(size=(80, 24)) as pilot:
        await small_run(pilot, 200, "set_width(8)")  # a frame every 4 steps, a check every 10
        screen = app.screen
        await paused_where_held(pilot, reached, release)
        # paused, the map's last frame is step 13's (w opens step 13's weights); the
        # accuracy keeps its schedule, step 10's
        assert screen.step == 13 and screen.frames[-1][0] == 13 and screen.evals[-1][0] == 10
        await settle(pilot)
        n = len(screen.frames)
        assert f"frame {n} of {n}, step 13" in "\n".join(screen_lines(app))
        await pilot.press("e")
        await pilot.pause()
        await type_path(pilot, tmp_path / "p.npz")
        record = load(str(tmp_path / "p.npz"))
        assert record.steps_done == 13
        assert record.frame_steps[-1] == 13 and record.eval_steps[-1] == 13
        assert screen.frames[-1][0] == 13
        np.testing.assert_array_equal(screen.frames[-1][1], record.frames[-1])
        # trained on from there, it is the run never paused
        await pilot.press("enter")
        await settle(pilot)
        expected = Run(default_config("previous", d_model=8, steps=200))
        expected.advance()
        assert screen.state == "done" and screen.losses == expected.losses


async def test_e_before_training_says_why_and_while_training_pauses_then_asks(
        tmp_path: Path, monkeypatch) -> None:
    reached, release = hold_after(5, monkeypatch)
    app = lab_app("train")
    async with app.run_test(size=(80, 24)) as pilot:
        await small_run(pilot, 40)
        screen = app.screen
        await pilot.press("e")
        await pilot.pause()
        assert screen.message == "Train first (Enter): there is no run to save yet."
        await pilot.press("enter")
        await until(pilot, reached.is_set, "the worker at step 5")
        assert screen.message == ""  # the start cleared it
        await pilot.press("e")
        await pilot.pause()
        assert app.screen is screen and screen._pause_asked  # the dialog waits for the pause
        release.set()
        await until(pilot, lambda: isinstance(app.screen, FileModal), "the save dialog")
        assert screen.state == "paused" and screen.step == 5
        await type_path(pilot, tmp_path / "mid.npz")
        assert load(str(tmp_path / "mid.npz")).steps_done == 5


async def test_a_name_typed_without_an_ending_is_saved_as_npz(tmp_path: Path) -> None:
    """"run1" was refused ("end the name with .npz") where a session's "mine" saves mine.json."""
    app = lab_app("train")
    async with app.run_test(size=(80, 24)) as pilot:
        await trained(pilot, 10)
        await pilot.press("e")
        await pilot.pause()
        await type_path(pilot, tmp_path / "run1")
        # saved, the dialog closes: under the suite's load a pause can end before it has
        await until(pilot, lambda: not isinstance(app.screen, FileModal), "the dialog to close",
                    seconds=10)
        assert load(str(tmp_path / "run1.npz")).steps_done == 10 and not (tmp_path / "run1").exists()


def test_a_session_named_only_json_is_refused():
    from attn_tui.core.session import name_problem

    assert name_problem("/tmp/.JSON") == ("give the file a name before .json (.json alone would "
                                          "be a hidden file)")
    assert name_problem("/tmp/x.json") is None


async def test_a_name_that_is_not_npz_is_refused_and_the_dialog_stays(tmp_path: Path) -> None:
    app = lab_app("train")
    async with app.run_test(size=(80, 24)) as pilot:
        await trained(pilot, 10)
        await pilot.press("e")
        await pilot.pause()
        modal = await type_path(pilot, tmp_path / "run.md")
        assert app.screen is modal
        assert str(modal.query_one("#file-error").render()) == (
            "✗ A run is saved as .npz (ctrl+o reopens it): end the name with .npz.")
        assert not (tmp_path / "run.md").exists()
        # said before "already exists": replacing notes.txt would not have been a run
        (tmp_path / "notes.txt").write_text("notes")
        await type_path(pilot, tmp_path / "notes.txt")
        assert "end the name with .npz" in str(modal.query_one("#file-error").render())
        await type_path(pilot, tmp_path)
        assert str(modal.query_one("#file-error").render()) == (
            f"✗ {tmp_path} is a folder: add a file name ending in .npz.")
        await type_path(pilot, tmp_path / ".npz")
        assert str(modal.query_one("#file-error").render()) == (
            "✗ Give the file a name before .npz (.npz alone would be a hidden file).")
        assert app.screen is modal and sorted(p.name for p in tmp_path.iterdir()) == ["notes.txt"]


async def test_quit_asks_about_an_unsaved_run_and_s_saves_it_then_quits(tmp_path: Path) -> None:
    app = lab_app("train")
    async with app.run_test(size=(80, 24)) as pilot:
        await trained(pilot, 20)
        await pilot.press("q")
        await pilot.pause()
        assert _question(app) == ("The previous run trained in the train lab (step 20) is not "
                                  "saved. Save (s) / Quit anyway (y) / Cancel (Esc)")
        await pilot.press("s")
        await pilot.pause()
        assert app.screen.query_one("#file-title").render().plain == \
            "Save the training run (.npz), then quit"
        await type_path(pilot, tmp_path / "q.npz")
    assert not app.is_running
    assert load(str(tmp_path / "q.npz")).steps_done == 20


async def test_a_run_left_with_esc_is_asked_about_from_the_workbench() -> None:
    app = lab_app("train")
    async with app.run_test(size=(80, 24)) as pilot:
        await trained(pilot, 20)
        await pilot.press("escape")
        await pilot.pause()
        assert app.screen is app.workbench()
        await pilot.press("q")
        await pilot.pause()
        assert "The previous run trained in the train lab (step 20) is not saved." in \
            _question(app)
        await pilot.press("escape")
        await pilot.pause()
        assert app.is_running and app.screen is app.workbench()


async def test_ctrl_q_in_the_run_save_dialog_closes_it_and_asks_with_one_dialog_after(
        tmp_path: Path) -> None:
    """The question was stacked over the open dialog, and its s opened a second one on top."""
    app = lab_app("train")
    async with app.run_test(size=(80, 24)) as pilot:
        await trained(pilot, 20)
        lab = app.screen
        await pilot.press("e")
        await pilot.pause()
        assert isinstance(app.screen, FileModal)
        await pilot.press(*"mine.npz", "ctrl+q")
        await pilot.pause()
        assert "The previous run trained in the train lab (step 20) is not saved." in \
            _question(app)
        assert app.screen_stack[-2] is lab  # the dialog closed under the question
        await pilot.press("s")
        await pilot.pause()
        assert sum(isinstance(s, FileModal) for s in app.screen_stack) == 1
        assert app.screen.query_one(Input).value == "mine.npz"  # the name typed, kept
        await pilot.press("escape")  # cancelled: back in the lab, which still holds the run
        await pilot.pause()
        assert app.is_running and app.screen is lab
        await pilot.press("ctrl+q")
        await pilot.pause()
        await pilot.press("s")
        await pilot.pause()
        await type_path(pilot, tmp_path / "after.npz")
    assert not app.is_running
    assert load(str(tmp_path / "after.npz")).steps_done == 20


async def test_ctrl_q_in_the_session_save_dialog_closes_it_before_asking() -> None:
    app = lab_app("train")
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await pilot.press("escape", "7", "enter", "ctrl+s")  # an edit on the workbench
        await pilot.pause()
        assert isinstance(app.screen, FileModal)
        await pilot.press(*"class.json", "ctrl+q")
        await pilot.pause()
        assert isinstance(app.screen, ConfirmQuitModal)
        assert app.screen_stack[-2] is app.workbench()
        await pilot.press("escape")
        await pilot.pause()
        assert app.is_running and app.screen is app.workbench()
        await pilot.press("ctrl+s")  # the next save dialog offers the name typed before
        await pilot.pause()
        assert app.screen.query_one(Input).value == "class.json"


async def test_a_run_saved_then_left_with_esc_is_not_asked_about(tmp_path: Path) -> None:
    app = lab_app("train")
    async with app.run_test(size=(80, 24)) as pilot:
        await trained(pilot, 20)
        await pilot.press("e")
        await pilot.pause()
        await type_path(pilot, tmp_path / "s.npz")
        await pilot.press("escape", "g")  # and back: the kept run is still the saved one
        await pilot.pause()
        await pilot.press("q")
        await pilot.pause()
    assert not app.is_running


async def test_quit_while_training_offers_save_which_pauses_the_run_first(
        tmp_path: Path, monkeypatch) -> None:
    """The question said "Cancel, pause it (Enter), then e saves it" and stayed so when the run
    ended under it; doing as told then trained a new run over the finished one."""
    reached, release = hold_after(5, monkeypatch)
    app = lab_app("train")
    async with app.run_test(size=(80, 24)) as pilot:
        await small_run(pilot, 40)
        await pilot.press("enter")
        await until(pilot, reached.is_set, "the worker at step 5")
        await pilot.press("q")
        await pilot.pause()
        assert _question(app) == ("The previous run in the train lab is not saved; it was "
                                  "training as you quit, and saving pauses it. Save (s) / Quit "
                                  "anyway (y) / Cancel (Esc)")
        await pilot.press("s")
        await pilot.pause()
        release.set()
        await until(pilot, lambda: isinstance(app.screen, FileModal), "the save dialog")
        await type_path(pilot, tmp_path / "t.npz")
    assert not app.is_running
    assert load(str(tmp_path / "t.npz")).steps_done == 5


async def test_a_loaded_run_and_a_diverged_one_are_not_asked_about() -> None:
    run = Run(default_config("previous", d_model=16, steps=6))
    run.advance()
    app = lab_app("train", lab_options={"record": run.record()})
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await pilot.press("q")
        await pilot.pause()
    assert not app.is_running
    app = lab_app("train")
    async with app.run_test(size=(80, 24)) as pilot:
        await trained(pilot, 60, "set_lr(1000)")
        assert app.screen.state == "diverged"
        await pilot.press("q")
        await pilot.pause()
    assert not app.is_running


async def test_with_an_edited_workbench_too_s_saves_the_session_then_the_run(
        tmp_path: Path) -> None:
    app = lab_app("train")
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("escape", "s")  # an edit on the workbench: ÷√d_k off
        await pilot.pause()
        app.open_lab("train")
        await trained(pilot, 20)
        await pilot.press("q")
        await pilot.pause()
        assert _question(app) == (
            "You have unsaved changes. The previous run trained in the train lab (step 20) is "
            "not saved. s saves the session, then the run. Save (s) / Quit anyway (y) / "
            "Cancel (Esc)")
        await pilot.press("s")
        await pilot.pause()
        assert app.screen.query_one("#file-title").render().plain == \
            "Save session, then the run"
        await type_path(pilot, tmp_path / "s.json")
        assert app.is_running
        assert app.screen.query_one("#file-title").render().plain == \
            "Save the training run (.npz), then quit"
        await type_path(pilot, tmp_path / "r.npz")
    assert not app.is_running
    assert (tmp_path / "s.json").exists() and load(str(tmp_path / "r.npz")).steps_done == 20


async def test_the_palette_saves_the_run_over_the_train_lab_only(tmp_path: Path) -> None:
    app = lab_app("train")
    async with app.run_test(size=(80, 24)) as pilot:
        await trained(pilot, 10)
        titles = [c.title for c in app.get_system_commands(app.screen)]
        assert "Save the training run (.npz)" in titles
        assert "Save the training run (.npz)" not in [
            c.title for c in app.get_system_commands(app.workbench())]
        await pilot.press("ctrl+p")
        await settle(pilot)
        await pilot.press(*"Save the training run")
        await settle(pilot)
        await pilot.press("enter")
        await settle(pilot)
        await type_path(pilot, tmp_path / "c.npz")
        assert load(str(tmp_path / "c.npz")).steps_done == 10


async def test_a_part_trained_run_loaded_trains_on_to_the_losses_of_a_run_never_stopped(
        tmp_path: Path) -> None:
    """Enter on a run saved at 184 of 400 went to step 0 with no word: the file kept the
    weights but not AdamW's moments or the batch generator's state."""
    config = default_config("previous", d_model=16, steps=30)
    full = Run(config)
    full.advance()
    part = Run(config)
    part.advance(11)
    path = tmp_path / "part.npz"
    path.write_bytes(encode(part.record()))
    app = lab_app("train", lab_options={"record": load(str(path))})
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        screen = app.screen
        status = str(screen.query_one("#train-status").render())
        # at 80 columns without "step ", on one line beside the progress bar
        assert status.startswith("11/30 ") and status.endswith("· loaded (Enter trains on)")
        assert screen.query_one("#train-status").size.height == 1
        await pilot.press("enter")
        await settle(pilot)
        assert screen.state == "done" and screen.losses == full.losses
        await pilot.press("q")  # 19 steps more than the file holds: asked about
        await pilot.pause()
        assert "(step 30) is not saved" in _question(app)


async def test_a_run_from_a_file_without_its_training_state_says_enter_trains_anew() -> None:
    run = Run(default_config("previous", d_model=16, steps=20))
    run.advance(7)
    app = lab_app("train", lab_options={"record": replace(run.record(), resume={})})
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        status = str(app.screen.query_one("#train-status").render())
        assert status.endswith("· loaded (Enter trains anew)")
        await pilot.press("enter")  # from step 0: the run as trained afresh
        await settle(pilot)
        fresh = Run(default_config("previous", d_model=16, steps=20))
        fresh.advance()
        assert app.screen.state == "done" and app.screen.losses == fresh.losses


async def test_a_run_whose_training_state_is_damaged_says_why_it_trains_anew() -> None:
    run = Run(default_config("previous", d_model=16, steps=20))
    run.advance(7)
    problem = "its optimizer's exp_avg for head.bias does not fit the weights"
    record = replace(run.record(), resume={}, resume_problem=problem)
    app = lab_app("train", lab_options={"record": record})
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        assert app.screen.message == (f"This run cannot train on: {problem}. Enter trains it "
                                      "anew from step 0.")
        status = str(app.screen.query_one("#train-status").render())
        assert status.endswith("· loaded (Enter trains anew)")


async def test_e_twice_in_a_burst_while_training_opens_one_dialog(monkeypatch) -> None:
    reached, release = hold_after(5, monkeypatch)
    app = lab_app("train")
    async with app.run_test(size=(80, 24)) as pilot:
        await small_run(pilot, 40)
        await pilot.press("enter")
        await until(pilot, reached.is_set, "the worker at step 5")
        await pilot.press("e", "e")
        release.set()
        await until(pilot, lambda: isinstance(app.screen, FileModal), "the save dialog")
        await settle(pilot)
        assert sum(isinstance(s, FileModal) for s in app.screen_stack) == 1


async def test_e_then_q_in_a_burst_opens_no_save_dialog_over_the_question(monkeypatch) -> None:
    """The pause landed under the quit question and e's dialog opened over it; saved there,
    the question below still spoke of a run not saved."""
    reached, release = hold_after(5, monkeypatch)
    app = lab_app("train")
    async with app.run_test(size=(80, 24)) as pilot:
        await small_run(pilot, 40)
        await pilot.press("enter")
        await until(pilot, reached.is_set, "the worker at step 5")
        await pilot.press("e", "q")
        await until(pilot, lambda: isinstance(app.screen, ConfirmQuitModal), "the question")
        release.set()
        await until(pilot, lambda: app.screen_stack[-2].state == "paused", "the pause")
        await settle(pilot)
        assert isinstance(app.screen, ConfirmQuitModal)
        assert not any(isinstance(s, FileModal) for s in app.screen_stack)


async def test_a_training_state_torch_refuses_is_said_and_enter_then_trains_anew(
        tmp_path: Path) -> None:
    """A hand-made generator state passed the file's checks and killed the app at Enter."""
    import numpy as np

    run = Run(default_config("previous", d_model=16, steps=20))
    run.advance(7)
    record = run.record()
    bad = replace(record, resume={**record.resume, "batches": np.zeros(16, dtype=np.uint8)})
    app = lab_app("train", lab_options={"record": bad})
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        screen = app.screen
        await pilot.press("enter")
        await settle(pilot)
        assert screen.state == "loaded" and screen.step == 7
        assert screen.message.startswith("This run cannot train on: its training state cannot "
                                         "be used (")
        assert screen.message.endswith("Enter trains it anew from step 0.")
        assert str(screen.query_one("#train-status").render()).endswith(
            "· loaded (Enter trains anew)")
        await pilot.press("enter")
        await settle(pilot)
        fresh = Run(default_config("previous", d_model=16, steps=20))
        fresh.advance()
        assert screen.state == "done" and screen.losses == fresh.losses


async def test_a_finished_run_loaded_says_enter_trains_anew() -> None:
    run = Run(default_config("previous", d_model=16, steps=8))
    run.advance()
    app = lab_app("train", lab_options={"record": run.record()})
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        assert str(app.screen.query_one("#train-status").render()).endswith(
            "· loaded (Enter trains anew)")


async def test_a_run_paused_before_its_first_step_has_nothing_to_save(monkeypatch) -> None:
    import threading

    built, init = threading.Event(), Run.__init__

    def held_init(self, config):  # torch "loads" until Enter's pause has been asked
        built.wait(30)
        init(self, config)

    monkeypatch.setattr(Run, "__init__", held_init)
    app = lab_app("train")
    async with app.run_test(size=(80, 24)) as pilot:
        await small_run(pilot, 20)
        screen = app.screen
        await pilot.press("enter")
        assert screen.state == "loading"
        await pilot.press("enter")  # pause, while torch loads
        assert screen._pause_asked
        built.set()
        await settle(pilot)
        assert screen.state == "paused" and screen.step == 0
        await pilot.press("e")
        await pilot.pause()
        # not "Train first", which read oddly beside a paused run
        assert screen.message == ("Paused before its first step, the run has nothing to save "
                                  "yet: Enter trains it.")
        assert app.screen is screen


async def test_opening_a_session_of_the_train_lab_asks_before_it_drops_an_unsaved_run(
        tmp_path: Path) -> None:
    """ctrl+o on such a session opened the lab afresh: the run went, "u undoes" did nothing,
    and quitting then asked about nothing."""
    app = lab_app("train")
    async with app.run_test(size=(80, 24)) as pilot:
        await trained(pilot, 20)
        session = tmp_path / "s.json"
        await pilot.press("ctrl+s")
        await pilot.pause()
        await type_path(pilot, session)
        assert session.exists()
        await pilot.press("ctrl+o")
        await pilot.pause()
        modal = await type_path(pilot, session)
        assert app.screen is modal  # asked, in the dialog, before anything is replaced
        said = str(modal.query_one("#file-error").render())
        assert said.startswith("✗ The previous run in the train lab (step 20) is not "
                               "saved. The session opens the train lab afresh, without it.")
        await pilot.press("escape")
        await settle(pilot)
        lab = app.screen
        assert type(lab).__name__ == "TrainLabScreen" and lab.held_run().steps == 20
        await pilot.press("ctrl+o")
        await pilot.pause()
        await type_path(pilot, session)
        await pilot.press("enter")  # Enter again: opened anyway, as it said
        await settle(pilot)
        assert app.screen is not lab and app.screen.held_run() is None
        assert "train" not in app.left_labs  # afresh, without it: Go to does not bring it back


async def test_a_lesson_that_trains_asks_before_it_takes_the_place_of_an_unsaved_run(
        tmp_path: Path) -> None:
    app = lab_app("train")
    async with app.run_test(size=(80, 24)) as pilot:
        await trained(pilot, 20)
        app.tutor.start("learning")
        await pilot.pause()
        assert _question(app) == (
            "The previous run in the train lab (step 20) is not saved. Lesson "
            "learning trains its own runs in the train lab, in its place. Save (s) / Open "
            "the lesson (y) / Cancel (Esc)")
        # the bar says what y does here: it opens the lesson, it does not quit
        assert " ".join(screen_lines(app)[-1].split()) == "s Save y Open the lesson esc Cancel"
        await pilot.press("escape")
        await settle(pilot)
        assert app.tutor.lesson is None and app.screen.held_run().steps == 20
        app.tutor.start("learning")
        await pilot.pause()
        await pilot.press("s")
        await pilot.pause()
        await type_path(pilot, tmp_path / "mine.npz")
        await settle(pilot)
        assert load(str(tmp_path / "mine.npz")).steps_done == 20
        assert app.tutor.lesson is not None and app.tutor.lesson.name == "learning"


@pytest.mark.parametrize("answer", ["y", "saved"])
async def test_a_lesson_that_trains_starts_from_a_fresh_lab_not_the_run_it_took_the_place_of(
        tmp_path: Path, answer: str) -> None:
    app = lab_app("train")
    async with app.run_test(size=(100, 30)) as pilot:
        await trained(pilot, 20)
        old = app.screen
        if answer == "saved":  # a saved run is not asked about: the lesson starts all the same
            await pilot.press("e")
            await pilot.pause()
            await type_path(pilot, tmp_path / "mine.npz")
            await settle(pilot)
        app.tutor.start("learning")
        await pilot.pause()
        if answer == "y":
            await pilot.press("y")
        await settle(pilot)
        lab = app.screen
        assert app.tutor.lesson is not None and app.tutor.host is lab and lab is not old
        # step 1, "A head that knows nothing": no run's step, loss or accuracy on the line
        assert lab.held_run() is None and lab.step == 0
        status = str(lab.query_one("#train-status").render())
        assert status.startswith("step 0/200 · loss – · acc – · Enter trains"), status


async def test_a_diverged_run_loaded_says_so_and_enter_asks_before_it_diverges_again() -> None:
    """Loaded from a file, a diverged run showed 'diverged' on its status alone, and Enter
    trained the same settings into the same divergence without a word."""
    run = Run(default_config("previous", d_model=16, steps=30, lr=1e6))
    run.advance()
    assert run.diverged
    app = lab_app("train", lab_options={"record": run.record()})
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        screen = app.screen
        assert screen.message.startswith("The model's outputs stopped being numbers at step ")
        assert screen.message.endswith(" are kept (←→).")
        await pilot.press("enter")
        await settle(pilot)
        assert screen.state == "loaded"  # not trained: asked first
        assert screen.message.startswith("The same settings diverge again, step for step")
        await pilot.press("enter")  # asked once: now it trains, and diverges as said
        await settle(pilot)
        await app.workers.wait_for_complete()
        await settle(pilot)
        assert screen.state == "diverged"


async def test_e_offers_the_file_the_run_was_saved_to_and_a_new_task_a_name_beside_it(
        tmp_path: Path) -> None:
    """e offered train-sort.npz in the working folder after the run had been saved to (or
    opened from) a file elsewhere: a second copy, away from the first."""
    app = lab_app("train")
    async with app.run_test(size=(80, 24)) as pilot:
        await trained(pilot, 30)
        task = app.screen.settings.task
        await pilot.press("e")
        await pilot.pause()
        field = app.screen.query_one(Input)
        assert field.value == f"train-{task}.npz"  # no run file used yet
        await type_path(pilot, tmp_path / "mine.npz")
        # the dialog's result callback, which keeps the file's name, runs once it has closed
        await until(pilot, lambda: app.session.last_run is not None, "the run's file kept")
        await pilot.press("e")
        await pilot.pause()
        assert app.screen.query_one(Input).value == str(tmp_path / "mine.npz")
        await pilot.press("escape")
        await pilot.pause()
        app.session.last_run_task = "another"  # a run of another task was saved there
        await pilot.press("e")
        await pilot.pause()
        assert app.screen.query_one(Input).value == str(tmp_path / f"train-{task}.npz")


def test_a_run_opened_with_load_is_offered_to_e_by_its_file(tmp_path: Path) -> None:
    from attn_tui.tui.screens.labs.train_runs import offered_name

    class Session:
        last_run, last_run_task = str(tmp_path / "a" / "run1.npz"), "sort"

    (tmp_path / "a").mkdir()
    assert offered_name(Session, "sort") == str(tmp_path / "a" / "run1.npz")
    assert offered_name(Session, "previous") == str(tmp_path / "a" / "train-previous.npz")
    Session.last_run = None
    assert offered_name(Session, "sort") == "train-sort.npz"


def test_e_offers_no_name_in_the_rescue_folder_or_where_nothing_can_be_written(
        tmp_path: Path, monkeypatch) -> None:
    """A rescued run opened with ctrl+o, trained on, then e: it offered to write over the
    rescue in attn-tui's own hidden folder."""
    from attn_tui.core import rescue
    from attn_tui.tui.screens.labs.train_runs import offered_name

    kept = tmp_path / "unsaved"
    kept.mkdir()
    monkeypatch.setattr(rescue, "folder", lambda: kept)

    class Session:
        last_run, last_run_task = str(kept / "unsaved-20261206-101010.npz"), "sort"

    assert offered_name(Session, "sort") == "train-sort.npz"
    shared = tmp_path / "shared"
    shared.mkdir()
    Session.last_run = str(shared / "teacher.npz")
    monkeypatch.setattr("os.access", lambda path, mode: False)
    assert offered_name(Session, "sort") == "train-sort.npz"
