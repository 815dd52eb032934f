"""A training run as work to keep: save it as .npz from the train lab (e), and let quitting
know of one that is not saved, in the lab or left there with Esc (see AttnApp.left_labs).

A run counts as saved when its steps so far are in a file: one loaded with --load, or saved
with e since its last step; one a lesson's step trained (its exercise) counts as saved too. A
diverged run is not asked about, but Go to brings it back as it was left, and e saves it,
frames and all."""

from __future__ import annotations

import contextlib
import os
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any
from weakref import WeakKeyDictionary

from attn_tui.train.runfile import RunRecord
from attn_tui.tui.roles import HoldsRun


@dataclass
class HeldRun:
    """A run the app holds: in the open lab, or kept for Go to."""

    task: str
    steps: int  # steps trained so far
    total: int
    training: bool  # a worker is stepping it now
    saved: bool
    diverged: bool
    take: Callable[[], RunRecord]  # the record to write, its last frame at its last step
    mark_saved: Callable[[int], None]
    # runs its argument once no worker steps the run: at once, or when a pause lands
    when_paused: Callable[[Callable[[], None]], None] = lambda then: then()
    # a worker is in a step of the run (take() would wait for it): a lab left with Esc may
    # still be finishing one
    busy: Callable[[], bool] = lambda: False
    # the record as take() gives it, touching no screen: for a thread (a rescue) to call
    record: Callable[[], RunRecord] | None = None

    def __post_init__(self) -> None:
        if self.record is None:
            self.record = self.take

    @property
    def unsaved(self) -> bool:
        return self.steps > 0 and not self.saved and not self.diverged

    def what(self) -> str:
        """The run, named: "The sort run in the train lab (step 78)"."""
        if self.training:
            return f"The {self.task} run training in the train lab"
        return f"The {self.task} run in the train lab (step {self.steps})"

    def words(self) -> str:
        if self.training:  # and may be done by the time the learner answers
            return (f"The {self.task} run in the train lab is not saved; it was training as you "
                    "quit, and saving pauses it.")
        return f"The {self.task} run trained in the train lab (step {self.steps}) is not saved."


def held_run(app: Any) -> HeldRun | None:
    """The run the train lab has, open or left with Esc; None for none."""
    lab = next((s for s in app.screen_stack if isinstance(s, HoldsRun)), None)
    if lab is not None:
        return lab.held_run()
    left = app.left_labs.get("train")
    if not left or not {"run", "record"} & left.keys():  # none, or the settings alone
        return None
    mark = left.__setitem__
    if "run" in left:
        run = left["run"]
        return HeldRun(run.config.task, run.step, run.config.steps, False,
                       left.get("saved_step") == run.step or left.get("lessons", False),
                       run.diverged,
                       run.record_now, lambda n: mark("saved_step", n), busy=run.stepping.locked)
    record: RunRecord = left["record"]
    return HeldRun(record.config.task, record.steps_done, record.config.steps, False,
                   left.get("saved_step") == record.steps_done or left.get("lessons", False),
                   record.diverged,
                   lambda: record, lambda n: mark("saved_step", n))


def drop_held_run(app: Any) -> None:
    """The learner chose to let the run go (a session or a lesson takes the lab): neither the
    open lab, when it closes, nor Go to keeps it."""
    app.left_labs.pop("train", None)
    for screen in app.screen_stack:
        if isinstance(screen, HoldsRun):
            screen.keep_on_leaving = False


def offered_name(session: Any, task: str) -> str:
    """The file e offers: the run file last opened or saved, when its run was of this task
    (most often that run, trained on; the dialog asks before it replaces a file), else a new
    name in its folder; train-TASK.npz in the working folder where no run file was used yet,
    or the last one was a rescue (attn-tui's own folder) or lies where nothing can be written
    (a teacher's shared runs)."""
    from attn_tui.core import rescue

    fresh = f"train-{task}.npz"
    last = session.last_run
    if last is None:
        return fresh
    where = os.path.dirname(os.path.abspath(os.path.expanduser(last)))
    with contextlib.suppress(OSError):
        if os.path.samefile(where, rescue.folder()):
            return fresh
    if not os.access(where, os.W_OK):
        return fresh
    if session.last_run_task == task:
        return last
    return os.path.join(os.path.dirname(last), fresh)


def name_problem(path: str) -> str | None:
    """What is wrong with ``path`` as the name of a run's file, whatever is on disk there."""
    if os.path.isdir(os.path.expanduser(path)) or path.endswith(("/", os.sep)):
        return f"{path} is a folder: add a file name ending in .npz."
    if not path.lower().endswith(".npz"):
        return "A run is saved as .npz (ctrl+o reopens it): end the name with .npz."
    if os.path.basename(path).lower() == ".npz":
        return "Give the file a name before .npz (.npz alone would be a hidden file)."
    return None


_WRITING: WeakKeyDictionary = WeakKeyDictionary()  # the App's run being written by e, if any


async def run_written(app: Any, within: float) -> None:
    """Once the run e is writing (if any) is in its file, or ``within`` seconds have passed."""
    import asyncio

    job = _WRITING.get(app)
    if job is not None:
        with contextlib.suppress(Exception):  # failed or too slow: the rescue keeps it
            await asyncio.wait_for(asyncio.shield(job), within)


def save_run_dialog(app: Any, held: HeldRun, then: Callable[[], None] | None = None) -> None:
    """Pause the run if it trains, ask for a .npz name and write the run there; ``then`` runs
    once it is written."""
    held.when_paused(lambda: _ask(app, held, then))


def _ask(app: Any, held: HeldRun, then: Callable[[], None] | None) -> None:
    from attn_tui.core.files import FileError, atomic_write
    from attn_tui.train.runfile import encode
    from attn_tui.tui.screens.dialogs.file_modal import FileModal, to_the_browser

    written: list[RunRecord] = []

    async def write(path: str) -> str | None:
        import asyncio

        record = held.take()
        # off the event loop: the largest model compresses for about 10 s. Shielded, and
        # known to a rescue (a kill meanwhile), which waits for it rather than keep the run
        # a second time
        job = asyncio.ensure_future(
            asyncio.to_thread(lambda: atomic_write(path, encode(record), "save")))

        def saved(job: asyncio.Future) -> None:  # whoever awaits it, and even if none does
            _WRITING.pop(app, None)
            if not job.cancelled() and job.exception() is None:
                written.append(record)
                held.mark_saved(record.steps_done)

        job.add_done_callback(saved)
        _WRITING[app] = job
        try:
            await asyncio.shield(job)
        except FileError as exc:
            return str(exc)
        return None

    def done(path: str | None) -> None:
        if path is None:
            return
        app.session.last_run = path  # ctrl+o in the lab offers it
        app.session.last_run_task = held.task
        # what follows (quitting, a lesson) waits for the browser to fetch the file
        copy = to_the_browser(app, path, then=then)
        # ctrl+o, not --load: over SSH or in a browser there is no command line
        app.notify(f"Saved the run ({written[-1].steps_done} steps) to {path}: ctrl+o reopens "
                   f"it.{copy}",
                   timeout=6, markup=False)

    title = "Save the training run (.npz)" + (", then quit" if then is not None else "")
    app.push_screen(FileModal(title, offered_name(app.session, held.task), submit=write, writes=True,
                              check=name_problem, kind="run", suffix=".npz"), done)
