"""Keys typed in one burst take effect in the order they were typed.

The App hands every key to the focused widget at once, and that widget's ``on_key`` reads it
at once; a (non-priority) binding, though, runs only when the key has bubbled back up to the
App, a few message hops later. So a widget that reads some keys itself (digits, Enter) and
leaves others to bindings (arrows, Tab, D) read `Right 5 Enter`, typed fast or sent in one SSH
packet, as `5 Enter Right`. Such a widget calls these two from its ``on_key``.
"""

from __future__ import annotations

from textual import events
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
    """A key handed to ``widget`` before a binding read ahead of it moved the focus (Tab, D):
    give it back to the App, which hands it to whatever has focus now. True if forwarded."""
    if widget.app.focused is widget:
        return False
    event.stop()
    event.prevent_default()
    widget.app.post_message(events.Key(event.key, event.character))
    return True
