"""Unsaved work rescued when the app ends by no choice of the learner's: the browser's tab closed
or the server stopped it (ExitApp, as Textual's web driver posts it), and said where at the next
start. The terminal's hang-up and kill are tried for real in tests/cli/test_terminal.py."""

from __future__ import annotations

from pathlib import Path

import pytest
from textual import messages

from attn_tui.core import rescue, session
from attn_tui.tui.app import make_app
from attn_tui.tui.textual_compat import notifications


def rescued(data: Path) -> list[Path]:
    return sorted((data / "unsaved").glob("unsaved-*.json"))


@pytest.fixture
def data(progress_dir: Path) -> Path:
    return progress_dir.parent


async def _edit_then(app, end) -> None:
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("7", "enter")
        await pilot.pause()
        end(app)
        await pilot.pause()


async def test_a_tab_closed_with_unsaved_edits_leaves_them_in_a_session_file(data):
    await _edit_then(make_app(), lambda app: app.post_message(messages.ExitApp()))
    [path] = rescued(data)
    ws = session.load(path)[0]
    assert ws.q[0] == (7.0, 0.2, 0.3)


async def test_quitting_by_choice_or_with_nothing_unsaved_leaves_no_file(data):
    await _edit_then(make_app(confirm_quit=False), lambda app: app.exit())  # "Quit anyway"
    async with make_app().run_test(size=(80, 24)) as pilot:
        pilot.app.post_message(messages.ExitApp())  # nothing edited
        await pilot.pause()
    assert rescued(data) == []


async def test_where_no_progress_is_kept_nothing_is_rescued(data):
    await _edit_then(make_app(no_progress=True), lambda app: app.post_message(messages.ExitApp()))
    assert rescued(data) == []


async def test_the_next_start_says_where_the_edits_are_once(data):
    await _edit_then(make_app(), lambda app: app.post_message(messages.ExitApp()))
    [path] = rescued(data)
    for told in (True, False):
        app = make_app()
        async with app.run_test(size=(80, 24), notifications=True) as pilot:
            await pilot.pause()
            said = [str(n.message) for n in notifications(app) if n.title == "Unsaved edits kept"]
            assert bool(said) is told
            if told:
                assert said[0] == (f"A session ended (the connection dropped, or the tab "
                                   f"closed) before its edits were saved. They are kept in "
                                   f"{path}: ctrl+o opens it, or attn-tui --session with its "
                                   f"name.")
    assert rescue.untold() == []
