"""Keys typed in one burst take effect in the order they were typed.

The App hands every key to the focused widget at once, and that widget's ``on_key`` reads it
at once; a (non-priority) binding, though, runs only when the key has bubbled back up to the
App, a few message hops later. So a widget that reads some keys itself (digits, Enter) and
leaves others to bindings (arrows, Tab, D) read `Right 5 Enter`, typed fast or sent in one SSH
packet, as `5 Enter Right`. Such a widget calls these two from its ``on_key``.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import TYPE_CHECKING, ClassVar
from weakref import WeakKeyDictionary

from textual import events
from textual.message import Message
from textual.widget import Widget

from attn_tui.tui import textual_compat
from attn_tui.tui.roles import HoldsKeys, SettlesEdits, TypedInto
from attn_tui.tui.screens import says_too_small

if TYPE_CHECKING:
    from textual.screen import Screen


class KeyLine:
    """The App's keys waiting their turn, and what it knows of the keys it is reading. (A
    plain class: a dataclass costs its methods' compilation at every start-up.)"""

    __slots__ = ("waiting", "handed", "posted", "due", "checked", "had_focus", "first_key_at",
                 "aside", "asked_again")

    def __init__(self) -> None:
        # the keys handed back (typed before any the App holds), then the keys the App
        # holds; each part in the order typed
        self.waiting: list[events.Key | events.Paste] = []
        self.handed = 0  # how many of ``waiting``, from its front, were handed back
        # the key last posted from the line, until it has taken effect
        self.posted: events.Key | events.Paste | None = None
        self.due = 0.0  # when the App's timer next looks at the line
        self.checked: list[events.Key] = []  # keys whose binding was looked up where typed
        self.had_focus = False  # something had focus once: start-up is over
        self.first_key_at: float | None = None
        self.aside: list[events.Key | events.Paste] = []  # see set_aside
        self.asked_again: list[events.Key | events.Paste] = []  # see hold_to_ask_again


# An Escape and the key typed after it can arrive in one read (over SSH, one late packet brings
# both), and their bytes are those of Alt and the key. Textual's parser read them as alt+m for a
# letter and dropped the Escape for any other key: Escape then Enter (cancel, open the cell
# again) stored the value being cancelled. attn-tui binds no Alt key, so it reads both as typed
# (a real Alt+key, where a terminal sends it as ESC and the key, included).
# ESC and a digit or Tab are in Textual's table of sequences too: macOS Option keys (WezTerm's
# Option+3 is "£") and the Linux console's shift+tab (terminal emulators send ESC [ Z). Escape
# then 3 typed a £; Escape then Tab stored the value being cancelled and went back a pane.
# ESC b, ESC f and ESC Backspace stay word moves and word delete: macOS Terminal sends them for
# Option+←, → and ⌫, and read as Escape they would close the dialog being typed in.
ESC_PAIRS_AS_TYPED = tuple("\x1b" + c for c in "§1234567890-=\t")
# what may follow ESC in a sequence: CSI, SS3, OSC, DCS, APC, ST, PM, SOS, and ESC itself
SEQUENCE_STARTS = frozenset("[O]P_\\^X\x1b")


def read_escape_as_typed() -> None:
    """Make the terminal parser read ESC and a key no sequence starts with as Escape, then the
    key, and ignore a sequence it cannot read instead of ending the app (once per process: the
    parser is Textual's, shared by every driver)."""
    from textual.keys import Keys

    textual_compat.forget_ansi_sequences(ESC_PAIRS_AS_TYPED)
    known = textual_compat.ansi_sequence_keys()

    def wrap(original):
        def sequence_to_key_events(self, sequence: str, alt: bool = False):
            if (len(sequence) == 2 and sequence[0] == "\x1b" and sequence[1] not in SEQUENCE_STARTS
                    and sequence not in known):
                # complete at once: waiting for more, a second ESC or 32 held-down keys made
                # Textual read the Escape back as a typed ^
                sequence, alt = sequence[1], True
            if alt and len(sequence) == 1:  # the one key after a lone ESC: Escape was typed too
                yield events.Key("escape", "\x1b")
                alt = False
            try:
                made = list(original(self, sequence, alt))
            except (ValueError, OverflowError):  # a kitty key Textual cannot read (ESC [ 97:65;2 u)
                made = [events.Key(Keys.Ignore, sequence)]  # ignored: raising would end the app
            yield from made

        return sequence_to_key_events

    textual_compat.wrap_sequence_to_key_events(wrap)


def takes_text(widget: object) -> bool:
    """Is the focused widget taking text? Then every key that types a character is that
    character, never a command: an Input, or a Q/K/V cell, a lab control or the dimensions
    bar mid-edit (``TypedInto``)."""
    from textual.widgets import Input

    text_area = textual_compat.text_area_if_loaded()
    kinds = (Input, text_area) if text_area else (Input,)
    return isinstance(widget, kinds) or (isinstance(widget, TypedInto) and widget.is_typing)


def types_a_character(key: str) -> bool:
    """True for a bound key that types a character (m, ?, [, space), not for Enter, Tab, an
    arrow or ctrl+s."""
    from textual.keys import key_to_character

    # Textual finds no character for plus, minus or slash (their Unicode names differ)
    char = {"plus": "+", "minus": "-", "slash": "/"}.get(key) or key_to_character(key)
    return char is not None and char.isprintable()


_LINES: WeakKeyDictionary = WeakKeyDictionary()  # an App's KeyLine, made when first needed


def key_line(app) -> KeyLine:
    """The App's line of keys (any App: the widgets run in plain ones in the tests)."""
    line = _LINES.get(app)
    if line is None:
        line = _LINES[app] = KeyLine()
    return line


class KeysInOrder:
    """For a widget (or dialog) that reads some keys itself: what its ``on_key`` must do so
    that keys typed in one burst take effect in the order typed. ``read_own_key`` reads the
    keys it reads itself; any other key has its binding run now, as the App would later."""

    # False where another widget reads this one's keys (a matrix's grid: its editor does)
    KEYS_IN_ORDER: ClassVar[bool] = True

    def hands_back(self, event: events.Key) -> bool:
        """True (and ``event`` handed back to the App) if the key is not this one's to read:
        it was handed over before a binding read ahead of it moved the focus."""
        return forward_if_unfocused(self, event)  # type: ignore[arg-type]

    async def read_own_key(self, event: events.Key) -> bool:
        """Read ``event`` if it is a key this widget reads itself; True if it did."""
        return False

    async def on_key(self, event: events.Key) -> None:
        if not self.KEYS_IN_ORDER or self.hands_back(event):
            return
        if not await self.read_own_key(event):
            await run_binding_now(self, event)  # type: ignore[arg-type]


def from_the_line(app, event: events.Event) -> bool:
    """True if ``event`` is the key the App was last handed from the line."""
    return event is key_line(app).posted


async def run_binding_now(widget: Widget, event: events.Key) -> bool:
    """Run the binding of ``event``'s key now, looked up as the App would look it up later
    (from the focused widget up); True, and the key stopped there, if one ran.

    What the keys before it sent on its way (the value Enter stored, a dimension) is still a
    message climbing to the screen: the screen's ``settle_edits`` takes it first, so `7 Enter
    ctrl+s` saves the 7 and `7 Enter u` undoes it."""
    screen = widget.screen
    # an unbound key changes nothing; a key that cancels the typing must not store it first
    if isinstance(screen, SettlesEdits) and _bound(widget.app, event.key) and not (
            _cancels_typing(widget.app, event.key)):
        screen.settle_edits()
    if await textual_compat.run_binding(widget.app, event.key):
        event.stop()
        event.prevent_default()
        return True
    # no binding now; when the key has bubbled up, the App must not look again, in whatever
    # is on top by then (C-u C-s: the u of ctrl+u cleared the save dialog's path)
    checked = key_line(widget.app).checked
    checked.append(event)
    del checked[:-32]
    return False


def _bound(app, key: str) -> bool:
    """Is ``key`` bound anywhere from the focused widget up (the App's own lookup chain)?"""
    return any(key in bindings.key_to_bindings
               for _, bindings in textual_compat.binding_chain(app.screen))


def _cancels_typing(app, key: str) -> bool:
    """Is the first binding of ``key`` from the focused widget up a typing widget's cancel
    (ctrl+c while a value is typed)?"""
    for _, bindings in textual_compat.binding_chain(app.screen):
        for binding in bindings.key_to_bindings.get(key, ()):
            return binding.action == "typed('cancel')"
    return False


def key_word(app, key: str, default: str) -> str:
    """What the first binding of ``key`` from the focused widget up says it does (the sentence
    box's Escape leaves it, "Done", where a cell's cancels the edit)."""
    from textual.actions import parse

    for node, bindings in textual_compat.binding_chain(app.screen):
        for binding in bindings.key_to_bindings.get(key, ()):
            _, action, parameters = parse(binding.action)
            if node.check_action(action, parameters):  # a cell's Enter edits, unless typing
                return binding.description or default
    return default


def bindings_checked(app, event: events.Key) -> bool:
    """For the App's key handler: True (and forgotten) if ``event``'s binding was looked up
    already, where the key was typed."""
    checked = key_line(app).checked
    for i, key in enumerate(checked):
        if key is event:
            del checked[i]
            return True
    return False


def forward_if_unfocused(widget: Widget, event: events.Key) -> bool:
    """A key handed to ``widget`` before a binding read ahead of it moved the focus (Tab, D,
    a dialog): give it back to the App, which hands it to whatever has focus now. True if
    forwarded."""
    if widget.app.focused is widget:
        return False
    hand_back(widget.app, event)
    return True


def hand_back(app, event: events.Key) -> None:
    """Take ``event`` from where it was headed and queue it for the App, to be handed to
    whatever has focus once the screens have settled. It was typed before any key the App
    is holding, so it goes ahead of them; the key the App was just handed from the line goes
    back to its front."""
    event.stop()
    event.prevent_default()
    _queue(app, event, "front" if from_the_line(app, event) else "typed")


def line_up(app, key: str, character: str | None) -> None:
    """Queue ``key`` as typed now, behind the keys typed before it that are waiting and ahead
    of those held since: for a priority key put off until the keys before it were read (a
    lesson's n), which the App then reads again in its turn."""
    _queue(app, events.Key(key, character), "typed")


def hold_to_ask_again(app, event: events.Key) -> None:
    """Hold ``event`` at the end of the line, to be looked at again in its turn (see
    asked_again): a key a lesson would refuse now, behind keys that may open a dialog it is
    typed into (ctrl+s, then a file name with an n in it)."""
    _queue(app, event, "held")
    line = key_line(app)
    line.asked_again.append(line.waiting[-1])


def asked_again(app, event: events.Event) -> bool:
    """Whether ``event``, from the line, was held by hold_to_ask_again (asked once)."""
    line = key_line(app)
    for i, held in enumerate(line.asked_again):
        if held is event:
            del line.asked_again[i]
            return True
    return False


def set_aside(app) -> None:
    """Take the keys waiting in the line out of it until no dialog is left on top: ctrl+q
    asks at once, ahead of keys held for a lesson step, and those, typed before the question,
    are not its answer (a y held there quit, and unsaved work went with it). Cancelled, the
    question closes, and they go on in the order typed."""
    line = key_line(app)
    if not line.waiting:
        return
    line.aside += line.waiting
    line.waiting, line.handed = [], 0
    app.screen_change_signal.subscribe(app, _put_back_aside)  # (once: a set of callbacks)


def _put_back_aside(screen: Screen) -> None:
    from textual.screen import ModalScreen

    app = screen.app
    line = key_line(app)
    if not line.aside or not app.screen_stack or isinstance(app.screen, ModalScreen):
        return
    running = bool(line.waiting) and time.monotonic() - line.due <= 1.0  # as _queue: one timer
    line.waiting[0:0] = line.aside
    line.handed += len(line.aside)
    line.aside = []
    if not running:
        _schedule(app, time.monotonic())


def hold_if_keys_waiting(app, event: events.Key | events.Paste) -> bool:
    """For the App, on a key from the terminal: while keys handed back are waiting or still
    on their way, or the App holds keys (``keys_on_hold``: a lesson step setting up), this
    one joins the end of the line rather than overtaking them. True if held."""
    if from_the_line(app, event) or says_too_small(app.screen):
        return False  # (too small: it reads q itself, and drops the rest)
    if not (key_line(app).waiting or _in_flight(app) or _on_hold(app)):
        return False
    _queue(app, event, "held")
    return True


START_LIMIT = 2.0  # seconds after the first key from the terminal that start-up may take


def hold_until_first_focus(app, event: events.Key | events.Paste) -> bool:
    """For the App, on a key from the terminal: keys typed while the app starts (before
    anything has focus, or before the screen with the focus has run its on_mount) wait for
    the first screen's focus instead of reaching the bare screen, which drops them (a 5
    typed at launch was lost). Only then: not on a screen
    with nothing to focus (too small), nor while the terminal window is in the background.
    True if held."""
    line = key_line(app)
    if line.had_focus:
        return False
    if line.first_key_at is None:
        line.first_key_at = time.monotonic()
    if (any(screen.focused is not None and screen.is_mounted for screen in app.screen_stack)
            or not app.app_focus or time.monotonic() - line.first_key_at > START_LIMIT):
        line.had_focus = True
        return False
    if from_the_line(app, event):
        return False  # it waited its time already
    _queue(app, event, "held")
    return True


def _queue(app, event: events.Key | events.Paste, where: str) -> None:
    """Into the line (see KeyLine.waiting): ``where`` is "front", "typed" (the end of the
    keys handed back) or "held" (the end of the line)."""
    line = key_line(app)
    at = {"front": 0, "typed": line.handed, "held": len(line.waiting)}[where]
    line.waiting.insert(at, _copy(event))
    if where != "held":
        line.handed += 1
    stalled = time.monotonic() - line.due > 1.0
    if len(line.waiting) == 1 or stalled:  # stalled: belt and braces, the line must move
        _schedule(app, time.monotonic())


def _copy(event: events.Key | events.Paste) -> events.Key | events.Paste:
    """A fresh event to post again (one that has travelled is marked forwarded, stopped)."""
    if isinstance(event, events.Paste):
        return events.Paste(event.text)
    return events.Key(event.key, event.character)


def _schedule(app, since: float) -> None:
    # a timer of the App's, not call_after_refresh: that one is run by the screen on top,
    # and a dialog that closed first dropped it, with the line held for good (Enter Enter 6
    # after "already exists"); one that fires however late (see textual_compat)
    key_line(app).due = time.monotonic() + STEP
    app.set_timer(STEP, lambda: _hand_back(app, since))


def _on_hold(app) -> float:
    """The longest the App holds keys now, in seconds (0: it does not)."""
    return float(app.keys_on_hold()) if isinstance(app, HoldsKeys) else 0.0


def key_read_by_app(app, event: events.Key | events.Paste, came_back: bool) -> None:
    """For the App, after it has read ``event``: a handed-back key that it kept (a priority
    binding), or that came back up to it from the focused widget, has taken effect."""
    if from_the_line(app, event) and (came_back or not event.is_forwarded):
        key_line(app).posted = None


def _takes_keys(app) -> bool:
    """Something has focus, on a screen whose own on_mount has run: Textual focuses the first
    screen's Q grid before the workbench's on_mount has filled it, and an Enter read then
    opened no cell (the a after it added a token; seen under load)."""
    return app.focused is not None and app.screen.is_mounted


def _in_flight(app) -> bool:
    """The key handed back last has not yet taken effect: it is queued for the App, or on its
    way from the focused widget back up (a widget that reads it stops it there)."""
    key = key_line(app).posted
    return key is not None and not textual_compat.propagation_stopped(key)


STEP = 0.005  # seconds between looks at whether the next key can go
SETTLE_LIMIT = 0.5  # seconds a key waits for focus (a dialog opening) or the key before it


def _hand_back(app, since: float) -> None:
    """Post the waiting keys one at a time, each once the one before has taken effect and
    something has focus: a dialog a binding has just opened focuses its input only after it
    is drawn (until then the App would hand keys to the bare screen, which drops them:
    ctrl+p m a s k searched for "ask"), and a key that closes a dialog must have closed it
    before the next is read (p Escape 5 typed the 5 into the closing dialog)."""
    line = key_line(app)
    if not app.screen_stack:  # the app closed while keys waited: nobody is left to read them
        return
    if says_too_small(app.screen):
        # a window made too small drops what is typed there, as when typed slowly; keys
        # typed before it are dropped too rather than land, after the resize, on whatever
        # screen is then on top (each also waited out the wait for focus, with q behind them)
        line.waiting.clear()
        line.asked_again.clear()
        line.handed, line.posted = 0, None
        return
    waited = time.monotonic() - since
    if waited < _on_hold(app):
        _read_at_once(app, line)
        _schedule(app, since)
        return
    if (not _takes_keys(app) or _in_flight(app)) and waited < SETTLE_LIMIT:
        _schedule(app, since)
        return
    line.posted = None  # taken effect, or lost with a screen that closed
    if line.waiting:
        key = line.posted = line.waiting.pop(0)
        line.handed = max(0, line.handed - 1)
        app.post_message(key)
    if line.waiting:
        _schedule(app, time.monotonic())


def _read_at_once(app, line: KeyLine) -> None:
    """Take from the line a key the App reads at once while it holds keys (``reads_at_once``),
    and have it act now: typed in the same read as a lesson's answer, ctrl+q waited behind the
    letter, then out the whole run the letter started. (Acted on here, not posted: the step
    could end before a posted key was read, and it would then wait behind later keys.)"""
    if not isinstance(app, HoldsKeys):
        return
    for i, key in enumerate(line.waiting):
        if isinstance(key, events.Key) and app.reads_at_once(key.key):
            del line.waiting[i]
            if i < line.handed:
                line.handed -= 1
            app.act_at_once(key.key)  # the keys left in the line go aside first
            return


class AfterKeys(Message):
    """A callback for the App to run once the keys typed before it have been read: it travels
    the keys' own way, from the focused widget up, and the first widget that reads keys
    itself (or the App) runs it. For ctrl+q, a priority key read ahead of those keys."""

    def __init__(self, callback: Callable[[], object]) -> None:
        super().__init__()
        self.callback = callback


def after_keys(app, callback: Callable[[], object]) -> None:
    target = app.focused
    # sent as from the App, so it climbs every step back there if no widget takes it
    if target is None or not target.post_message(AfterKeys(callback).set_sender(app)):
        callback()


def run_after_keys(event: AfterKeys) -> None:
    event.stop()
    event.callback()


def take_once(event, source) -> bool:
    """True the first time a change a widget sent (``source.in_flight``) is taken, whether as
    its message or by a screen's settle_edits: a value stored early must not be stored again
    when its message lands (after a u typed in the same burst, that would redo it)."""
    if isinstance(source.in_flight, list):
        if event in source.in_flight:
            source.in_flight.remove(event)
    elif source.in_flight is event:
        source.in_flight = None
    if event.settled:
        return False
    event.settled = True
    return True
