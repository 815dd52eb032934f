"""Go to a lesson or a lab: one menu for everything beyond the workbench."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.widgets import OptionList, Static
from textual.widgets.option_list import Option

from attn_tui.screens.modal import AttnModal


class GotoModal(AttnModal[str | None]):
    """Dismisses with "lesson:NAME", "lab:NAME", "workbench" or None."""

    BINDINGS = [Binding("escape,q", "dismiss(None)", "Cancel")]
    DEFAULT_CSS = """
    GotoModal { align: center middle; }
    GotoModal > Vertical { width: 76; max-width: 100%; height: auto; max-height: 100%;
                           border: round $border; background: $surface; padding: 0 1; }
    GotoModal OptionList { height: auto; max-height: 20; border: none; }
    """

    def __init__(self, entries: list[tuple[str, str]]) -> None:
        super().__init__()
        self.entries = entries  # (target, line shown)

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Static("[b]Go to[/b]  (Enter opens, Escape cancels)")
            options = []
            for target, line in self.entries:
                options.append(Option(line, id=target))
            yield OptionList(*options)

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        self.dismiss(event.option.id)
