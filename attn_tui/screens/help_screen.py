"""Every key, made from the bindings (see attn_tui.keymap)."""

from __future__ import annotations

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.widgets import Static

from attn_tui.keymap import as_text
from attn_tui.screens.modal import AttnModal

INTRO = (
    "Edit a number in Q, K or V and every stage recomputes. The step table explains the query "
    "under the cursor in Q; the map below it shows every query at once. Cells take decimals, "
    "1e-3, −2 or fractions like 1/3; anything else is refused with a message, and the old "
    "value stays.\n"
)


class HelpScreen(AttnModal[None]):
    BINDINGS = [Binding("escape,q,question_mark,f1", "dismiss", "Close help")]
    DEFAULT_CSS = """
    HelpScreen { align: center middle; }
    HelpScreen > VerticalScroll { width: 96; max-width: 100%; height: 100%; max-height: 100%;
                                  border: round $border; background: $surface; padding: 0 1; }
    HelpScreen Static { width: 1fr; }
    """

    def compose(self) -> ComposeResult:
        with VerticalScroll() as scroll:
            scroll.border_title = "attn-tui keys"
            scroll.border_subtitle = "↑↓ scroll · Esc closes"
            body = Text(INTRO + "\n")
            for line in as_text().splitlines():
                body.append(line + "\n", style="bold" if line.isupper() else "")
            yield Static(body)
