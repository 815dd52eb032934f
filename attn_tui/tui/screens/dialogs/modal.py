"""The base of attn-tui's dialogs: a dismiss that acts once, and only for the dialog on top."""

from __future__ import annotations

import re
from typing import ClassVar, TypeVar

from rich.table import Table
from textual import events
from textual.app import ComposeResult
from textual.await_complete import AwaitComplete
from textual.binding import Binding
from textual.errors import NoWidget
from textual.screen import ModalScreen
from textual.widgets import OptionList

from attn_tui.tui import textual_compat
from attn_tui.tui.keys import KeysInOrder, hand_back
from attn_tui.tui.widgets.key_bar import KeyBar

ResultType = TypeVar("ResultType")


class DismissOnce:
    """Two quick keys (Enter Enter, Esc Esc) can both reach a dialog before it closes. Textual's
    dismiss would then run the callback twice and pop the screen underneath too (or, with
    nothing under it, fail: ScreenStackError)."""

    _dismissed = False

    def dismiss(self, result=None) -> AwaitComplete:
        if self._dismissed or self.app.screen is not self:
            return AwaitComplete()
        self._dismissed = True
        return super().dismiss(result)


class AttnModal(KeysInOrder, DismissOnce, ModalScreen[ResultType]):
    """A dialog of attn-tui's, dismissed once (see DismissOnce).

    Keys typed in one burst keep their order across the dialog: a key that closes it (Escape,
    q, Enter on a choice) closes it when it reaches the dialog, not a few message hops later
    when its binding would run, and the keys that reach it after that go on to the screen
    under it, or to the one it opened (`? q 5 Enter` types 5 into the workbench)."""

    CLOSES_ON_CLICK_BESIDE: ClassVar[bool] = True
    # the dialog's keys on the bottom line, over the screen's, which do not act under it
    SHOWS_KEYS: ClassVar[bool] = True

    def compose(self) -> ComposeResult:
        yield from self.compose_dialog()
        if self.SHOWS_KEYS:
            yield KeyBar()

    def compose_dialog(self) -> ComposeResult:
        """The dialog itself (a subclass's compose)."""
        yield from ()

    def on_mount(self) -> None:
        textual_compat.hide_notices_under(self)

    def on_click(self, event: events.Click) -> None:
        # on the dimmed screen around the dialog: as Escape, the way the command palette closes.
        # Where it landed, not event.widget: a click that Pilot sends names the screen
        if self.CLOSES_ON_CLICK_BESIDE and self._under(event) is self:
            self.close_beside()

    def _under(self, event: events.Click):
        try:
            return self.get_widget_at(event.screen_x, event.screen_y)[0]
        except NoWidget:
            return None

    def close_beside(self) -> None:
        """A click beside the dialog: as Escape."""
        self.dismiss(None)

    @property
    def closed(self) -> bool:
        """Dismissed, or under another screen: keys that reach it were meant for what is next."""
        return self._dismissed or self.app.screen is not self

    def hands_back(self, event: events.Key) -> bool:
        if self.closed:
            hand_back(self.app, event)
        return self.closed


class ChoiceList(OptionList):
    """A dialog's list of choices: Enter (or a click) dismisses the dialog with the option's id
    at once, so the keys typed after Enter are not read by the dialog."""

    BINDINGS = [Binding("enter", "select", "Open")]  # shown on the dialog's key bar

    def action_select(self) -> None:
        i = self.highlighted
        if i is not None and not self.get_option_at_index(i).disabled:
            self.screen.dismiss(self.get_option_at_index(i).id)


_NAME = re.compile(r"^(\S+(?: \S+)?)\s+(.*)$")  # "lesson one        One query, …"


def two_columns(line: str) -> Table | str:
    """A choice's line as its name and its words, the words wrapping under themselves: a
    lesson's progress ("0/2 tasks, 1 more shown · 0/1 answered") wrapped under the names at 80
    columns and read as an entry of its own."""
    found = _NAME.match(line)
    if found is None:
        return line
    name, words = found.groups()
    return columns(name, words, len(line) - len(words) - 1)


def columns(name: str, words: str, width: int) -> Table:
    """``name`` in a column ``width`` wide, ``words`` beside it wrapping under themselves."""
    grid = Table.grid(padding=(0, 1))
    grid.add_column(width=width, no_wrap=True)
    grid.add_column()
    grid.add_row(name, words)
    return grid
