"""Save, open, export and copy from the workbench; ask before quitting with unsaved edits.

``SessionController`` is created by the app when first needed and works on the workbench
through ``SessionHost``; the workbench's ``SessionFile`` is in session_file.
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Awaitable, Callable, Iterator
from typing import Any, NamedTuple, Protocol

from textual.app import App, SystemCommand

from attn_tui.compute import BackendUnavailable
from attn_tui.core import state
from attn_tui.core.labs import LABS, lab_of_module
from attn_tui.core.state import Workspace
from attn_tui.core.words import listed
from attn_tui.tui import textual_compat
from attn_tui.tui.roles import HoldsRun, HoldsSentence, KeepsSettings, ReplacedByLesson
from attn_tui.tui.screens.session_file import SessionFile

# session (json), the file and quit dialogs load when first used, not with the workbench

EXPORTS = {  # (format, script backend) -> (palette title, default file name)
    ("md", None): ("Markdown: step table and weights", "attn-export.md"),
    ("csv", None): ("CSV: step table and weights", "attn-export.csv"),
    ("tex", None): ("LaTeX (booktabs): step table and weights", "attn-export.tex"),
    ("npz", None): ("NumPy .npz: every stage, Q, K, V and the settings", "attn-stages.npz"),
    ("py", "numpy"): ("Python script (numpy) that prints these numbers", "attention.py"),
    ("py", "torch"): ("Python script (torch) that prints these numbers", "attention_torch.py"),
}


def open_screen(app: App) -> str:
    """What a session records as the open screen: the lab on top, or the workbench."""
    for screen in reversed(app.screen_stack):
        if (name := lab_of_module(type(screen).__module__)) is not None:
            return LABS[name].screen
    return "workbench"


def open_lab(app: App) -> Any:
    """The lab screen a session records as open (see open_screen), or None on the workbench."""
    screen = open_screen(app)
    return next((s for s in app.screen_stack if screen.startswith("lab:")
                 and lab_of_module(type(s).__module__) == screen[4:]), None)


# the start's notice of rescued work: a session's edits, a training run, or both
RESCUE_TITLES = ("Unsaved edits kept", "Unsaved run kept", "Unsaved work kept")
# a training step and its report, which a rescue waits for: a step of the lab's largest model
# takes over a second here; `attn-tui serve` ends an app that takes 10 s to stop
RUN_WAIT_STEP, RUN_WAITS = 0.02, 400


class _Saving(NamedTuple):
    """``session.save``'s arguments but the path, taken from the panes."""

    workspace: Workspace
    screen: str
    lab_settings: dict
    kept: dict

    def __call__(self, path: Any) -> None:
        from attn_tui.core import session

        session.save(self.workspace, path, screen=self.screen, lab_settings=self.lab_settings,
                     kept=self.kept)


def _same_file(path: str, paths: list[str]) -> str | None:
    """The one of ``paths`` that names the file ``path`` does (typed as ~/…, or relative)."""

    def real(p: str) -> str:
        return os.path.realpath(os.path.expanduser(p))

    return next((p for p in paths if real(p) == real(path)), None)


def _unsaved_run(app: App) -> Any:
    """The train lab's run, open or left with Esc, when quitting would ask about it: a
    HeldRun, or None."""
    from attn_tui.tui.screens.labs.train_runs import held_run

    held = held_run(app)
    return held if held is not None and held.unsaved else None


async def _paused(held: Any) -> None:
    """Once no worker steps ``held``: one training is asked to stop after its step. The
    worker hands each step's news to the event loop, so this waits without blocking it."""
    import asyncio

    held.when_paused(lambda: None)
    for _ in range(RUN_WAITS):
        if not held.busy():
            return
        await asyncio.sleep(RUN_WAIT_STEP)
    raise TimeoutError(f"its training step did not end within {RUN_WAIT_STEP * RUN_WAITS:.0f} s")


def _write_run(record: Callable[[], Any], path: Any) -> None:
    """``record()`` written to ``path``, uncompressed (many times quicker to make), and
    noted for the next start."""
    from attn_tui.core import rescue
    from attn_tui.core.files import atomic_write
    from attn_tui.train.runfile import encode

    atomic_write(str(path), encode(record(), compress=False), "save")
    rescue.to_tell(path)


def kept_labs(app: App, lab: Any) -> dict[str, dict]:
    """What a session keeps of the model screen left with Esc (not the one open): its
    sentence, head and query, as Go to would reopen them."""
    left = app.left_labs.get("minilm")
    if isinstance(lab, HoldsSentence) or not left:
        return {}
    if "text" not in left:  # opened from a session, not reopened since: as it came
        return {"minilm": dict(left.get("saved", {}))} if left.get("saved") else {}
    layer, head, query = left["pick"]
    return {"minilm": {"text": left["text"], "layer": layer, "head": head, "query": query}}


def restore_kept(app: App, kept: dict[str, dict]) -> None:
    """A session's kept model screen, or the lab it was saved in when --lab opened another,
    for Go to to reopen (checked then, as a session's are)."""
    for name, settings in kept.items():
        app.left_labs[name] = {"saved": dict(settings)}


def _unsaved_words(bench_dirty: bool, sentence: bool) -> str:
    """What is unsaved, named when it is the model screen's sentence, which the learner
    would not look for on the workbench under the question."""
    from attn_tui.tui.screens.dialogs.confirm_quit_modal import UNSAVED_WORDS

    if not sentence:
        return UNSAVED_WORDS
    if bench_dirty:
        return "You have unsaved changes, the sentence typed on the model screen among them."
    return "The sentence typed on the model screen is not saved."


def _progress_words(lost: dict[str, str]) -> str:
    """Lessons whose progress could not be written, and why (the first one's reason)."""
    names = sorted(lost)
    which = f"{'lesson' if len(names) == 1 else 'lessons'} {listed(names)}"
    why = lost[names[0]].removeprefix("Progress not saved: ").rstrip(".")
    return f"Your progress in {which} could not be saved: {why}. It is lost when attn-tui quits."


def unsaved_left_sentence(app: App, lab: Any) -> bool:
    """Whether the model screen, closed since (Esc keeps its sentence for Go to), holds a
    sentence typed there that no session has yet (a save keeps it as "kept"). An open model
    screen answers for itself (``has_unsaved_work``)."""
    if isinstance(lab, HoldsSentence):
        return False
    left = app.left_labs.get("minilm")
    return bool(left) and "text" in left and left["text"] not in (
        left.get("saved_text"), left.get("lesson_text"))


class SessionHost(Protocol):
    """What the controller needs of the workbench: its workspace, its file, its history."""

    workspace: Workspace
    file: SessionFile
    session_path: str | None
    saved_workspace: Workspace | None
    dirty: bool

    def apply(self, new: Workspace, note: str | None = None) -> None: ...
    def settle_edits(self) -> bool: ...
    def other_files(self) -> list[SessionFile]: ...
    def unsaved_before_open(self) -> bool: ...
    def replaced_by_lesson(self) -> tuple[str, ...]: ...
    def replaced_by_head(self) -> bool: ...
    def open_as(self, ws: Workspace, file: SessionFile) -> None: ...
    def typed_now(self) -> list[Any]: ...
    def undo_mark(self) -> object: ...
    def retype(self, typed: list[Any], undo_top: object) -> None: ...


class SessionController:
    """Save, open, export and copy the workbench's workspace; ask before quitting. Created by
    the app; the workbench's keys and the app's (ctrl+s and ctrl+o from a lab) come here."""

    def __init__(self, app: Any) -> None:
        self.app = app
        # the last file each kind of export went to, offered again: a quick e Enter wrote to
        # attn-export.md in the folder attn-tui started in, wherever the one before went
        self._exported: dict[tuple[str, str | None], str] = {}
        # the rescues the start told of (sessions, runs): ctrl+o offers each until opened
        self.rescued: list[str] = []
        self.rescued_told = False  # at a start before this one: ctrl+o offers them second
        self.rescue_problems: list[str] = []  # what a rescue as the app ended could not keep
        self.last_run: str | None = None  # the run file last saved (e) or opened: ctrl+o in
        # the train lab offers it, not the session's name
        self.last_run_task: str | None = None  # its run's task: e offers the file for that task

    def save(self, bench: SessionHost, ask: bool = False, then_quit: bool = False,
             then: Any = None, then_words: str = "quit") -> None:
        """ctrl+s: to the session's file when there is one, else ask for a path; ``then`` runs
        once it is saved (``then_words`` names it in the dialog's title)."""
        from attn_tui.core import session
        from attn_tui.core.files import short_path, stamp
        from attn_tui.tui.screens.dialogs.file_modal import (
            DEFAULT_SESSION,
            FileModal,
            to_the_browser,
        )

        if not bench.settle_edits():
            self.app.notify("Not saved: the value being typed is refused (its message says why). "
                        "Correct it, or Escape to put the old value back, then save.",
                        title="Save",
                        severity="warning", timeout=6, markup=False)
            return
        ws, screen, lab = bench.workspace, open_screen(self.app), open_lab(self.app)
        if isinstance(lab, KeepsSettings):
            # a value typed on the lab's bar is saved as Enter would store it (the model
            # screen has no bar: its sentence is kept as typed)
            bar = lab.query("#controls")
            if bar and not bar.first().take_typed(keep_refused=True):
                self.app.notify("Not saved: the value being typed on the lab's bar is refused "
                                "(its message says why). Correct it, or Escape, then save.",
                                title="Save", severity="warning", timeout=6, markup=False)
                return
            lab.settle_edits()
        lab_settings = lab.session_settings() if isinstance(lab, KeepsSettings) else {}
        kept = kept_labs(self.app, lab)

        def write(path: str) -> str | None:
            try:
                session.save(ws, path, screen=screen, lab_settings=lab_settings, kept=kept)
            except session.SessionError as exc:
                return str(exc)
            bench.saved_workspace, bench.session_path = ws, path
            if isinstance(lab, HoldsSentence):  # the model screen's sentence, saved with it
                lab.saved_text = lab_settings["text"]
            left = self.app.left_labs.get("minilm")
            if "minilm" in kept and left and "text" in left:  # left with Esc, saved all the same
                left["saved_text"] = left["text"]
            written = stamp(path)
            bench.file.stamp = written
            for other in bench.other_files():  # an earlier file record of the same path now
                if other.path == path:  # holds this: undoing back to it must know the disk
                    other.saved, other.stamp = ws, written
            return None

        def done(path: str | None) -> None:
            if path is not None:
                kept = ""
                if screen == "lab:train":
                    kept = (" The run itself is not in a session (e in the lab saves it as "
                            ".npz): the lab reopens with these settings, untrained.")
                elif screen == "lab:minilm":
                    kept = " It reopens the model screen on this sentence and head."
                elif screen.startswith("lab:") and not lab_settings:
                    kept = (f" It reopens the {screen[4:]} lab at its defaults: a session keeps "
                            "that lab's place, not its sentence.")
                # what follows (quitting, the run's save) waits for the browser to have it
                after = then if then is not None else (self.app.exit if then_quit else None)
                kept += to_the_browser(self.app, path, then=after)
                self.app.notify(f"Saved {path}.{kept}", timeout=6 if kept else 3, markup=False)

        error = None
        if bench.session_path and not ask and bench.file.changed_on_disk():
            error = (f"{short_path(bench.session_path)} has changed on disk since attn-tui "
                     "opened or saved it. Enter replaces it with what is on screen; Escape "
                     "keeps the file as it is.")
        elif bench.session_path and not ask:
            error = write(bench.session_path)
            if error is None:
                done(bench.session_path)
                return
        title = "Save session" + (f", then {then_words}" if then_quit or then is not None else "")
        self.app.push_screen(FileModal(title, bench.session_path or DEFAULT_SESSION, error=error,
                                       submit=write, writes=True, check=_session_name_problem,
                                       own_file=bench.session_path, kind="session",
                                       suffix=".json"), done)

    def open(self, bench: SessionHost) -> None:
        """ctrl+o: a bad file leaves the workspace exactly as it was; a good one can be undone.
        A training run saved as .npz (e in the train lab) opens in the train lab, as
        --lab train --load does: over SSH or in a browser there is no command line for that."""
        from attn_tui.core import session
        from attn_tui.core.files import begins_as_zip
        from attn_tui.tui.screens.dialogs.file_modal import DEFAULT_SESSION, FileModal
        from attn_tui.tui.screens.labs.train_runs import drop_held_run, held_run

        opened: list[Any] = []  # the last file read: a Session, or a run's RunRecord
        warned: list[str] = []  # a path whose open was said to replace a typed sentence
        warned_run: list[str] = []  # ... or a training run
        loaded: dict[str, Any] = {}  # a run read, by path: a large one takes a while

        def unreadable(path: str, why: str) -> str:
            """``why`` a file cannot be opened; a rescued one is then offered no more, so
            that ctrl+o goes on to the next (it offered the damaged one again and again)."""
            from attn_tui.core import rescue

            if (rescued := _same_file(path, self.rescued)) is None:
                return why
            rescue.opened(os.path.expanduser(path))
            self.rescued.remove(rescued)
            if not self.rescued:
                return why
            return (f"{why} It is offered no more: Escape, then ctrl+o offers the next file "
                    f"kept, {self.rescued[0]}.")

        def read(path: str) -> str | None | Awaitable[str | None]:
            # what attn-tui writes as a zip is a .npz: a run, or an export
            if path.lower().endswith(".npz") or begins_as_zip(path):
                return read_run(path)
            try:
                found = session.load_full(path)
            except session.SessionError as exc:
                return unreadable(path, str(exc))
            brings = found.screen == "lab:minilm" or "minilm" in found.kept
            if brings and path not in warned and self._typed_sentence():
                warned.append(path)  # said once: Enter again opens it
                return ("It brings the model screen's own sentence, and the sentence you typed "
                        "there is in no session. Enter again opens it anyway; Escape keeps "
                        "yours (ctrl+s saves it with the session).")
            run = held_run(self.app) if found.screen == "lab:train" else None
            if run is not None and run.unsaved and path not in warned_run:
                warned_run.append(path)  # the lab opens afresh, on the session's settings
                return (f"{run.what()} is not saved. The session opens the train lab afresh, "
                        "without it. Enter again opens it anyway; Escape keeps the run (e in "
                        "the lab saves it).")
            opened.append(found)
            return None

        def read_run(path: str) -> str | None | Awaitable[str | None]:
            if path in warned_run:  # read once: Enter again after a question opens what was read
                return take_run(path, loaded[path])
            return reading(path)

        async def reading(path: str) -> str | None:
            import asyncio

            from attn_tui.core.files import FileError
            from attn_tui.train.runfile import load

            try:  # off the event loop: a rescued run of the largest model is 300 MB
                record = await asyncio.to_thread(load, path)
            except FileError as exc:
                return unreadable(path, str(exc))
            loaded[path] = record
            return take_run(path, record)

        def take_run(path: str, record: Any) -> str | None:
            from attn_tui.compute import torch_available
            from attn_tui.core.labs import lab_available

            if not (lab_available("train") and torch_available()):
                return ("It is a saved training run, and the train lab that shows one needs "
                        "torch, which is not installed: pip install 'attn-tui[torch]'.")
            run = held_run(self.app)
            if run is not None and run.unsaved and path not in warned_run:
                warned_run.append(path)
                return (f"{run.what()} is not saved, and the run you open takes its place. "
                        "Enter again opens it anyway; Escape keeps the run (e in the lab "
                        "saves it).")
            opened.append(record)
            return None

        def done(path: str | None) -> None:
            from attn_tui.core import rescue

            if path is None:
                return
            if (rescued := _same_file(path, self.rescued)) is not None:
                rescue.opened(os.path.expanduser(path))  # at later starts too
                self.rescued.remove(rescued)  # offered no more: the next rescued file is
                if self.rescued:  # the start's notice went as the dialog opened: the rest
                    edits, run_kept, _ = RESCUE_TITLES
                    nxt = self.rescued[0]
                    self.app.notify(f"Also kept: {nxt}" + (
                        f" and {len(self.rescued) - 1} more" if len(self.rescued) > 1 else "")
                        + ". ctrl+o offers it next.",
                        title=run_kept if nxt.endswith(".npz") else edits, timeout=8,
                        markup=False)
            if not isinstance(opened[-1], session.Session):
                self.last_run = path
                record = opened[-1]
                self.last_run_task = record.config.task
                drop_held_run(self.app)  # as the dialog said: the run it had goes
                self.app.open_lab("train", record=record)
                c = record.config
                self.app.notify(f"Opened {path}: the {c.task} run, step {record.steps_done} of "
                                f"{c.steps}.", timeout=4, markup=False)
                return
            from attn_tui.compute import torch_available
            from attn_tui.core.labs import lab_available

            ws, screen, lab_settings, kept = opened[-1]
            # u undoes it on the workbench: a lab the session opens starts afresh
            undoes = "u undoes" if not screen.startswith("lab:") else "u on the workbench undoes it"
            note = f"Opened {path} ({undoes})."
            if ws.backend == "torch" and not torch_available():
                ws, changed = state.on_backend(ws, "numpy")
                note = f"Opened {path}; torch is not installed, so numpy computes it" + (
                    f" in {ws.dtype}." if changed else ".")
            file = SessionFile(path, ws)  # as computed here: opened, nothing is unsaved
            if rescue.holds(path):  # in no file of the learner's: ctrl+s asks where it goes
                file = SessionFile(None, bench.workspace)
                note += (" It was kept as an earlier session ended, and is in no file of yours "
                         "yet: ctrl+s asks where to save it.")
            bench.open_as(ws, file)  # its undo entry keeps the file left
            restore_kept(self.app, kept)
            self.app.notify(note, timeout=4, markup=False)
            if screen == "lab:train":  # afresh, as the open dialog said: the run goes
                drop_held_run(self.app)
            if screen.startswith("lab:") and lab_available(screen[4:]):
                self.app.open_lab(screen[4:], saved=lab_settings)

        from attn_tui.core.files import own_files

        title = "Open a session or a training run"
        if (yours := own_files((".json", ".npz"))) is not None:  # in a browser: the learner's
            title += (f" (yours: {', '.join(yours)})" if yours
                      else " (you have saved none yet: ctrl+s saves one)")
        # each rescue until it is opened (its long name wraps in the notice, which goes after
        # a while: offered here, it need not be typed): first at the start that told of it,
        # after the session's own file (or the run's) at later starts
        run = self.last_run if isinstance(open_lab(self.app), HoldsRun) else None
        run = run if run is not None and os.path.exists(os.path.expanduser(run)) else None
        rescued = next(iter(self.rescued), None)
        offered = ((run or bench.session_path or rescued) if self.rescued_told
                   else (rescued or run or bench.session_path)) or DEFAULT_SESSION
        if self.rescued:  # the dialog offers it and names it whole: the notice covered that
            for title_of_rescue in RESCUE_TITLES:
                textual_compat.dismiss_notices(self.app, title=title_of_rescue)
        self.app.push_screen(FileModal(title, offered, submit=read), done)

    def _typed_sentence(self) -> bool:
        """A sentence typed on the model screen that no session holds: on it, or left with Esc."""
        lab = open_lab(self.app)
        if isinstance(lab, HoldsSentence):
            return lab.has_unsaved_work()
        return unsaved_left_sentence(self.app, lab)

    def export(self, bench: SessionHost, fmt: str = "", backend: str = "",
               stem: str | None = None) -> None:
        """e: the format follows the file's extension; the palette picks one outright.
        ``stem`` names the file for what it holds ("minilm-L2H9"), in the last export's folder
        and with its extension: one file per head, not each head over the last."""
        from attn_tui.report.export import export_file, name_problem
        from attn_tui.tui.screens.dialogs.file_modal import FileModal, to_the_browser

        if self._keeps_back(bench):
            return
        ws = bench.workspace
        key = (fmt, (backend or "numpy") if fmt == "py" else None)
        # remembered apart: the workbench's e would offer a model head's name for its own tables
        kept = key if stem is None else (*key, "named")
        default = (self._exported.get(kept) or self._exported.get(key)
                   or (EXPORTS[key][1] if key in EXPORTS else "attn-export.md"))
        if stem is not None:
            folder, name = os.path.split(default)
            default = os.path.join(folder, stem + (os.path.splitext(name)[1] or ".md"))
        written: list[str] = []

        def write(path: str) -> str | None:
            try:
                written.append(export_file(ws, path, fmt or None, backend or None))
            except (ValueError, BackendUnavailable) as exc:  # FileError is a ValueError
                return str(exc)
            return None

        def done(path: str | None) -> None:
            if path is not None:
                self._exported[kept] = path
                self.app.notify(f"Exported {written[-1]} to {path}."
                                + to_the_browser(self.app, path), timeout=4, markup=False)

        title = ("Export to a file: .md .csv .tex (tables), .npz (every stage), .py (script)"
                 if not fmt else f"Export {fmt}")
        example = os.path.basename(default)  # a folder typed: a file in it, named as offered
        self.app.push_screen(FileModal(title, default, submit=write, writes=True,
                                       check=lambda path: name_problem(path, fmt or None,
                                                                       example=example)), done)

    def copy(self, bench: SessionHost, fmt: str = "md") -> None:
        """c: the step table and weights to the clipboard, through the terminal (OSC 52)."""
        from attn_tui.report.clipboard import table_copy

        if self._keeps_back(bench):
            return
        try:
            copied = table_copy(bench.workspace, fmt)
        except (ValueError, BackendUnavailable) as exc:
            self.app.notify(str(exc), title="Not copied", severity="error", markup=False)
            return
        self.app.copy_to_clipboard(copied.text)
        self.app.notify(copied.message, severity="warning" if copied.too_large else "information",
                    timeout=5, markup=False)

    def _keeps_back(self, bench: SessionHost) -> bool:
        """True, and said, while a lesson's step hides some of ``bench``'s numbers."""
        why = self.app.tutor.refuses_export(bench)
        if why is not None:
            self.app.notify(why, timeout=4, markup=False)
        return why is not None

    def commands(self, bench: SessionHost, on_bench: bool = True) -> Iterator[SystemCommand]:
        """The palette's session commands; exports and copies of the workbench's tables only
        over the workbench (``on_bench``)."""
        yield SystemCommand("Session: save", "Save the workspace (ctrl+s)",
                            lambda: self.save(bench))
        yield SystemCommand("Session: save as…", "Save the workspace to a new file",
                            lambda: self.save(bench, ask=True))
        yield SystemCommand("Session: open…", "Open a saved workspace or training run (ctrl+o)",
                            lambda: self.open(bench))
        if not on_bench:
            return
        for (fmt, backend), (title, _) in EXPORTS.items():
            yield SystemCommand(f"Export: {title}", f"Write a .{fmt} file",
                                lambda f=fmt, b=backend or "": self.export(bench, f, b))
        for fmt, name in (("md", "Markdown"), ("csv", "CSV"), ("tex", "LaTeX")):
            yield SystemCommand(f"Copy: tables as {name}", "To the clipboard, through the "
                                "terminal (works over SSH)", lambda f=fmt: self.copy(bench, f))

    async def rescue(self, bench: SessionHost | None) -> list[str]:
        """The app ends without the learner's choice (the connection dropped, the tab closed,
        a kill or the server stopped it): the unsaved work, as quitting would ask about it,
        written to files of its own (see core.rescue) for the next start to tell of: the
        panes' to a session file at once, then an unsaved training run, paused, to a .npz of
        the same name. Their paths; what could not be kept is in ``rescue_problems``. Edits
        that a lesson step or an open replaced are in the undo history only, which ends with
        the app. Raises nothing but a cancellation (a second kill), which leaves no empty
        file behind."""
        import asyncio

        from attn_tui.core import rescue
        from attn_tui.core.files import os_reason
        from attn_tui.tui.screens.labs.train_runs import run_written

        if self.app.progress.where is None:  # nothing is kept here
            return []
        # a value being typed is kept as Enter stores it, but meets no task: quitting would
        # have dropped it
        with contextlib.suppress(Exception):
            self.app.tutor.hold_checks()
        saving = held = None
        with contextlib.suppress(Exception):  # the panes as they are: nothing else will be
            saving = self._session_to_keep(bench)
        with contextlib.suppress(Exception):
            held = _unsaved_run(self.app)
        kinds = {".json": "edits"} if saving is not None else {}
        if held is not None:
            kinds[".npz"] = "training run"
        if not kinds:
            return []
        try:
            paths = dict(zip(kinds, rescue.reserve(tuple(kinds)), strict=True))
        except OSError as exc:
            self.rescue_problems += [f"could not keep the unsaved {what} in {rescue.folder()}: "
                                     f"{os_reason(exc, True)}" for what in kinds.values()]
            return []
        written, begun = [], []  # begun: a file whose writing started (and will finish)
        try:
            for suffix, path in paths.items():
                try:
                    if suffix == ".json":
                        begun.append(path)
                        saving(path)
                        rescue.to_tell(path)
                    else:
                        # the screen is still there after a kill: say why it waits
                        self.app.notify("attn-tui is ending: keeping the unsaved training run "
                                        "in a file first.", timeout=10, markup=False)
                        await run_written(self.app, RUN_WAIT_STEP * RUN_WAITS)
                        if _unsaved_run(self.app) is None:  # e was writing it: in its file now
                            rescue.give_back(path)
                            continue
                        await _paused(held)
                        # off the event loop (the held-out check and the file may take
                        # seconds), in one thread: a second kill cancels this task, not the
                        # thread's work (shielded), and the process waits for the thread as it
                        # ends, so the file is whole and told of
                        begun.append(path)
                        await asyncio.shield(asyncio.get_running_loop().run_in_executor(
                            None, _write_run, held.record, path))
                    written.append(str(path))
                except Exception as exc:  # the app is ending: a failure must not stop that
                    rescue.give_back(path)
                    self.rescue_problems.append(f"could not keep the unsaved {kinds[suffix]}: "
                                                f"{exc}")
        except BaseException:  # cancelled: the names no writing was begun for are given back
            for path in paths.values():
                if path not in begun:
                    rescue.give_back(path)
            raise
        return written

    def _session_to_keep(self, bench: SessionHost | None) -> _Saving | None:
        """What of the panes a session file would keep, to be written; None when nothing
        there would be lost."""
        if bench is None:
            return None
        bench.settle_edits()  # a refused one is lost
        lab = open_lab(self.app)
        lab_dirty = lab is not None and lab.has_unsaved_work()
        if not (bench.dirty or lab_dirty or unsaved_left_sentence(self.app, lab)):
            return None
        settings = {}
        if isinstance(lab, KeepsSettings):
            bar = lab.query("#controls")
            if bar:
                bar.first().take_typed(keep_refused=False)
            lab.settle_edits()
            settings = lab.session_settings()
        return _Saving(bench.workspace, open_screen(self.app), settings,
                       kept_labs(self.app, lab))

    def quit_or_ask(self, bench: SessionHost | None, confirm: bool = True) -> None:
        """Quit, unless work would be lost: unsaved edits, a value still being typed, edits made
        before an open, a sentence typed on the model screen, a training run not saved, or a
        lesson's progress that could not be written. Then ask Save / Quit anyway / Cancel (no
        Save where it would not help)."""
        from attn_tui.tui.screens.dialogs.confirm_quit_modal import (
            SAVE_OR_QUIT,
            ConfirmQuitModal,
            asking,
        )
        from attn_tui.tui.screens.dialogs.file_modal import FileModal

        if asking(self.app):
            return  # q pressed again while asking (on the question, or on a screen over it)
        if isinstance(self.app.screen, FileModal):
            if self.app.screen.writing:  # asked once the file is whole (and said saved)
                self.app.screen.after_work(lambda: self.quit_or_ask(bench, confirm))
                return
            # ctrl+q in a file dialog closes it, as Escape does, keeping a name typed there:
            # left open under the question, its Save would open a second dialog over the first
            self.app.screen.set_aside()
        lost = self.app.progress_not_saved()  # one more try first: the folder may take it now
        if not confirm or bench is None:
            self.app.exit()
            return
        from attn_tui.tui.screens.labs.train_runs import held_run, save_run_dialog

        run = held_run(self.app)  # a trained run is work too, saved apart from the session
        run = run if run is not None and run.unsaved else None
        typed, undo_top = bench.typed_now(), bench.undo_mark()
        if typed:  # stored for the question only: Cancel types it again
            self.app.tutor.hold_checks()
        typed_ok = bench.settle_edits()  # a typed value counts as an edit, as Tab would keep it
        lab = open_lab(self.app)  # a sentence typed on the model screen is work too
        lab_dirty = lab is not None and lab.has_unsaved_work()
        # a sentence left with Esc is saved with the session (as "kept"), so Save helps
        left = unsaved_left_sentence(self.app, lab)
        dirty = bench.dirty or lab_dirty or left or not typed_ok
        before_open = bench.unsaved_before_open()
        by_lesson = tuple(dict.fromkeys((*bench.replaced_by_lesson(), *(
            lab.replaced_by_lesson() if isinstance(lab, ReplacedByLesson) else ()))))
        by_head = bench.replaced_by_head()
        replaced = by_lesson or by_head
        if not dirty and not before_open and not replaced and run is None and not lost:
            self.app.exit()
            return
        before_open = before_open or replaced
        if replaced:  # "u brings yours back", the lesson panel said: only while the app runs
            what = listed([*by_lesson, *(["a head opened with w"] if by_head else [])],
                          "or")
            earlier = (f"Edits of yours that {what} replaced were never saved: Cancel, then u "
                       "brings them back.")
            if by_lesson and self.app.progress.kept and not lost:
                # tries at a step's task are such edits: what they met is not among them
                earlier += " Lesson progress (tasks met, answers) is saved apart and kept."
        else:
            earlier = ("Edits made before you opened this session were never saved: Cancel, then "
                       "u brings them back.")
        # what else would be lost, before the choices, which end the question (a refused value
        # typed blocks only the save: what it would have saved is named all the same)
        unsaved = bench.dirty or lab_dirty or left
        # progress first: Save (s), at the end, saves the session, not the progress
        words = [_progress_words(lost)] if lost else []
        words += [_unsaved_words(bench.dirty, sentence=lab_dirty or left)] if unsaved else []
        words += [earlier] if before_open else []
        words += [run.words()] if run is not None else []
        if not typed_ok:
            mend = (" To keep them, Cancel, mend the value (or Esc drops it), then save."
                    if unsaved or run is not None else "")
            question = " ".join([*words, "A value being typed is refused (its message says "
                                 f"why), so nothing can be saved now.{mend} Quit anyway (y) / "
                                 "Cancel (Esc)"])
        elif dirty or run is not None:
            # a learner reads Save as keeping everything named above it: not the progress
            if dirty and run is not None:
                words.append("s saves the session, then the run" + (
                    "; lesson progress is in neither." if lost else "."))
            elif lost:
                words.append("s saves the session; lesson progress is not part of a session."
                             if dirty else "s saves the run; lesson progress is not part of it.")
            question = " ".join([*words, SAVE_OR_QUIT])
        else:
            question = " ".join([*words, "Quit anyway (y) / Cancel (Esc)"])

        def save_run_then_quit() -> None:
            # the run is saved apart (a .npz); one still training is paused first
            if run is not None:
                save_run_dialog(self.app, run, then=self.app.exit)
            else:
                self.app.exit()

        def answer(choice: str | None) -> None:
            if choice is None and typed_ok and typed:  # cancelled: back to typing it
                bench.retype(typed, undo_top)
            if choice != "quit":  # saved, it is kept and may meet a task; quitting drops it
                self.app.tutor.release_checks()
            if choice == "quit":
                self.app.exit()
            elif choice == "save" and dirty:
                self.save(bench, then=save_run_then_quit,
                          then_words="quit" if run is None else "the run")
            elif choice == "save":
                save_run_then_quit()

        if lost:  # the question says it again, and the notice would cover it
            textual_compat.dismiss_notices(self.app, "warning", title="Progress")
        # a passing note ("b answers nothing more here") sat over the question's words
        textual_compat.dismiss_notices(self.app)
        self.app.push_screen(ConfirmQuitModal(question, can_save=typed_ok and (
            dirty or run is not None)), answer)


def _session_name_problem(path: str) -> str | None:
    """Said before "already exists": replacing notes.md would not have been a session."""
    from attn_tui.core.files import short_path
    from attn_tui.core.session import name_problem

    problem = name_problem(path)
    return None if problem is None else f"Cannot save {short_path(path)}: {problem}."
