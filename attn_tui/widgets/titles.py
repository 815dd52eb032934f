"""Border titles set as plain text, and only when they change."""

from __future__ import annotations

from textual.content import Content
from textual.widget import Widget


def set_border_text(widget: Widget, title: str | Content | None = None,
                    subtitle: str | Content | None = None) -> None:
    """Plain text is never read as markup (a token may be called "[/]"), and an unchanged title
    is not set again: setting one repaints the whole box and everything in it."""
    for attr, text in (("border_title", title), ("border_subtitle", subtitle)):
        if text is None:
            continue
        content = text if isinstance(text, Content) else Content(text)
        if getattr(widget, f"_{attr}", None) != content:
            setattr(widget, attr, content)
