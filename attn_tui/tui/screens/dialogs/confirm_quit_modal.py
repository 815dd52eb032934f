"""Unsaved changes: save first, quit anyway, or stay."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.widgets import Button, Static

from attn_tui.tui.screens.dialogs.modal import AttnModal


class Answer(Button):
    """A button whose press answers at once (as the s, y and n keys do), so a key typed right
    after Enter goes to the screen the dialog returns to instead of the closing dialog."""

    def press(self) -> Answer:
        if not self.disabled and self.display:
            self.screen.dismiss(ANSWERS.get(self.id or ""))
        return self


ANSWERS = {"quit-save": "save", "quit-anyway": "quit"}  # a button's id -> the dialog's result
UNSAVED_WORDS = "You have unsaved changes."
SAVE_OR_QUIT = "Save (s) / Quit anyway (y) / Cancel (Esc)"
UNSAVED = f"{UNSAVED_WORDS} {SAVE_OR_QUIT}"


def asking(app) -> bool:
    """A quit question is open, on top or under another screen (Too small)."""
    return any(isinstance(screen, ConfirmQuitModal) for screen in app.screen_stack)


class ConfirmQuitModal(AttnModal[str | None]):
    """Dismisses with "save", "quit" or None (stay). Without ``can_save`` there is no Save:
    for work that saving what is on screen would not keep."""

    ANYWAY = "Quit anyway"  # what y does, on its button and on the key bar
    BINDINGS = [
        Binding("s", "dismiss('save')", "Save"),
        Binding("y", "dismiss('quit')", ANYWAY),
        Binding("escape,n", "dismiss(None)", "Cancel"),
    ]
    DEFAULT_CSS = """
    ConfirmQuitModal { align: center middle; }
    ConfirmQuitModal > Vertical { width: 76; max-width: 100%; height: auto; max-height: 100%;
                                  overflow-y: auto; border: round $border; background: $surface;
                                  padding: 0 1; }
    ConfirmQuitModal Horizontal { height: auto; margin-top: 1; }
    ConfirmQuitModal Button { margin-right: 1; min-width: 10; }
    ConfirmQuitModal Button:last-of-type { margin-right: 0; }
    """
    NARROW = 60  # below this many columns the buttons take their short words, to fit in a row

    def __init__(self, question: str = UNSAVED, can_save: bool = True) -> None:
        super().__init__()
        self.question, self.can_save, self.anyway = question, can_save, self.ANYWAY

    def compose_dialog(self) -> ComposeResult:
        with Vertical():
            yield Static(self.question, id="quit-question", markup=False)
            with Horizontal():
                if self.can_save:
                    yield Answer("Save (s)", id="quit-save", variant="primary")
                yield Answer(f"{self.anyway} (y)", id="quit-anyway", variant="error")
                yield Answer("Cancel (Esc)", id="quit-cancel")

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        return self.can_save or not (action == "dismiss" and parameters == ("save",))

    def on_mount(self) -> None:
        self.query_one("#quit-cancel").focus()  # Enter by reflex should not quit or overwrite
        self._fit_buttons()

    def on_resize(self) -> None:
        self._fit_buttons()

    def _fit_buttons(self) -> None:
        """"Quit anyway (y)" as "Quit (y)" in a narrow window, where "Cancel (Esc)" ran past
        the dialog's edge; the question above still says each in full."""
        narrow = self.app.size.width < self.NARROW
        anyway = self.anyway.split()[0] if narrow else self.anyway
        self.query_one("#quit-anyway", Button).label = f"{anyway} (y)"


class ConfirmLessonModal(ConfirmQuitModal):
    """Before a lesson that trains its own runs replaces the train lab's unsaved one: y opens
    the lesson, letting the run go."""

    ANYWAY = "Open the lesson"
    BINDINGS = [Binding("y", "dismiss('quit')", ANYWAY)]
