"""EditorMessage: the base of the messages an editor (a matrix editor, a control bar) sends up."""

from __future__ import annotations

from textual.message import Message
from textual.widget import Widget


class EditorMessage(Message):
    """A change an editor sends to its screen. A screen that must have it before the message
    arrives (a key read in the same burst needs the value) takes it early and marks it
    ``settled``, so it is not taken twice. A message is itself, not its fields: screens look
    it up by identity. (Plain classes, not dataclasses, which cost start-up time to build.)"""

    def __init__(self, editor: Widget) -> None:
        self.editor = editor
        """The editor that sent it."""
        self.settled = False  # taken already, by a screen that could not wait for it
        super().__init__()

    @property
    def control(self) -> Widget:
        """Alias for ``editor``."""
        return self.editor
