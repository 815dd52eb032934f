"""Read what the app shows, as text: the composited screen, line by line."""

from __future__ import annotations

from textual.app import App


def screen_lines(app: App) -> list[str]:
    strips = app.screen._compositor.render_strips()
    return ["".join(seg.text for seg in strip) for strip in strips]


def screen_text(app: App) -> str:
    return "\n".join(screen_lines(app))
