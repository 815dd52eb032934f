"""Read what the app shows, as text: the composited screen, line by line."""

from __future__ import annotations

from textual.app import App

from attn_tui.tui.textual_compat import screen_strips


def screen_lines(app: App) -> list[str]:
    strips = screen_strips(app.screen)
    return ["".join(seg.text for seg in strip) for strip in strips]


def screen_text(app: App) -> str:
    return "\n".join(screen_lines(app))


def where(app: App, words: str, lowest: bool = False) -> tuple[int, int]:
    """(x, y) of the first character of ``words`` where the screen shows them: the first
    such line, or the lowest (a lesson panel's edge is below the panes)."""
    lines = list(enumerate(screen_lines(app)))
    for y, line in reversed(lines) if lowest else lines:
        if (x := line.find(words)) >= 0:
            return x, y
    raise AssertionError(f"{words!r} is not on screen:\n" + "\n".join(screen_lines(app)))
