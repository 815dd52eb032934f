"""Every head's α for one sequence, side by side, in glyphs: '·░▒▓█' by weight, blank where
the causal mask hides a key, as the workbench's and the model screen's pictures draw them.
Readable without colour; the picked head is marked with ▶.

The widget shows what the screen gives it (``show``) and posts ``Scrubbed`` (←→, Home, End) and
``HeadPicked`` (↑↓); the screen decides which frame and head that means. Keys typed in one
burst act in order (KeysInOrder): the screen's settle_edits takes the moves sent before a key
whose binding reads them (`↓ w` opens the head ↓ picked).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from rich.text import Text
from textual import events
from textual.message import Message
from textual.widget import Widget

from attn_tui.models.names import short_head_name
from attn_tui.tui import bindings
from attn_tui.tui.keys import KeysInOrder

GLYPHS = "·░▒▓█"


def glyph(a: float) -> str:
    """· below 0.05, then ░ ▒ ▓ up to 0.75, █ from 0.75: one cell of the map."""
    if a < 0.05:
        return GLYPHS[0]
    return GLYPHS[min(4, 1 + int(a * 4))] if a < 0.75 else GLYPHS[4]


class AlphaMaps(KeysInOrder, Widget, can_focus=True):
    BINDINGS = bindings.ALPHA_MAPS
    DEFAULT_CSS = """
    AlphaMaps { height: auto; width: 1fr; padding: 0 1; }
    AlphaMaps:focus { background: $boost; }
    """

    @dataclass(eq=False)  # a message is itself, not its fields
    class Moved(Message):
        """A step through what the maps show, ``by`` places (negative: back)."""

        maps: AlphaMaps
        by: int
        settled: bool = False  # taken already by the screen's settle_edits (see take_once)

        @property
        def control(self) -> AlphaMaps:
            return self.maps

    class Scrubbed(Moved):
        """←→: a frame earlier (-1) or later (+1); Home/End go to the ends."""

    class HeadPicked(Moved):
        """↑↓: the head before (-1) or after (+1) the picked one."""

    def __init__(self, **kwargs) -> None:
        super().__init__(**kwargs)
        self.alpha: np.ndarray | None = None  # (layers, heads, T, T)
        self.tokens: tuple[str, ...] = ()
        self.picked = 0  # the head marked ▶, counted across layers
        self.caption = ""
        self.pattern_rows: tuple[int, ...] = ()  # the queries of the task's pattern (a lesson's)
        self._pattern_kept = False  # pattern_into_view holds after resizes
        # moves sent and not yet taken: `↓ w` in one burst opens the head ↓ picked
        self.in_flight: list[AlphaMaps.Moved] = []

    def show(self, alpha: np.ndarray | None, tokens: tuple[str, ...], picked: int,
             caption: str, pattern_rows: tuple[int, ...] = ()) -> None:
        moved = picked != self.picked
        # the height follows the maps' shape only: a run's next frame repaints, no layout
        reshaped = _shape(alpha) != _shape(self.alpha)
        self.alpha, self.tokens, self.picked, self.caption = alpha, tokens, picked, caption
        if moved or pattern_rows != self.pattern_rows:  # the learner's own look now
            self._pattern_kept = False
        self.pattern_rows = pattern_rows
        self.refresh(layout=reshaped)
        if moved and self.has_focus:  # ↑↓ picked a head: the view follows it
            self.call_after_refresh(self.reveal_picked)

    def follow_cursor(self) -> None:
        """After a resize: the picked head in sight (``roles.FollowsCursor``), or the rows a
        lesson pointed at (``pattern_into_view``)."""
        if self._pattern_kept:
            self.call_after_refresh(self.pattern_into_view, False)
        else:
            self.call_after_refresh(self.reveal_picked)

    def let_go(self) -> None:
        """The lesson points elsewhere now: a resize follows the picked head again."""
        self._pattern_kept = False

    def reveal_picked(self) -> None:
        """Scroll the first scrolling container around the maps so the picked head shows
        whole (with 10 heads at 80×24 most of them are below the window)."""
        blocks = self.blocks()
        if not blocks or not self.is_mounted:
            return
        per_row = max(1, self.content_size.width // (len(blocks[0][1]) + 2))
        top = self.region.y + self.gutter.top + (self.picked // per_row) * len(blocks[0])
        bottom = top + len(blocks[0])
        for node in self.ancestors:
            if isinstance(node, Widget) and node.allow_vertical_scroll:
                view = node.scrollable_content_region
                if self.picked < per_row:  # the first row: from the top, the pane's title too
                    node.scroll_to(y=0, animate=False)
                elif top < view.y:
                    node.scroll_relative(y=top - view.y, animate=False)
                elif bottom > view.bottom:
                    node.scroll_relative(y=min(bottom - view.bottom, top - view.y),
                                         animate=False)
                return

    def pattern_into_view(self, renew: bool = True) -> None:
        """Scroll the first scrolling container around the maps so the picked head's pattern
        rows show from the first at the top of the view (as far as it scrolls; the keys' line
        above a pattern from the first rows), so a lesson panel growing under the maps (an
        answer's words) hides the last of them, not the first: at 80×24 a lesson's answer
        about reverse's anti-diagonal left only the rows above '>' in sight. Kept to after a
        resize, until the learner picks another head; ``renew=False`` (a resize, the panel's
        new height) only keeps it, never starts it."""
        blocks = self.blocks()
        if not blocks or not self.pattern_rows or not self.is_mounted:
            return
        if not (renew or self._pattern_kept):  # the learner has looked elsewhere since
            return
        self._pattern_kept = True
        per_row = max(1, self.content_size.width // (len(blocks[0][1]) + 2))
        # below the maps' top: the rows of heads above, the head's title and its keys' line;
        # a pattern from the first rows keeps the keys' line in sight above them (at 80×24
        # previous's "one back", from the second row, had no key to be read against)
        first = min(self.pattern_rows)
        below = self.gutter.top + (self.picked // per_row) * len(blocks[0]) + (
            1 if first <= 1 else 2 + first)
        for node in self.ancestors:
            if isinstance(node, Widget) and node.allow_vertical_scroll:
                # from the maps' place in the layout, not their place on screen, which is
                # stale until the next refresh when a scroll has just been asked for
                node.scroll_to_widget(self, top=True, animate=False, immediate=True)
                node.scroll_relative(y=below, animate=False, immediate=True)
                return

    def blocks(self) -> list[list[str]]:
        """Each head as lines of text, the title first; the keys' line above the rows and
        again below them, so a map scrolled to its lower half (where a task's answers are, at
        80 x 24) still names its columns."""
        if self.alpha is None:
            return []
        layers, heads, t, _ = self.alpha.shape
        keys = "  " + "".join(tok[-1] for tok in self.tokens)
        out = []
        for i in range(layers * heads):
            a = self.alpha[i // heads, i % heads]
            mark = "▶" if i == self.picked else " "
            lines = [f"{mark}{short_head_name(i // heads, i % heads)}".ljust(t + 2), keys]
            for q in range(t):
                cells = "".join(" " if k > q else glyph(float(a[q, k])) for k in range(t))
                lines.append(f"{self.tokens[q][-1]} {cells}")
            lines.append(keys)
            out.append(lines)
        return out

    def render(self) -> Text:
        blocks = self.blocks()
        if not blocks:
            return Text(self.caption)
        width = max(1, self.size.width)
        block_w = len(blocks[0][1]) + 2
        per_row = max(1, width // block_w)
        out = Text()
        for start in range(0, len(blocks), per_row):
            row = blocks[start:start + per_row]
            for n in range(len(row[0])):
                for j, block in enumerate(row):
                    style = "bold" if start + j == self.picked else ""
                    out.append(block[n].ljust(block_w), style=style)
                out.append("\n")
        out.append(self.caption, style="italic")
        return out

    def get_content_height(self, container, viewport, width: int) -> int:
        blocks = self.blocks()
        if not blocks:
            return 1
        per_row = max(1, width // (len(blocks[0][1]) + 2))
        rows = -(-len(blocks) // per_row)
        return rows * len(blocks[0]) + 1

    def head_at(self, x: int, y: int) -> int | None:
        """The head whose block is drawn at content offset (x, y), or None (a gap, the caption)."""
        blocks = self.blocks()
        if not blocks or x < 0 or y < 0:
            return None
        block_w, block_h = len(blocks[0][1]) + 2, len(blocks[0])
        per_row = max(1, self.content_size.width // block_w)
        column, row = x // block_w, y // block_h
        head = row * per_row + column
        if column >= per_row or x % block_w >= block_w - 2 or head >= len(blocks):
            return None
        return head

    def on_click(self, event: events.Click) -> None:
        # a click on a head's block picks it, as ↑↓ would step there: counted from where the
        # moves already sent will leave it (two clicks in one read, or ↓ and a click)
        offset = event.get_content_offset(self)
        head = None if offset is None else self.head_at(offset.x, offset.y)
        heads = len(self.blocks())
        then = (self.picked + sum(m.by for m in self.in_flight
                                  if isinstance(m, self.HeadPicked))) % max(1, heads)
        if head is not None and head != then:
            self._send(self.HeadPicked(self, head - then))

    def _send(self, moved: AlphaMaps.Moved) -> None:
        self.in_flight.append(moved)
        self.post_message(moved)

    def action_scrub(self, by: int) -> None:
        self._send(self.Scrubbed(self, by))

    def action_head(self, by: int) -> None:
        self._send(self.HeadPicked(self, by))


def _shape(alpha: np.ndarray | None) -> tuple[int, ...] | None:
    return None if alpha is None else alpha.shape
