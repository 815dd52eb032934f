"""The top line: an icon that opens the command palette, and the screen's title, centred.

It draws what Textual's Header draws with show_clock=False (icon 8 columns wide on the left,
"title — sub-title" centred, 10 columns on the right, where attn-tui may show a key hint) as one
widget instead of four: the Header and its three children cost about 10 ms of the first screen. It does not grow to three
lines on a click, as Header does; a 24-line terminal has no rows to spare.
"""

from __future__ import annotations

from textual import events
from textual.content import Content
from textual.style import Style
from textual.widget import Widget

ICON_WIDTH = 8  # Header's icon: padding 0 1, width 8
RIGHT_WIDTH = 10  # Header's clock space, kept so the title sits where it always did


class TitleBar(Widget):
    COMPONENT_CLASSES = {"titlebar--icon-hover"}
    DEFAULT_CSS = """
    TitleBar { dock: top; width: 100%; height: 1; background: $panel; color: $foreground; }
    TitleBar > .titlebar--icon-hover { background: $foreground 10%; }
    """

    def __init__(self, icon: str = "α", *, hint: str = "", id: str | None = None) -> None:
        super().__init__(id=id)
        self.icon = icon
        self.hint = hint  # a key worth knowing, in the right margin: a click presses it
        self._hover = False

    def on_mount(self) -> None:
        for node in (self.screen, self.app):  # a screen's title, or else the app's
            for attr in ("title", "sub_title"):
                self.watch(node, attr, self._title_changed, init=False)

    def _title_changed(self) -> None:
        self.refresh()

    def title_content(self, room: int | None = None) -> Content:
        """The title and sub-title; in ``room`` columns, without the sub-title's trailing parts
        that do not fit ("   (Esc: workbench)", then " · numpy float32" …), before it is cut."""
        screen, app = self.screen, self.app
        title = screen.title if screen.title is not None else app.title
        sub = screen.sub_title if screen.sub_title is not None else app.sub_title
        full = app.format_title(title, sub)
        if room is None or full.cell_length <= room or not sub:
            return full
        shorter = sub.split("   ")[0]  # a hint set apart by three spaces goes first
        content = app.format_title(title, shorter)
        if content.cell_length <= room:
            return content
        # then the app's own name, which the title bar's α already stands for, before the
        # screen's own parts ("model all-MiniLM-L6-v2 · numpy float32": the precision too)
        while True:
            content = Content(shorter)
            if content.cell_length <= room or " · " not in shorter:
                return content
            shorter = shorter.rsplit(" · ", 1)[0]

    def render(self) -> Content:
        width = self.size.width
        icon = Content(f" {self.icon}")
        icon = icon.pad_right(max(0, ICON_WIDTH - icon.cell_length)).truncate(width)
        if self._hover:
            hover = self.get_component_rich_style("titlebar--icon-hover")
            icon = icon.stylize(Style.from_rich_style(hover))
        room = max(0, width - ICON_WIDTH - RIGHT_WIDTH)
        title = self.title_content(room)
        cut = title.cell_length > room
        if cut:
            title = title.truncate(room, ellipsis=True)
        left = (room - title.cell_length) // 2
        right = max(0, width - ICON_WIDTH - left - title.cell_length)
        hint = Content(self.hint)
        # the hint only with a blank on each side, never against the title
        if cut or not self.hint or hint.cell_length >= RIGHT_WIDTH or hint.cell_length + 2 > right:
            return Content.assemble(icon, " " * left, title, " " * right)
        hint = hint.stylize(Style(dim=True))
        return Content.assemble(icon, " " * left, title, " " * (right - hint.cell_length - 1),
                                hint, " ")

    # ---- the icon: hover, tooltip and click, as Header's icon
    def _on_icon(self, x: int) -> bool:
        return x < ICON_WIDTH and self.app.ENABLE_COMMAND_PALETTE

    def on_mouse_move(self, event: events.MouseMove) -> None:
        hover = self._on_icon(event.x)
        self.tooltip = "Open the command palette" if hover else None
        if hover != self._hover:
            self._hover = hover
            self.refresh()

    def on_leave(self, event: events.Leave) -> None:
        if self._hover:
            self._hover = False
            self.refresh()

    async def on_click(self, event: events.Click) -> None:
        if self._on_icon(event.x):
            event.stop()
            await self.run_action("app.command_palette")
        elif self.hint and event.x >= self.size.width - RIGHT_WIDTH:
            event.stop()
            self.app.simulate_key(self.hint.split()[0])
