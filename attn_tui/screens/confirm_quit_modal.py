"""Unsaved changes: save first, quit anyway, or stay."""

from __future__ import annotations

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.widgets import Button, Static

from attn_tui.screens.modal import AttnModal


class ConfirmQuitModal(AttnModal[str | None]):
    """Dismisses with "save", "quit" or None (stay)."""

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

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Static("You have unsaved changes. Save (s) / Quit anyway (y) / Cancel (Esc)",
                         id="quit-question")
            with Horizontal():
                yield Button("Save (s)", id="quit-save", variant="primary")
                yield Button("Quit anyway (y)", id="quit-anyway", variant="error")
                yield Button("Cancel (Esc)", id="quit-cancel")

    def on_mount(self) -> None:
        self.query_one("#quit-cancel").focus()  # Enter by reflex should not quit or overwrite

    @on(Button.Pressed)
    def _pressed(self, event: Button.Pressed) -> None:
        answer = {"quit-save": "save", "quit-anyway": "quit"}.get(event.button.id or "")
        self.dismiss(answer)
