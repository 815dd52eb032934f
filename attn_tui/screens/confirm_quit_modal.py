"""Unsaved changes: save first, quit anyway, or stay."""

from __future__ import annotations

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.widgets import Button, Static

from attn_tui.screens.modal import AttnModal

UNSAVED = "You have unsaved changes. Save (s) / Quit anyway (y) / Cancel (Esc)"


class ConfirmQuitModal(AttnModal[str | None]):
    """Dismisses with "save", "quit" or None (stay). Without ``can_save`` there is no Save:
    for work that saving what is on screen would not keep."""

    BINDINGS = [
        Binding("s", "dismiss('save')", "Save"),
        Binding("y", "dismiss('quit')", "Quit anyway"),
        Binding("escape,n", "dismiss(None)", "Cancel"),
    ]
    DEFAULT_CSS = """
    ConfirmQuitModal { align: center middle; }
    ConfirmQuitModal > Vertical { width: 76; max-width: 100%; height: auto;
                                  border: round $border; background: $surface; padding: 0 1; }
    ConfirmQuitModal Horizontal { height: auto; margin-top: 1; }
    ConfirmQuitModal Button { margin-right: 1; min-width: 10; }
    """

    def __init__(self, question: str = UNSAVED, can_save: bool = True) -> None:
        super().__init__()
        self.question, self.can_save = question, can_save

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Static(self.question, id="quit-question", markup=False)
            with Horizontal():
                if self.can_save:
                    yield Button("Save (s)", id="quit-save", variant="primary")
                yield Button("Quit anyway (y)", id="quit-anyway", variant="error")
                yield Button("Cancel (Esc)", id="quit-cancel")

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        return self.can_save or not (action == "dismiss" and parameters == ("save",))

    def on_mount(self) -> None:
        self.query_one("#quit-cancel").focus()  # Enter by reflex should not quit or overwrite

    @on(Button.Pressed)
    def _pressed(self, event: Button.Pressed) -> None:
        answer = {"quit-save": "save", "quit-anyway": "quit"}.get(event.button.id or "")
        self.dismiss(answer)
