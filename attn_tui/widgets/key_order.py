"""Keys typed in one burst take effect in the order they were typed.

The App hands every key to the focused widget at once, and that widget's ``on_key`` reads it
at once; a (non-priority) binding, though, runs only when the key has bubbled back up to the
App, a few message hops later. So a widget that reads some keys itself (digits, Enter) and
leaves others to bindings (arrows, Tab, D) read `Right 5 Enter`, typed fast or sent in one SSH
packet, as `5 Enter Right`. Such a widget calls these two from its ``on_key``.
"""

from __future__ import annotations

from collections.abc import Callable

from textual import events
from textual.message import Message
from textual.widget import Widget


async def run_binding_now(widget: Widget, event: events.Key) -> bool:
    """Run the binding of ``event``'s key now, looked up as the App would look it up later
    (from the focused widget up); True, and the key stopped there, if one ran.

    What the keys before it sent on its way (the value Enter stored, a dimension) is still a
    message climbing to the screen: the screen's ``settle_edits`` takes it first, so `7 Enter
    ctrl+s` saves the 7 and `7 Enter u` undoes it."""
    settle = getattr(widget.screen, "settle_edits", None)
    if settle is not None:
        settle()
    # App._check_bindings is that lookup; it is private, so textual is pinned (8.2.8)
    if await widget.app._check_bindings(event.key):
        event.stop()
        event.prevent_default()
        return True
    return False


def forward_if_unfocused(widget: Widget, event: events.Key) -> bool:
    """A key handed to ``widget`` before a binding read ahead of it moved the focus (Tab, D,
    a dialog): give it back to the App, which hands it to whatever has focus now. True if
    forwarded."""
    app = widget.app
    if app.focused is widget:
        return False
    event.stop()
    event.prevent_default()
    waiting: list[events.Key] = app.__dict__.setdefault("_keys_waiting_for_focus", [])
    waiting.append(events.Key(event.key, event.character))
    if len(waiting) == 1:
        _hand_back(app, FOCUS_TRIES)
    return True


FOCUS_TRIES = 3  # frames to wait for a dialog that is opening to focus its input


def _hand_back(app, tries: int) -> None:
    """Post the waiting keys one at a time, each once the one before has taken effect and
    something has focus: a dialog a binding has just opened focuses its input only after it
    is drawn (until then the App would hand keys to the bare screen, which drops them:
    ctrl+p m a s k searched for "ask"), and a key that closes it must have closed it before
    the next is read (ctrl+s Enter 5 saved to attn-session.json5)."""
    if app.focused is None and tries:
        app.call_after_refresh(_hand_back, app, tries - 1)
        return
    waiting = app.__dict__["_keys_waiting_for_focus"]
    if waiting:
        app.post_message(waiting.pop(0))
    if waiting:
        app.call_after_refresh(_hand_back, app, FOCUS_TRIES)


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
    if source.in_flight is event:
        source.in_flight = None
    if event.settled:
        return False
    event.settled = True
    return True
