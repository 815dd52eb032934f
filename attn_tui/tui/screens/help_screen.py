"""Every key, made from the bindings (see attn_tui.tui.help_keys)."""

from __future__ import annotations

from rich.cells import cell_len
from rich.console import Console, ConsoleOptions, Group, RenderableType, RenderResult
from rich.measure import Measurement
from rich.segment import Segment
from rich.table import Table
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.widgets import Static

from attn_tui.core.labs import LABS
from attn_tui.lessons import names
from attn_tui.tui.help_keys import sections
from attn_tui.tui.screens.dialogs.modal import AttnModal

INTRO = (
    "Edit a number in Q, K or V and every stage recomputes. The step table explains the query "
    "under the cursor in Q; the map below it shows every query at once. Cells take decimals, "
    "1e-3, −2 or fractions like 1/3; anything else is refused with a message, and the old "
    "value stays. In a lesson, › marks the numbers the step talks about; ? hides one that a "
    "question, on this step or a coming one, asks about, until you answer. In the tables · is a "
    "key the mask hides; in α's pictures a hidden key is blank and · a weight next to "
    "nothing.\n\n"
    "New to attention? Press g and choose lesson one: {lessons} guided lessons walk through it "
    "stage by stage, and {labs} labs run its experiments.\n"
)


class HelpScroll(VerticalScroll):
    """The reference's scroll: each key scrolls on from where the keys before it are taking
    it, at once, so keys that arrive together (one read of the terminal) all count. Textual's
    own scroll waits for the next refresh, and every key of the burst started from the same
    place."""

    def _scroll_by(self, lines: float) -> None:
        self.scroll_to(y=self.scroll_target_y + lines, immediate=True)

    def action_scroll_down(self) -> None:
        self._scroll_by(1)

    def action_scroll_up(self) -> None:
        self._scroll_by(-1)

    def action_page_down(self) -> None:
        self._scroll_by(self.scrollable_content_region.height)

    def action_page_up(self) -> None:
        self._scroll_by(-self.scrollable_content_region.height)


class HelpScreen(AttnModal[None]):
    BINDINGS = [Binding("escape,q,question_mark,f1", "dismiss", "Close help")]
    SHOWS_KEYS = False  # it is as tall as the window, and its edge says how to close it
    DEFAULT_CSS = """
    HelpScreen { align: center middle; }
    HelpScreen > HelpScroll { width: 96; max-width: 100%; height: 100%; max-height: 100%;
                                  border: round $border; background: $surface; padding: 0 1; }
    HelpScreen Static { width: 1fr; }
    """

    def __init__(self, section: str | None = None, then: str | None = None) -> None:
        """``section``: the title of the section to open at (the screen help was asked on);
        ``then``, a section moved up to follow it (a lab's own keys after every lab's)."""
        super().__init__()
        self.section, self.then = section, then

    def compose_dialog(self) -> ComposeResult:
        with HelpScroll() as scroll:
            scroll.border_title = "attn-tui keys"
            # a click closes too: at 80 columns the help covers the screen, no outside to click
            scroll.border_subtitle = "↑↓ scroll · [@click=screen.dismiss(None)]Esc or q closes[/]"
            self.reference = DrawnOncePerWidth(Group(*_reference(self.section, self.then)))
            yield Static(self.reference)

    def on_mount(self) -> None:
        if self.section is not None:
            self.call_after_refresh(self._to_section)

    def _to_section(self) -> None:
        """Scroll so the section's title is the top line (the lines as the Static drew them)."""
        lines = self.reference.latest()
        title = section_title(self.section or "")
        for y, line in enumerate(lines):
            if "".join(seg.text for seg in line).strip() == title:
                self.query_one(HelpScroll).scroll_to(y=y, animate=False, immediate=True)
                return


class DrawnOncePerWidth:
    """A renderable that never changes, drawn once per width and options and then replayed:
    after a resize Textual asks the Static for it three times (its height, then its lines),
    and the reference's 13 tables were drawn each time, even when the dialog's width had
    not changed."""

    def __init__(self, renderable: RenderableType) -> None:
        self.renderable = renderable
        self._lines: dict[tuple, list[list[Segment]]] = {}
        self._latest: list[list[Segment]] = []

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        # no height: text and tables take none (rich's Table drops it), and render_lines
        # would pad to it
        key = (options.max_width, options.min_width, options.justify, options.overflow,
               options.no_wrap, options.highlight, options.markup)
        lines = self._lines.get(key)
        if lines is None:
            if len(self._lines) >= 8:  # a window being dragged: keep the latest few
                self._lines.pop(next(iter(self._lines)))
            lines = self._lines[key] = console.render_lines(
                self.renderable, options.update(height=None), pad=False, new_lines=True)
        self._latest = lines
        for line in lines:
            yield from line

    def latest(self) -> list[list[Segment]]:
        """The lines last drawn (or replayed)."""
        return self._latest

    def __rich_measure__(self, console: Console, options: ConsoleOptions) -> Measurement:
        return Measurement.get(console, options, self.renderable)


def _reference(section: str | None = None, then: str | None = None) -> list[RenderableType]:
    """The intro, then each section's keys beside what they do; a long description wraps under
    itself, not under the keys. Section ``then`` comes right after ``section``."""
    out: list[RenderableType] = [Text(INTRO.format(lessons=len(names()), labs=len(LABS)))]
    every = sections()
    moved = [s for s in every if s[0] == then]
    if moved and section != then and any(s[0] == section for s in every):
        every = [s for s in every if s[0] != then]
        at = next(i for i, s in enumerate(every) if s[0] == section) + 1
        every[at:at] = moved
    elif then is None and (own := [s for s in every[1:] if s[0] == section]):
        # the screen's own keys right after every screen's: the model screen's, last, could
        # not scroll to the top and opened in the lab before it
        every = [every[0], *own, *(s for s in every[1:] if s[0] != section)]
    # one width for every section's keys, the longest's ("Esc ctrl+z ctrl+c")
    width = max(cell_len(f"  {keys}") for _, entries in every for keys, _ in entries)
    for title, entries in every:
        table = Table.grid(padding=(0, 1), pad_edge=False)
        table.add_column(width=width, no_wrap=True)
        table.add_column(ratio=1)
        for keys, does in entries:
            table.add_row(Text(f"  {keys}"), Text(does))
        out += [Text(section_title(title), style="bold"), table, Text("")]
    return out


def section_title(title: str) -> str:
    """A section's title as the reference prints it: capitals, but not a flag in brackets
    ("MODEL SCREEN (--model minilm)", not "--MODEL MINILM")."""
    words, bracket, rest = title.partition(" (")
    return words.upper() + bracket + rest
