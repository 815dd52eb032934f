"""Point at cells: a lesson step's highlights put on the grids of a screen, and scrolled to.

A marked cell is drawn bold and underlined, a run of them starting with a '›' (GridView's
highlight), so the pointing never depends on colour.
"""

from __future__ import annotations

from collections.abc import Iterable

from textual.containers import ScrollableContainer
from textual.screen import Screen
from textual.widget import Widget

from attn_tui.lessons import Highlight
from attn_tui.tui.widgets.alpha_maps import AlphaMaps
from attn_tui.tui.widgets.alpha_picture import HeadGrid, HeadPicture
from attn_tui.tui.widgets.grid_view import GridView
from attn_tui.tui.widgets.results_column import ResultsColumn

Marks = list[tuple[str, frozenset[tuple[int, int]]]]


def mark(host: Screen, highlights: Iterable[Highlight]) -> Marks:
    """Clear every grid on ``host``, then mark the given cells; returns (pane, cells) in order."""
    for grid in host.query(GridView):
        grid.set_highlights(frozenset())
    panes: dict[str, frozenset[tuple[int, int]]] = {}
    for h in highlights:  # several highlights on one pane add up
        panes[h.pane] = panes.get(h.pane, frozenset()) | h.cells
    for pane, cells in panes.items():
        found = host.query(f"#{pane}")
        if found and isinstance(found.first(), GridView):
            found.first().set_highlights(cells)
    for maps in host.query(AlphaMaps):  # no longer pointed at: its pattern rows go free
        if not any(node.id in panes for node in (maps, *maps.ancestors)
                   if isinstance(node, Widget)):
            maps.let_go()
    return list(panes.items())


def conceal(host: Screen, items: Iterable[Highlight]) -> None:
    """Hide what would answer a question before it is asked: cells of a grid show "?" (of the
    grid of heads: the heads' pictures), a pane without cells is not drawn.
    ``conceal(host, ())`` shows everything again."""
    for grid in host.query(GridView):
        grid.set_concealed(frozenset())
    for picture in host.query(HeadPicture):
        picture.keep_back(False)
    for heads in host.query(HeadGrid):
        heads.keep_back(frozenset())
    for hidden in host.query(".-concealed"):
        hidden.remove_class("-concealed")
    for h in items:
        found = host.query(f"#{h.pane}")
        if not found:
            continue
        widget = found.first()
        if h.cells and isinstance(widget, GridView):
            widget.conceal_more(h.cells, from_softmax=h.from_softmax)
        elif h.cells and isinstance(widget, HeadGrid):  # cells: (layer, head), from 0
            widget.keep_back(widget.kept_back | h.cells)
        elif isinstance(widget, HeadPicture):  # drawn, its weights ?: not an empty space
            widget.keep_back(True)
        else:
            widget.add_class("-concealed")
            focused = host.focused
            if focused is not None and (focused is widget or widget in focused.ancestors):
                # a hidden pane cannot keep focus: without any, keys wait for one (a, b …)
                host.focus_next()
    # the map shares its column with the step table only while that is drawn
    hidden = bool(host.query("#steps-box.-concealed"))
    if host.has_class("-steps-concealed") != hidden:
        host.set_class(hidden, "-steps-concealed")
        for column in host.query(ResultsColumn):  # the workbench's
            host.call_after_refresh(column.fit)


def bring_into_view(host: Screen, marks: Marks, lead: frozenset = frozenset(),
                    from_top: bool = True, keep: Iterable[tuple[str, int]] = ()) -> None:
    """Scroll the first marked pane into view, and its marked columns into the pane; ``lead``
    (the step's first highlight's cells) says which marked cell must show where not all fit.
    ``from_top``: every column starts from its top, so what a step shows never depends on
    where the previous step (or its timing) left the scroll; else each column scrolls as
    little as the marks need. ``keep``: (pane, row) of grids whose row must show too, unmarked
    (the step table's row a task is about)."""
    for column in host.query(ScrollableContainer):
        # not the lesson's own words, which may be scrolling to an answer's feedback
        if from_top and not isinstance(column, GridView) and column.id != "lesson-panel":
            column.scroll_home(animate=False, immediate=True)
    for pane, cells in marks[:1]:
        found = host.query(f"#{pane}")
        if not found:
            continue
        widget = found.first()
        # the pane's box (its border, or a line above it, carries the title) rather than the
        # bare pane: the model screen's grid of heads and step table came without their titles
        parent = widget.parent
        box = parent if isinstance(parent, Widget) and not isinstance(
            parent, ScrollableContainer) and parent is not host else widget
        if isinstance(widget, HeadGrid):  # the grid of heads: the chosen one, with its title
            widget.chosen_into_view()
            continue
        if not isinstance(widget, GridView) or not cells:
            box.scroll_visible(animate=False, top=True, immediate=True)
            if isinstance(widget, HeadPicture):  # and the row of the query the step is about
                widget.query_into_view()
            for maps in box.query(AlphaMaps):  # and the rows of the pattern a task learns
                maps.pattern_into_view(renew=from_top)
            continue
        box.scroll_visible(animate=False, immediate=True)  # the least scroll: titles stay
        # the leftmost scroll that shows the last marked column, never past the first
        cols = sorted(c for _, c in cells)
        room = widget.scrollable_content_region.width - widget.label_width
        x = min(cols[0] * widget.cell_width, max(0, (cols[-1] + 1) * widget.cell_width - room))
        widget.scroll_to(x=x, animate=False, immediate=True)
        # a box taller than its pane showed its end: the first highlight's top-left marked
        # cell comes into view (not the corner of every highlight's box, which may be unmarked)
        row, col = min(lead & cells or cells)
        rows = [r for r, _ in lead & cells or cells]
        # from the lead's first row, down to the last marked row where they fit: one step's
        # α (the lead) with the sum row below it that its words name, not the row above
        widget.row_into_view(min(rows), max(max(rows), max(r for r, _ in cells)))
        widget.reveal_cell(row, col)
    for pane, cells in marks[1:]:  # the other marked grids show their marked rows
        found = host.query(f"#{pane}")
        if found and isinstance(found.first(), GridView) and cells:
            rows = [r for r, _ in cells]
            found.first(GridView).row_into_view(min(rows), max(rows))
    for pane, row in keep:
        found = host.query(f"#{pane}")
        if found and isinstance(found.first(), GridView):
            found.first(GridView).row_into_view(row)
