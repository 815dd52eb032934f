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

    HEADER = "[b]Go to[/b]  (type a name, or ↑↓; Enter opens, Escape cancels)"

    def __init__(self, entries: list[tuple[str, str]]) -> None:
        super().__init__()
        self.entries = entries  # (target, line shown)
        self.typed = ""  # the start of a name typed so far

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Static(self.HEADER, id="goto-header")
            options = []
            for target, line in self.entries:
                options.append(Option(line, id=target))
            yield OptionList(*options)

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        self.dismiss(event.option.id)

    def on_key(self, event) -> None:
        """Letters pick the entry whose name starts with them: m a s k, then Enter."""
        char = event.character
        if not char or not char.isalpha() or event.key in ("q", "escape"):
            return
        names = [target.split(":")[-1] for target, _ in self.entries]
        for typed in (self.typed + char.lower(), char.lower()):  # go on, or start again
            hit = next((i for i, name in enumerate(names) if name.startswith(typed)), None)
            if hit is not None:
                self.typed = typed
                self.query_one(OptionList).highlighted = hit
                self.query_one("#goto-header", Static).update(
                    f"[b]Go to[/b] {typed}▏  (Enter opens, Escape cancels)")
                break
        else:
            self.app.bell()
        event.stop()
