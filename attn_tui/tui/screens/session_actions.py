"""Save, open, export and copy from the workbench; ask before quitting with unsaved edits.

``SessionActions`` is mixed into the workbench screen, which provides ``workspace`` and
``apply()``; it keeps the last saved workspace so "unsaved" means "edited since then".
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from textual.app import App, SystemCommand

from attn_tui.compute import BackendUnavailable
from attn_tui.core import state
from attn_tui.core.labs import LABS, lab_of_module
from attn_tui.core.state import Workspace

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


class SessionFile:
    """The file a workspace belongs to: its path (None until saved) and what was last saved
    there. A save changes it in place; an open starts a new one. Undo entries hold the file
    of their workspace, so undoing an open finds the earlier file again, as it is now."""

    __slots__ = ("path", "saved", "stamp")

    def __init__(self, path: str | None, saved: Workspace | None) -> None:
        from attn_tui.core.files import stamp

        self.path, self.saved = path, saved
        # the file as attn-tui last read or wrote it: a save asks before replacing a file
        # that changed since (edited by hand, or saved from another window)
        self.stamp = stamp(path) if path else None

    def changed_on_disk(self) -> bool:
        from attn_tui.core.files import stamp

        now = stamp(self.path) if self.path else None
        return now is not None and self.stamp is not None and now != self.stamp


class SessionActions:
    """Needs from the screen it joins: workspace, apply(), notify() and app."""

    workspace: Workspace
    app: Any
    file: SessionFile | None = None
    # a lesson's: the workspace as its last step set it up, and the learner's unsaved
    # workspaces that steps replaced (see LessonRunner)
    lesson_baseline: Workspace | None = None
    lesson_replaced: tuple[Workspace, ...] = ()

    def other_files(self) -> list[SessionFile]:
        """Files the undo history still refers to, other than the current one (the host's)."""
        return []

    def settle_edits(self) -> bool:
        """Store a value still being typed (the host's); False if it is not a number."""
        return True

    def unsaved_before_open(self) -> bool:
        """Whether edits made before the last open were never saved (the host's): only undo
        brings them back, and quitting loses them."""
        return False

    def replaced_by_lesson(self) -> bool:
        """Whether edits a lesson step replaced (the learner's, unsaved then) are still not
        what the file holds: only undo brings them back, and quitting loses them."""
        from attn_tui.core import session

        saved, now = self.saved_workspace, self.workspace
        # one that u has brought back is on screen: unsaved edits, asked about as such
        return saved is not None and any(session.is_dirty(ws, saved) and session.is_dirty(ws, now)
                                         for ws in self.lesson_replaced)

    def _current_file(self) -> SessionFile:
        if self.file is None:
            self.file = SessionFile(None, None)
        return self.file

    @property
    def session_path(self) -> str | None:
        return self._current_file().path

    @session_path.setter
    def session_path(self, path: str | None) -> None:
        self._current_file().path = path

    @property
    def saved_workspace(self) -> Workspace | None:
        """The workspace as last saved (or opened, or started): "unsaved" means edited since."""
        return self._current_file().saved

    @saved_workspace.setter
    def saved_workspace(self, ws: Workspace | None) -> None:
        self._current_file().saved = ws

    @property
    def dirty(self) -> bool:
        """Edited since the file was saved (or opened, or started), and not a lesson's own
        numbers as a step set them up."""
        from attn_tui.core import session

        saved, ws, baseline = self.saved_workspace, self.workspace, self.lesson_baseline
        return (saved is not None and session.is_dirty(ws, saved)
                and (baseline is None or session.is_dirty(ws, baseline)))

    def action_save(self, ask: bool = False, then_quit: bool = False) -> None:
        """ctrl+s: to the session's file when there is one, else ask for a path."""
        from attn_tui.core import session
        from attn_tui.core.files import short_path, stamp
        from attn_tui.tui.screens.dialogs.file_modal import DEFAULT_SESSION, FileModal

        if not self.settle_edits():
            self.notify("Not saved: the value being typed is refused (its message says why). "
                        "Correct it, or Escape to put the old value back, then save.",
                        title="Save",
                        severity="warning", timeout=6, markup=False)
            return
        ws, screen = self.workspace, open_screen(self.app)

        def write(path: str) -> str | None:
            try:
                session.save(ws, path, screen=screen)
            except session.SessionError as exc:
                return str(exc)
            self.saved_workspace, self.session_path = ws, path
            written = stamp(path)
            self._current_file().stamp = written
            for other in self.other_files():  # an earlier file record of the same path now
                if other.path == path:  # holds this: undoing back to it must know the disk
                    other.saved, other.stamp = ws, written
            return None

        def done(path: str | None) -> None:
            if path is not None:
                self.notify(f"Saved {path}.", timeout=3, markup=False)
                if then_quit:
                    self.app.exit()

        error = None
        if self.session_path and not ask and self._current_file().changed_on_disk():
            error = (f"{short_path(self.session_path)} has changed on disk since attn-tui "
                     "opened or saved it. Enter replaces it with what is on screen; Escape "
                     "keeps the file as it is.")
        elif self.session_path and not ask:
            error = write(self.session_path)
            if error is None:
                done(self.session_path)
                return
        title = "Save session" + (", then quit" if then_quit else "")
        self.app.push_screen(FileModal(title, self.session_path or DEFAULT_SESSION, error=error,
                                       submit=write, writes=True,
                                       own_file=self.session_path), done)

    def action_open(self) -> None:
        """ctrl+o: a bad file leaves the workspace exactly as it was; a good one can be undone."""
        from attn_tui.core import session
        from attn_tui.tui.screens.dialogs.file_modal import DEFAULT_SESSION, FileModal

        opened: list[tuple[Workspace, str]] = []

        def read(path: str) -> str | None:
            try:
                opened.append(session.load(path))
            except session.SessionError as exc:
                return str(exc)
            return None

        def done(path: str | None) -> None:
            if path is None:
                return
            from attn_tui.compute import torch_available
            from attn_tui.core.labs import lab_available

            ws, screen = opened[-1]
            note = f"Opened {path} (u undoes)."
            if ws.backend == "torch" and not torch_available():
                ws, changed = state.on_backend(ws, "numpy")
                note = f"Opened {path}; torch is not installed, so numpy computes it" + (
                    f" in {ws.dtype}." if changed else ".")
            self.apply(ws)  # the undo entry keeps the file the old workspace belonged to
            self.file = SessionFile(path, ws)
            self.notify(note, timeout=4, markup=False)
            if screen.startswith("lab:") and lab_available(screen[4:]):
                self.app.open_lab(screen[4:])

        self.app.push_screen(FileModal("Open session", self.session_path or DEFAULT_SESSION,
                                       submit=read), done)

    def action_export(self, fmt: str = "", backend: str = "") -> None:
        """e: the format follows the file's extension; the palette picks one outright."""
        from attn_tui.report.export import export_file
        from attn_tui.tui.screens.dialogs.file_modal import FileModal

        ws = self.workspace
        key = (fmt, (backend or "numpy") if fmt == "py" else None)
        default = EXPORTS[key][1] if key in EXPORTS else "attn-export.md"
        written: list[str] = []

        def write(path: str) -> str | None:
            try:
                written.append(export_file(ws, path, fmt or None, backend or None))
            except (ValueError, BackendUnavailable) as exc:  # FileError is a ValueError
                return str(exc)
            return None

        def done(path: str | None) -> None:
            if path is not None:
                self.notify(f"Exported {written[-1]} to {path}.", timeout=4, markup=False)

        title = ("Export to a file: .md .csv .tex (tables), .npz (every stage), .py (script)"
                 if not fmt else f"Export {fmt}")
        self.app.push_screen(FileModal(title, default, submit=write, writes=True), done)

    def action_copy(self, fmt: str = "md") -> None:
        """c: the step table and weights to the clipboard, through the terminal (OSC 52)."""
        from attn_tui.report.clipboard import table_copy

        try:
            copied = table_copy(self.workspace, fmt)
        except (ValueError, BackendUnavailable) as exc:
            self.notify(str(exc), title="Not copied", severity="error", markup=False)
            return
        self.app.copy_to_clipboard(copied.text)
        self.notify(copied.message, severity="warning" if copied.too_large else "information",
                    timeout=5, markup=False)

    def session_commands(self) -> Iterator[SystemCommand]:
        yield SystemCommand("Session: save", "Save the workspace (ctrl+s)", self.action_save)
        yield SystemCommand("Session: save as…", "Save the workspace to a new file",
                            lambda: self.action_save(ask=True))
        yield SystemCommand("Session: open…", "Open a saved workspace (ctrl+o)", self.action_open)
        for (fmt, backend), (title, _) in EXPORTS.items():
            yield SystemCommand(f"Export: {title}", f"Write a .{fmt} file",
                                lambda f=fmt, b=backend or "": self.action_export(f, b))
        for fmt, name in (("md", "Markdown"), ("csv", "CSV"), ("tex", "LaTeX")):
            yield SystemCommand(f"Copy: tables as {name}", "To the clipboard, through the "
                                "terminal (works over SSH)", lambda f=fmt: self.action_copy(f))


def quit_or_ask(app: App, confirm: bool = True) -> None:
    """Quit, unless work would be lost: unsaved edits, a value still being typed, or edits made
    before an open. Then ask Save / Quit anyway / Cancel (no Save where it would not help)."""
    from attn_tui.tui.screens.dialogs.confirm_quit_modal import UNSAVED, ConfirmQuitModal

    if isinstance(app.screen, ConfirmQuitModal):
        return  # q pressed again while asking
    bench = app.workbench()
    if not confirm or bench is None:
        app.exit()
        return
    typed_ok = bench.settle_edits()  # a typed value counts as an edit, as Tab would keep it
    dirty, before_open = bench.dirty or not typed_ok, bench.unsaved_before_open()
    replaced = bench.replaced_by_lesson()
    if not dirty and not before_open and not replaced:
        app.exit()
        return
    before_open = before_open or replaced
    if replaced:  # "u brings yours back", the lesson panel said: only while the app runs
        earlier = ("Edits of yours that a lesson step replaced were never saved: Cancel, then "
                   "u brings them back.")
    else:
        earlier = ("Edits made before you opened this session were never saved: Cancel, then "
                   "u brings them back.")
    if not typed_ok:
        question = ("A value being typed is refused (its message says why), so nothing can be "
                    "saved. Quit anyway (y) / Cancel (Esc)")
    elif dirty:
        question = UNSAVED + (f" {earlier}" if before_open else "")
    else:
        question = f"{earlier} Quit anyway (y) / Cancel (Esc)"

    def answer(choice: str | None) -> None:
        if choice == "quit":
            app.exit()
        elif choice == "save":
            bench.action_save(then_quit=True)

    app.push_screen(ConfirmQuitModal(question, can_save=dirty and typed_ok), answer)
