"""Read what the app shows, as text: the composited screen, line by line."""

from __future__ import annotations

from textual.app import App

from attn_tui.tui.textual_compat import screen_strips


def screen_lines(app: App) -> list[str]:
    strips = screen_strips(app.screen)
    return ["".join(seg.text for seg in strip) for strip in strips]


def screen_text(app: App) -> str:
    return "\n".join(screen_lines(app))
