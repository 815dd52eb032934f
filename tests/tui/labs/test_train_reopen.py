"""A saved training run reopened with ctrl+o, as `--lab train --load` does (over SSH or in a
browser there is no command line to give it), and an unsaved run rescued to a .npz when the
app ends by no choice of the learner's, told of at the next start and offered by ctrl+o."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from lab_pilot import lab_app, settle
from pilot_wait import until
from textual import messages
from textual.widgets import Input
from train_pilot import enter_now, hold_after, small_run, trained

from attn_tui.core import rescue
from attn_tui.train.runfile import load
from attn_tui.tui.app import make_app
from attn_tui.tui.screens.dialogs.file_modal import FileModal
from attn_tui.tui.textual_compat import notifications

pytest.importorskip("torch")


@pytest.fixture
def data(progress_dir: Path) -> Path:
    return progress_dir.parent


def _rescued(data: Path, ending: str) -> list[Path]:
    return sorted((data / "unsaved").glob(f"unsaved-*{ending}"))


async def _open(pilot, path: Path | None = None) -> FileModal:
    """ctrl+o, then Enter on ``path`` (or on what the dialog offers, kept as ``offered``)."""
    await pilot.press("ctrl+o")
    await pilot.pause()
    modal = pilot.app.screen
    assert isinstance(modal, FileModal)
    if path is not None:
        modal.query_one(Input).value = str(path)
    modal.offered = modal.query_one(Input).value
    await pilot.press("enter")
    await settle(pilot)
    return modal


async def _rescued_run(data: Path, steps: int = 20) -> tuple[Path, list[float]]:
    """A run trained in the lab, unsaved as the tab closes (ExitApp): its rescued file, and
    the losses the lab showed."""
    app = lab_app("train")
    async with app.run_test(size=(80, 24)) as pilot:
        await trained(pilot, steps)
        losses = list(app.screen.losses)
        app.post_message(messages.ExitApp())
        await pilot.pause()
    [path] = _rescued(data, ".npz")
    return path, losses


async def _run_left_then_an_edit(pilot) -> None:
    """A run of 20 steps trained and left in the lab with Esc (kept for Go to), then an
    unsaved edit on the workbench: both are work a rescue keeps."""
    await trained(pilot, 20)
    await pilot.press("escape")
    await settle(pilot)
    await pilot.press("7", "enter")
    await pilot.pause()


def _error(modal: FileModal) -> str:
    return str(modal.query_one("#file-error").render())


def _saved_run(tmp_path: Path, steps: int = 20) -> tuple[Path, list[float]]:
    """A small run saved as the lab's e saves one (tests/tui/labs/test_train_save.py tries e
    itself): made without an app, the dearest part of these tests."""
    from attn_tui.train import default_config
    from attn_tui.train.runfile import save
    from attn_tui.train.trainer import Run

    run = Run(default_config("previous", d_model=16, steps=steps))
    run.advance()
    path = tmp_path / "run.npz"
    save(run.record_now(), str(path))
    return path, list(run.losses)


async def test_ctrl_o_on_the_workbench_opens_a_saved_run_in_the_train_lab(tmp_path, data):
    path, losses = _saved_run(tmp_path)
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("ctrl+o")
        await pilot.pause()
        title = str(app.screen.query_one("#file-title").render())
        assert title == "Open a session or a training run"
        await pilot.press("escape")
        await _open(pilot, path)
        lab = app.screen
        assert type(lab).__name__ == "TrainLabScreen"
        assert lab.state == "loaded" and lab.losses == losses and lab.settings.task == "previous"
        assert notifications(app)[-1].message == (
            f"Opened {path}: the previous run, step 20 of 20.")
        # it is the file's: quitting asks about no run
        assert lab.held_run().unsaved is False
        assert app.workbench().dirty is False


async def test_a_run_opened_over_an_unsaved_one_asks_first_and_escape_keeps_it(tmp_path):
    path, _ = _saved_run(tmp_path, steps=20)
    app = lab_app("train")
    async with app.run_test(size=(80, 24)) as pilot:
        await trained(pilot, 30)
        lab = app.screen
        modal = await _open(pilot, path)
        assert app.screen is modal
        assert _error(modal).startswith(
            "✗ The previous run in the train lab (step 30) is not saved, and the run you open "
            "takes its place. Enter again opens it anyway; Escape keeps the run")
        await pilot.press("escape")
        await settle(pilot)
        assert app.screen is lab and lab.held_run().steps == 30
        await _open(pilot, path)
        await pilot.press("enter")  # Enter again: as it said
        await settle(pilot)
        opened = app.screen
        assert opened is not lab and opened.held_run().steps == 20
        assert "train" not in app.left_labs  # the run it replaced is not kept for Go to


async def test_other_zips_and_a_missing_torch_are_refused_in_the_dialog(tmp_path, monkeypatch):
    stages = tmp_path / "attn-stages.npz"
    np.savez(stages, q=np.zeros((2, 2)), k=np.zeros((2, 2)), v=np.zeros((2, 2)),
             weights=np.zeros((2, 2)))
    path, _ = _saved_run(tmp_path)
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        modal = await _open(pilot, stages)
        assert app.screen is modal
        assert _error(modal) == (
            f"✗ Cannot open {stages}: it is an export of the workbench's stages (Q, K, V, α), "
            "not a saved training run; e in the train lab or attn-tui train --save writes one.")
        import attn_tui.compute

        monkeypatch.setattr(attn_tui.compute, "torch_available", lambda: False)
        modal.query_one(Input).value = str(path)
        await pilot.press("enter")
        await pilot.pause()
        assert _error(modal) == (
            "✗ It is a saved training run, and the train lab that shows one needs torch, which "
            "is not installed: pip install 'attn-tui[torch]'.")
        assert app.workbench().dirty is False


async def test_a_tab_closed_on_an_unsaved_run_leaves_it_in_a_npz_that_ctrl_o_reopens(
        data, monkeypatch):
    monkeypatch.setenv("HOME", str(data.parent))
    path, losses = await _rescued_run(data, steps=30)
    assert _rescued(data, ".json") == []  # the workbench had nothing unsaved
    record = load(str(path))
    assert record.losses.tolist() == losses and record.steps_done == 30

    app = make_app()
    async with app.run_test(size=(80, 24), notifications=True) as pilot:
        await pilot.pause()
        [said] = [str(n.message) for n in notifications(app) if n.title == "Unsaved run kept"]
        where = "~/" + str(path.parent.relative_to(data.parent)) + "/"
        assert said == ("attn-tui ended before the training run was saved. It is kept, "
                        f"paused, in\n{where}\n{path.name}\nctrl+o offers it.")
        modal = await _open(pilot)  # offered: Enter alone
        assert modal.offered == str(path)
        lab = app.screen
        assert type(lab).__name__ == "TrainLabScreen" and lab.losses == losses
        # opened, the notice has done its work: it no longer covers the lab's maps
        assert all(n.title != "Unsaved run kept" for n in notifications(app))
    app = make_app()  # told once
    async with app.run_test(size=(80, 24), notifications=True) as pilot:
        await pilot.pause()
        assert not [n for n in notifications(app) if n.title == "Unsaved run kept"]


async def test_a_rescue_while_it_trains_keeps_the_run_at_the_step_it_reached(data,
                                                                            monkeypatch):
    """(A wait that blocked the event loop here hung the test: tests/cli/test_terminal.py's
    hang-ups in a pty fail on that by their time limit.)"""
    reached, release = hold_after(12, monkeypatch)
    app = lab_app("train")
    async with app.run_test(size=(80, 24)) as pilot:
        await small_run(pilot, 200)
        enter_now(pilot)
        await until(pilot, reached.is_set, "the worker at step 12")
        release.set()  # it trains on while the app ends: the rescue takes the step it reached
        written = await app.rescue()
        await pilot.pause()
    [path] = written
    record = load(path)
    assert 12 <= record.steps_done < 200 and len(record.losses) == record.steps_done
    assert record.resume  # it can train on from there


async def test_an_edited_workbench_and_an_unsaved_run_leave_two_files_offered_in_turn(data):
    app = lab_app("train")
    async with app.run_test(size=(80, 24)) as pilot:
        await _run_left_then_an_edit(pilot)
        app.post_message(messages.ExitApp())
        await pilot.pause()
    [kept] = _rescued(data, ".json")
    [run] = _rescued(data, ".npz")

    app = make_app()
    async with app.run_test(size=(80, 24), notifications=True) as pilot:
        await pilot.pause()
        [said] = [str(n.message) for n in notifications(app) if n.title == "Unsaved work kept"]
        assert said == ("attn-tui ended before your edits and the training run were saved. "
                        f"They are kept in\n{kept.parent}/\n{kept.name}\n{run.name}\n"
                        "ctrl+o offers each in turn.")  # the folder once
        assert kept.with_suffix("") == run.with_suffix("")  # one ending: one name
        def told() -> list[str]:
            return [str(n.message) for n in notifications(app) if n.title.startswith("Unsaved")]

        modal = await _open(pilot)
        assert modal.offered == str(kept)
        assert app.workbench().workspace.q[0][0] == 7.0
        # the start's notice went as the dialog opened (it covered it); the run is named again
        assert told() == [f"Also kept: {run}. ctrl+o offers it next."]
        modal = await _open(pilot)  # the session is open now: the run is offered next
        assert modal.offered == str(run)
        assert app.screen.held_run().steps == 20
        assert not told()
        await pilot.press("escape")
        await settle(pilot)
        await pilot.press("ctrl+o")  # both opened: a rescue is no file of the learner's,
        await pilot.pause()  # and is offered no more
        assert app.screen.query_one(Input).value == "attn-session.json"


async def test_a_saved_run_and_quitting_by_choice_leave_no_run_file(data, tmp_path):
    app = lab_app("train", confirm_quit=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await trained(pilot, 20)
        app.exit()  # "Quit anyway"
        await pilot.pause()
    path, _ = _saved_run(tmp_path)  # saved, then the tab closes
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await _open(pilot, path)
        app.post_message(messages.ExitApp())
        await pilot.pause()
    assert _rescued(data, ".npz") == []


async def test_two_ways_of_ending_at_once_leave_one_file_of_each(data):
    """A hang-up's rescue (a task, as the signal handler starts it) and the tab's ExitApp
    arriving while it waits on the run: each rescued, and the second wrote the same work
    again, or ended the process before the first's run was written."""
    import asyncio

    app = lab_app("train")
    async with app.run_test(size=(80, 24)) as pilot:
        await _run_left_then_an_edit(pilot)
        hang_up = asyncio.get_running_loop().create_task(app.rescue())
        await asyncio.sleep(0)
        app.post_message(messages.ExitApp())
        await pilot.pause()
        written = await hang_up
    assert len(written) == 2
    assert len(_rescued(data, ".json")) == 1 and len(_rescued(data, ".npz")) == 1


async def test_a_second_kill_while_the_run_waits_leaves_the_edits_and_no_empty_file(
        data, monkeypatch):
    """The edits waited behind the run, and a cancelled rescue (a second kill; the loop's
    end) left an empty unsaved-….npz, listed among a browser learner's files."""
    import asyncio

    reached, release = hold_after(12, monkeypatch)
    app = lab_app("train")
    async with app.run_test(size=(80, 24)) as pilot:
        await small_run(pilot, 200)
        await pilot.press("escape")  # the run trains on, kept for Go to
        await settle(pilot)
        await pilot.press("7", "enter")
        await pilot.pause()
        await pilot.press("g")
        await pilot.pause()
        await pilot.press(*"lab train", "enter")
        await settle(pilot)
        enter_now(pilot)
        await until(pilot, reached.is_set, "the worker at step 12")
        task = asyncio.get_running_loop().create_task(app.rescue())
        await until(pilot, lambda: _rescued(data, ".json"), "the edits written")
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await task
        release.set()
    [kept] = _rescued(data, ".json")
    assert kept.stat().st_size > 0 and _rescued(data, ".npz") == []
    assert rescue.untold() == [kept]


async def test_the_rescued_file_is_offered_until_opened_though_a_session_is_named(data,
                                                                                 tmp_path):
    """With --session (or after ctrl+s) ctrl+o offered the session's own file, while the
    notice, still up, said it offered the rescued run; once it went, nothing named the run."""
    run, _ = await _rescued_run(data)
    mine = tmp_path / "mine.json"
    from attn_tui.core import session, state

    session.save(state.from_preset("mask"), mine)
    app = make_app(session_path=str(mine))
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        modal = await _open(pilot)
        assert modal.offered == str(run)
        await pilot.press("escape")  # the lab it opened: back to the workbench
        await settle(pilot)
        modal = await _open(pilot)  # opened now: the session's own file is offered again
        assert modal.offered == str(mine)


async def test_a_npz_that_is_no_zip_is_named_as_no_run_not_as_no_session(tmp_path):
    """It was read as a session: "it is not valid JSON", in a dialog about runs too."""
    path = tmp_path / "notes.npz"
    path.write_text("some notes")
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        modal = await _open(pilot, path)
        assert _error(modal) == (f"✗ Cannot open {path}: it is not a saved training run (not a "
                                 "readable .npz).")


async def test_work_that_cannot_be_kept_is_said_once_the_terminal_is_back(data):
    """A rescue that failed (here: unsaved/ is a file) said nothing; after a kill the terminal
    is given back, and the command line prints why (the app's rescue_report)."""
    (data / "unsaved").write_text("in the way")
    app = lab_app("train")
    async with app.run_test(size=(80, 24)) as pilot:
        await _run_left_then_an_edit(pilot)
        assert await app.rescue() == []
    where = data / "unsaved"
    assert app.rescue_report() == [
        f"could not keep the unsaved {what} in {where}: a part of its path is a file, not a "
        "folder" for what in ("edits", "training run")]
    assert where.read_text() == "in the way"


async def test_the_rescued_file_typed_as_the_notice_shows_it_counts_as_opened(data,
                                                                             monkeypatch):
    """The notice writes the path from ~; typed that way, it was not known for the rescued
    file: the notice stayed, and ctrl+o went on offering it."""
    monkeypatch.setenv("HOME", str(data.parent))
    run, _ = await _rescued_run(data)
    app = make_app()
    async with app.run_test(size=(80, 24), notifications=True) as pilot:
        await pilot.pause()
        await _open(pilot, Path("~") / run.relative_to(data.parent))
        assert app.screen.held_run().steps == 20
        assert all(n.title != "Unsaved run kept" for n in notifications(app))
        assert app.session.rescued == []


async def test_a_second_kill_while_the_run_is_written_leaves_it_whole_and_told_of(
        data, monkeypatch):
    """Cancelled once its writing has begun (a second kill), the rescue's thread still
    writes the file whole, and the next start tells of it."""
    import asyncio
    import threading

    import attn_tui.train.runfile as runfile

    began, go_on = threading.Event(), threading.Event()
    encode = runfile.encode

    def slow_encode(record, compress=True):
        began.set()
        go_on.wait(10)
        return encode(record, compress)

    monkeypatch.setattr(runfile, "encode", slow_encode)
    app = lab_app("train")
    async with app.run_test(size=(80, 24)) as pilot:
        await trained(pilot, 20)
        task = asyncio.get_running_loop().create_task(app.rescue())
        await until(pilot, began.is_set, "the run's writing begun")
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await task
        go_on.set()
    [path] = _rescued(data, ".npz")
    await until_written(path)
    assert load(str(path)).steps_done == 20 and rescue.untold() == [path]


async def until_written(path: Path) -> None:
    import asyncio

    for _ in range(500):
        if path.stat().st_size > 0 and rescue.untold():
            return
        await asyncio.sleep(0.01)
    raise AssertionError(f"{path} was not written")


async def test_ctrl_o_in_the_lab_offers_the_run_last_saved_there(tmp_path, data):
    # it offered attn-session.json just after e had saved the run to a name of its own
    app = lab_app("train")
    async with app.run_test(size=(80, 24)) as pilot:
        await trained(pilot, 20)
        await pilot.press("e")
        await pilot.pause()
        app.screen.query_one(Input).value = str(tmp_path / "mine.npz")
        await pilot.press("enter")
        await settle(pilot)
        await app.workers.wait_for_complete()
        await settle(pilot)
        await pilot.press("ctrl+o")
        await pilot.pause()
        assert app.screen.query_one(Input).value == str(tmp_path / "mine.npz")
        await pilot.press("escape")
        await pilot.pause()
        (tmp_path / "mine.npz").unlink()  # gone: not offered, to be refused on Enter
        await pilot.press("ctrl+o")
        await pilot.pause()
        assert app.screen.query_one(Input).value == "attn-session.json"
        await pilot.press("escape", "escape")  # the dialog, then the lab
        await settle(pilot)
        (tmp_path / "mine.npz").touch()
        await pilot.press("ctrl+o")  # on the workbench, sessions are what it offers
        await pilot.pause()
        assert app.screen.query_one(Input).value == "attn-session.json"


def test_a_run_loaded_from_the_command_line_is_the_one_ctrl_o_offers(tmp_path, monkeypatch):
    from types import SimpleNamespace

    import attn_tui.tui.app
    from attn_tui.cli.main import main

    path, _ = _saved_run(tmp_path)
    made: list = []

    def fake_make_app(**kwargs):
        made.append(SimpleNamespace(session=SimpleNamespace(last_run=None), stopped_by=None,
                                    run=lambda **kw: 0, return_code=0, kwargs=kwargs))
        return made[-1]

    monkeypatch.setattr(attn_tui.tui.app, "make_app", fake_make_app)
    monkeypatch.setattr("attn_tui.cli.terminal.terminal_problem", lambda: None)
    monkeypatch.setattr("attn_tui.cli.terminal.end_with_the_server", lambda: None)
    main(["--lab", "train", "--load", str(path)])
    assert made[-1].session.last_run == str(path)
    record = made[-1].kwargs["lab_options"]["record"]
    assert record.steps_done == 20
    assert made[-1].session.last_run_task == record.config.task  # e offers the file too
