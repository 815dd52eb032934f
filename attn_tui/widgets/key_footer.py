"""Textual's Footer, rebuilt only when the keys it shows change.

Footer unmounts and mounts every key on each bindings update: three times at start-up, and
again on every Tab between panes even when the same keys come back. Here a burst of updates
becomes one check, and the keys are rebuilt only if what they would show (key, label, action,
enabled, tooltip) differs. It overrides Footer.bindings_changed and sets its _bindings_ready
as Footer itself does in the pinned Textual 8.2.8; tests/app/test_key_footer.py and the
snapshots notice if a Textual upgrade changes either.
"""

from __future__ import annotations

from textual.screen import Screen
from textual.widgets import Footer


class KeyFooter(Footer):
    def __init__(self, **kwargs) -> None:
        super().__init__(**kwargs)
        self._queued = False
        self._shown: tuple | None = None

    def bindings_changed(self, screen: Screen) -> None:
        self._bindings_ready = True
        if not screen.app.app_focus:
            return
        if self.is_attached and screen is self.screen and not self._queued:
            self._queued = True
            # the first build as soon as possible, so the keys are there before a dialog opened
            # by the first key press covers the screen; later ones after the refresh, as Footer
            later = self.call_later if self._shown is None else self.call_after_refresh
            later(self._rebuild_if_changed)

    def shown_keys(self) -> tuple:
        """What the footer would draw for the current bindings."""
        return tuple((binding.key, binding.description, binding.action, binding.group,
                      enabled, tooltip)
                     for _, binding, enabled, tooltip in self.screen.active_bindings.values()
                     if binding.show or binding.key == self.app.COMMAND_PALETTE_BINDING)

    async def _rebuild_if_changed(self) -> None:
        self._queued = False
        if not self.is_attached:
            return
        keys = self.shown_keys()
        if keys != self._shown:
            self._shown = keys
            await self.recompose()
