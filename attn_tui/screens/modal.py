"""The base of attn-tui's dialogs: a dismiss that acts once, and only for the dialog on top."""

from __future__ import annotations

from typing import TypeVar

from textual.await_complete import AwaitComplete
from textual.screen import ModalScreen

ResultType = TypeVar("ResultType")


class AttnModal(ModalScreen[ResultType]):
    """Two quick keys (Enter Enter, Esc Esc) can both reach a dialog before it closes. Textual's
    dismiss would then run the callback twice and pop the screen underneath too."""

    _dismissed = False

    def dismiss(self, result: ResultType | None = None) -> AwaitComplete:
        if self._dismissed or self.app.screen is not self:
            return AwaitComplete()
        self._dismissed = True
        return super().dismiss(result)
