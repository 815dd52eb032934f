"""Canaries: one per private Textual name attn-tui uses (all in attn_tui.tui.textual_compat).

A Textual upgrade that moves or changes one of them fails here, by name, before it shows up as
a key typed in the wrong order somewhere else.
"""

from __future__ import annotations

import asyncio
import gc
import inspect
import weakref

import pytest
from late_timers import make_one_shot_timers_late
from pilot_wait import until
from textual import events
from textual.app import App, ComposeResult
from textual.binding import Binding
from textual.color import Color
from textual.content import Content
from textual.message import Message
from textual.screen import Screen
from textual.style import Style
from textual.widgets import Label

from attn_tui.tui import textual_compat as compat


class Tiny(App):
    BINDINGS = [Binding("x", "mark", "Mark")]

    def __init__(self) -> None:
        super().__init__()
        self.marked = 0
        self.pump_in_handler = "unset"

    def compose(self) -> ComposeResult:
        yield Label("canary text", id="label")
        yield Label("hidden", id="hidden")

    def on_mount(self) -> None:
        self.query_one("#hidden").display = False
        self.pump_in_handler = compat.active_message_pump()

    def action_mark(self) -> None:
        self.marked += 1


def test_the_installed_textual_is_the_pinned_one():
    assert compat.installed_version() == compat.PINNED
    compat.check_version()
    assert compat.version_mismatch() is None


def test_the_version_read_from_the_dist_info_folder_is_importlib_metadata_s(monkeypatch):
    from importlib.metadata import version

    compat.installed_version.cache_clear()
    assert compat.installed_version() == version("textual")
    # no one folder to read it from (two left by an upgrade, or none): importlib.metadata
    monkeypatch.setattr("os.listdir", lambda _: ["textual-1.0.dist-info", "textual-2.0.dist-info"])
    compat.installed_version.cache_clear()
    try:
        assert compat.installed_version() == version("textual")
    finally:
        compat.installed_version.cache_clear()


def test_another_textual_is_named_with_what_to_do(monkeypatch):
    monkeypatch.setattr(compat, "installed_version", lambda: "99.0.0")
    said = compat.version_mismatch()
    assert "99.0.0" in said and f"pip install textual=={compat.PINNED}" in said
    with pytest.raises(compat.TextualCompatError, match="99.0.0"):
        compat.check_version()


def test_a_missing_private_name_is_one_error_that_says_what_to_do():
    with pytest.raises(compat.TextualCompatError, match=f"textual=={compat.PINNED}"):
        compat.propagation_stopped(object())  # type: ignore[arg-type]


def test_xterm_parser_reads_a_sequence():
    parser = compat.xterm_parser()()
    keys = [e.key for e in [*parser.feed("\x1b[A"), *parser.feed("")]
            if isinstance(e, events.Key)]
    assert keys == ["up"]


def test_ansi_sequence_keys_is_the_parsers_table():
    table = compat.ansi_sequence_keys()
    assert isinstance(table, dict) and "\x1b[A" in table


def test_forget_ansi_sequences_takes_them_out_of_the_table(monkeypatch):
    table = compat.ansi_sequence_keys()
    monkeypatch.setitem(table, "\x1b~canary", ("up",))
    compat.forget_ansi_sequences(("\x1b~canary",))
    assert "\x1b~canary" not in table


def test_the_parser_turns_each_sequence_into_keys_through_sequence_to_key_events(monkeypatch):
    parser_cls = compat.xterm_parser()
    assert "sequence" in inspect.signature(compat.sequence_to_key_events()).parameters
    seen = []
    original = parser_cls._sequence_to_key_events

    def recording(self, sequence, alt=False):
        seen.append((sequence, alt))
        yield from original(self, sequence, alt)

    monkeypatch.setattr(parser_cls, "_sequence_to_key_events", recording)
    list(parser_cls().feed("\x1b[B"))
    assert ("\x1b[B", False) in seen


def test_wrap_sequence_to_key_events_wraps_once(monkeypatch):
    parser_cls = compat.xterm_parser()
    monkeypatch.setattr(parser_cls, "_sequence_to_key_events",
                        lambda self, sequence, alt=False: iter(()))  # not wrapped yet
    wrapped = []

    def wrap(original):
        wrapped.append(original)
        return lambda self, sequence, alt=False: original(self, sequence, alt)

    compat.wrap_sequence_to_key_events(wrap)
    compat.wrap_sequence_to_key_events(wrap)
    assert len(wrapped) == 1
    assert getattr(compat.sequence_to_key_events(), compat.PATCH_MARK)


def test_wrap_parser_feed_wraps_once_and_sees_each_chunk(monkeypatch):
    parser_cls = compat.xterm_parser()
    original = parser_cls.__mro__[1].feed  # the Parser's own, as before any wrap
    monkeypatch.setattr(parser_cls, "feed", original)
    chunks = []

    def wrap(feed):
        def recording(self, data):
            chunks.append(data)
            yield from feed(self, data)
        return recording

    compat.wrap_parser_feed(wrap)
    compat.wrap_parser_feed(wrap)
    events_made = list(parser_cls().feed("\x1b[200~pasted\x1b[201~"))
    assert chunks == ["\x1b[200~pasted\x1b[201~"]  # one wrap, the chunk as read
    assert [e.text for e in events_made if isinstance(e, events.Paste)] == ["pasted"]


async def test_run_binding_runs_the_binding_from_the_focused_widget_up():
    app = Tiny()
    async with app.run_test() as pilot:
        assert await compat.run_binding(app, "x") is True
        assert await compat.run_binding(app, "z") is False
        await pilot.pause()
        assert app.marked == 1


async def test_binding_chain_lists_the_nodes_and_their_bindings_up_to_the_app():
    app = Tiny()
    async with app.run_test():
        chain = compat.binding_chain(app.screen)
        assert chain[-1][0] is app
        assert any("x" in bindings.key_to_bindings for _, bindings in chain)


def test_propagation_stopped_follows_stop():
    message = Message()
    assert compat.propagation_stopped(message) is False
    message.stop()
    assert compat.propagation_stopped(message) is True


async def test_active_message_pump_is_whoever_runs_a_handler():
    app = Tiny()
    async with app.run_test() as pilot:
        await pilot.pause()
        assert app.pump_in_handler is app
    assert compat.active_message_pump() is None


def test_character_to_key_and_back():
    assert compat.character_to_key("?") == "question_mark"
    assert compat.character_to_key("5") == "5"
    assert compat.unicode_name_of_key("question_mark") == "QUESTION MARK"


def test_text_area_if_loaded_is_textuals_text_area():
    from textual.widgets import TextArea

    assert compat.text_area_if_loaded() is TextArea


async def test_notifications_are_the_notices_shown():
    app = Tiny()
    async with app.run_test() as pilot:
        app.notify("canary notice", title="t")
        await pilot.pause()
        assert [n.message for n in compat.notifications(app)] == ["canary notice"]


async def test_dismiss_notices_takes_down_one_severity_and_keeps_the_rest():
    app = Tiny()
    async with app.run_test() as pilot:
        app.notify("said in passing")
        app.notify("also in passing")
        app.notify("a warning", severity="warning")
        await pilot.pause()
        compat.dismiss_notices(app)
        await pilot.pause()
        assert [n.message for n in compat.notifications(app)] == ["a warning"]
        assert "in passing" not in "\n".join(
            "".join(s.text for s in strip) for strip in compat.screen_strips(app.screen))


async def test_lift_notices_moves_textuals_toast_rack_and_puts_it_back():
    app = Tiny()
    async with app.run_test(notifications=True) as pilot:
        await pilot.pause()
        compat.lift_notices(app.screen, 5)
        rack = app.screen.query_one("#textual-toastrack")
        assert rack.styles.margin.bottom == 6  # above a 5-row panel and the key bar
        compat.lift_notices(app.screen, 0)
        assert rack.styles.margin.bottom == 1  # Textual's own
        compat.lift_notices(app.screen, 5)
        compat.lift_notices(app.screen, None)  # back to what the stylesheet says
        assert rack.styles.margin.bottom == 1 and not rack.styles.inline.has_rule("margin")


async def test_screen_strips_and_visible_region_read_the_screen_as_drawn():
    app = Tiny()
    async with app.run_test(size=(40, 5)) as pilot:
        await pilot.pause()
        text = ["".join(seg.text for seg in strip) for strip in compat.screen_strips(app.screen)]
        assert len(text) == 5 and text[0].startswith("canary text")
        region, _clip = compat.visible_region(app.query_one("#label"))
        assert (region.x, region.y, region.width) == (0, 0, len("canary text"))
        assert compat.visible_region(app.query_one("#hidden")) is None


async def test_app_exception_holds_what_ended_the_app():
    class Failing(Tiny):
        def action_mark(self) -> None:
            raise ValueError("canary")

    app = Failing()
    with pytest.raises(ValueError, match="canary"):
        async with app.run_test() as pilot:
            assert compat.app_exception(app) is None
            await pilot.press("x")
            await pilot.pause()
    assert isinstance(compat.app_exception(app), ValueError)


async def test_every_frame_is_seen_with_its_text():
    app = Tiny()
    texts: list[str] = []
    compat.on_each_frame(app, lambda _screen, text: texts.append(text) if text else None)
    frames = compat.count_frames(app)
    async with app.run_test() as pilot:
        await pilot.pause()
        assert frames() >= 1
        assert any("canary text" in text for text in texts)


async def test_only_the_apps_named_render_only_what_changed(monkeypatch):
    # Compositor.render_partial_update, ._dirty_regions, ._regions_to_spans, .cuts, .root
    calls: list[object] = []
    real = compat._changes_only
    monkeypatch.setattr(compat, "_changes_only",
                        lambda compositor, update: calls.append(update) or real(compositor, update))
    named, other = Tiny(), Tiny()
    compat.render_only_what_changed(named)
    for app, renders_changes_only in ((other, False), (named, True)):
        calls.clear()
        async with app.run_test(size=(40, 5)) as pilot:
            await pilot.pause()
            app.query_one("#label", Label).update("changed")
            await pilot.pause()
            text = ["".join(seg.text for seg in strip) for strip in compat.screen_strips(app.screen)]
            assert text[0].startswith("changed")
        assert bool(calls) == renders_changes_only


class StyledOnce(Screen):
    def compose(self) -> ComposeResult:
        yield Label("styled as it mounted")

    def on_screen_resume(self, event: events.ScreenResume) -> None:
        compat.styled_once_on_first_show(self, event)


async def test_a_screen_shown_the_first_time_keeps_its_mount_styles_and_only_then():
    app = App()
    async with app.run_test(size=(40, 10)) as pilot:
        restyled, original = [], app.update_styles

        def counted(node, animate=True):
            restyled.append(node)
            return original(node, animate=animate)

        app.update_styles = counted
        screen = StyledOnce()
        await app.push_screen(screen)
        await pilot.pause()
        assert screen.query_one(Label).styles.color == app.screen.styles.color  # styled
        assert screen not in restyled  # Screen's handler read the flag ours had set
        screen.post_message(events.ScreenResume())  # shown again, asking for new styles
        await until(pilot, lambda: screen in restyled, "the screen restyled on a later resume")


async def test_a_resize_lays_the_screen_out_again_only_at_a_new_size():
    compat.lay_out_only_when_resized()
    app = Tiny()
    async with app.run_test(size=(40, 10)) as pilot:
        await pilot.pause()
        screen = app.screen
        original, layouts = screen._refresh_layout, []

        def counted(*args, **kwargs):
            layouts.append(args)
            return original(*args, **kwargs)

        screen._refresh_layout = counted
        await pilot.resize_terminal(40, 10)
        await pilot.pause()
        assert layouts == []
        await pilot.resize_terminal(50, 12)
        # the Resize reaches the screen through the app's queue: on a loaded machine one
        # pause could end before it had (a CI run saw no layout yet)
        await until(pilot, lambda: layouts, "a layout at the new size", seconds=10)
        assert screen._compositor.size == (50, 12)  # laid out at the new size
        # a Resize of another size than the app's is stale (Rich's 80×25 in a terminal that
        # reports none): the screen stays at the app's size, with no layout back and forth
        layouts.clear()
        from textual.geometry import Size

        screen._screen_resized(Size(51, 13))
        assert layouts == [] and screen._compositor.size == (50, 12) == app.size


class TwoButtons(App):
    def compose(self) -> ComposeResult:
        from textual.widgets import Button

        yield Button("one", id="one")
        yield Button("two", id="two")
        yield Label("some text to select", id="label")


async def test_focus_and_a_mouse_press_repaint_what_they_change_not_the_screen():
    from textual.widgets import Button

    compat.repaint_only_what_focus_or_selection_changes()
    app = TwoButtons()
    async with app.run_test(size=(40, 10)) as pilot:
        await pilot.pause()
        screen, whole = app.screen, []
        original = screen.refresh
        screen.refresh = lambda *a, **k: whole.append((a, k)) or original(*a, **k)
        two = app.query_one("#two", Button)
        repainted = []
        two_refresh = two.refresh
        two.refresh = lambda *a, **k: repainted.append(a) or two_refresh(*a, **k)
        await pilot.press("tab")  # focus moves from one to two
        await pilot.pause()
        assert screen.focused is two and repainted  # the button repaints itself
        label = app.query_one("#label").region
        await pilot.mouse_down(offset=(label.x + 1, label.y))
        await pilot.mouse_up(offset=(label.x + 1, label.y))
        await pilot.pause()
        assert whole == []


@pytest.mark.parametrize(("size", "want"), [((120, 40), {"wide", "tall"}),
                                             ((60, 10), {"narrow", "short"})])
async def test_start_at_breakpoints_gives_the_classes_the_first_resize_would(size, want):
    from textual.screen import Screen

    class Bare(Screen):
        HORIZONTAL_BREAKPOINTS = [(0, "narrow"), (100, "wide")]
        VERTICAL_BREAKPOINTS = [(0, "short"), (20, "tall")]

    class Both(App):
        def get_default_screen(self) -> Screen:
            screen = Bare()
            compat.start_at_breakpoints(screen)
            self.set_before = set(screen.classes)
            return screen

    app = Both()
    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        assert app.set_before == want
        assert set(app.screen.classes) == want  # and the Resize agreed


def test_the_lines_a_gone_widget_rendered_are_not_kept():
    compat.forget_gone_widgets_lines()

    async def run() -> tuple[weakref.ref, object]:
        app = Tiny()
        async with app.run_test(size=(40, 10)) as pilot:
            await pilot.pause()
            label = app.query_one("#label")
            drawn = label._styles_cache.get_inner_outer(Color(1, 2, 3), Color(4, 5, 6, 0.5))
            await label.remove()
            await pilot.pause()
            return weakref.ref(label._styles_cache), drawn

    styles_cache, drawn = asyncio.run(run())  # a loop of its own, closed: it holds nothing
    gc.collect()
    assert styles_cache() is None
    # what Textual's method returns, from the two colours alone
    base, over = Color(1, 2, 3), Color(4, 5, 6, 0.5)
    assert drawn == (Style(background=base + over), Style(background=base))


def test_guard_palette_choice_skips_a_spare_choice():
    from textual.command import CommandPalette

    # Textual runs a choice through this method by name (Enter, a click, a chosen entry)
    assert "self._select_or_command()" in inspect.getsource(CommandPalette)
    ran = []

    class Base:
        def _select_or_command(self, event=None):
            ran.append(event)

    @compat.guard_palette_choice
    class Guarded(Base):
        spare = False

        def spare_choice(self, event):
            return self.spare

    palette = Guarded()
    palette._select_or_command("first")
    palette.spare = True
    palette._select_or_command("second")
    assert ran == ["first"]


def test_the_suites_quicker_idle_wait_is_what_pilot_waits_with():
    """tests/pilot_wait.py replaces Textual's idle wait (textual._wait.wait_for_idle) where
    Pilot's press and pause and App._press_keys look it up: it is still called there, by that
    name, with the same parameters."""
    import textual._wait
    import textual.app
    from pilot_wait import TEXTUALS_WAIT, wait_for_idle
    from textual import pilot

    for module in (textual._wait, textual.app, pilot):
        assert module.wait_for_idle is wait_for_idle, module
    assert "wait_for_idle" in pilot.Pilot.pause.__code__.co_names
    assert "wait_for_idle" in inspect.getsource(App._press_keys)
    assert list(inspect.signature(TEXTUALS_WAIT).parameters) == ["min_sleep", "max_sleep"]
    assert TEXTUALS_WAIT.__module__ == "textual._wait"


async def test_the_suites_shared_css_cache_parses_a_source_once_per_theme():
    """tests/css_cache.py replaces Stylesheet._parse_rules, which Stylesheet.parse calls with
    the same parameters still; a second app reuses the first one's rules, and a theme with
    other variables gets its own."""
    from css_cache import TEXTUALS_PARSE_RULES, _parse_rules
    from textual.css.stylesheet import Stylesheet

    from attn_tui.tui.app import make_app

    assert Stylesheet._parse_rules is _parse_rules
    assert list(inspect.signature(TEXTUALS_PARSE_RULES).parameters) == [
        "self", "css", "read_from", "is_default_rules", "tie_breaker", "scope"]
    assert "_parse_rules" in Stylesheet.parse.__code__.co_names

    def rules(app: App) -> dict:
        return {rule.selectors: rule for rule in app.stylesheet.rules}

    apps = [make_app(), make_app()]
    seen = []
    for app in apps:
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            seen.append(rules(app))
            if app is apps[1]:
                light = "textual-light" if app.theme != "textual-light" else "textual-dark"
                app.theme = light
                await pilot.pause()
                seen.append(rules(app))
    pane = ".pane"
    assert seen[0][pane] is seen[1][pane]        # the same rule, parsed once
    assert seen[2][pane] is not seen[0][pane]    # another theme's variables: parsed again
    assert seen[2][pane].styles.css_lines != seen[0][pane].styles.css_lines


async def test_the_suites_screens_repaint_on_the_quicker_timer():
    """pilot_wait sets textual.screen.UPDATE_PERIOD, which a screen reads for its update
    timer as it mounts: still there, by that name, and taken by a screen."""
    import textual.screen
    from pilot_wait import TEST_UPDATE_PERIOD

    from attn_tui.tui.app import make_app

    assert textual.screen.UPDATE_PERIOD == TEST_UPDATE_PERIOD
    assert "UPDATE_PERIOD" in inspect.getsource(textual.screen.Screen)
    async with make_app().run_test(size=(80, 24)) as pilot:
        timer = pilot.app.screen._update_timer
        assert timer is not None and timer._interval == TEST_UPDATE_PERIOD


async def test_the_suites_idle_wait_outlasts_its_limit_while_keys_are_on_their_way():
    """A worker starved of the CPU for a second must not read the screen while keys it pressed
    still wait to be handed back: the wait goes past max_sleep until they have gone."""
    import time

    from pilot_wait import wait_for_idle

    from attn_tui.tui.app import make_app

    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        free_at = time.monotonic() + 0.6
        app.keys_on_hold = lambda: 1.0 if time.monotonic() < free_at else 0.0
        began = time.monotonic()
        await wait_for_idle(0, 0.1)
        assert time.monotonic() >= free_at > began + 0.1
        app.closing = True  # quitting: nothing is on its way any more
        free_at = time.monotonic() + 60
        began = time.monotonic()
        await wait_for_idle(0, 0.1)
        assert time.monotonic() - began < 5
        app.closing = False


async def test_the_suites_idle_wait_lets_a_resize_reach_the_screen():
    """The App hands a resize to the screen on a timer of 1/120 s, longer than the wait's
    5 ms slice: a test read a 40-column header after resizing to 80."""
    from pilot_wait import wait_for_idle
    from textual.geometry import Size

    from attn_tui.tui.app import make_app

    app = make_app()
    async with app.run_test(size=(40, 12)) as pilot:
        await pilot.pause()
        bench = app.screen
        for size, layout in ((Size(80, 24), "-side-by-side"), (Size(41, 13), "-stacked"),
                             (Size(72, 24), "-snug"), (Size(120, 40), "-side-by-side")):
            app._driver._size = size
            await app._on_resize(events.Resize(size, size))  # the App's own handling, then
            await wait_for_idle(0, 1)                         # the wait, with nothing between
            assert bench.has_class(layout), (size, bench.classes)
            assert bench.query_one("#inputs").region.right <= size.width


def test_start_at_breakpoints_leaves_a_screen_made_outside_an_app_to_its_first_resize():
    from textual.screen import Screen

    class Bare(Screen):
        HORIZONTAL_BREAKPOINTS = [(0, "narrow"), (100, "wide")]

    screen = Bare()
    compat.start_at_breakpoints(screen)
    assert set(screen.classes) == set()


async def test_a_dialog_hides_the_notices_of_the_screen_under_it_until_it_closes():
    """The screen under a dialog still shows, its notices too, while the dialog's own rack shows
    the same ones: each notice read twice, one over the other."""
    from textual.widgets._toast import Toast

    from attn_tui.tui.app import make_app

    app = make_app(confirm_quit=False)
    async with app.run_test(size=(80, 24), notifications=True) as pilot:
        await pilot.pause()
        bench = app.screen
        app.notify("a notice")
        await pilot.pause()
        under = bench.query_one("#textual-toastrack")
        assert under.display and len(under.query(Toast)) == 1
        await pilot.press("ctrl+o")
        await pilot.pause()
        dialog = app.screen
        assert dialog is not bench
        assert not under.display
        assert len(dialog.query_one("#textual-toastrack").query(Toast)) == 1  # shown once, here
        await pilot.press("escape")
        await pilot.pause()
        assert app.screen is bench and under.display


async def test_a_dialog_over_a_lesson_shows_its_notices_where_the_screen_under_it_did():
    """In a lesson the workbench lifts its notices over the lesson panel; the dialog's own,
    now the only ones in sight, sat on the panel's words."""
    from attn_tui.tui.app import make_app

    app = make_app(lesson="mask", confirm_quit=False, no_progress=True)
    async with app.run_test(size=(80, 24), notifications=True) as pilot:
        await pilot.pause()
        await app.workers.wait_for_complete()
        await pilot.pause()
        under = app.screen.query_one("#textual-toastrack")
        lifted = under.styles.margin.bottom
        assert lifted > 1  # above the panel and the key bar
        await pilot.press("ctrl+o")
        await pilot.pause()
        assert app.screen.query_one("#textual-toastrack").styles.margin.bottom == lifted


async def test_a_border_title_stored_behind_the_setter_is_what_textual_draws():
    app = Tiny()
    async with app.run_test(size=(40, 6)) as pilot:
        box = Label("inside", id="boxed")
        box.styles.border = ("round", "white")
        box.styles.width = 30
        await app.mount(box)
        await pilot.pause()
        box.border_title = "first"
        assert compat.border_text(box, "border_title") == Content("first")
        compat.store_border_text(box, "border_title", Content("second"))
        assert compat.border_text(box, "border_title") == Content("second")
        box.refresh()
        await pilot.pause()
        drawn = ["".join(seg.text for seg in strip) for strip in compat.screen_strips(app.screen)]
        assert any("second" in line for line in drawn) and not any("first" in line for line in drawn)
        assert compat.border_text(box, "border_subtitle") is None


def test_a_border_title_name_that_is_gone_is_one_error(monkeypatch):
    label = Label("x")
    monkeypatch.delattr(Label, "_border_title", raising=False)
    label.__dict__.pop("_border_title", None)
    with pytest.raises(compat.TextualCompatError, match="Widget._border_title"):
        compat.border_text(label, "border_title")


def _bound_keys() -> set[str]:
    """Every key written in a binding in attn-tui's source: Binding("a,b", …) and the
    ("x", "action", …) of a BINDINGS list (read, not imported: importing every module would
    load torch into this test's worker)."""
    import ast
    from pathlib import Path

    import attn_tui

    keys: set[str] = set()
    for path in Path(attn_tui.__file__).parent.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            first = None
            if (isinstance(node, ast.Call) and getattr(node.func, "id", None) == "Binding"
                    and node.args):
                first = node.args[0]
            elif (isinstance(node, ast.Assign)
                  and any(getattr(t, "id", None) == "BINDINGS" for t in node.targets)
                  and isinstance(node.value, ast.List | ast.Tuple)):
                for item in node.value.elts:
                    if (isinstance(item, ast.Tuple) and item.elts
                            and isinstance(item.elts[0], ast.Constant)):
                        keys.update(str(item.elts[0].value).split(","))
            if isinstance(first, ast.Constant) and isinstance(first.value, str):
                keys.update(first.value.split(","))
    return keys


def test_the_key_tables_answer_as_textuals_own_functions_do():
    # the binding chain and the key bar read these instead of the Unicode name database
    from textual.keys import format_key, key_to_character

    for key, character in compat.KEY_CHARACTERS.items():
        assert key_to_character(key) == character, key
    for key, shown in compat.KEY_DISPLAYS.items():
        assert format_key(key) == shown, key
    named = {k for k in _bound_keys() if len(k) > 1 and "+" not in k}
    assert {"left_square_bracket", "equals_sign", "f1"} <= named
    assert named - set(compat.KEY_CHARACTERS) == set()  # a new key: add it to both tables
    assert named - set(compat.KEY_DISPLAYS) == set()
    compat.name_keys_without_the_unicode_database()
    import textual.app
    import textual.screen

    letters = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789R?[]<>"
    for key in [*letters, "enter", "escape", "tab", "ctrl+q", "f1", "shift+up", "delete"]:
        assert textual.app.format_key(key) == format_key(key), key
        assert textual.screen.key_to_character(key) == key_to_character(key), key


async def test_the_first_screen_looks_no_key_up_in_the_unicode_database(monkeypatch):
    # 0.8 MiB of the name tables paged into every session, to read "[" for left_square_bracket
    import unicodedata

    import textual.keys

    from attn_tui.tui.app import make_app

    asked: list[str] = []
    real = unicodedata.lookup
    fake = type(unicodedata)("unicodedata")
    fake.__dict__.update({k: getattr(unicodedata, k) for k in dir(unicodedata)
                          if not k.startswith("__")})
    fake.lookup = lambda name: asked.append(name) or real(name)
    monkeypatch.setattr(textual.keys, "unicodedata", fake)
    textual.keys.format_key.cache_clear()
    textual.keys.key_to_character.cache_clear()
    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        assert "0.3369" in str(app.screen.query_one("#heatmap").render_line(1).text)
    assert asked == []


async def test_worker_ended_waits_for_a_worker_and_a_waiter_cancelled_leaves_it_running():
    """Worker._task: awaited through asyncio.wait, so cancelling the one waiting (a lesson's
    step) is not passed on to the worker (a lab's run), as Worker.wait passes it on."""
    release = asyncio.Event()

    async def work() -> str:
        await release.wait()
        return "done"

    async with Tiny().run_test() as pilot:
        worker = pilot.app.run_worker(work())
        waiter = asyncio.create_task(compat.worker_ended(worker))
        await pilot.pause()
        waiter.cancel()
        with pytest.raises(asyncio.CancelledError):
            await waiter
        await pilot.pause()
        assert not worker.is_finished and not worker.is_cancelled
        release.set()
        await compat.worker_ended(worker)
        assert worker.is_finished and worker.result == "done"


async def test_the_suites_wait_reports_a_key_line_left_without_its_timer_not_a_late_one():
    """pilot_wait treats waiting keys as work owed; a line whose timer is gone is reported (the
    test that left it errs), once it has stayed as late for a second, not at a first late look
    (a loop blocked for seconds wakes the wait before the timer's own turn)."""
    import time

    import pilot_wait
    from textual import events

    from attn_tui.tui.app import make_app
    from attn_tui.tui.keys import key_line

    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        line = key_line(app)
        line.waiting.append(events.Key("x", "x"))
        line.due = time.monotonic() - 10  # no timer will look again
        try:
            assert pilot_wait._keys_waiting()  # first seen late: still owed, not yet stuck
            assert not pilot_wait.STALLED_LINES
            line.due -= 1  # the timer ran, late again: seen afresh
            started = time.monotonic()
            while pilot_wait._keys_waiting():
                assert time.monotonic() - started < 3
                await asyncio.sleep(0.05)
            assert pilot_wait.STALLED_LINES == ["x"]
            assert pilot_wait.STALLED_STATES[0].startswith("screen WorkbenchScreen, focus ")
            assert "0 handed back, posted None, aside [], lesson None" in \
                pilot_wait.STALLED_STATES[0]
            assert time.monotonic() - started >= pilot_wait.STILL_STALLED
        finally:
            line.waiting.clear()
            pilot_wait.STALLED_LINES.clear()  # reported as it should be: not this test's fault
            pilot_wait.STALLED_STATES.clear()


async def test_a_one_shot_timer_fires_however_late_and_resizes_go_on(monkeypatch):
    # Textual's resize timer, dropped once, kept every later resize from the screen
    compat.one_shot_timers_fire_however_late()
    late = make_one_shot_timers_late(monkeypatch)
    app = Tiny()
    async with app.run_test(size=(40, 10)) as pilot:
        fired: list[int] = []
        app.set_timer(0.005, lambda: fired.append(1))
        await until(pilot, lambda: fired, "a late one-shot timer", seconds=10)
        for size in ((50, 12), (60, 14)):
            await pilot.resize_terminal(*size)
            await until(pilot, lambda size=size: app.screen._compositor.size == size,
                        f"the screen laid out at {size}", seconds=10)
    assert any(name.startswith("App._check_resize") for name in late)  # Textual's own, late


def test_a_callbacks_parameters_are_counted_once_and_as_textual_counts_them(monkeypatch):
    """call_later wraps its callback in a new partial each time: the count is kept on the
    function inside, and for every kind of callback it is the number Textual's own gives."""
    from functools import partial

    import textual._callback

    compat.count_a_callbacks_parameters_once()
    patched = textual._callback.count_parameters
    assert getattr(patched, compat.PATCH_MARK)
    textuals = inspect.getclosurevars(patched).nonlocals["original"]

    class Base:
        def __init__(self, a, b): ...

        def method(self, a, b=1): ...

    class Child(Base):
        def __init__(self, a): ...

    def two(a, b): ...

    method = Base(1, 2).method
    kinds = [lambda: None, two, method, partial(two, 1), partial(two, b=2), partial(method, 1),
             partial(partial(two, 1), 2), Base, partial(Child, 1)]
    for func in kinds:
        assert patched(func) == textuals(func), func
    assert [patched(f) for f in kinds[3:7]] == [1, 1, 1, 0]  # (Textual takes a keyword off)

    class A:
        def m(self, x): ...

    class B:
        def m(self, x): ...

    a, b = A(), B()  # a partial of the function, then its bound method, and the other way
    assert (patched(partial(A.m, a)), patched(a.m)) == (1, 1)
    assert (patched(b.m), patched(partial(B.m, b))) == (1, 1)
    assert patched(partial(Child, 1)) == 0 and patched(partial(Base, 1)) == 1  # not inherited

    signatures: list[object] = []
    real = inspect.signature
    monkeypatch.setattr(inspect, "signature", lambda f: signatures.append(f) or real(f))
    monkeypatch.setattr(textual._callback, "signature", inspect.signature)  # Textual's name

    def callback(x): ...

    for _ in range(5):
        assert patched(partial(callback)) == 1
    assert signatures == [callback]
    assert getattr(callback, "_param_count", None) is None  # Textual's own name left alone
    assert "count_parameters" in textual._callback._invoke.__code__.co_names


async def test_the_suites_wait_for_screen_waits_for_a_busy_widget_and_skips_parked_ones(
        monkeypatch):
    """tests/pilot_wait.py replaces Pilot._wait_for_screen: a widget in the middle of a
    handler is still waited for, and one the App hands a message on to while it is waited
    for (Textual's own returned first); a widget parked on its empty queue is not sent a
    callback;
    Textual's own sends one to each widget, and the queue is read where _parked looks."""
    import textual._queue
    from pilot_wait import TEXTUALS_WAIT_FOR_SCREEN, _parked, wait_for_screen
    from textual import pilot
    from textual.message_pump import MessagePump

    assert pilot.Pilot._wait_for_screen is wait_for_screen
    textuals = inspect.getsource(TEXTUALS_WAIT_FOR_SCREEN)
    assert "walk_children(with_self=True)" in textuals and "_exception_event" in textuals
    assert "await self._message_queue.get()" in inspect.getsource(MessagePump._get_message)
    assert "await self.ready_event.wait()" in inspect.getsource(textual._queue.Queue.get)

    class Work(Message):
        pass

    started, release, done = asyncio.Event(), asyncio.Event(), []

    class Slow(Label):
        async def on_work(self, message: Work) -> None:
            started.set()
            await release.wait()
            done.append(message)

    class HandOn(Message):
        pass

    class Two(App):
        def compose(self) -> ComposeResult:
            yield Slow("slow", id="slow")
            yield Label("idle", id="idle")

        def on_hand_on(self) -> None:  # as the App hands a click on to the widget under it
            self.query_one(Slow).post_message(Work())

    app = Two()
    async with app.run_test(size=(40, 10)) as driven:
        await driven.pause()
        slow, idle = app.query_one(Slow), app.query_one("#idle")
        await until(driven, lambda: _parked(slow) and _parked(idle), "both parked", seconds=10)
        sent_to: list[object] = []
        real = MessagePump.call_later
        monkeypatch.setattr(MessagePump, "call_later",
                            lambda self, *a, **k: sent_to.append(self) or real(self, *a, **k))
        await driven._wait_for_screen()
        assert sent_to == [app, app.screen]

        slow.post_message(Work())
        await started.wait()
        assert not _parked(slow) and _parked(idle)
        asyncio.get_running_loop().call_later(0.05, release.set)
        sent_to.clear()
        await driven._wait_for_screen()
        assert len(done) == 1 and sent_to == [app, app.screen, slow]

        # handed on while the App is waited for: the widget is waited for too
        await until(driven, lambda: _parked(slow), "slow parked again", seconds=10)
        started.clear()
        release.clear()
        asyncio.get_running_loop().call_later(0.05, release.set)
        app.post_message(HandOn())
        sent_to.clear()
        await driven._wait_for_screen()
        assert len(done) == 2 and sent_to == [app, app.screen, slow]


async def test_a_screen_shown_at_a_new_size_is_drawn_whole_once_and_shown_again_is_redrawn(
        monkeypatch):
    """Textual lays a screen shown at a new size out, which draws all of it, then repainted
    all of it again on the next frame: twice at every start. A screen pushed later is drawn,
    and shown again it is repainted, as before."""
    from textual.screen import Screen

    compat.draw_a_screen_shown_at_a_new_size_once()
    assert getattr(Screen._on_screen_resume, compat.PATCH_MARK)
    textuals = inspect.getsource(_original_resume())
    assert "self._refresh_layout(size)" in textuals and textuals.rstrip().endswith(
        "self.refresh()")

    drawn = _full_draws(monkeypatch)

    class Titled(Screen):
        def compose(self) -> ComposeResult:
            yield Label("second screen", id="second")

        def on_mount(self) -> None:
            self.title = "asks for a repaint before its layout"

    app = Tiny()
    async with app.run_test(size=(40, 10)) as pilot:
        await pilot.pause()
        await pilot.pause()
        assert drawn == ["Screen"]
        assert "canary text" in "".join(s.text for s in compat.screen_strips(app.screen))
        drawn.clear()
        await app.push_screen(Titled())
        await pilot.pause()
        await pilot.pause()
        assert drawn[0] == "Titled" and set(drawn) == {"Titled"}  # (again after its mount)
        assert "second screen" in "".join(s.text for s in compat.screen_strips(app.screen))
        drawn.clear()
        app.pop_screen()  # shown again at the size it was laid out at: repainted, as before
        await pilot.pause()
        await pilot.pause()
        assert drawn and set(drawn) == {"Screen"}
        assert "canary text" in "".join(s.text for s in compat.screen_strips(app.screen))


def _full_draws(monkeypatch) -> list[str]:
    """The class of each screen drawn whole from now on, in order."""
    from textual._compositor import Compositor

    drawn: list[str] = []
    real = Compositor.render_full_update
    monkeypatch.setattr(Compositor, "render_full_update",
                        lambda self, *a, **k: drawn.append(type(self.root).__name__)
                        or real(self, *a, **k))
    return drawn


def _original_resume():
    from textual.screen import Screen

    fn = Screen._on_screen_resume
    return inspect.getclosurevars(fn).nonlocals["original"]


async def test_a_screen_under_an_opaque_one_does_not_repaint_it_and_is_drawn_when_shown(
        monkeypatch):
    """Textual passes changes of the screen just below the top one up as repaints of the top
    one, in case it is translucent: the workbench's first frames drew a lab whole three more
    times. Under a translucent screen (a dialog) they still show."""
    from textual.screen import ModalScreen, Screen

    compat.leave_a_screen_under_an_opaque_one_unpainted()
    assert getattr(Screen._compositor_refresh, compat.PATCH_MARK)
    textuals = inspect.getsource(
        inspect.getclosurevars(Screen._compositor_refresh).nonlocals["original"])
    assert "app.screen.refresh(*self._compositor._dirty_regions)" in textuals

    drawn = _full_draws(monkeypatch)

    class Opaque(Screen):
        def compose(self) -> ComposeResult:
            yield Label("on top")

    class Dialog(ModalScreen):
        DEFAULT_CSS = "Dialog { background: $background 50%; }"

        def compose(self) -> ComposeResult:
            yield Label("a dialog")

    app = Tiny()
    async with app.run_test(size=(40, 10)) as pilot:
        await pilot.pause()
        under = app.query_one("#label", Label)
        await app.push_screen(Opaque())
        await pilot.pause()
        drawn.clear()
        under.update("changed below")
        await pilot.pause()
        await pilot.pause()
        assert drawn == [] and "changed below" not in "".join(
            s.text for s in compat.screen_strips(app.screen))
        app.pop_screen()
        await pilot.pause()
        await pilot.pause()
        assert "changed below" in "".join(s.text for s in compat.screen_strips(app.screen))

        await app.push_screen(Dialog())
        await pilot.pause()
        drawn.clear()
        under.update("shows through")
        await pilot.pause()
        await pilot.pause()
        assert drawn == ["Dialog"]  # as before: the screen below is seen through it
