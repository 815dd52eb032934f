"""Go to a lesson or a lab: one menu for everything beyond the workbench."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.widgets import Static
from textual.widgets.option_list import Option

from attn_tui.tui.screens.dialogs.modal import AttnModal, ChoiceList


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
            yield ChoiceList(*options)

    def on_key(self, event) -> None:
        """Letters pick the entry whose name (mask) or line (lesson mask) starts with them;
        Backspace takes one back."""
        if self.closed:
            return  # a key typed after Enter: AttnModal hands it on
        char = event.character
        if event.key == "backspace":
            typed = self.typed[:-1]
        elif char and (char.isalpha() or char == " ") and event.key not in ("q", "escape"):
            typed = self.typed + char.lower()
        else:
            return
        event.stop()
        event.prevent_default()  # read here, not by a binding
        keys = [(target.split(":")[-1], " ".join(line.lower().split()))
                for target, line in self.entries]
        for attempt in ((typed,) if event.key == "backspace" else (typed, char.lower())):
            hit = next((i for i, (name, line) in enumerate(keys)
                        if name.startswith(attempt) or line.startswith(attempt)), None)
            if hit is not None or not attempt:
                self.typed = attempt
                if hit is not None:
                    self.query_one(ChoiceList).highlighted = hit
                shown = f" {attempt}▏" if attempt else ""
                self.query_one("#goto-header", Static).update(
                    f"[b]Go to[/b]{shown}  (Enter opens, Escape cancels)" if attempt
                    else self.HEADER)
                return
        self.app.bell()
