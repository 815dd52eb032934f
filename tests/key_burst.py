"""Keys as a terminal delivers them in one read: a fast typist, or an SSH packet."""

from __future__ import annotations

from textual import events

from attn_tui.tui.textual_compat import character_to_key, xterm_parser

NAMED = {"Right": "right", "Left": "left", "Up": "up", "Down": "down", "End": "end", "Tab": "tab", "Enter": "enter",
         "C-s": "ctrl+s", "C-q": "ctrl+q", "C-p": "ctrl+p", "Escape": "escape", "C-u": "ctrl+u",
         "Space": "space", "C-a": "ctrl+a", "C-k": "ctrl+k"}
CHARS = {"tab": "\t", "enter": "\r", "ctrl+s": "\x13", "ctrl+q": "\x11", "ctrl+p": "\x10",
         "escape": "\x1b", "ctrl+u": "\x15", "space": " ", "ctrl+a": "\x01", "ctrl+k": "\x0b"}


def burst(app, keys: str) -> None:
    """Post every key to the app at once, as a driver does with one read of the terminal."""
    for word in keys.split():
        if word in NAMED:
            key = NAMED[word]
            char = CHARS.get(key)
        else:
            key, char = character_to_key(word), word
        app.post_message(events.Key(key, char))


def from_the_terminal(app, data: str) -> None:
    """Read ``data`` as one read of the terminal, with Textual's own parser, and post what it
    makes of it to the app, as the driver does."""
    parser = xterm_parser()()
    for event in [*parser.feed(data), *parser.feed("")]:  # "": the end, as after a pause
        event.set_sender(app)
        app.post_message(event)


async def settle(pilot) -> None:
    for _ in range(4):
        await pilot.pause()


async def typed_state(lesson: str, keys: str, slowly: bool, where) -> tuple:
    """What the app shows after ``keys``, typed slowly (one key at a time, the app settled
    between) or in one burst: screen, lesson and step, the workbench's workspace, the text
    in a focused input, and the files in ``where``."""
    from textual.widgets import Input

    from attn_tui.tui.app import make_app

    app = make_app(lesson=lesson)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        for group in (keys.split() if slowly else [keys]):
            burst(app, group)
            await settle(pilot)
        for _ in range(4):
            await settle(pilot)
        typed = app.focused.value if isinstance(app.focused, Input) else None
        return (type(app.screen).__name__, app.tutor.lesson and app.tutor.lesson.name, app.tutor.index,
                app.workbench().workspace, typed, sorted(p.name for p in where.iterdir()))
