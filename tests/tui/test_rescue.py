"""Unsaved work rescued when the app ends by no choice of the learner's: the browser's tab closed
or the server stopped it (ExitApp, as Textual's web driver posts it), and said where at the next
start. The terminal's hang-up and kill are tried for real in tests/cli/test_terminal.py."""

from __future__ import annotations

from pathlib import Path

import pytest
from textual import messages

from attn_tui.core import rescue, session, state
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


async def test_the_next_start_says_where_the_edits_are_once(data, monkeypatch, tmp_path):
    monkeypatch.setenv("HOME", str(data.parent))  # the path is said from ~
    await _edit_then(make_app(), lambda app: app.post_message(messages.ExitApp()))
    [path] = rescued(data)
    for told in (True, False):
        app = make_app()
        async with app.run_test(size=(80, 24), notifications=True) as pilot:
            await pilot.pause()
            said = [str(n.message) for n in notifications(app) if n.title == "Unsaved edits kept"]
            assert bool(said) is told
            if told:
                where = "~/" + str(path.parent.relative_to(data.parent)) + "/"
                # the folder on a line, the name on the next: the notice wrapped the path whole
                # mid-name
                assert said[0] == ("attn-tui ended before your edits were saved. They are "
                                   f"kept in\n{where}\n{path.name}\nctrl+o offers it.")
                # its long name wraps in the notice: the open dialog offers it whole, and
                # the notice, which covered the dialog's "Full path:" line, goes
                await pilot.press("ctrl+o")
                await pilot.pause()
                assert pilot.app.screen.query_one("#file-path").value == str(path)
                assert not [n for n in notifications(app) if n.title == "Unsaved edits kept"]
                await pilot.press("enter")
                await pilot.pause()
                assert app.workbench().workspace.q[0] == (7.0, 0.2, 0.3)
    assert rescue.untold() == []


async def test_ctrl_o_offers_a_rescue_at_every_start_until_it_is_opened(data):
    """Told of at one start and left unopened, it was offered no more: the next start's
    ctrl+o offered attn-session.json, and nothing in the app named the file again."""
    await _edit_then(make_app(), lambda app: app.post_message(messages.ExitApp()))
    [path] = rescued(data)
    for start in range(3):
        app = make_app()
        async with app.run_test(size=(80, 24), notifications=True) as pilot:
            await pilot.pause()
            said = [n for n in notifications(app) if n.title == "Unsaved edits kept"]
            assert bool(said) is (start == 0)  # said once
            await pilot.press("ctrl+o")
            await pilot.pause()
            offered = pilot.app.screen.query_one("#file-path").value
            if start < 2:
                assert offered == str(path)
                await pilot.press("escape" if start == 0 else "enter")  # opened at the second
                await pilot.pause()
            else:
                assert offered != str(path)
    assert rescue.unopened() == [] and path.is_file()


async def test_at_a_later_start_ctrl_o_offers_the_open_session_before_a_rescue(data, tmp_path):
    """Offered ahead of the learner's own file at every start, a rescue could be turned
    down only by opening or deleting it."""
    await _edit_then(make_app(), lambda app: app.post_message(messages.ExitApp()))
    [path] = rescued(data)
    mine = tmp_path / "mine.json"
    session.save(session.load(path)[0], mine)
    for start in range(2):  # told of at the first: offered first there, second after
        app = make_app(session_path=str(mine))
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            await pilot.press("ctrl+o")
            await pilot.pause()
            offered = pilot.app.screen.query_one("#file-path").value
            assert offered == (str(path) if start == 0 else str(mine))
    async with make_app().run_test(size=(80, 24)) as pilot:  # no file open: the rescue
        await pilot.pause()
        await pilot.press("ctrl+o")
        await pilot.pause()
        assert pilot.app.screen.query_one("#file-path").value == str(path)
    path.unlink()  # deleted: offered no more, and its line goes
    async with make_app().run_test(size=(80, 24)) as pilot:
        await pilot.pause()
    assert rescue.unopened() == [] and str(path) not in (data / rescue.PENDING).read_text()


async def test_ctrl_s_after_opening_a_rescue_asks_where_to_save_it(data):
    """ctrl+o on the rescue, then ctrl+s, wrote back to unsaved-….json in the rescue folder
    without a question: "Saved" work, under a name that says unsaved, where no one looks."""
    await _edit_then(make_app(), lambda app: app.post_message(messages.ExitApp()))
    [path] = rescued(data)
    before = path.read_bytes()
    app = make_app()
    async with app.run_test(size=(80, 24), notifications=True) as pilot:
        await pilot.pause()
        await pilot.press("ctrl+o")
        await pilot.pause()
        assert pilot.app.screen.query_one("#file-path").value == str(path)
        await pilot.press("enter")
        await pilot.pause()
        bench = app.workbench()
        assert bench.workspace.q[0] == (7.0, 0.2, 0.3) and bench.session_path is None
        said = [n.message for n in notifications(app)]
        assert any("is in no file of yours yet: ctrl+s asks where to save it" in m
                   for m in said)
        assert bench.has_unsaved_work()  # quitting asks about it
        await pilot.press("ctrl+s")
        await pilot.pause()
        offered = pilot.app.screen.query_one("#file-path").value
        assert offered == "attn-session.json"
    assert path.read_bytes() == before


async def test_a_rescue_opened_with_session_is_saved_where_the_learner_says(data):
    await _edit_then(make_app(), lambda app: app.post_message(messages.ExitApp()))
    [path] = rescued(data)
    app = make_app(session_path=str(path), workspace=session.load(path)[0])  # as --session
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        assert app.workbench().workspace.q[0] == (7.0, 0.2, 0.3)
        assert app.workbench().session_path is None
        assert app.workbench().has_unsaved_work()  # quitting asks, as after ctrl+o
        await pilot.press("ctrl+s")
        await pilot.pause()
        assert pilot.app.screen.query_one("#file-path").value == "attn-session.json"


def test_a_rescue_s_file_is_one_of_its_name_in_its_folder(data, tmp_path, monkeypatch):
    folder = rescue.folder()
    folder.mkdir(parents=True, exist_ok=True)
    assert rescue.holds(folder / "unsaved-20261207-151430.json")
    assert not rescue.holds(folder / "mine.json")
    assert not rescue.holds(tmp_path / "unsaved-20261207-151430.json")
    # in a browser rescues are among the learner's own files, listed with them: a save there
    # goes back in place, as to any of them
    from attn_tui.core.files import OWN_FOLDER_ENV

    monkeypatch.setenv(OWN_FOLDER_ENV, str(tmp_path))
    assert not rescue.holds(tmp_path / "unsaved-20261207-151430.json")


async def test_a_torch_session_opened_without_torch_has_nothing_unsaved(data, tmp_path,
                                                                        monkeypatch):
    """Its file was recorded as torch's, the workbench computed it with numpy: quitting asked
    about edits nobody had made."""
    import attn_tui.compute

    path = tmp_path / "t.json"
    session.save(state.on_backend(state.from_preset("mask"), "torch")[0], path)
    monkeypatch.setattr(attn_tui.compute, "torch_available", lambda: False)
    app = make_app()
    async with app.run_test(size=(80, 24), notifications=True) as pilot:
        await pilot.pause()
        await pilot.press("ctrl+o")
        await pilot.pause()
        pilot.app.screen.query_one("#file-path").value = str(path)
        await pilot.press("enter")
        await pilot.pause()
        bench = app.workbench()
        assert bench.workspace.backend == "numpy" and bench.session_path == str(path)
        assert not bench.has_unsaved_work()


async def test_a_rescue_opened_with_session_is_offered_no_more(data):
    await _edit_then(make_app(), lambda app: app.post_message(messages.ExitApp()))
    [path] = rescued(data)
    async with make_app(session_path=str(path)).run_test(size=(80, 24)) as pilot:
        await pilot.pause()
    assert rescue.unopened() == []


async def test_a_rescued_file_saved_again_is_not_told_of_again(data):
    """untold() went by the files' times: a rescued file the learner opened and saved with
    ctrl+s was told of again, as if another session had ended."""
    await _edit_then(make_app(), lambda app: app.post_message(messages.ExitApp()))
    [path] = rescued(data)
    async with make_app().run_test(size=(80, 24)) as pilot:
        await pilot.pause()
    session.save(session.load(path)[0], path)  # newer now
    assert rescue.untold() == []


def test_two_sessions_ending_in_the_same_second_keep_a_file_each(data):
    """Both took the name of that second, and the second rescue replaced the first."""
    [first], [second] = rescue.reserve(now=1e9), rescue.reserve(now=1e9)
    assert first != second and first.exists() and second.exists()
    assert second.name == first.name.replace(".json", "-2.json")


def test_the_files_of_one_ending_share_a_name_another_endings_never_do(data):
    """Each kind took its own -2: one app's edits were told of as going with another's run."""
    [alone] = rescue.reserve((".npz",), now=1e9)
    edits, run = rescue.reserve((".json", ".npz"), now=1e9)
    assert (alone.name, edits.name, run.name) == (
        alone.name, alone.name.replace(".npz", "-2.json"), alone.name.replace(".npz", "-2.npz"))
    assert not alone.with_suffix(".json").exists()  # taken, then given back
    assert rescue.endings([alone, edits, run]) == [[edits, run], [alone]]
    [later] = rescue.reserve((".json",), now=1e9)  # beside -2's pair, and alone's run
    assert later.name == alone.name.replace(".npz", "-3.json")


async def test_a_value_typed_at_a_hang_up_is_kept_but_meets_no_task(data):
    """A hang-up while 10 was typed into the task's cell counted the task as met, which
    quitting (it drops the value) never did."""
    import sys

    sys.path.insert(0, str(Path(__file__).parents[1] / "lessons"))
    from lesson_pilot import lesson_app, settle

    app = lesson_app("one", at=5)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await pilot.press("right", "right", "1", "0")
        app.post_message(messages.ExitApp())
        await pilot.pause()
    assert app.progress.load("one").tasks == frozenset()
    [path] = rescued(data)
    assert session.load(path)[0].q[0][2] == 10.0


async def test_in_a_browser_the_notice_names_the_file_alone(data, tmp_path, monkeypatch):
    """It gave the server's full path, the learner's cookie among its folders."""
    own = tmp_path / "learner" / "files"
    own.mkdir(parents=True)
    monkeypatch.setenv("ATTN_TUI_OWN_FOLDER", str(own))
    await _edit_then(make_app(), lambda app: app.post_message(messages.ExitApp()))
    [path] = own.glob("unsaved-*.json")
    app = make_app()
    async with app.run_test(size=(80, 24), notifications=True) as pilot:
        await pilot.pause()
        [said] = [str(n.message) for n in notifications(app) if n.title == "Unsaved edits kept"]
    assert said.endswith(f"They are kept in\n{path.name}\nctrl+o offers it.")


def test_paths_kept_are_said_folder_first_each_folder_once():
    from attn_tui.tui.app import folders_then_names

    assert folders_then_names(["~/a/unsaved/x.json", "~/a/unsaved/x.npz", "/tmp/y.json",
                               "z.json", "/"]) == [
        "~/a/unsaved/", "x.json", "x.npz", "/tmp/", "y.json", "z.json", "/"]


async def test_a_rescued_file_that_cannot_be_read_gives_way_to_the_next(data):
    """A damaged rescue, refused, was offered again at every ctrl+o: the files kept after it
    were never offered."""
    for _ in range(2):
        await _edit_then(make_app(), lambda app: app.post_message(messages.ExitApp()))
    first, second = rescued(data)
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await pilot.press("ctrl+o")
        await pilot.pause()
        offered = pilot.app.screen.query_one("#file-path").value
        damaged, other = (first, second) if offered == str(first) else (second, first)
        assert offered == str(damaged)
        damaged.write_text('{"format": "attn-tui-session", "vers')
        await pilot.press("enter")
        await pilot.pause()
        said = str(pilot.app.screen.query_one("#file-error").render())
        assert said.startswith("✗ Cannot open") and said.endswith(
            f"It is offered no more: Escape, then ctrl+o offers the next file kept, {other}."), said
        await pilot.press("escape", "ctrl+o")
        await pilot.pause()
        assert pilot.app.screen.query_one("#file-path").value == str(other)
    assert [str(p) for p in rescue.unopened()] == [str(other)]
