"""Counting the layouts of every screen (Screen._refresh_layout): each places every widget
anew and repaints, so a key or a frame that asks for one costs every learner on a server."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from textual.screen import Screen


def count_layouts(monkeypatch, note: Callable[[Screen], Any] = lambda screen: 1) -> list:
    """A list that gets ``note(screen)`` at each layout from now on (the test's monkeypatch
    puts Textual's method back)."""
    layouts: list = []
    laid_out = Screen._refresh_layout

    def counted(self, *args, **kwargs):
        layouts.append(note(self))
        return laid_out(self, *args, **kwargs)

    monkeypatch.setattr(Screen, "_refresh_layout", counted)
    return layouts
