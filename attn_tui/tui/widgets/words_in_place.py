"""Setting a Static's words with a layout only when they change its height.

Static.update lays the whole screen out again, every widget placed anew, then repaints. A
status line or a summary whose new words take as many lines as the old needs the repaint
only; over SSH, with a class on one server, each layout saved is CPU for every learner."""

from __future__ import annotations

from typing import Any

from textual.widgets import Static


def put_words(widget: Static, content: Any) -> None:
    if not widget.display:  # hidden: its size counts once it shows, and showing lays out
        widget.update(content, layout=False)
        return
    width = widget.content_size.width
    rule = widget.styles.width  # (None: as wide as its container, as auto is as its words)
    if width <= 0 or (rule is not None and rule.is_auto):  # or not laid out yet
        widget.update(content)
        return
    widget.update(content, layout=False)
    # against the height it has: words set another way since (a layout pending) count too
    if widget.visual.get_height(widget.styles, width) != widget.content_size.height:
        widget.refresh(layout=True)
