"""Border titles set as plain text, and only when they change."""

from __future__ import annotations

from textual.content import Content
from textual.geometry import Region
from textual.widget import Widget

from attn_tui.tui import textual_compat


def set_border_text(widget: Widget, title: str | Content | None = None,
                    subtitle: str | Content | None = None) -> None:
    """Plain text is never read as markup (a token may be called "[/]"), and an unchanged title
    is not set again.

    Textual's own setter repaints the whole box and everything in it; a title lives on one
    border line, so only that line is repainted here. (The edit line of a matrix is its
    subtitle: a keystroke or an Enter would otherwise redraw the whole matrix box.)"""
    for attr, text, top in (("border_title", title, True),
                            ("border_subtitle", subtitle, False)):
        if text is None:
            continue
        content = text if isinstance(text, Content) else Content(text)
        if textual_compat.border_text(widget, attr) == content:
            continue
        height = widget.outer_size.height
        edge = widget.styles.border_top if top else widget.styles.border_bottom
        if not widget.is_mounted or height < 2 or edge[0] in ("", "none", "hidden"):
            setattr(widget, attr, content)  # not laid out yet, or no border: the full setter
            continue
        # what Textual's setter stores, then a repaint of the border line alone
        textual_compat.store_border_text(widget, attr, content)
        x, y = widget.content_offset
        line = 0 if top else height - 1
        widget.refresh(Region(-x, line - y, widget.outer_size.width, 1))
