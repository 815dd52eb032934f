"""Every key, made from the bindings (see attn_tui.keymap)."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Markdown

from attn_tui.keymap import as_markdown

INTRO = """\
# attn-tui keys

Edit a number in **Q**, **K** or **V** and every stage recomputes: the step table explains the
query under the cursor in Q; the map shows every query at once. Cells take decimals, `1e-3`,
`−2` or fractions like `1/3`; anything else is refused with a message and the old value stays.
"""


class HelpScreen(ModalScreen[None]):
    BINDINGS = [Binding("escape,q,question_mark,f1", "dismiss", "Close help")]
    DEFAULT_CSS = """
    HelpScreen { align: center middle; }
    HelpScreen > VerticalScroll { width: 90; max-width: 100%; height: 90%; border: round $border;
                                  background: $surface; padding: 0 1; }
    """

    def compose(self) -> ComposeResult:
        with VerticalScroll():
            yield Markdown(INTRO + "\n" + as_markdown() + "\nPress Esc or ? to close.")
