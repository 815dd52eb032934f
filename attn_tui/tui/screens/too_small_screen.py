"""Shown instead of a squashed layout when the terminal is below the smallest usable size."""

from __future__ import annotations

import os
import sys

from textual.app import ComposeResult
from textual.binding import Binding
from textual.widgets import Static

from attn_tui.tui.screens import MIN_HEIGHT, MIN_WIDTH, too_small
from attn_tui.tui.screens.dialogs.modal import AttnModal

__all__ = ["MIN_HEIGHT", "MIN_WIDTH", "TooSmallScreen", "too_small"]


class TooSmallScreen(AttnModal[None]):
    """Covers everything; goes away by itself once the window is large enough again."""

    BINDINGS = [Binding("q,ctrl+q", "app.quit", "Quit")]
    SHOWS_KEYS = False  # the notice names its one key
    CLOSES_ON_CLICK_BESIDE = False  # it is the whole screen: it goes when the window grows
    DEFAULT_CSS = """
    /* no scrollbar: in a column or two, one took the text's room, the text grew shorter,
       the bar went, and the screen was drawn again and again */
    TooSmallScreen { align: center middle; background: $background; overflow: hidden hidden; }
    TooSmallScreen > Static { width: 100%; height: auto; text-align: center; }
    TooSmallScreen.-outgrown { background: transparent; }
    TooSmallScreen.-outgrown > Static { display: none; }
    """

    def compose_dialog(self) -> ComposeResult:
        yield Static(id="too-small-text")

    def on_resize(self, event) -> None:
        self.show_size(event.size)

    def on_mount(self) -> None:
        self.show_size()

    def outgrown(self, large_enough: bool) -> None:
        """Under a dialog (q's question) once the window is large enough again: the screens
        under it show through, where the dialog sat on a blank screen until it closed."""
        self.set_class(large_enough, "-outgrown")

    def on_screen_resume(self) -> None:
        # a dialog opened over this one may close after the window grew: nothing would
        # resize again to take this screen away, so it goes by itself
        if not too_small(*self.app.size):
            self.dismiss()

    def show_size(self, size=None) -> None:
        from attn_tui.tui.screens.dialogs.confirm_quit_modal import asking

        w, h = size or self.app.size
        # over the quit question, q is that question's to answer: it does not quit from here
        then = " to answer the question under this" if asking(self.app) else "; q quits"
        # a COLUMNS or LINES left exported in the shell wins over the window's own size, and
        # enlarging the window would change nothing
        real = _terminal_size()
        stale = [f"{name}={os.environ[name]}"
                 for name, size, actual in (("COLUMNS", w, real[0]), ("LINES", h, real[1]))
                 if os.environ.get(name) == str(size) and actual not in (None, size)]
        todo = (f"{' and '.join(stale)} in the environment set{'s' * (len(stale) == 1)} this "
                f"size: unset {'it' if len(stale) == 1 else 'them'}" if stale
                else "Enlarge the window")
        self.query_one(Static).update(
            f"Too small: {w}×{h}.\nattn-tui needs {MIN_WIDTH}×{MIN_HEIGHT}.\n{todo}{then}."
        )


def _terminal_size() -> tuple[int | None, int | None]:
    """The terminal's own columns and lines, as it reports them (not COLUMNS and LINES);
    None and None where there is no terminal to ask (a browser, a test)."""
    for stream in (sys.__stderr__, sys.__stdout__):
        try:
            size = os.get_terminal_size(stream.fileno())
        except (AttributeError, OSError, ValueError):
            continue
        return size.columns, size.lines
    return None, None
