"""A training run's file is written (e) and read (ctrl+o) off the event loop: the largest
model's run compresses for about 10 s and an uncompressed rescue is 300 MB, and the screen
stood frozen meanwhile. The dialog says what it waits for; a read can be cancelled, a write
not (half a file is worse than none)."""

from __future__ import annotations

import threading
from pathlib import Path
from typing import NamedTuple

import pytest
from lab_pilot import lab_app, settle
from pilot_wait import until
from textual.widgets import Input
from train_pilot import trained, type_path

from attn_tui.train import runfile
from attn_tui.tui.app import make_app
from attn_tui.tui.screens.dialogs.file_modal import FileModal
from attn_tui.tui.textual_compat import notifications

pytest.importorskip("torch")

HELD_AT_MOST = 20.0  # a test that fails must not hang: the held file call goes on after this


def _held(monkeypatch, name: str) -> tuple[threading.Event, threading.Event]:
    """Hold runfile.``name`` (run in a worker thread) until released: (reached, release)."""
    reached, release = threading.Event(), threading.Event()
    real = getattr(runfile, name)

    def held(*args, **kwargs):
        reached.set()
        release.wait(HELD_AT_MOST)
        return real(*args, **kwargs)

    monkeypatch.setattr(runfile, name, held)
    return reached, release


def _saved_said(app) -> bool:
    """The dialog's result callback, which says the run is saved, runs a moment after it closes."""
    return any(n.message.startswith("Saved the run") for n in notifications(app))


def _hint(modal: FileModal) -> str:
    return str(modal.query_one("#file-hint").render())


class HeldWrite(NamedTuple):
    path: Path  # where e writes the run
    reached: threading.Event
    release: threading.Event


@pytest.fixture
def held_write(tmp_path: Path, monkeypatch) -> HeldWrite:
    """e's write of a run, held as it begins (see _held) until released."""
    return HeldWrite(tmp_path / "slow.npz", *_held(monkeypatch, "encode"))


async def _writing(pilot, held: HeldWrite) -> FileModal:
    """A trained run's e, then Enter on the held write's path: the dialog, as it writes."""
    await trained(pilot, 20)
    await pilot.press("e")
    await pilot.pause()
    modal = await type_path(pilot, held.path, written=False)
    await until(pilot, held.reached.is_set, "the write to begin", seconds=10)
    return modal


async def test_e_writes_the_run_while_the_dialog_says_so_and_escape_waits_for_it(
        held_write: HeldWrite) -> None:
    path, _, release = held_write
    app = lab_app("train")
    async with app.run_test(size=(80, 24)) as pilot:
        modal = await _writing(pilot, held_write)
        lab = app.screen_stack[-2]
        await pilot.press("escape", "enter")  # neither cancels the write nor starts another
        await pilot.pause()
        assert app.screen is modal
        assert _hint(modal) == f"Writing {path} … (a moment: Escape waits for it)"
        assert not path.exists()
        release.set()
        await until(pilot, lambda: app.screen is lab and _saved_said(app), "the notice",
                    seconds=10)
        assert notifications(app)[-1].message == \
            f"Saved the run (20 steps) to {path}: ctrl+o reopens it."
        assert runfile.load(str(path)).steps_done == 20
        assert lab.held_run().unsaved is False


async def test_ctrl_o_reads_a_run_while_the_dialog_says_so_and_escape_cancels_it(
        tmp_path: Path, monkeypatch) -> None:
    from attn_tui.train import default_config
    from attn_tui.train.trainer import Run

    run = Run(default_config("previous", d_model=16, steps=10))
    run.advance()
    path = tmp_path / "run.npz"
    runfile.save(run.record_now(), str(path))
    reached, release = _held(monkeypatch, "load")
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        bench = app.screen
        await pilot.press("ctrl+o")
        await pilot.pause()
        modal = await type_path(pilot, path, written=False)
        await until(pilot, reached.is_set, "the read to begin", seconds=10)
        assert app.screen is modal
        assert _hint(modal) == f"Reading {path} … (Escape cancels)"
        await pilot.press("escape")
        await pilot.pause()
        assert app.screen is bench
        release.set()
        await app.workers.wait_for_complete()
        await settle(pilot)
        assert app.screen is bench  # the run read after all does not open
        assert not [n for n in notifications(app) if n.message.startswith("Opened")]

        reached.clear()
        release.clear()
        await pilot.press("ctrl+o")
        await pilot.pause()
        await type_path(pilot, path, written=False)
        await until(pilot, reached.is_set, "the second read to begin", seconds=10)
        release.set()
        await until(pilot, lambda: type(app.screen).__name__ == "TrainLabScreen",
                    "the train lab", seconds=30)
        await settle(pilot)
        assert app.screen.state == "loaded" and app.screen.step == 10
        assert notifications(app)[-1].message == f"Opened {path}: the previous run, step 10 of 10."


async def test_ctrl_q_while_the_run_is_written_asks_nothing_until_it_is_then_quits(
        held_write: HeldWrite) -> None:
    # the question opened over the writing dialog and called the run "not saved"; once the
    # file was written the dialog, no longer on top, never closed nor said so
    path, _, release = held_write
    app = lab_app("train")
    async with app.run_test(size=(80, 24)) as pilot:
        modal = await _writing(pilot, held_write)
        assert modal.query_one(Input).disabled  # the name being written is not typed over
        await pilot.press("ctrl+q")
        await pilot.pause()
        assert app.screen is modal and app.is_running
        release.set()
        await until(pilot, lambda: not app.is_running, "the app to quit", seconds=10)
    assert app.return_code == 0
    assert runfile.load(str(path)).steps_done == 20


async def test_a_write_that_ends_under_the_too_small_screen_closes_its_dialog_after(
        held_write: HeldWrite) -> None:
    path, _, release = held_write
    app = lab_app("train")
    async with app.run_test(size=(80, 24)) as pilot:
        modal = await _writing(pilot, held_write)
        lab = app.screen_stack[-2]
        await pilot.resize_terminal(30, 8)
        await until(pilot, lambda: app.screen is not modal, '"too small" on top', seconds=10)
        release.set()
        await settle(pilot)  # the write's worker is done, under "too small"
        assert path.exists() and app.screen is not modal
        await pilot.resize_terminal(80, 24)
        await until(pilot, lambda: app.screen is lab and _saved_said(app), "the notice",
                    seconds=10)
        assert notifications(app)[-1].message == \
            f"Saved the run (20 steps) to {path}: ctrl+o reopens it."
        assert lab.held_run().unsaved is False


async def test_a_kill_while_e_writes_the_run_waits_for_its_file_and_keeps_no_second(
        held_write: HeldWrite, progress_dir: Path) -> None:
    path, _, release = held_write
    app = lab_app("train")
    async with app.run_test(size=(80, 24)) as pilot:
        await _writing(pilot, held_write)
        threading.Timer(0.3, release.set).start()  # the write ends while the rescue waits
        written = await app.rescue()
        await pilot.pause()
    assert written == []
    assert runfile.load(str(path)).steps_done == 20
    assert not list((progress_dir.parent / "unsaved").glob("*.npz"))
