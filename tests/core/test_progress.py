"""Lesson progress kept across runs: versioned per-lesson JSON, saved atomically and merged under a
lock; a bad or newer file is set aside with a notice and never touches another lesson's record."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from progress_faults import read_only

from attn_tui.core.progress import VERSION, Progress, Record, folder
from attn_tui.lessons import lesson_cli, names, standing
from attn_tui.lessons.loader import LessonError  # noqa: F401  (lessons load for the listing)

ROOT = Path(__file__).resolve().parents[2]


def test_the_tests_keep_progress_in_a_tmp_folder_never_the_users(progress_dir):
    assert folder() == progress_dir
    assert "ATTN_TUI_DATA_DIR" in os.environ


def test_no_progress_flag_or_env_keeps_nothing(progress_dir, monkeypatch):
    assert folder(no_progress=True) is None
    monkeypatch.setenv("ATTN_TUI_NO_PROGRESS", "1")
    p = Progress.from_env()
    assert p.where is None and p.save("one", step=3) is None
    assert not progress_dir.exists()
    assert p.load("one") == Record()


def test_saved_changes_merge_and_come_back(progress_dir):
    p = Progress.from_env()
    p.save("select", step=3)
    p.save("select", task=1)
    p.save("select", answer=(2, 1))
    p.save("select", task=3, step=4)
    r = Progress.from_env().load("select")
    assert r == Record(step=4, tasks=frozenset({1, 3}), answers={2: 1}, finished=False)
    raw = json.loads((progress_dir / "select.json").read_text())
    assert raw["version"] == VERSION
    p.save("select", step=None, finished=True)
    assert Progress.from_env().load("select").finished


def _write(progress_dir: Path, name: str, data: bytes) -> None:
    progress_dir.mkdir(parents=True, exist_ok=True)
    (progress_dir / f"{name}.json").write_bytes(data)


def test_a_corrupt_file_is_a_notice_and_a_fresh_start_for_that_lesson_only(progress_dir):
    Progress.from_env().save("one", task=4, step=5)
    _write(progress_dir, "mask", b"{not json")
    p = Progress.from_env()
    assert p.load("mask") == Record()
    assert len(p.notices) == 1 and "\n" not in p.notices[0]
    assert p.notices[0].startswith("Progress in lesson mask could not be used (not valid JSON)")
    assert p.load("one").tasks == {4}  # another lesson's record is untouched
    p.save("mask", step=1)  # the bad file is set aside, not lost
    assert (progress_dir / "mask.json.bad").read_bytes() == b"{not json"
    assert Progress.from_env().load("mask").step == 1


def test_a_file_from_a_newer_version_is_a_notice_not_a_crash(progress_dir):
    _write(progress_dir, "one", json.dumps({"version": VERSION + 1, "step": 2}).encode())
    p = Progress.from_env()
    assert p.load("one") == Record()
    assert f"written by a newer attn-tui, version {VERSION + 1}" in p.notices[0]


def test_a_negative_step_is_said_as_such_not_as_not_a_whole_number(progress_dir):
    _write(progress_dir, "one", json.dumps({"version": VERSION, "step": -3}).encode())
    p = Progress.from_env()
    assert p.load("one") == Record()
    assert "its step is not a step number (a whole number from 0)" in p.notices[0]


CONTENTS = st.one_of(
    st.binary(max_size=300),
    st.text(max_size=200).map(str.encode),
    st.recursive(st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=8),
                 lambda kids: st.lists(kids, max_size=4)
                 | st.dictionaries(st.sampled_from(["version", "step", "tasks", "answers",
                                                    "finished", "x", "1"]), kids, max_size=5),
                 max_leaves=12).map(lambda x: json.dumps(x).encode()),
)


@settings(max_examples=150, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=CONTENTS)
def test_fuzzed_file_contents_never_crash_and_never_touch_another_lesson(progress_dir, data,
                                                                          capsys):
    good = Progress(progress_dir)
    good.save("one", task=4, step=2, answer=(2, 0))
    kept = (progress_dir / "one.json").read_bytes()
    _write(progress_dir, "select", data)
    p = Progress(progress_dir)
    r = p.load("select")
    assert isinstance(r, Record)
    rows = standing(p)  # the --lesson list numbers
    assert len(rows) == len(names())
    assert lesson_cli("list", None, False) == 0  # type: ignore[arg-type]
    out = capsys.readouterr().out
    assert "Next: " in out and "1/2 tasks" in out.split("select")[0]  # one's 1 of 2
    p.save("select", step=1)
    assert (progress_dir / "one.json").read_bytes() == kept
    assert Progress(progress_dir).load("one") == Record(2, frozenset({4}), {2: 0})
    assert Progress(progress_dir).load("select").step == 1


SAVER = """
import sys
from attn_tui.core.progress import Progress
p = Progress.from_env()
who, n = int(sys.argv[1]), int(sys.argv[2])
for i in range(n):
    failed = p.save("one", task=who * 1000 + i, answer=(who * 1000 + i, who))
    assert failed is None, failed
"""


def test_two_processes_saving_at_once_lose_neither_ones_progress(progress_dir):
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    n = 60
    procs = [subprocess.Popen([sys.executable, "-c", SAVER, str(who), str(n)], env=env)
             for who in (1, 2)]
    assert [proc.wait(timeout=120) for proc in procs] == [0, 0]
    r = Progress.from_env().load("one")
    assert r.tasks == {w * 1000 + i for w in (1, 2) for i in range(n)}
    assert len(r.answers) == 2 * n


def _cli(*args: str, stdin: str = "") -> subprocess.CompletedProcess:
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    return subprocess.run([sys.executable, "-m", "attn_tui", *args], input=stdin, env=env,
                          capture_output=True, text=True, timeout=120)


def test_progress_reset_asks_then_clears(progress_dir):
    Progress.from_env().save("one", task=4)
    Progress.from_env().save("mask", step=2)
    (progress_dir / "learning.json.bad").write_text("{damaged")  # set aside: the only copy
    no = _cli("--progress", "reset", stdin="n\n")
    # asked on standard error, as rm -i asks: standard output may be a pipe
    assert no.returncode == 1 and "Clear the progress of 2 lessons kept in" in no.stderr
    assert no.stdout == "Nothing cleared.\n" and (progress_dir / "one.json").exists()
    silent = _cli("--progress", "reset")  # no answer at all: nothing goes
    assert silent.returncode == 1 and (progress_dir / "one.json").exists()
    yes = _cli("--progress", "reset", stdin="y\n")
    assert yes.returncode == 0 and "cleared" in yes.stdout
    assert not list(progress_dir.glob("*.json"))
    assert (progress_dir / "learning.json.bad").read_text() == "{damaged"
    assert yes.stdout.rstrip().endswith(
        " A file attn-tui could not read stays, set aside there: learning.json.bad.")


def _sh(script: str) -> subprocess.CompletedProcess:
    env = dict(os.environ, PYTHONPATH=str(ROOT), PY=sys.executable)
    return subprocess.run(["bash", "-c", script], env=env, capture_output=True, text=True,
                          timeout=120)


def test_progress_reset_without_a_usable_stdin_or_stdout_is_one_sentence(progress_dir):
    """input() lost sys.stdin, or sys.stdout, or met a full disk: a traceback each time; in
    `| head -c 5` the progress was cleared, then a BrokenPipeError said otherwise."""
    Progress.from_env().save("one", task=4)
    closed = _sh('"$PY" -m attn_tui --progress reset <&-')
    assert (closed.returncode, closed.stderr) == (2, (
        "attn-tui: cannot ask before clearing: standard input is closed. Nothing cleared "
        "(echo y | attn-tui --progress reset answers for you)\n"))
    assert (progress_dir / "one.json").exists()
    full = _sh('echo y | "$PY" -m attn_tui --progress reset >/dev/full')
    assert full.returncode == 2 and "Traceback" not in full.stderr
    assert full.stderr.endswith("\nattn-tui: progress cleared, but cannot write to standard "
                                "output: no space left on device.\n")
    assert not (progress_dir / "one.json").exists()
    Progress.from_env().save("one", task=4)
    out = _sh('echo y | "$PY" -m attn_tui --progress reset >&-; echo "rc=$?" >&2')
    assert out.stderr.endswith("attn-tui: progress cleared, but cannot write to standard "
                               "output: it is closed.\nrc=2\n")
    Progress.from_env().save("one", task=4)
    piped = _sh('echo y | "$PY" -m attn_tui --progress reset | head -c 5; '
                'echo " rc=${PIPESTATUS[1]}"')
    assert piped.stdout == "Lesso rc=0\n" and "Traceback" not in piped.stderr
    assert not (progress_dir / "one.json").exists()
    nothing = _sh('"$PY" -m attn_tui --progress reset >/dev/full')
    assert nothing.returncode == 2 and nothing.stderr == (
        "attn-tui: Cannot write to standard output: no space left on device.\n")


def test_a_failure_said_where_stderr_is_full_or_closed_still_exits_2():
    for where in ("2>/dev/full", "2>&-"):
        out = _sh(f'"$PY" -m attn_tui --session /nonexistent/x.json {where}; echo "rc=$?"')
        assert out.stdout == "rc=2\n"


def test_progress_reset_sets_aside_a_file_it_cannot_read_instead_of_removing_it(progress_dir):
    """A newer attn-tui's file (or a damaged one) not yet set aside was removed with the rest:
    the only copy of what it held."""
    Progress.from_env().save("one", task=4)
    newer = '{"version": 99, "step": 3}'
    (progress_dir / "mask.json").write_text(newer)
    (progress_dir / "select.json").write_text("{damaged")
    yes = _cli("--progress", "reset", stdin="y\n")
    assert yes.returncode == 0 and "Clear the progress of 3 lessons" in yes.stderr
    assert not list(progress_dir.glob("*.json"))
    assert (progress_dir / "mask.json.bad").read_text() == newer
    assert (progress_dir / "select.json.bad").read_text() == "{damaged"
    assert yes.stdout.rstrip().endswith(" Files attn-tui could not read stay, set aside there: "
                                        "mask.json.bad, select.json.bad.")


def test_lesson_list_shows_tasks_and_questions_and_the_next_lesson(progress_dir):
    p = Progress.from_env()
    p.save("one", task=4)
    p.save("one", task=5)
    p.save("one", answer=(2, 1), step=None, finished=True)
    out = _cli("--lesson", "list").stdout.splitlines()
    assert out[1].split() == ["2/2", "tasks", "·", "1/1", "answered", "·", "finished"]
    assert out[3].split() == ["0/3", "tasks", "·", "0/2", "answered"]
    assert out[-1] == "Next: select (When attention selects): attn-tui --lesson select"
    bare = _cli("--no-progress", "--lesson", "list").stdout.splitlines()
    assert len(bare) == len(names()) and "tasks" not in bare[1]


def test_a_data_directory_that_is_a_file_is_said_once_in_words(tmp_path, monkeypatch, capsys):
    # each lesson said "could not be used (cannot be read: Not a directory): the others keep
    # theirs" (none did), and a save said "[Errno 20] Not a directory: '…/progress'"
    there = tmp_path / "datafile"
    there.write_text("x")
    monkeypatch.setenv("ATTN_TUI_DATA_DIR", str(there))
    p = Progress.from_env()
    assert p.load("one") == Record() and p.load("select") == Record()
    assert p.notices == [f"Progress cannot be kept: {there} is a file, not a folder. Lessons "
                         "start fresh and nothing is saved (see ATTN_TUI_DATA_DIR)."]
    assert p.save("one", step=2) is None  # the notice said nothing is saved: not twice
    assert Progress.from_env().save("one", step=2) == (
        f"Progress not saved: {there} is a file, not a folder.")  # a save with no read first
    assert there.read_text() == "x"
    assert lesson_cli("list", None, False) == 0  # type: ignore[arg-type]
    out = capsys.readouterr().out
    assert out.count("Progress cannot be kept") == 1 and "could not be used" not in out


def test_a_file_that_cannot_be_written_is_said_in_words(progress_dir, monkeypatch):
    import attn_tui.core.progress as progress

    def refuse(path, data, verb):
        raise PermissionError(13, "Permission denied", str(path))

    monkeypatch.setattr(progress, "atomic_write", refuse)
    said = Progress(progress_dir).save("one", step=1)
    assert said == f"Progress not saved: permission denied ({progress_dir / 'one.json'})."


def test_changes_a_failed_save_could_not_write_go_with_the_next_save_that_can(
        progress_dir, monkeypatch):
    # an answer given while the folder was read-only was lost for good: the next save, once
    # it could write again, wrote only its own change
    p = Progress(progress_dir)
    p.save("mask", step=2)
    writable = read_only(monkeypatch)
    assert p.save("mask", answer=(2, 1)).startswith("Progress not saved: read-only file system")
    p.save("mask", task=3)
    assert set(p.unsaved()) == {"mask"}
    assert p.save_waiting() == p.unsaved() and "read-only" in p.unsaved()["mask"]
    writable()
    assert p.save("mask", step=4) is None
    assert p.unsaved() == {}
    assert Progress(progress_dir).load("mask") == Record(step=4, tasks=frozenset({3}),
                                                          answers={2: 1})


def test_a_second_damaged_file_is_set_aside_beside_the_first_not_over_it(progress_dir):
    _write(progress_dir, "one", b'{"version":1,"step":4,"tas')
    p = Progress.from_env()
    p.load("one")
    p.save("one", step=1)
    _write(progress_dir, "one", b"SECOND GARBAGE")
    p = Progress.from_env()
    p.load("one")
    p.save("one", step=2)
    assert (progress_dir / "one.json.bad").read_bytes() == b'{"version":1,"step":4,"tas'
    assert (progress_dir / "one.json.bad-2").read_bytes() == b"SECOND GARBAGE"
    assert Progress.from_env().load("one").step == 2


def test_a_folder_that_takes_no_lock_is_named_not_its_lock_file(progress_dir, monkeypatch):
    import attn_tui.core.progress as progress

    def refuse(lock):
        raise OSError(30, "Read-only file system", str(lock))

    monkeypatch.setattr(progress, "_locked", refuse)
    said = Progress(progress_dir).save("one", step=1)
    assert said == f"Progress not saved: read-only file system ({progress_dir})."


def test_progress_reset_of_one_lesson_asks_then_clears_only_that_one(progress_dir):
    # --progress reset --lesson mask went on to clear every lesson's progress
    Progress.from_env().save("one", task=4)
    Progress.from_env().save("mask", step=2)
    (progress_dir / "mask.json.bad-2").write_text("{damaged")
    yes = _cli("--progress", "reset", "--lesson", "mask", stdin="y\n")
    assert yes.returncode == 0
    assert "Clear the progress of lesson mask kept in" in yes.stderr
    assert "Lesson progress cleared: lesson mask starts at its first step." in yes.stdout
    assert yes.stdout.rstrip().endswith(" set aside there: mask.json.bad-2.")
    assert not (progress_dir / "mask.json").exists()
    assert Progress.from_env().load("one").tasks == {4}
    again = _cli("--progress", "reset", "--lesson", "mask")
    assert again.returncode == 0 and "No lesson progress is kept for lesson mask" in again.stdout
    unknown = _cli("--progress", "reset", "--lesson", "nope")
    assert unknown.returncode == 2 and "usage: attn-tui" in unknown.stderr
    # as --lesson nope says it: the usage, then the lessons in teaching order
    assert unknown.stderr.strip().splitlines()[-1].startswith(
        "attn-tui: error: argument --lesson: unknown lesson 'nope' (choose from one, select, ")
    listed = _cli("--progress", "reset", "--lesson", "list")
    assert listed.returncode == 2 and "not allowed with --lesson list" in listed.stderr
    assert Progress.from_env().load("one").tasks == {4}


@pytest.mark.parametrize("flag", [["--preset", "mask"], ["--lab", "train"], ["--theme", "nord"],
                                  ["--no-mouse"], ["--session", "nowhere.json"]])
def test_progress_reset_refuses_flags_it_would_ignore(progress_dir, flag):
    """--progress reset --preset mask read as "reset mask", and y cleared every lesson."""
    Progress.from_env().save("mask", step=2)
    said = _cli("--progress", "reset", *flag, stdin="y\n")
    assert said.returncode == 2 and "Clear the progress" not in said.stdout + said.stderr
    assert said.stderr.strip().splitlines()[-1] == (
        f"attn-tui: error: argument {flag[0]}: not used by --progress reset, which only clears "
        "lessons' progress (--lesson NAME: one lesson's)")
    assert Progress.from_env().load("mask").step == 2


def test_progress_reset_refuses_no_progress_as_a_flag_that_does_not_go_with_it(
        progress_dir, monkeypatch):
    """It said "no progress is kept here … so there is none to clear", beside a progress
    folder that held a lesson's."""
    Progress.from_env().save("one", step=2)
    said = _cli("--progress", "reset", "--lesson", "one", "--no-progress", stdin="y\n")
    assert said.returncode == 2 and "none to clear" not in said.stderr
    assert said.stderr.strip().splitlines()[-1] == (
        "attn-tui: error: argument --no-progress: not allowed with --progress reset "
        "(--no-progress starts the app keeping no progress; --progress reset clears what is "
        "kept)")
    assert Progress.from_env().load("one").step == 2
    monkeypatch.setenv("ATTN_TUI_NO_PROGRESS", "1")  # kept nowhere: nothing to clear
    said = _cli("--progress", "reset")
    assert said.returncode == 2 and said.stderr.strip() == (
        "attn-tui: no progress is kept here (ATTN_TUI_NO_PROGRESS is set), so there is none "
        "to clear")


def test_a_step_that_waited_never_moves_back_another_processs_newer_step(
        progress_dir, monkeypatch):
    # A's failed step 3, written at its next save, undid B's step 6 and finish
    a = Progress(progress_dir)
    a.save("mask", step=2)
    writable = read_only(monkeypatch)
    assert a.save("mask", step=3, answer=(2, 1)) is not None
    writable()
    b = Progress(progress_dir)
    b.save("mask", step=6, task=4)
    b.save("mask", step=None, finished=True)
    assert a.save_waiting() == {}
    assert Progress(progress_dir).load("mask") == Record(
        step=None, tasks=frozenset({4}), answers={2: 1}, finished=True)


def test_a_full_disk_is_said_as_one_reason_not_two_sentences(progress_dir, monkeypatch):
    import attn_tui.core.progress as progress
    from attn_tui.core.files import FileError

    def full(path, data, verb):
        raise FileError("no space left on device", str(path), verb)

    monkeypatch.setattr(progress, "atomic_write", full)
    said = Progress(progress_dir).save("one", task=1)
    assert said == f"Progress not saved: no space left on device ({progress_dir / 'one.json'})."


def test_the_folders_attn_tui_makes_for_its_own_files_are_its_owners_alone(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # on a class's server a home made with umask 022 lets every account list it: students
    # read each other's answers (progress) and rescued work
    from attn_tui.core import rescue

    data = tmp_path / "home" / ".local" / "share" / "attn-tui"
    monkeypatch.setenv("ATTN_TUI_DATA_DIR", str(data))
    (tmp_path / "home").mkdir(mode=0o755)
    old = os.umask(0o022)
    try:
        assert Progress.from_env().save("select", step=1) is None
        [kept] = rescue.reserve()
    finally:
        os.umask(old)
    modes = {p.relative_to(tmp_path).as_posix(): oct(p.stat().st_mode & 0o777)
             for p in (tmp_path / "home", *sorted(tmp_path.glob("home/**/")))}
    assert modes == {"home": "0o755", "home/.local": "0o700", "home/.local/share": "0o700",
                     "home/.local/share/attn-tui": "0o700",
                     "home/.local/share/attn-tui/progress": "0o700",
                     "home/.local/share/attn-tui/unsaved": "0o700"}
    assert kept.parent == data / "unsaved"


def test_a_data_folder_already_there_keeps_its_mode(tmp_path: Path,
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    data = tmp_path / "data"
    data.mkdir(mode=0o755)
    monkeypatch.setenv("ATTN_TUI_DATA_DIR", str(data))
    assert Progress.from_env().save("select", step=1) is None
    assert oct(data.stat().st_mode & 0o777) == "0o755"
    assert oct((data / "progress").stat().st_mode & 0o777) == "0o700"


@pytest.mark.parametrize("given", ["new/../data", "rel"])
def test_a_data_folder_named_with_dot_dot_or_relatively_is_made_as_given(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, given: str) -> None:
    from attn_tui.core import rescue

    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("ATTN_TUI_DATA_DIR", given)
    assert Progress.from_env().save("select", step=1) is None
    [kept] = rescue.reserve()
    where = tmp_path / given.split("/")[-1]
    assert (where / "progress" / "select.json").exists()
    assert kept.resolve().parent == (where / "unsaved").resolve()


def test_progress_reset_with_a_lock_it_cannot_open_is_one_sentence(progress_dir):
    # a .lock that is a folder (or, not as root, a read-only progress folder): a traceback
    Progress.from_env().save("one", task=4)
    (progress_dir / ".lock").unlink()
    (progress_dir / ".lock").mkdir()
    out = _cli("--progress", "reset", stdin="y\n")
    assert out.returncode == 2 and "Traceback" not in out.stderr
    assert out.stderr.splitlines()[-1] == (f"attn-tui: progress not cleared: is a directory "
                                  f"({progress_dir})")
    assert (progress_dir / "one.json").exists()


def test_progress_reset_names_what_it_could_not_remove(progress_dir, monkeypatch):
    # a read-only folder kept every file, and the command said "Lesson progress cleared"
    Progress.from_env().save("one", task=4)
    Progress.from_env().save("mask", step=2)

    def refuse(path):
        raise PermissionError(13, "Permission denied", str(path))

    monkeypatch.setattr(Path, "unlink", refuse)
    assert Progress.from_env().reset() == (0, ["mask.json: permission denied",
                                               "one.json: permission denied"])


def test_a_fifo_in_a_lessons_place_is_set_aside_not_waited_on(progress_dir):
    # `mkfifo one.json`: --lesson list never ended, and g froze the app until ctrl+q did nothing
    Progress.from_env().save("mask", step=2)
    os.mkfifo(progress_dir / "one.json")
    p = Progress.from_env()
    assert p.load("one") == Record() and p.load("mask").step == 2
    assert p.notices == ["Progress in lesson one could not be used (it is not a regular file): "
                         "that lesson starts fresh; the others keep theirs."]
    out = _cli("--lesson", "list")
    assert out.returncode == 0 and "one" in out.stdout


def test_a_lock_held_elsewhere_makes_a_change_wait_not_the_screen(progress_dir, monkeypatch):
    # `flock .lock sleep 20`: p p n did nothing for 20 s, the app's loop waiting on the lock
    import fcntl

    import attn_tui.core.progress as progress

    monkeypatch.setattr(progress, "LOCK_WAIT", 0.05)
    p = Progress.from_env()
    p.save("one", step=1)
    with open(progress_dir / ".lock", "a+b") as held:
        fcntl.flock(held.fileno(), fcntl.LOCK_EX)
        assert p.save("one", task=4) == (
            f"Progress not saved: another program holds its lock ({progress_dir}).")
        fcntl.flock(held.fileno(), fcntl.LOCK_UN)
    assert p.save("one", step=2) is None  # the change waited, and is written with the next
    assert Progress.from_env().load("one").tasks == {4}


def test_a_task_solved_while_the_folder_is_unusable_is_written_once_it_is_mended(
        tmp_path, monkeypatch):
    # a file where the data folder goes, taken away while the app ran: the next save wrote
    # the step, and the task solved meanwhile was gone ("tasks": [])
    there = tmp_path / "data"
    there.write_text("x")
    monkeypatch.setenv("ATTN_TUI_DATA_DIR", str(there))
    p = Progress.from_env()
    assert p.load("one") == Record() and len(p.notices) == 1  # said once, on reading
    assert p.save("one", task=4) is None  # not said again
    assert p.unsaved() == {"one": f"Progress not saved: {there} is a file, not a folder."}
    assert p.unreadable("mask")  # Go to says so of every lesson
    there.unlink()
    assert p.save("one", step=5) is None and p.unsaved() == {}
    assert Progress.from_env().load("one") == Record(step=5, tasks=frozenset({4}))
    assert not p.unreadable("mask")  # mended: no more


@pytest.mark.parametrize(("word", "said"), [
    ("list", "invalid choice: 'list' (choose from 'reset'); --lesson list lists each lesson's "
             "progress"),
    ("bogus", "invalid choice: 'bogus' (choose from 'reset')\n"),
])
def test_progress_takes_reset_and_points_list_at_lesson_list(capsys, word, said):
    from attn_tui.cli.main import main

    with pytest.raises(SystemExit) as done:
        main(["--progress", word])
    assert done.value.code == 2
    assert said in capsys.readouterr().err
