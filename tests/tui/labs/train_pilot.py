"""The train lab under Pilot: small runs, and a worker held at a step of one's choosing."""

from __future__ import annotations

import threading

from lab_pilot import run_action, settle
from pilot_wait import until
from textual import events


async def small_run(pilot, steps=60, *more) -> None:
    await settle(pilot)
    for action in ("set_task('previous')", "set_width(16)", f"set_steps({steps})", *more):
        await run_action(pilot, action)


async def trained(pilot, steps=60, *more) -> None:
    """A small run trained to its end: the lab's settings, then Enter, then every step."""
    await small_run(pilot, steps, *more)
    await pilot.press("enter")
    await settle(pilot)


async def esc_and_back(pilot):
    """Esc out of the train lab, then Go to it again: the lab as it comes back."""
    pilot.app.pop_screen()
    await pilot.pause()
    pilot.app.reopen_lab("train")
    await settle(pilot)
    return pilot.app.screen


def enter_now(pilot) -> None:
    """Enter as the terminal sends it, without Pilot's wait for an idle process: while the
    worker trains the process is never idle, and each press waited its full second twice."""
    pilot.app.post_message(events.Key("enter", "\r"))


def hold_after(step: int, monkeypatch) -> tuple[threading.Event, threading.Event]:
    """Hold the training worker after ``step`` until released: (reached, release)."""
    from attn_tui.train.trainer import Run  # torch: imported by tests that have skipped without

    reached, release = threading.Event(), threading.Event()
    one_step = Run._one_step

    def held_step(run) -> None:
        one_step(run)
        if run.step == step and not release.is_set():
            reached.set()
            release.wait(30)

    monkeypatch.setattr(Run, "_one_step", held_step)
    return reached, release


async def paused_where_held(pilot, reached: threading.Event, release: threading.Event) -> None:
    """Enter trains; once the worker is held (``hold_after``), Enter pauses the run there."""
    screen = pilot.app.screen
    await pilot.press("enter")
    await until(pilot, reached.is_set, "the worker at the held step")
    enter_now(pilot)
    await until(pilot, lambda: screen._pause_asked, "the pause asked")
    release.set()
    await until(pilot, lambda: screen.state == "paused", "the pause")


async def type_path(pilot, path, *, written: bool = True):
    """In the file dialog on top: ``path`` as the name, then Enter; ``written``: and wait until
    the file is written (or refused), unless the test holds the write itself."""
    from textual.widgets import Input

    from attn_tui.tui.screens.dialogs.file_modal import FileModal

    modal = pilot.app.screen
    assert isinstance(modal, FileModal)
    # pushed is not yet composed: a worker that pushed it can be a frame ahead of its fields
    await until(pilot, lambda: modal.query(Input), "the dialog's name field")
    modal.query_one(Input).value = str(path)
    await pilot.press("enter")
    await pilot.pause()
    # the file is written in the dialog's worker, off the loop: on a loaded machine a pause
    # came back before it was (the palette's save, then load: "no such file")
    if written:
        await until(pilot, lambda: not modal.writing, "the file written or refused")
        await pilot.pause()
    return modal
