"""The workbench's right column: the step table above the map (and the map's picture)."""

from __future__ import annotations

from textual import events
from textual.containers import VerticalScroll

from attn_tui.tui.widgets.heatmap import Heatmap

# the step table's box with one key's row: border, header, the row and the summary's two lines
STEPS_ROOM = 6
MAP_SHARE = 0.6  # of the column, at most, while the step table shares it
MAP_LEAST = 4  # the map's border, header and one row: never a box of its header alone


def _map_least(heatmap: Heatmap) -> int:
    return min(MAP_LEAST, heatmap.n_rows + 3)


class ResultsColumn(VerticalScroll, can_focus=False):
    """In a lesson side by side (14 to 31 rows), the column has too few rows for both panes:
    the map takes the rows it needs, up to 60% of the column and never the step table's six
    (below ten rows, one of them: each box keeps a row of its own marks), and scrolls inside
    its box, so the step table keeps its title, header and summary."""

    def on_resize(self, event: events.Resize) -> None:
        self.fit()

    def least_rows(self) -> int:
        """The rows the column needs for each pane shown to keep its title, header and one row
        of its own (the step table also its summary)."""
        rows = sum(_map_least(heatmap) for heatmap in self.query(Heatmap) if heatmap.display)
        if not self.screen.has_class("-steps-concealed"):
            rows += STEPS_ROOM
        return rows

    def fit(self) -> None:
        screen = self.screen
        sharing = (screen.has_class("-lesson") and screen.has_class("-tall")
                   and not screen.has_class("-stacked")
                   and not screen.has_class("-steps-concealed"))
        rows = self.scrollable_content_region.height
        changed = False
        for heatmap in self.query(Heatmap):
            cap = max(_map_least(heatmap), min(int(rows * MAP_SHARE), rows - STEPS_ROOM)) if sharing else None
            now = heatmap.styles.max_height
            if (now.cells if now is not None else None) != cap:
                heatmap.styles.max_height = cap
                changed = True
        if changed:  # the map's rows the step marks may be below its new edge: back in view
            self.call_after_refresh(self.app.tutor.points_again)
