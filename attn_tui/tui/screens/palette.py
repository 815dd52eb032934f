"""Textual's command palette, made to close once."""

from __future__ import annotations

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.command import CommandInput, CommandList, CommandPalette
from textual.widgets import Button, Input

from attn_tui.tui import textual_compat
from attn_tui.tui.screens.dialogs.modal import DismissOnce
from attn_tui.tui.widgets.key_bar import KeyBar


@textual_compat.guard_palette_choice
class Palette(DismissOnce, CommandPalette):
    """ctrl+p, closed once: a second Enter in the same burst must not run the command again
    or dismiss the screen under the palette."""

    BINDINGS = [Binding("escape", "escape", "Close")]

    def compose(self) -> ComposeResult:
        yield from super().compose()
        yield KeyBar()  # its own keys on the bottom line, as a dialog's (see AttnModal)

    def on_mount(self) -> None:
        # a blink is a repaint twice a second, sent to every SSH client
        self.query_one(CommandInput).cursor_blink = False
        textual_compat.hide_notices_under(self)
        self._fit_list()

    def on_resize(self) -> None:
        self._fit_list()

    def _fit_list(self) -> None:
        """The hits end above the key bar: at 70% of a 20-line window (Textual's own height)
        they ran over it and their box's lower edge, and esc Close was gone. The input takes
        the 7 lines above them (its top margin of 3 and its 4), the key bar the last."""
        height = self.size.height or self.app.size.height
        self.query_one(CommandList).styles.max_height = max(3, min(height - 8,
                                                                   int(height * 0.7)))

    @on(Input.Submitted)
    @on(Button.Pressed)
    def _after_closing(self, event: Input.Submitted | Button.Pressed) -> None:
        if self._dismissed:  # the command is chosen and on its way: this Enter is spare
            event.stop()
            event.prevent_default()  # CommandPalette's own handler would run it again

    def spare_choice(self, event: Input.Submitted | Button.Pressed | None) -> bool:
        """True (and ``event`` stopped) for a choice made after the palette closed: two Enters
        on a highlighted hit both chose it, and each ran the command."""
        if self._dismissed and event is not None:
            event.stop()
        return self._dismissed
