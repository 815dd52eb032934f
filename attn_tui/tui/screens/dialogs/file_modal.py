"""Ask for a file path: for saving, opening or exporting."""

from __future__ import annotations

import inspect
import os
from collections.abc import Awaitable, Callable
from weakref import WeakKeyDictionary

from rich.text import Text
from textual import events
from textual.app import ComposeResult
from textual.await_complete import AwaitComplete
from textual.binding import Binding
from textual.containers import Vertical
from textual.widgets import Input, Static

from attn_tui.core.files import OWN_FOLDER_ENV, outside_own_folder, short_path
from attn_tui.tui.keys import forward_if_unfocused, run_binding_now
from attn_tui.tui.screens.dialogs.modal import AttnModal

DEFAULT_SESSION = "attn-session.json"


class PathInput(Input):
    """The path box. It reads typed text itself, so a key that closes the dialog (Enter,
    Escape) must close it here, before the keys typed after it are read as more path:
    `ctrl+s Enter 5` saved to attn-session.json5."""

    BINDINGS = [Binding("enter", "submit", "Accept")]  # shown on the dialog's key bar

    async def on_key(self, event: events.Key) -> None:
        if forward_if_unfocused(self, event):  # the dialog has closed
            return
        if not event.is_printable:
            await run_binding_now(self, event)

    async def action_submit(self) -> None:
        self.screen.accept(self.value)


def full_path(typed: str) -> str | None:
    """The file a name typed stands for, the home folder written ~; None for no name, or when
    there is no telling (the folder attn-tui runs in is gone; a NUL byte: Enter says why)."""
    if not typed or "\x00" in typed:
        return None
    try:
        full = os.path.abspath(os.path.expanduser(typed))
    except (OSError, ValueError):
        return None
    full += os.sep if typed.endswith(os.sep) and full != os.sep else ""
    # the home folder as typed and as the system resolves it: getcwd() gives the latter
    for home in {os.path.expanduser("~"), os.path.realpath(os.path.expanduser("~"))}:
        if home not in ("~", os.sep) and (full == home or full.startswith(home + os.sep)):
            return "~" + full[len(home):]
    return full


def to_the_browser(app, path: str, then: Callable[[], None] | None = None) -> str:
    """In a browser (`attn-tui serve`), also hand the file just written to it as a download:
    the learner's folder is on the server. Returns the words to add to the notice saying so.
    ``then()`` runs once the browser has it (next, in a terminal): quitting straight after
    the hand-over cut the download short, and the browser saved an empty file."""
    key = None
    if app.is_web:
        try:
            key = app.deliver_binary(os.path.expanduser(path), open_method="download")
        except OSError:  # written a moment ago; gone again, it stays only where it was written
            key = None
    if then is not None:
        if key is None:
            app.call_later(then)  # after the caller's notice, as it would come after the fetch
        else:
            app.after_delivery(key, then)
    return "" if key is None else " Your browser downloads a copy."


_SET_ASIDE: WeakKeyDictionary = WeakKeyDictionary()


def set_aside_names(app) -> dict[str, str]:
    """Names typed in file dialogs that ctrl+q closed, by the dialog's kind (per App)."""
    return _SET_ASIDE.setdefault(app, {})


class FileModal(AttnModal[str | None]):
    """Dismisses with the path typed, or None on Escape.

    ``submit`` (optional) is called with the path on Enter and returns None when it worked or a
    one-line error; on an error the modal stays open with the typed path, so it can be fixed.
    It may return an awaitable of that instead (a large file read or written off the event
    loop): the dialog says it works on the file until it is done, and a write cannot be
    cancelled halfway (Escape waits for it).
    """

    BINDINGS = [Binding("escape", "dismiss(None)", "Cancel")]
    # the words are clicks too: a mouse user has no key to press
    HINT = ("[@click=screen.accept_typed]Enter accepts[/], "
            "[@click=screen.dismiss(None)]Escape cancels[/]")
    DEFAULT_CSS = """
    FileModal { align: center middle; }
    FileModal > Vertical { width: 72; max-width: 100%; height: auto; max-height: 100%;
                           overflow-y: auto; border: round $border; background: $surface;
                           padding: 0 1; }
    FileModal #file-error { color: $text-error; height: auto; display: none; }
    FileModal #file-error.-shown { display: block; }
    FileModal #file-hint, FileModal #file-where { color: $text-muted; }
    """

    def __init__(self, title: str, path: str = DEFAULT_SESSION, *, error: str | None = None,
                 submit: Callable[[str], str | None | Awaitable[str | None]] | None = None,
                 writes: bool = False, own_file: str | None = None,
                 check: Callable[[str], str | None] | None = None, kind: str = "",
                 suffix: str = "") -> None:
        super().__init__()
        # suffix: given to a name typed without one ("mine" saves mine.json, which Open then
        # lists among the learner's sessions in a browser)
        self.suffix = suffix
        # kind: what it saves ("session", "run"); a name typed in a dialog that ctrl+q closed
        # is offered again by the next dialog of its kind (see set_aside)
        self.kind = kind
        self.title_text, self.path, self.error = title, path, error
        self.submit = submit
        # check: what is wrong with a name whatever is on disk, said before "already exists"
        self.check = check
        # writes: an existing file is replaced only after a second Enter, unless it is
        # own_file (the session's own file, saved again)
        self.writes = writes
        self._replace_ok = own_file
        self._error_for: str | None = None  # the name the error shown is about
        self._working_on: str | None = None  # the path an awaited submit reads or writes
        self._written: str | None = None  # written while another screen was on top
        self._after_work: list[Callable[[], object]] = []  # see after_work

    def compose_dialog(self) -> ComposeResult:
        with Vertical():
            yield Static(f"[b]{self.title_text}[/b]", id="file-title", markup=True)
            # the name offered is selected: typed over, it is replaced ("attn-session.jsonabc.json"
            # was saved when it was not); → or End keeps it to edit
            yield PathInput(value=self.path, placeholder="a file path", id="file-path")
            yield Static("", id="file-error", markup=False)
            yield Static("", id="file-where", markup=False)
            yield Static(self.HINT, id="file-hint", markup=True)

    def set_aside(self) -> None:
        """Close as Escape does, keeping a name typed here for the next dialog of this kind:
        ctrl+q closes the dialog to ask its question, whose Save opens one anew."""
        typed = self.query_one("#file-path", Input).value.strip()
        if self.kind and typed and typed != self.path:
            set_aside_names(self.app)[self.kind] = typed
        self.dismiss(None)

    def close_beside(self) -> None:
        # a stray click (one that brings the terminal window to the front) keeps the name
        # typed, offered again by the next dialog of this kind
        self.set_aside()

    def on_mount(self) -> None:
        box = self.query_one("#file-path", Input)
        typed = set_aside_names(self.app).pop(self.kind, None) if self.kind else None
        if typed:
            box.value = typed
        box.cursor_blink = False
        box.focus()
        self._show_where(box.value)
        if self.error:
            self.show_error(self.error)

    def on_input_changed(self, event: Input.Changed) -> None:
        # the box's value now, not the event's: keys typed in one burst are read before their
        # Changed messages, and the last of them (Enter) may have shown an error since
        now = event.input.value
        self._show_where(now)
        if now != self._error_for:  # the error was about another name: a new one is typed
            self.show_error("")

    def _show_where(self, typed: str) -> None:
        """The file a name typed stands for: over SSH, the folder attn-tui runs in is not
        always the one the learner thinks. In a browser the name alone is the whole story."""
        where = self.query_one("#file-where", Static)
        full = full_path(self.named(typed.strip())) if not os.environ.get(OWN_FOLDER_ENV) \
            else None
        where.display = full is not None
        if full is not None:
            where.update(f"Full path: {short_path(full, room=240)}")  # a page pasted: its ends

    def show_error(self, message: str) -> None:
        """One line under the path; the path stays as typed."""
        note = self.query_one("#file-error", Static)
        self._error_for = self.query_one("#file-path", Input).value if message else None
        # marked, not only coloured: without colour it read as the hint below it
        note.update(f"✗ {message}" if message else "")
        note.set_class(bool(message), "-shown")

    def action_accept_typed(self) -> None:
        """Enter accepts, clicked: the path in the box, as Enter there would take it."""
        self.accept(self.query_one("#file-path", Input).value)

    def named(self, path: str) -> str:
        """The path a name typed stands for, with the dialog's suffix if it has no ending of
        its own (v1.2's .2 is none). A file that exists is the one named: the session's own
        file from before names had endings, saved again, is not written beside itself."""
        base = os.path.basename(path)
        ending = os.path.splitext(base)[1]
        if (not self.suffix or not path or path.endswith(("/", os.sep))
                or (ending and not ending[1:].isdigit())
                or base.lower() == self.suffix  # ".npz" alone: its check asks for a name
                or os.path.exists(os.path.expanduser(path))):
            return path
        return path + self.suffix

    @property
    def writing(self) -> bool:
        return self._working_on is not None and self.writes

    def after_work(self, then: Callable[[], object]) -> None:
        """``then()`` once the file being read or written is done and the dialog has closed
        (or stays, saying why the file could not be written); at once if none is: ctrl+q
        during a write asks its question after it, when the file is whole."""
        if self._working_on is None:
            then()
        else:
            self._after_work.append(then)

    def accept(self, typed: str) -> None:
        if self._working_on is not None:  # Enter again while the file is read or written
            return
        path = self.named(typed.strip())
        if not path:
            self.show_error("Type a file name first.")
            return
        problem = outside_own_folder(path) or (self.check(path) if self.check else None)
        if problem:
            self.show_error(problem)
            return
        if self.writes and path != self._replace_ok and os.path.isfile(os.path.expanduser(path)):
            self._replace_ok = path
            self.show_error(f"{short_path(path)} already exists. Enter again replaces it; "
                            "or change the name.")
            return
        if self.submit is not None:
            error = self.submit(path)
            if inspect.isawaitable(error):
                self._working_on = path
                self._show_working()
                self.query_one("#file-path", Input).disabled = True  # the name is taken
                self.run_worker(self._finish(path, error), group="file-submit")
                return
            if error:
                self.show_error(error)
                return
        self.dismiss(path)

    async def _finish(self, path: str, outcome: Awaitable[str | None]) -> None:
        try:
            error = await outcome
        finally:  # cancelled too (Escape while reading): the dialog is going
            self._working_on = None
        if error:
            then, self._after_work = self._after_work, []
            box = self.query_one("#file-path", Input)
            box.disabled = False
            self.query_one("#file-hint", Static).update(self.HINT)
            self.show_error(error)
            self.app.call_later(box.focus)
            for each in then:  # on the dialog as it stands, with its error
                self.app.call_later(each)
        elif self.app.screen is self:
            self.dismiss(path)  # what waited for the file runs once the dialog is gone
        else:  # under the too-small screen: dismissed when it is back on top
            self._written = path

    def on_screen_resume(self) -> None:
        if self._written is not None:
            self.dismiss(self._written)

    def on_unmount(self) -> None:
        for each in self._after_work:
            self.app.call_later(each)

    def _show_working(self) -> None:
        name = short_path(self._working_on or "")
        self.query_one("#file-hint", Static).update(Text(  # a path is not markup
            f"Writing {name} … (a moment: Escape waits for it)" if self.writes
            else f"Reading {name} … (Escape cancels)"))

    def dismiss(self, result=None):
        if self.writing:  # half a file is worse than none: the write ends first
            self._show_working()
            return AwaitComplete()
        return super().dismiss(result)
