"""Pick one of the worked examples to load into the workbench."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.widgets import Static
from textual.widgets.option_list import Option

from attn_tui.core.presets import LECTURE_EXAMPLES, PRESETS
from attn_tui.tui.screens.dialogs.modal import AttnModal, ChoiceList, columns

CHOICES = [(name, p.title) for name, p in PRESETS.items()] + [
    ("random", "seeded random: 6 tokens, width 4 (seed: dimensions bar)"),
    *LECTURE_EXAMPLES.items(),
]


class ExampleList(ChoiceList):
    BINDINGS = [Binding("enter", "select", "Load")]


class PresetModal(AttnModal[str | None]):
    BINDINGS = [Binding("escape,q", "dismiss(None)", "Cancel")]
    DEFAULT_CSS = """
    PresetModal { align: center middle; }
    PresetModal > Vertical { width: 80; max-width: 100%; height: auto; max-height: 100%;
                             border: round $border; background: $surface; padding: 0 1; }
    PresetModal OptionList { height: auto; border: none; }
    """

    def compose_dialog(self) -> ComposeResult:
        with Vertical():
            yield Static("[b]Load an example[/b]  (Enter loads, Escape cancels; u undoes)")
            width = max(len(n) for n, _ in CHOICES)
            yield ExampleList(*[Option(columns(n, t, width), id=n) for n, t in CHOICES])

