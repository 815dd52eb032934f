"""What a terminal shows after every update the app sends equals the screen drawn afresh.

attn-tui sends only what changed (textual_compat's partial update, and no whole-screen repaint
for a change of focus or of the text selection), so a widget left out of an update would stay
stale on the learner's terminal while every check that reads the screen afresh passes. Here a
shadow terminal applies each update as a terminal would, cell by cell with its style, and is
compared with a fresh render after clicks, drags, Tab and keys.
"""

from __future__ import annotations

import pytest
from rich.cells import cell_len
from rich.segment import ControlType
from textual import events

from attn_tui.tui.app import make_app
from attn_tui.tui.textual_compat import after_each_update, screen_strips


class ShadowTerminal:
    """Cells (character, style) written by the updates' segments, at their cursor moves."""

    def __init__(self, width: int, height: int) -> None:
        self.width, self.height = width, height
        self.cells: list[list[tuple[str, object]]] = [[(" ", None)] * width
                                                      for _ in range(height)]
        self.updates = 0

    def apply(self, update, console) -> None:
        if not hasattr(update, "__rich_console__"):
            return
        self.updates += 1
        x = y = 0
        for seg in update.__rich_console__(console, console.options):
            if seg.control:
                for code in seg.control:
                    if code[0] == ControlType.CURSOR_MOVE_TO:
                        x, y = code[1], code[2]
                continue
            if seg.text == "\n":
                x, y = 0, y + 1
                continue
            for ch in seg.text:
                x = self.put(x, y, ch, seg.style)

    def put(self, x: int, y: int, ch: str, style: object) -> int:
        """Write ``ch`` at (x, y); a wide character's second cell holds "" (it is covered)."""
        width = max(1, cell_len(ch))
        for i in range(width):
            if 0 <= y < self.height and 0 <= x + i < self.width:
                self.cells[y][x + i] = (ch if i == 0 else "", style)
        return x + width

    def lines(self) -> list[str]:
        return ["".join(c for c, _ in row) for row in self.cells]


def fresh(app) -> ShadowTerminal:
    """The screen rendered anew: every widget's kept lines are dropped first, so a widget
    whose change was never marked for repainting shows its change here, as it would after the
    learner resized the window."""
    for widget in app.screen.walk_children(with_self=True):
        widget._styles_cache.clear()
        widget._dirty_regions.add(widget.size.region)  # its content rendered again too
    screen = ShadowTerminal(*app.size)
    for y, strip in enumerate(screen_strips(app.screen)):
        x = 0
        for seg in strip:
            for ch in seg.text:
                x = screen.put(x, y, ch, seg.style)
    return screen


def _mouse(cls, x: int, y: int, button: int = 1):
    return cls(None, x, y, 0, 0, button, False, False, False, screen_x=x, screen_y=y)


def _click(app, x: int, y: int) -> None:
    for cls in (events.MouseMove, events.MouseDown, events.MouseUp):
        app.post_message(_mouse(cls, x, y))


def _drag(app, at: tuple[int, int], to: tuple[int, int]) -> None:
    app.post_message(_mouse(events.MouseMove, *at))
    app.post_message(_mouse(events.MouseDown, *at))
    for step in range(1, 4):
        app.post_message(_mouse(events.MouseMove, at[0] + (to[0] - at[0]) * step // 3,
                                at[1] + (to[1] - at[1]) * step // 3))
    app.post_message(_mouse(events.MouseUp, *to))


def _differences(app, shadow: ShadowTerminal) -> list[str]:
    want = fresh(app)
    out = []
    for y, (a, b) in enumerate(zip(shadow.cells, want.cells, strict=True)):
        cols = [x for x in range(len(a)) if a[x] != b[x]]
        if cols:
            out.append(f"row {y}, columns {cols[0]}..{cols[-1]}: shown "
                       f"{shadow.lines()[y][cols[0]:cols[-1] + 1]!r}, "
                       f"drawn afresh {want.lines()[y][cols[0]:cols[-1] + 1]!r}")
    return out


# (how the app starts, then what the learner does: a key, a click or a drag)
WALKS = {
    "workbench": ({"preset": "mask"}, [("click", 9, 7), ("click", 29, 11), ("key", "tab"),
                                       ("click", 59, 19), ("drag", (2, 2), (40, 9)),
                                       ("click", 4, 2), ("key", "m"), ("key", "tab"),
                                       ("click", 29, 11), ("key", "down"),
                                       ("drag", (30, 14), (70, 16)), ("click", 70, 20)]),
    "lesson": ({"lesson": "mask"}, [("click", 10, 5), ("key", "n"), ("click", 60, 12),
                                    ("drag", (45, 4), (78, 10)), ("click", 20, 16),
                                    ("key", "tab"), ("key", "n")]),
    "scaling lab": ({"lab": "scaling"}, [("click", 10, 3), ("key", "right"), ("click", 40, 12),
                                         ("drag", (5, 10), (70, 14)), ("key", "tab"),
                                         ("click", 70, 20)]),
}


@pytest.mark.parametrize("walk", list(WALKS))
async def test_after_every_click_drag_and_key_the_terminal_shows_the_screen(walk):
    start, steps = WALKS[walk]
    app = make_app(confirm_quit=False, **start)
    app.animation_level = "none"
    shadow = ShadowTerminal(80, 24)
    after_each_update(app, lambda _screen, update: shadow.apply(update, app.console))
    async with app.run_test(size=(80, 24)) as pilot:
        await app.workers.wait_for_complete()
        await pilot.pause()
        for what, *args in steps:
            if what == "key":
                await pilot.press(*args)
            elif what == "click":
                _click(app, *args)
            else:
                _drag(app, *args)
            await pilot.pause()
            await app.workers.wait_for_complete()
            await pilot.pause()
            await pilot.pause()
            assert _differences(app, shadow) == [], (walk, what, args)
        assert shadow.updates > len(steps)


async def test_a_click_sends_what_it_changes_not_the_whole_screen():
    """Over SSH every byte of a frame crosses the network: a click that moves to another
    matrix sends that matrix's change, and a second on the same cell little more than its row."""
    from attn_tui.tui.textual_compat import on_each_frame

    app = make_app(preset="mask", confirm_quit=False)
    app.CLICK_CHAIN_TIME_THRESHOLD = 0  # two clicks, not a double click (that opens the cell)
    sent: list[int] = []
    on_each_frame(app, lambda _screen, text: sent.append(len(text)) if text else None)
    async with app.run_test(size=(80, 24)) as pilot:
        await app.workers.wait_for_complete()
        await pilot.pause()
        whole = len(app.screen._compositor.render_full_update().render_segments(app.console))
        grid_k = app.screen.query_one("#grid-k").region
        at = (grid_k.x + 2, grid_k.y + 1)
        for most in (whole / 3, whole / 10):
            sent.clear()
            _click(app, *at)
            await pilot.pause()
            await pilot.pause()
            assert app.screen.focused is app.screen.query_one("#grid-k")
            assert sum(sent) < most, (at, sent, whole)



async def test_a_widget_hidden_and_refreshed_before_the_next_layout_leaves_no_trace():
    """Textual rebuilds its map of the screen when a hidden widget is refreshed; the layout
    that follows compared the new map with that rebuilt one, in which the widget was already
    gone: its cells stayed on the terminal. (A notice's rack when its last notice expired: at
    80×24, after w and v v, the workbench's note stayed over the step table.)"""
    from textual.app import App
    from textual.widgets import Label

    from attn_tui.tui import textual_compat

    class Two(App):
        CSS = "#over { layer: above; offset: 10 2; width: 20; height: 3; background: red; }"

        def compose(self):
            yield Label("under " * 60, id="under")
            yield Label("a notice", id="over")

    textual_compat.repaint_what_a_rebuilt_map_drops()
    app = Two()
    shadow = ShadowTerminal(40, 8)
    after_each_update(app, lambda _screen, update: shadow.apply(update, app.console))
    async with app.run_test(size=(40, 8)) as pilot:
        await pilot.pause()
        over = app.query_one("#over")
        assert "a notice" in shadow.lines()[2]
        over.display = False
        # as a notice's rack, hidden, is repainted before the layout that removes it: the
        # repaint of a widget outside the visible map marks the map stale (as
        # Compositor.update_widgets does), and the next read of a region rebuilds it
        app.screen._compositor._full_map_invalidated = True
        assert app.query_one("#under").region.y == 0
        await pilot.pause()
        await pilot.pause()
        assert "a notice" not in "".join(shadow.lines())
        assert _differences(app, shadow) == []


def _terminal_of(monkeypatch, term: str) -> None:
    """Colours as TERM alone says, whatever the shell running the tests sets: Textual reads
    TEXTUAL_COLOR_SYSTEM when it is imported, so its constant is set back to auto."""
    import textual.constants

    monkeypatch.setenv("TERM", term)
    for name in ("COLORTERM", "TEXTUAL_COLOR_SYSTEM", "NO_COLOR"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setattr(textual.constants, "COLOR_SYSTEM", "auto")


@pytest.mark.parametrize(("term", "theme", "said"), [
    ("xterm", "textual-light", True),  # 16 colours: grey on white
    ("xterm", "ansi-light", False),  # the terminal's own colours
    ("xterm", "textual-dark", False),  # readable in 16 colours
    ("xterm-256color", "textual-light", False),
])
async def test_a_light_theme_in_16_colours_says_which_theme_keeps_its_contrast(
        monkeypatch, term, theme, said):
    from attn_tui.tui.app import make_app
    from attn_tui.tui.textual_compat import notifications

    _terminal_of(monkeypatch, term)
    app = make_app(theme=theme, confirm_quit=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        words = [n.message for n in notifications(app)]
        assert any("--theme ansi-light" in w for w in words) == said, words


async def test_a_light_theme_picked_while_running_says_so_too_but_not_under_no_color(
        monkeypatch):
    from attn_tui.tui.app import make_app
    from attn_tui.tui.textual_compat import notifications

    _terminal_of(monkeypatch, "xterm")
    app = make_app(confirm_quit=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        app.theme = "textual-light"  # as the palette's theme picker sets it
        await pilot.pause()
        assert any("--theme ansi-light" in n.message for n in notifications(app))
    monkeypatch.setenv("NO_COLOR", "1")  # greys: contrast is not a colour's to lose
    app = make_app(theme="textual-light", confirm_quit=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        assert not any("ansi-light" in n.message for n in notifications(app))
