"""The path and quit modals, driven by keys in a bare app."""

from __future__ import annotations

from pathlib import Path

from textual.app import App
from textual.widgets import Input, Static

from attn_tui.core import session, state
from attn_tui.tui.screens.dialogs.confirm_quit_modal import ConfirmQuitModal
from attn_tui.tui.screens.dialogs.file_modal import FileModal


class Host(App[None]):
    def __init__(self, modal) -> None:
        super().__init__()
        self.modal, self.results = modal, []

    def on_mount(self) -> None:
        self.push_screen(self.modal, self.results.append)


def _error(app: App) -> str:
    note = app.screen.query_one("#file-error", Static)
    return str(note.render()) if note.has_class("-shown") else ""


async def test_enter_accepts_the_prefilled_path() -> None:
    app = Host(FileModal("Save session"))
    async with app.run_test(size=(80, 24)) as pilot:
        box = app.screen.query_one(Input)
        assert box.value == "attn-session.json" and box.cursor_blink is False
        await pilot.press("enter")
        await pilot.pause()
    assert app.results == ["attn-session.json"]


async def test_a_name_typed_replaces_the_one_offered_and_end_keeps_it_to_edit() -> None:
    # typed after it: "attn-session.jsonabc.json" was saved
    app = Host(FileModal("Save session"))
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press(*"abc.json", "enter")
        await pilot.pause()
    assert app.results == ["abc.json"]
    app = Host(FileModal("Save session"))
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("end", *"-2", "enter")
        await pilot.pause()
    assert app.results == ["attn-session.json-2"]


async def test_escape_cancels() -> None:
    app = Host(FileModal("Open session"))
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("x", "escape")
        await pilot.pause()
    assert app.results == [None]


async def test_a_failed_open_shows_why_and_keeps_the_typed_path(tmp_path: Path) -> None:
    good = tmp_path / "good.json"
    session.save(state.from_preset("select"), good)
    (tmp_path / "bad.json").write_text("{ truncated")
    opened = []

    def try_open(path: str) -> str | None:
        try:
            opened.append(session.load(path))
        except session.SessionError as exc:
            return str(exc)
        return None

    app = Host(FileModal("Open session", str(tmp_path / "bad.json"), submit=try_open))
    async with app.run_test(size=(100, 24)) as pilot:
        await pilot.press("enter")
        await pilot.pause()
        assert isinstance(app.screen, FileModal)
        assert "ends early, so it looks truncated" in _error(app)
        box = app.screen.query_one(Input)
        assert box.value == str(tmp_path / "bad.json")
        box.value = str(good)
        await pilot.press("enter")
        await pilot.pause()
    assert opened == [(state.from_preset("select"), "workbench")]
    assert app.results == [str(good)]


async def test_an_empty_path_is_not_accepted() -> None:
    app = Host(FileModal("Export", "", error="Cannot save x: permission denied."))
    async with app.run_test(size=(80, 24)) as pilot:
        # marked: without colour the error looked like the hint under it
        assert _error(app) == "✗ Cannot save x: permission denied."
        await pilot.press("enter")
        await pilot.pause()
        assert _error(app) == "✗ Type a file name first."
        assert app.results == []


async def test_quit_modal_answers() -> None:
    for key, answer in (("s", "save"), ("y", "quit"), ("escape", None), ("n", None)):
        app = Host(ConfirmQuitModal())
        async with app.run_test(size=(80, 24)) as pilot:
            text = str(app.screen.query_one("#quit-question", Static).render())
            assert text == "You have unsaved changes. Save (s) / Quit anyway (y) / Cancel (Esc)"
            await pilot.press(key)
            await pilot.pause()
        assert app.results == [answer], key


async def test_quit_modal_buttons() -> None:
    app = Host(ConfirmQuitModal())
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.click("#quit-anyway")
        await pilot.pause()
    assert app.results == ["quit"]


async def test_a_pasted_page_as_the_path_is_quoted_short_and_the_dialog_fits(tmp_path) -> None:
    # the error repeated all 500,000 characters and pushed the dialog's hint off the screen
    def try_open(path: str) -> str | None:
        try:
            session.load(path)
        except session.SessionError as exc:
            return str(exc)
        return None

    long = str(tmp_path / ("a" * 5000 + ".json"))
    app = Host(FileModal("Open session", long, submit=try_open))
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("enter")
        await pilot.pause()
        error = _error(app)
        assert error.startswith(f"✗ Cannot open {str(tmp_path)[:20]}") and "…" in error
        assert "aaaa.json: file name too long" in error and len(error) < 130
        hint = app.screen.query_one("#file-hint")
        assert hint.region.bottom <= 24 and hint.region.height == 1
