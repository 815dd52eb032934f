"""Every private Textual name attn-tui uses, each behind one public-named function.

Textual is pinned (``PINNED``). Each function here owns one private call and turns its failure
into ``TextualCompatError``, which names the versions and says what to do. One canary test per
function (tests/tui/test_textual_compat.py) fails first when an upgrade moves a name: the
answer is then to fix the function here, or to install the pinned Textual.

Nothing is imported from Textual's private modules until a function needs it: the parser
names at app start, the rest when used.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from functools import cache, lru_cache, partial
from types import FunctionType, MethodType
from typing import TYPE_CHECKING, Any
from weakref import WeakSet

if TYPE_CHECKING:
    from textual.app import App
    from textual.binding import BindingsMap
    from textual.content import Content
    from textual.dom import DOMNode
    from textual.message import Message
    from textual.message_pump import MessagePump
    from textual.notifications import Notification
    from textual.screen import Screen
    from textual.strip import Strip
    from textual.widget import Widget

PINNED = "8.2.8"
PATCH_MARK = "attn_tui_patched"  # set on a function this module installed in Textual's place


class TextualCompatError(RuntimeError):
    """A private Textual name attn-tui relies on is gone or changed."""


@cache
def installed_version() -> str:
    """Textual's version, from the name of its .dist-info folder beside the package where there
    is one: ``textual.__version__`` loads importlib.metadata (with email, csv and zipfile),
    about 30 ms and 1.5 MiB of the app's start, to read the same name."""
    import textual

    site = os.path.dirname(os.path.dirname(textual.__file__))
    try:
        found = [n for n in os.listdir(site) if n.startswith("textual-")
                 and n.endswith(".dist-info")]
    except OSError:
        found = []
    if len(found) == 1:
        return found[0].removeprefix("textual-").removesuffix(".dist-info")
    return textual.__version__  # installed some other way: ask importlib.metadata


def version_mismatch() -> str | None:
    """What to do, if the installed Textual is not the pinned one; None if it is."""
    found = installed_version()
    if found == PINNED:
        return None
    return (f"attn-tui is built for Textual {PINNED} and uses some of its private API; "
            f"Textual {found} is installed. Keys may misbehave. Install the pinned version "
            f"(pip install textual=={PINNED}), or run tests/tui/test_textual_compat.py "
            "to see what changed.")


def check_version() -> None:
    """Raise TextualCompatError unless the pinned Textual is installed."""
    if (problem := version_mismatch()) is not None:
        raise TextualCompatError(problem)


def warn_on_version_mismatch(app: App) -> None:
    """For the app, after its first frame: a notice if Textual is not the pinned version."""
    if (problem := version_mismatch()) is not None:
        app.notify(problem, title="Untested Textual", severity="warning", timeout=15,
                   markup=False)


@contextmanager
def _door(name: str) -> Iterator[None]:
    """Turn a missing or changed private name into one error that says what to do."""
    try:
        yield
    except (AttributeError, ImportError, KeyError, TypeError) as exc:
        raise TextualCompatError(
            f"Textual's private {name} is not what attn-tui expects: attn-tui is built for "
            f"Textual {PINNED}, and {installed_version()} is installed ({exc}). Install "
            f"textual=={PINNED}, or update attn_tui/tui/textual_compat.py.") from exc


# ---- the terminal parser (textual._xterm_parser, textual._ansi_sequences)

def xterm_parser() -> type:
    """Textual's terminal parser class (``XTermParser``): its ``feed`` reads what the terminal
    sends."""
    with _door("textual._xterm_parser.XTermParser"):
        from textual._xterm_parser import XTermParser

        return XTermParser


def ansi_sequence_keys() -> dict[str, Any]:
    """Textual's process-wide table of the sequences a terminal sends, and the keys they are."""
    with _door("textual._ansi_sequences.ANSI_SEQUENCES_KEYS"):
        from textual._ansi_sequences import ANSI_SEQUENCES_KEYS

        return ANSI_SEQUENCES_KEYS


def forget_ansi_sequences(sequences: tuple[str, ...]) -> None:
    """Read these sequences as their characters, typed one by one, rather than as one key."""
    table = ansi_sequence_keys()
    for sequence in sequences:
        table.pop(sequence, None)


def _wrap_parser_method(name: str, wrap: Callable[[Callable], Callable]) -> None:
    """Put ``wrap(original)`` in place of the parser's method ``name``, once per process: every
    app made in it shares the class."""
    parser = xterm_parser()
    with _door(f"XTermParser.{name}"):
        original = getattr(parser, name)
        if getattr(original, PATCH_MARK, False):
            return
        patched = wrap(original)
        setattr(patched, PATCH_MARK, True)
        setattr(parser, name, patched)


def wrap_sequence_to_key_events(wrap: Callable[[Callable], Callable]) -> None:
    """Wrap the parser's ``_sequence_to_key_events``, which turns one sequence into key events."""
    _wrap_parser_method("_sequence_to_key_events", wrap)


def wrap_parser_feed(wrap: Callable[[Callable], Callable]) -> None:
    """Wrap the parser's ``feed``, which takes each chunk the terminal sends and yields the
    events in it."""
    _wrap_parser_method("feed", wrap)


def sequence_to_key_events() -> Callable:
    """The parser's ``_sequence_to_key_events`` now in place (wrapped, once it is)."""
    parser = xterm_parser()
    with _door("XTermParser._sequence_to_key_events"):
        return parser._sequence_to_key_events


# ---- keys and bindings

async def run_binding(app: App, key: str) -> bool:
    """Look ``key``'s binding up as the App does once the key has bubbled up to it (from the
    focused widget up, ``App._check_bindings``) and run it; True if one ran."""
    with _door("App._check_bindings"):
        check = app._check_bindings
    return await check(key)


def binding_chain(screen: Screen) -> list[tuple[DOMNode, BindingsMap]]:
    """The nodes, with their bindings, that a key is looked up in, from the focused widget up
    to the App, stopping below a modal screen (``Screen._modal_binding_chain``)."""
    with _door("Screen._modal_binding_chain"):
        return screen._modal_binding_chain


def propagation_stopped(message: Message) -> bool:
    """Has ``message.stop()`` been called (``Message._stop_propagation``)?"""
    with _door("Message._stop_propagation"):
        return message._stop_propagation


def active_message_pump() -> MessagePump | None:
    """The app, screen or widget whose handler is running now (``textual._context``)."""
    with _door("textual._context.active_message_pump"):
        from textual._context import active_message_pump as pump

        return pump.get(None)


def character_to_key(character: str) -> str:
    """The key name Textual gives a typed character ("5" → "5", "?" → "question_mark")."""
    with _door("textual.keys._character_to_key"):
        from textual.keys import _character_to_key

        return _character_to_key(character)


def unicode_name_of_key(key: str) -> str:
    """The Unicode name of the character a key name stands for ("question_mark" →
    "QUESTION MARK"), for ``unicodedata.lookup``."""
    with _door("textual.keys._get_unicode_name_from_key"):
        from textual.keys import _get_unicode_name_from_key

        return _get_unicode_name_from_key(key)


def text_area_if_loaded() -> type | None:
    """Textual's TextArea class if its module has been imported, else None (importing it only
    to ask costs start-up time; nothing not imported can be focused)."""
    module = sys.modules.get("textual.widgets._text_area")
    if module is None:
        return None
    with _door("textual.widgets._text_area.TextArea"):
        return module.TextArea


# ---- the app's notices, its screen as drawn, its frames

def notifications(app: App) -> list[Notification]:
    """The notices the app is showing or about to show (``App._notifications``). May raise
    RuntimeError when read from another thread while the app changes them."""
    with _door("App._notifications"):
        shown = app._notifications
    return list(shown)


def lift_notices(screen: Screen, rows: int | None) -> None:
    """Show the screen's notices ``rows`` higher than Textual does (just above the key bar):
    over the panes, not over a lesson panel's question; None: where the stylesheet puts them.
    Its rack is Textual's ``#textual-toastrack``, bottom margin 1."""
    with _door("Screen's ToastRack (#textual-toastrack)"):
        racks = screen.query("#textual-toastrack")
    for rack in racks:
        if rows is None:
            rack.styles.clear_rule("margin")
            rack.refresh(layout=True)
        else:
            rack.styles.margin = (0, 0, 1 + rows, 0)


def hide_notices_under(screen: Screen) -> None:
    """Hide the notices drawn on the screen under ``screen`` (a dialog): it still shows there,
    notices and all, while the dialog's own rack shows the same ones again, so each read twice.
    Textual shows them on that screen again when it is back on top (ScreenResume)."""
    stack = screen.app.screen_stack
    if screen not in stack or stack.index(screen) == 0:
        return
    with _door("Screen's ToastRack (#textual-toastrack)"):
        racks = stack[stack.index(screen) - 1].query("#textual-toastrack")
        own = screen.query("#textual-toastrack")
    for rack in racks:
        rack.display = False
        if rack.styles.inline.has_rule("margin"):  # lifted over a lesson panel (lift_notices)
            for mine in own:
                mine.styles.margin = rack.styles.margin


def dismiss_notices(app: App, severity: str = "information", title: str | None = None,
                    starts: tuple[str, ...] = ()) -> None:
    """Take down the notices of one severity (and ``title``, and a message with one of the
    ``starts``, if given) now (``App._unnotify``), keeping the others."""
    with _door("App._unnotify"):
        unnotify = app._unnotify
    gone = [n for n in notifications(app)
            if n.severity == severity and (title is None or n.title == title)
            and (not starts or str(n.message).startswith(starts))]
    for i, notice in enumerate(gone):
        unnotify(notice, refresh=i == len(gone) - 1)


def screen_strips(screen: Screen) -> list[Strip]:
    """The screen as composited, one strip a line (``Screen._compositor``)."""
    with _door("Screen._compositor.render_strips"):
        render = screen._compositor.render_strips
    return render()


def visible_region(widget: Widget) -> Any:
    """``(region, clip)`` of ``widget`` as last drawn, or None if it is not on screen."""
    with _door("Screen._compositor.visible_widgets"):
        shown = widget.screen._compositor.visible_widgets
    return shown.get(widget)


def app_exception(app: App) -> BaseException | None:
    """The exception that ended (or is ending) the app, if any (``App._exception``)."""
    with _door("App._exception"):
        return app._exception


def on_each_frame(app: App, callback: Callable[[Any, str | None], None]) -> None:
    """Call ``callback(screen, text)`` after every update the app sends to the terminal, with
    the text a terminal receives for a compositor update (None for other updates)
    (``App._display``, ``textual._compositor.CompositorUpdate``)."""
    with _door("textual._compositor.CompositorUpdate"):
        from textual._compositor import CompositorUpdate

    def frame(screen, update) -> None:
        text = (update.render_segments(app.console) if isinstance(update, CompositorUpdate)
                else None)
        callback(screen, text)

    after_each_update(app, frame)


def count_frames(app: App) -> Callable[[], int]:
    """From now on count the updates the app draws; returns a function reading the count."""
    frames = [0]

    def counted(_screen, _update) -> None:
        frames[0] += 1

    after_each_update(app, counted)
    return lambda: frames[0]


def after_each_update(app: App, callback: Callable[[Any, Any], None]) -> None:
    """Call ``callback(screen, update)`` after every update the app sends to the terminal
    (``App._display``)."""
    with _door("App._display"):
        original = app._display

    def display(screen, update) -> None:
        original(screen, update)
        callback(screen, update)

    app._display = display


# ---- layout

def start_at_breakpoints(screen: Screen) -> None:
    """Give ``screen``, before it is mounted, the breakpoint classes (HORIZONTAL_BREAKPOINTS,
    VERTICAL_BREAKPOINTS) of the app's present size, as ``Screen._on_resize`` gives them on
    its first Resize. Its widgets are then styled once, with them, when they mount; set by
    that Resize, they changed the screen's classes and every widget was styled again. A
    screen made outside a running app is left to that Resize."""
    with _door("textual._context.NoActiveAppError"):
        from textual._context import NoActiveAppError
    try:
        app = screen.app
    except NoActiveAppError:
        return
    across = (app.HORIZONTAL_BREAKPOINTS if screen.HORIZONTAL_BREAKPOINTS is None
              else screen.HORIZONTAL_BREAKPOINTS) or []
    down = (app.VERTICAL_BREAKPOINTS if screen.VERTICAL_BREAKPOINTS is None
            else screen.VERTICAL_BREAKPOINTS) or []
    if not (across or down):
        return
    with _door("Screen._get_breakpoint_classes"):
        classes_for = screen._get_breakpoint_classes
    width, height = app.size
    classes = {name: False for _, name in across + down}
    for name in classes_for(width, across) | classes_for(height, down):
        classes[name] = True
    screen.update_classes(classes, update=False)


_SHOWN: WeakSet = WeakSet()  # screens styled_once_on_first_show has seen shown


def styled_once_on_first_show(screen: Screen, event: Any) -> None:
    """Call first in a screen's ``on_screen_resume``. The first time the screen is shown its
    widgets keep the styles they were given as they mounted: Textual styles the whole screen
    again on every ScreenResume (its ``refresh_styles``), for a screen that may have missed a
    change while another was on top, and a screen shown for the first time has missed none.
    For the workbench that second styling was 5 ms of the first frame. A screen's own handler
    runs before Screen's, which reads the flag (the canary test checks both)."""
    if screen in _SHOWN:
        return
    _SHOWN.add(screen)
    event.refresh_styles = False


# What Textual's key_to_character and format_key answer for every named key attn-tui binds
# (test_textual_compat checks each against them, and that none is missing). Textual looks
# these up in the Unicode name database, which paged about 0.8 MiB of its tables into every
# session before the first frame, to turn "left_square_bracket" into "[".
KEY_CHARACTERS = {
    "asterisk": "*", "equals_sign": "=", "greater_than_sign": ">", "less_than_sign": "<",
    "left_square_bracket": "[", "right_square_bracket": "]", "question_mark": "?",
    "escape": "\x1b", "space": " ", "tab": "\t", "full_stop": ".", "comma": ",",
    "backspace": "\x08", "delete": "\x7f",
    # named keys Textual gives no character to
    "down": None, "up": None, "left": None, "right": None, "home": None, "end": None,
    "pageup": None, "pagedown": None, "enter": None, "f1": None, "minus": None, "plus": None,
    "slash": None,
}
KEY_DISPLAYS = {
    "asterisk": "*", "equals_sign": "=", "greater_than_sign": ">", "less_than_sign": "<",
    "left_square_bracket": "[", "right_square_bracket": "]", "question_mark": "?",
    "minus": "-", "plus": "+", "slash": "/", "full_stop": ".", "comma": ",",
    "down": "↓", "up": "↑", "left": "←", "right": "→", "home": "home", "end": "end",
    "pageup": "pgup", "pagedown": "pgdn", "enter": "⏎", "escape": "esc", "f1": "f1",
    "space": "space", "tab": "tab",
}


def name_keys_without_the_unicode_database() -> None:
    """Textual's ``key_to_character`` (read by every screen's binding chain) and
    ``format_key`` (the key bar's labels) answer the keys in KEY_CHARACTERS and KEY_DISPLAYS
    from those tables, and any other key as before, once per process."""
    import textual.app
    import textual.screen

    with _door("textual.screen.key_to_character / textual.app.format_key"):
        from textual.keys import KEY_DISPLAY_ALIASES, REPLACED_KEYS

        to_character, formatted = textual.screen.key_to_character, textual.app.format_key
    if getattr(to_character, PATCH_MARK, False):
        return

    def key_to_character(key: str) -> str | None:
        if key in KEY_CHARACTERS:
            return KEY_CHARACTERS[key]
        return to_character(key)

    def format_key(key: str) -> str:
        if key in KEY_DISPLAYS:
            return KEY_DISPLAYS[key]
        if len(key) == 1 and key not in KEY_DISPLAY_ALIASES and key not in REPLACED_KEYS:
            return key  # no character's Unicode name is one letter: Textual's lookup fails
        return formatted(key)

    for patched in (key_to_character, format_key):
        setattr(patched, PATCH_MARK, True)
    textual.screen.key_to_character = key_to_character
    textual.app.format_key = format_key


def one_shot_timers_fire_however_late() -> None:
    """A one-shot timer (``set_timer``) calls back however late it is, once per process.
    Textual's ``Timer`` skips ticks that are already late (``skip=True``), and a one-shot
    timer whose task was held up past its delay before it began to wait (a loaded machine
    preempting it, another thread holding the GIL) skipped its only tick: the key line's
    5 ms timer, Textual's own 8 ms resize timer (and with it every later resize: it waits for
    that one to end) and its 50 ms ``delay_update`` (the screen, batched, never drawn again).
    Repeating timers keep skipping: a late tick is then replaced by the next."""
    from textual.timer import Timer

    with _door("Timer.__init__"):
        original = Timer.__init__
        if getattr(original, PATCH_MARK, False):
            return

    def init(self: Timer, *args: Any, **kwargs: Any) -> None:
        original(self, *args, **kwargs)
        if self._repeat == 0:  # (the canary test checks both names)
            self._skip = False

    setattr(init, PATCH_MARK, True)
    Timer.__init__ = init  # type: ignore[method-assign]


def count_a_callbacks_parameters_once() -> None:
    """``call_later``, ``call_next`` and ``call_after_refresh`` wrap their callback in a new
    ``functools.partial``, so Textual's ``count_parameters``, which keeps its count on the object
    it is given, ran ``inspect.signature`` on the same function at every call (about 30 µs, a
    third of the messages a lesson step sends). The function inside the partial keeps its whole
    count under a name of attn-tui's own (Textual's, on the same function, is a bound method's,
    without self); the number is Textual's."""
    import inspect

    import textual._callback

    with _door("textual._callback.count_parameters"):
        original = textual._callback.count_parameters
        if getattr(original, PATCH_MARK, False):
            return

    def every_parameter(func: FunctionType) -> int:
        try:
            return func.__dict__[PARAMETERS_KEPT]
        except KeyError:
            count = func.__dict__[PARAMETERS_KEPT] = len(inspect.signature(func).parameters)
            return count

    def count_parameters(func: Callable) -> int:
        # only functions and bound methods: a count kept on a class would be inherited
        if type(func) is partial:
            inner = func.func
            if isinstance(inner, FunctionType):
                count = every_parameter(inner)
            elif isinstance(inner, MethodType) and isinstance(inner.__func__, FunctionType):
                count = every_parameter(inner.__func__) - 1  # bound: its first is given
            else:
                return original(func)
            return count - len(func.args) - len(func.keywords)
        return original(func)

    setattr(count_parameters, PATCH_MARK, True)
    textual._callback.count_parameters = count_parameters


PARAMETERS_KEPT = "_attn_tui_parameters"  # a function's whole count, kept on it


def lay_out_only_when_resized() -> None:
    """A Resize lays a screen out again, at the app's size, only when that differs from the
    size it was last laid out at (``Screen._screen_resized``), once per process. Textual lays
    the whole screen out and repaints it on every Resize, and at start three come with the
    size it has just been laid out at: the app's first, the terminal's (again, from
    ``App._on_idle``) and the screen's own after its first layout."""
    from textual.screen import Screen

    with _door("Screen._screen_resized"):
        original = Screen._screen_resized
        if getattr(original, PATCH_MARK, False):
            return

    def screen_resized(self: Screen, size) -> None:
        with _door("Screen._compositor"):
            laid_out_at = self._compositor.size
        if self.app.is_inline:  # inline: the height is the app's
            original(self, size)
            return
        # a Resize of another size than the app's is stale: in a terminal that reports no
        # size, Rich's fallback (80×25) and the driver's (80×24) both came, and each layout
        # sent the screen a Resize of its own size, back and forth without end
        size = self.app.size
        if size != laid_out_at:
            original(self, size)

    setattr(screen_resized, PATCH_MARK, True)
    Screen._screen_resized = screen_resized


def draw_a_screen_shown_at_a_new_size_once() -> None:
    """A screen shown at a size it has not been laid out at is drawn once by that layout, not
    again on the next frame, once per process. Textual's ``Screen._on_screen_resume`` lays it
    out, which draws the whole screen, then asks for a repaint, and the repaint (that one, or
    one asked before the layout, as a title set on mount asks) drew all of it again: at every
    start, about 12 ms of CPU at 80×24. (A screen pushed later is still drawn twice: the
    repaint Textual asks for once its widgets are mounted comes after the layout.) Shown
    again at the size it was laid out at, a screen is repainted as before."""
    from textual.screen import Screen

    with _door("Screen._on_screen_resume"):
        original = Screen._on_screen_resume
        if getattr(original, PATCH_MARK, False):
            return

    def on_screen_resume(self: Screen, event: Any) -> None:
        with _door("Screen._size"):
            lays_out = self.is_attached and self._size != self.app.size and bool(self.app.size)
        if not lays_out:
            original(self, event)
            return

        def refresh(*regions: Any, **options: Any) -> Screen:
            # only the bare repaint after the layout: anything asked more is done as asked
            return (self if not regions and not options
                    else Screen.refresh(self, *regions, **options))

        self.refresh = refresh  # type: ignore[method-assign]
        try:
            original(self, event)
        finally:
            del self.refresh
        with _door("Screen._repaint_required"):
            if self.is_current and not self.app._batch_count:
                # drawn whole just now: a repaint asked before (its title set on mount) is done
                self._repaint_required = False

    setattr(on_screen_resume, PATCH_MARK, True)
    Screen._on_screen_resume = on_screen_resume


def leave_a_screen_under_an_opaque_one_unpainted() -> None:
    """A screen under an opaque one (the workbench under a lab or help) no longer repaints the
    screen above it for changes that cannot show, once per process. Textual counts the screen
    just below the top one as visible in case the top one is translucent (a dialog), and
    passes its changes up as a repaint of the top screen: opening a lab drew the lab whole
    three more times for the workbench's own first frames. Under a translucent screen it is
    as before; shown again, a screen is repainted whole (ScreenResume)."""
    from textual.screen import Screen

    with _door("Screen._compositor_refresh"):
        original = Screen._compositor_refresh
        if getattr(original, PATCH_MARK, False):
            return

    def compositor_refresh(self: Screen) -> None:
        app = self.app
        with _door("Screen._compositor"):
            top = app.screen_stack[-1] if app.screen_stack else None
            if (top is not None and self is not top and not app.is_inline
                    and top.styles.background.a == 1):
                self._compositor._dirty_regions.clear()
                self._dirty_widgets.clear()
                return
        original(self)

    setattr(compositor_refresh, PATCH_MARK, True)
    Screen._compositor_refresh = compositor_refresh


def repaint_only_what_focus_or_selection_changes() -> None:
    """A change of focus or of the text selection repaints only the widgets it changes, once per
    process. Textual repaints the whole screen when either changes (the reactives
    ``Screen.focused`` and ``Screen._select_state``): on every mouse press, release and drag
    step, whether anything gets selected or not, and on every Tab. Over SSH a click sent the
    whole screen: 11.6 KB at 80×24 where a cursor key sends 3.6 KB. The widgets that gain or
    lose focus repaint themselves (and Textual restyles those under :focus-within), and
    ``Screen.selections`` refreshes each widget as it gains or loses part of a selection."""
    from textual.screen import Screen

    with _door("Screen._select_state"):
        state = Screen.__dict__["_select_state"]
        focused = Screen.__dict__["focused"]
        original = Screen._watch__select_state
        if getattr(original, PATCH_MARK, False):
            return
        for reactive in (state, focused):
            vars(reactive)["_repaint"]  # the flag Reactive._set reads: a KeyError if it is gone
            reactive._repaint = False

    def watch_select_state(self: Screen, select_state) -> None:
        if select_state is None:  # as Textual's, without its repaint of the whole screen
            self._selecting = False
            return
        original(self, select_state)

    setattr(watch_select_state, PATCH_MARK, True)
    Screen._watch__select_state = watch_select_state


def repaint_what_a_rebuilt_map_drops() -> None:
    """When Textual rebuilds a screen's map of widgets on demand (``Compositor.full_map``,
    after a hidden widget was refreshed), the widgets that came, went or changed size since
    the last layout are marked for repainting, once per process. Textual's layout compares
    the new map with that rebuilt one, so a widget hidden in between (a notice's rack when
    its last notice expires) left its cells on the terminal until something drew over them.
    A scroll moves widgets without changing their size: those were repainted by the scroll."""
    from textual._compositor import Compositor

    with _door("Compositor.full_map"):
        original = Compositor.__dict__["full_map"].fget
        if getattr(original, PATCH_MARK, False):
            return

    def full_map(self):
        if self.root is None or not self._full_map_invalidated:
            return original(self)
        before = self._full_map
        after = original(self)
        changed = [geometry for widget, geometry in after.items()
                   if widget not in before or before[widget].region.size != geometry.region.size]
        changed += [geometry for widget, geometry in before.items()
                    if widget not in after or after[widget].region.size != geometry.region.size]
        self._dirty_regions.update(region for region in (
            geometry.clip.intersection(geometry.region) for geometry in changed) if region)
        return after

    setattr(full_map, PATCH_MARK, True)
    Compositor.full_map = property(full_map)


# ---- a border's title line

def border_text(widget: Widget, attr: str) -> Content | None:
    """The title (``attr`` "border_title") or subtitle ("border_subtitle") as Textual stores
    it: what ``set_border_text`` compares with, so an unchanged title is not set again."""
    with _door(f"Widget._{attr}"):
        return getattr(widget, f"_{attr}")


def store_border_text(widget: Widget, attr: str, content: Content) -> None:
    """Store the title as Textual's setter would, without the setter's repaint of the whole
    box: the caller repaints the border line alone."""
    with _door(f"Widget._{attr}"):
        getattr(widget, f"_{attr}")  # a name that is gone fails here, not silently below
        setattr(widget, f"_{attr}", widget.render_str(content).expand_tabs(4).split()[0])


# ---- rendered lines of widgets that are gone

def forget_gone_widgets_lines() -> None:
    """``StylesCache.get_inner_outer`` is an lru_cache on a method, so its keys keep up to 1024
    StylesCache objects alive, each holding the lines its widget last rendered, after the
    widget is gone: every dialog closed, every lab left, every app a test ran (a test worker
    grew by 6,000 objects an app, and each full collection walked them all). Cached here on
    the two colours alone, which is all the method reads; once per process."""
    from textual._styles_cache import StylesCache

    with _door("StylesCache.get_inner_outer"):
        method = StylesCache.get_inner_outer
        if getattr(method, PATCH_MARK, False):
            return
        compute = method.__wrapped__

    @lru_cache(1024)  # as Textual's: colours animate
    def inner_outer(base_background, background):
        return compute(None, base_background, background)

    def get_inner_outer(self, base_background, background):
        return inner_outer(base_background, background)

    setattr(get_inner_outer, PATCH_MARK, True)
    StylesCache.get_inner_outer = get_inner_outer


# ---- the command palette

def guard_palette_choice(cls: type) -> type:
    """Class decorator for a CommandPalette subclass: ``cls.spare_choice(event)`` returning
    True skips running the chosen command (Textual reaches ``_select_or_command`` by name, from
    Enter, a click, or a chosen list entry)."""
    with _door("CommandPalette._select_or_command"):
        original = cls._select_or_command

    def select_or_command(self, event=None) -> None:
        if self.spare_choice(event):
            return
        original(self, event)

    cls._select_or_command = select_or_command
    return cls


# ---- workers

async def worker_ended(worker: Any) -> None:
    """Wait until ``worker`` has ended, however it ends, without taking part in it.
    ``Worker.wait`` awaits the worker's task itself: cancelling the waiter (a lesson step
    closed while it waits on a lab's run) cancelled the run too, and came back as the run's
    WorkerCancelled, so the waiter carried on as if it had not been cancelled."""
    import asyncio

    with _door("textual.worker.Worker._task"):
        task = worker._task
    if task is not None:
        await asyncio.wait({task})


# ---- the compositor's partial update

_CHANGES_ONLY: WeakSet = WeakSet()  # the apps whose screens render only what changed


def render_only_what_changed(app: App) -> None:
    """From now on ``app``'s partial screen updates render only the widgets a changed region
    meets, and only their rows in it (``Compositor.render_partial_update``); the screen drawn
    is the same (a cursor move that draws nothing is left out). Textual renders every widget
    whose clip meets the box around the changes, and a widget's clip is its container's,
    most often the whole screen: a digit typed into a cell rendered the title, the key bar
    and every pane again. Other apps in the process (a benchmark's baseline) keep Textual's."""
    _install_changes_only()
    _CHANGES_ONLY.add(app)


@cache  # once per process: the class is shared by every app
def _install_changes_only() -> None:
    with _door("textual._compositor.Compositor.render_partial_update"):
        from textual._compositor import ChopsUpdate, Compositor

        original = Compositor.render_partial_update

    def render_partial_update(self):
        root = self.root
        if root is None or root.app not in _CHANGES_ONLY:
            return original(self)
        return _changes_only(self, ChopsUpdate)

    setattr(render_partial_update, PATCH_MARK, True)
    render_partial_update.__wrapped__ = original  # Textual's, for the tests to compare
    Compositor.render_partial_update = render_partial_update


def _changes_only(compositor, update_class: type) -> Any:
    """Textual 8.2.8's render_partial_update and _render_chops, each widget cut to the rows
    of it that meet a changed region and that widgets in front of it leave uncovered (none:
    it is not rendered)."""
    from textual.geometry import Region

    dirty = compositor._dirty_regions.copy()
    compositor._dirty_regions.clear()
    if not dirty:
        return None
    spans = list(compositor._regions_to_spans(dirty))
    screen = compositor.size.region
    changed = [r.intersection(screen) for r in dirty]
    sent: dict[int, list[tuple[int, int]]] = {}  # the x ranges sent, by line
    for y, x1, x2 in spans:
        sent.setdefault(y, []).append((x1, x2))
    cuts = compositor.cuts
    chops = [dict.fromkeys(line_cuts[:-1]) for line_cuts in cuts]
    intersection = Region.intersection
    for widget, (region, clip) in compositor.visible_widgets.items():  # front to back
        shown = intersection(region, clip)
        rows = [hit for r in changed if (hit := intersection(shown, r))]
        if not rows:
            continue
        first_cut, last_cut = shown.column_span
        # the rows where a part that is sent is still missing: a container wholly behind its
        # children there (the screen, a pane) is not rendered at all
        missing = []
        for y in range(min(r.y for r in rows), max(r.bottom for r in rows)):
            if y in sent:
                line_cuts = [cut for cut in cuts[y] if last_cut >= cut >= first_cut]
                line = chops[y]
                if any(line[cut] is None and any(x1 < end and cut < x2 for x1, x2 in sent[y])
                       for cut, end in zip(line_cuts, line_cuts[1:], strict=False)):
                    missing.append((y, line_cuts))
        if not missing:
            # covered where it is sent, but its render is due: render it anyway, as Textual's
            # own update would, since some widgets draw their children there (textual-plot
            # draws its canvases in render, so its plots stayed blank)
            if widget._dirty_regions:
                y0 = max(shown.y - region.y, min(r.y for r in widget._dirty_regions))
                widget.render_lines(Region(shown.x - region.x, y0, shown.width, 1))
            continue
        top = missing[0][0]
        strips = widget.render_lines(Region(shown.x - region.x, top - region.y, shown.width,
                                            missing[-1][0] + 1 - top))
        for y, line_cuts in missing:
            if y - top >= len(strips):  # fewer lines than asked for: as Textual, no more
                break
            line = chops[y]
            parts = strips[y - top].divide([c - shown.x for c in line_cuts[1:]])
            for cut, part in zip(line_cuts, parts, strict=False):
                if line[cut] is None:  # the front-most widget's part wins
                    line[cut] = part
    return update_class(chops, spans, [line_cuts[1:] for line_cuts in cuts])
