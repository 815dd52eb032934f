"""Saving is all or nothing: a save that fails anywhere leaves the old file and no litter."""

from __future__ import annotations

import errno
import os
import stat
from dataclasses import replace
from pathlib import Path

import pytest

from attn_tui.core import session, state
from attn_tui.core.session import SessionError

OLD = state.from_preset("one")
NEW = replace(state.from_preset("mask"), selected=3)


@pytest.fixture
def saved(tmp_path: Path) -> Path:
    path = tmp_path / "s.json"
    session.save(OLD, path)
    return path


def _litter(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.iterdir() if p.name != "s.json")


def test_save_replaces_the_file(saved: Path) -> None:
    session.save(NEW, saved)
    assert session.load(saved) == (NEW, "workbench")
    assert _litter(saved.parent) == []


def test_a_crash_between_write_and_rename_leaves_the_old_file(
        saved: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    before = saved.read_bytes()
    written: list[bytes] = []

    def crash(src, dst):
        written.append(Path(src).read_bytes())  # the new text was fully on disk, beside it
        raise OSError(errno.EIO, "Input/output error")

    monkeypatch.setattr(os, "replace", crash)
    with pytest.raises(SessionError, match=r"^Cannot save .*s\.json: input/output error\.$"):
        session.save(NEW, saved)
    assert saved.read_bytes() == before
    assert session.load(saved)[0] == OLD
    assert written == [session.to_json(NEW).encode()]
    assert _litter(saved.parent) == []


def test_an_interrupt_before_the_rename_leaves_the_old_file(
        saved: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    before = saved.read_bytes()

    def interrupted(src, dst):
        raise KeyboardInterrupt

    monkeypatch.setattr(os, "replace", interrupted)
    with pytest.raises(KeyboardInterrupt):
        session.save(NEW, saved)
    assert saved.read_bytes() == before
    assert _litter(saved.parent) == []


def test_a_full_disk_leaves_the_old_file(saved: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    before = saved.read_bytes()

    def full(fd):
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    monkeypatch.setattr(os, "fsync", full)
    with pytest.raises(SessionError, match="no space left on device"):
        session.save(NEW, saved)
    assert saved.read_bytes() == before
    assert _litter(saved.parent) == []


def test_saving_keeps_the_files_permissions(saved: Path) -> None:
    saved.chmod(0o640)
    session.save(NEW, saved)
    assert stat.S_IMODE(saved.stat().st_mode) == 0o640


def test_a_new_file_gets_the_usual_permissions(tmp_path: Path) -> None:
    old = os.umask(0o022)
    try:
        session.save(NEW, tmp_path / "n.json")
    finally:
        os.umask(old)
    assert stat.S_IMODE((tmp_path / "n.json").stat().st_mode) == 0o644


def test_saving_through_a_symlink_keeps_the_link(saved: Path) -> None:
    link = saved.parent / "link.json"
    link.symlink_to(saved)
    session.save(NEW, link)
    assert link.is_symlink()
    assert session.load(saved)[0] == NEW


@pytest.mark.parametrize(("make", "words"), [
    (lambda p: p.mkdir(), "it is a directory"),
    (lambda p: None, "its folder does not exist"),
])
def test_a_path_that_cannot_be_saved_to_says_why(tmp_path: Path, make, words: str) -> None:
    path = tmp_path / "x.json"
    make(path)
    target = path if words != "its folder does not exist" else tmp_path / "no" / "x.json"
    with pytest.raises(SessionError) as info:
        session.save(NEW, target)
    assert str(info.value) == f"Cannot save {target}: {words}."


def test_a_file_used_as_a_folder_says_so(tmp_path: Path) -> None:
    """notes.txt/x.json said only "not a directory"."""
    (tmp_path / "notes.txt").write_text("notes")
    target = tmp_path / "notes.txt" / "x.json"
    with pytest.raises(SessionError) as info:
        session.save(NEW, target)
    assert str(info.value) == f"Cannot save {target}: a part of its path is a file, not a folder."


def test_a_fifo_is_not_replaced_by_a_file(tmp_path: Path) -> None:
    """Saving to /dev/null as root replaced the device with a regular file (the write goes to
    a temporary file renamed over the target); a FIFO shows the same without root."""
    fifo = tmp_path / "pipe.json"
    os.mkfifo(fifo)
    with pytest.raises(SessionError) as info:
        session.save(NEW, fifo)
    assert str(info.value) == f"Cannot save {fifo}: it is not a regular file."
    assert stat.S_ISFIFO(fifo.stat().st_mode)
    assert [p.name for p in tmp_path.iterdir()] == ["pipe.json"]  # no temporary file left


def test_a_path_ending_in_a_slash_is_a_folder_not_a_file(tmp_path: Path) -> None:
    """"sub/" (no such folder) reported "Saved" and wrote a file called "sub"."""
    with pytest.raises(SessionError, match="a name ending in / is a folder, not a file"):
        session.save(NEW, f"{tmp_path / 'sub'}/")
    assert not (tmp_path / "sub").exists()


def test_a_read_only_file_is_not_replaced(saved: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    before = saved.read_bytes()
    saved.chmod(0o444)
    if os.geteuid() == 0:  # root may write anything; pretend to be a user
        monkeypatch.setattr(os, "access", lambda path, mode: False)
    with pytest.raises(SessionError, match="permission denied"):
        session.save(NEW, saved)
    assert saved.read_bytes() == before


def test_dirty_means_edited_since_saved() -> None:
    assert not session.is_dirty(OLD, OLD)
    assert not session.is_dirty(replace(NEW, selected=0), NEW)  # looking is not editing
    assert session.is_dirty(state.set_cell(OLD, "Q", 0, 0, 9.0), OLD)
    assert session.is_dirty(replace(OLD, mask="causal"), OLD)
    assert session.is_dirty(replace(OLD, dtype="float32"), OLD)


@pytest.mark.skipif(not os.path.isdir("/proc/self"), reason="needs /proc")
def test_a_folder_where_no_file_can_be_made_is_not_called_missing() -> None:
    # /proc exists, but creating a file there fails with ENOENT: "its folder does not exist"
    with pytest.raises(SessionError) as info:
        session.save(NEW, "/proc/x.json")
    assert str(info.value) == "Cannot save /proc/x.json: files cannot be created in its folder."


@pytest.mark.parametrize("path, kept", [
    ("mine.json", True), ("x/../mine.json", False), ("~mine.json", False), ("~root", False),
    ("/etc/passwd", False), ("../mine.json", False), ("sub/mine.json", False), ("..", False),
    (".", False), ("~/mine.json", False),
])
def test_a_browser_session_uses_only_names_in_its_own_folder(tmp_path, monkeypatch, path, kept):
    """Under serve the dialogs wrote and read any path the server's user could: /etc/shadow
    said "not valid JSON". ~root would be read as a home folder later, so it is refused too."""
    from attn_tui.core.files import OWN_FOLDER_ENV, outside_own_folder

    assert outside_own_folder(path) is None  # not a browser session: anywhere
    monkeypatch.setenv(OWN_FOLDER_ENV, str(tmp_path))
    said = outside_own_folder(path)
    assert (said is None) == kept
    if not kept:
        assert said.startswith("In the browser your files are kept in a folder of your own")


async def test_a_browser_sessions_open_dialog_names_the_sessions_in_its_folder(tmp_path,
                                                                              monkeypatch):
    """In the browser a learner had to remember the exact names: there is no file list."""
    import os
    import time

    from textual.widgets import Static

    from attn_tui.core.files import OWN_FOLDER_ENV
    from attn_tui.tui.app import make_app

    monkeypatch.setenv(OWN_FOLDER_ENV, str(tmp_path))
    app = make_app()
    async with app.run_test(size=(120, 30)) as pilot:
        await pilot.press("ctrl+o")
        await pilot.pause()
        title = str(app.screen.query_one("#file-title", Static).render())
        assert title == ("Open a session or a training run (you have saved none yet: ctrl+s "
                         "saves one)")
        await pilot.press("escape")
        for i, name in enumerate(("old.json", "run.npz", "new.json", "notes.md")):
            (tmp_path / name).write_text("{}")
            os.utime(tmp_path / name, (time.time() + i, time.time() + i))
        await pilot.press("ctrl+o")
        await pilot.pause()
        title = str(app.screen.query_one("#file-title", Static).render())
        assert title == "Open a session or a training run (yours: new.json, run.npz, old.json)"


def test_a_link_into_a_missing_folder_names_that_folder(tmp_path: Path) -> None:
    link = tmp_path / "x.json"
    link.symlink_to(tmp_path / "gone" / "deeper" / "x.json")
    with pytest.raises(SessionError) as info:
        session.save(NEW, link)
    assert str(info.value) == (f"Cannot save {link}: its folder {tmp_path}/gone/deeper does not "
                               "exist.")  # not the link's own folder, which is there


def test_a_relative_name_from_a_deleted_folder_is_one_sentence(tmp_path: Path,
                                                                monkeypatch) -> None:
    gone = tmp_path / "was-here"
    gone.mkdir()
    monkeypatch.chdir(gone)
    gone.rmdir()
    with pytest.raises(SessionError) as info:
        session.save(NEW, "x.json")
    assert str(info.value) == ("Cannot save x.json: the folder attn-tui runs in no longer exists, "
                               "so a name cannot be found from it; give the full path.")
