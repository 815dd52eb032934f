"""EditorMessage: the base of the messages an editor (a matrix editor, a control bar) sends up."""

from __future__ import annotations

from dataclasses import dataclass

from textual.message import Message
from textual.widget import Widget


@dataclass(eq=False)  # a message is itself, not its fields: screens look it up by identity
class EditorMessage(Message):
    """A change an editor sends to its screen. A screen that must have it before the message
    arrives (a key read in the same burst needs the value) takes it early and marks it
    ``settled``, so it is not taken twice."""

    editor: Widget
    """The editor that sent it."""

    def __post_init__(self) -> None:
        super().__post_init__()
        self.settled = False  # taken already, by a screen that could not wait for it

    @property
    def control(self) -> Widget:
        """Alias for ``editor``."""
        return self.editor
