"""The keys of the focused pane on one line, drawn as one widget.

Textual's Footer draws each key as its own widget (a dozen on the workbench) and rebuilds them
all whenever the bindings change: about 20 ms and 1.3 MiB of the first screen. This bar shows
the same keys, in the same order and colours as the compact Footer: each binding with
``show=True`` once per action, the command palette's key on the right after a bar. A click on
a key presses it; hovering shows the binding's tooltip.
"""

from __future__ import annotations

from typing import NamedTuple

from rich.cells import cell_len
from rich.style import Style
from rich.text import Text
from textual import events
from textual.strip import Strip
from textual.widget import Widget

from attn_tui.tui.keys import takes_text, types_a_character
from attn_tui.tui.roles import SaysWhyNot


class Item(NamedTuple):  # not a frozen dataclass: ~0.7 ms of start-up to build
    key: str  # what a click presses
    shown: str  # the key as the footer writes it: ⏎, ^q, ?
    description: str
    enabled: bool
    tooltip: str
    kept: bool = False  # drawn even where the line is too short for every key (Help)
    action: str = ""  # a dimmed key clicked: the screen may say why it does nothing now


# the keys a short line keeps, after those that fit: Help is how a learner finds the rest
KEPT = {"app.help"}


def _cells(item: Item) -> int:
    return cell_len(item.shown) + 1 + cell_len(item.description)


def _fitting(items: tuple[Item, ...], room: int) -> list[Item]:
    """The items drawn in ``room`` cells, in their order: as many as fit from the left, with
    room kept for the kept ones wherever they stand."""
    width = sum(_cells(item) for item in items) + max(len(items) - 1, 0)
    if width <= room:
        return list(items)
    used = sum(_cells(item) + 1 for item in items if item.kept) - 1
    chosen = {id(item) for item in items if item.kept}
    for item in items:
        if item.kept:
            continue
        if used + 1 + _cells(item) > room:
            break
        chosen.add(id(item))
        used += 1 + _cells(item)
    return [item for item in items if id(item) in chosen]


class KeyBar(Widget):
    COMPONENT_CLASSES = {"keybar--key", "keybar--description", "keybar--separator"}
    DEFAULT_CSS = """
    KeyBar { dock: bottom; height: 1; width: 1fr; color: $footer-foreground;
             background: $footer-background; }
    KeyBar > .keybar--key { color: $footer-key-foreground; background: $footer-key-background;
                            text-style: bold; }
    KeyBar > .keybar--description { color: $footer-description-foreground;
                                    background: $footer-description-background; }
    KeyBar > .keybar--separator { color: $foreground 20%; }
    """

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self._items: tuple[tuple[Item, ...], Item | None] | None = None  # None: not read yet
        self._spans: list[tuple[int, int, Item]] = []  # x range of each key drawn
        # the line as drawn for each set of keys and width: typing into a cell and Enter swap
        # the same two sets back and forth, and drawing one took about 2 ms of the key
        self._drawn: dict[tuple, tuple[Strip, list[tuple[int, int, Item]]]] = {}

    def notify_style_update(self) -> None:
        super().notify_style_update()
        self._drawn.clear()  # a theme or focus change recolours the keys

    def render_line(self, y: int) -> Strip:
        if y or self._items is None:
            return super().render_line(y)
        key = (self._items, self.size.width)
        if (drawn := self._drawn.get(key)) is None:
            drawn = self._drawn[key] = (super().render_line(y), self._spans)
            if len(self._drawn) > 16:  # another screen's keys, another width: a few at most
                del self._drawn[next(iter(self._drawn))]
        strip, self._spans = drawn
        return strip

    def on_mount(self) -> None:
        self.screen.bindings_updated_signal.subscribe(self, self._bindings_changed)

    def on_unmount(self) -> None:
        self.screen.bindings_updated_signal.unsubscribe(self)

    def _bindings_changed(self, _screen) -> None:
        if not self.screen.is_active:
            # under a dialog the keys shown stay those of this screen in use (read while
            # covered, a lesson's n and p would be switched off)
            return
        items = self.items()
        if items != self._items:  # a focus change that keeps the same keys repaints nothing
            self._items = items
            self.refresh()

    def items(self) -> tuple[tuple[Item, ...], Item | None]:
        """(the keys on the left, the command palette's key or None), as Footer picks them."""
        app = self.app
        by_action: dict[str, Item] = {}
        palette: Item | None = None
        typing = takes_text(self.screen.focused)
        for key, (_, binding, enabled, tooltip) in self.screen.active_bindings.items():
            if typing and types_a_character(key):  # m types an m into the cell, not Mask
                continue
            is_palette = key == app.COMMAND_PALETTE_BINDING and app.ENABLE_COMMAND_PALETTE
            if not is_palette and (not binding.show or binding.action in by_action):
                continue  # not drawn: its key's display (a Unicode name lookup) is not needed
            item = Item(binding.key, app.get_key_display(binding),
                        binding.description, enabled, tooltip or binding.tooltip or "",
                        binding.id in KEPT, binding.action)
            if is_palette:
                palette = item
            else:
                by_action[binding.action] = item
        return tuple(by_action.values()), palette

    def render(self) -> Text:
        # the screen signals every change of its bindings (as Footer relies on), so the keys
        # are read once per change, not once per repaint
        if self._items is None:
            self._items = self.items()
        left, palette = self._items
        key_style = self.get_component_rich_style("keybar--key")
        text_style = self.get_component_rich_style("keybar--description")
        width = self.size.width
        right = Text()
        if palette is not None:
            right.append("▏", self.get_component_rich_style("keybar--separator"))
            right.append(palette.shown, key_style)
            right.append(f" {palette.description}", text_style)
        room = width - right.cell_len - (1 if palette is not None else 0)  # a blank before ▏
        line, spans = Text(), []
        for item in _fitting(left, room):
            gap = 1 if spans else 0
            cells = _cells(item)
            if line.cell_len + gap + cells > room:
                break  # a kept key wider than the whole line
            line.append(" " * gap)
            x = line.cell_len
            dim = Style() if item.enabled else Style(dim=True)  # unavailable here, as Footer
            line.append(item.shown, key_style + dim)
            line.append(f" {item.description}", text_style + dim)
            spans.append((x, x + cells, item))
        if palette is not None:
            line.append(" " * (width - right.cell_len - line.cell_len))
            spans.append((line.cell_len + 1, width, palette))
            line.append_text(right)
        self._spans = spans
        return line

    def _item_at(self, x: int) -> Item | None:
        return next((item for x0, x1, item in self._spans if x0 <= x < x1), None)

    def on_click(self, event: events.Click) -> None:
        if event.chain > 1:
            # a double click presses once, as the lesson panel's words act once: the second
            # click of one on a dialog's "esc Cancel" pressed the key now under the pointer
            # on the screen the dialog closed to (m Mask)
            return
        item = self._item_at(event.x)
        if item is None:
            return
        if item.enabled:
            self.app.simulate_key(item.key)
        elif not (isinstance(self.screen, SaysWhyNot) and self.screen.say_why_not(item.action)):
            self.app.bell()

    def on_mouse_move(self, event: events.MouseMove) -> None:
        item = self._item_at(event.x)
        self.tooltip = item.tooltip if item is not None and item.tooltip else None
