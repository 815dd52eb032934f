"""A learner's progress in the lessons, kept across runs: one small versioned JSON file per lesson.

The files live in the user's data directory (platformdirs), or in ``$ATTN_TUI_DATA_DIR`` when it
is set (a class account's per-student folder; the tests' tmp_path). ``--no-progress`` or
``ATTN_TUI_NO_PROGRESS=1`` keeps nothing. Each file holds the step to resume at (None once the
lesson was finished), the steps whose task was met, those whose goal only "show me" (y) met,
and the letter answered at each question.

A file that cannot be read, is not what this version writes, or comes from a newer version is
set aside (``NAME.json.bad``, or ``.bad-2`` … beside an earlier one) with a one-line notice, and
that lesson starts fresh; the other lessons' files are never touched. Saving merges with the file
as it is now, under a lock, so two attn-tui processes saving at once lose neither's tasks or
answers. A task, answer or finish that could not be written (a full disk, a folder made
read-only) is kept and goes with the next save that can be; ``unsaved`` says what is still
waiting. The step is not kept: the next move saves the step of that moment, and an old one
written later could move back another attn-tui's newer step.
"""

from __future__ import annotations

import contextlib
import errno
import os
import re
import stat
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from attn_tui.core.files import FileError, atomic_write, private_folders

VERSION = 1
APP = "attn-tui"
DIR_ENV = "ATTN_TUI_DATA_DIR"
OFF_ENV = "ATTN_TUI_NO_PROGRESS"
_NAME = re.compile(r"^[a-z0-9][a-z0-9_-]{0,63}$")
_MAX_BYTES = 64_000  # a real record is a few hundred bytes
LOCK_WAIT = 1.0  # seconds a save waits for another's lock before its change waits instead


@dataclass(frozen=True)
class Record:
    step: int | None = 0  # 0-based step to resume at; None: finished, start from the top
    tasks: frozenset[int] = frozenset()  # 0-based steps whose task was met
    answers: dict[int, int] = field(default_factory=dict)  # step -> letter index
    finished: bool = False  # reached the end at least once
    shown: frozenset[int] = frozenset()  # steps whose goal "show me" met, not the learner


def data_folder() -> Path:
    """attn-tui's data folder: ``$ATTN_TUI_DATA_DIR``, or the user's (platformdirs).
    Raises RuntimeError for a ~user whose home cannot be found."""
    if os.environ.get(DIR_ENV):
        return Path(os.environ[DIR_ENV]).expanduser()
    import platformdirs

    return Path(platformdirs.user_data_dir(APP, appauthor=False))


def folder(no_progress: bool = False) -> Path | None:
    """Where progress is kept, or None when nothing is to be kept."""
    if no_progress or os.environ.get(OFF_ENV, "").strip() not in ("", "0"):
        return None
    return data_folder() / "progress"


@dataclass
class _Waiting:
    """A lesson's changes that could not be written yet (all but its step)."""

    tasks: set[int] = field(default_factory=set)
    answers: dict[int, int] = field(default_factory=dict)
    finished: bool = False
    shown: set[int] = field(default_factory=set)
    reason: str = ""


class Progress:
    """Reads and saves the records; ``notices`` collects one line per file it had to set aside."""

    # what a learner can do about a folder that takes no progress
    MEND = (f"Tasks met and answers wait to be saved (the step reached does not), and quitting "
            f"first asks ({DIR_ENV}, set before starting, names another folder).")

    def __init__(self, where: Path | None) -> None:
        self.where = where
        self.notices: list[str] = []
        self._bad: set[str] = set()  # lessons whose file was unreadable: set aside on save
        self._waiting: dict[str, _Waiting] = {}  # changes not written yet, by lesson

    def unsaved(self) -> dict[str, str]:
        """Lessons with changes not written yet, each with the reason its last save gave."""
        return {lesson: w.reason for lesson, w in self._waiting.items()}

    def save_waiting(self) -> dict[str, str]:
        """Try once more to write every lesson's waiting changes; what is still not written."""
        for lesson in list(self._waiting):
            self.save(lesson)
        return self.unsaved()

    @classmethod
    def from_env(cls, no_progress: bool = False) -> Progress:
        return cls(folder(no_progress))

    @property
    def kept(self) -> bool:
        return self.where is not None

    def _path(self, lesson: str) -> Path:
        assert self.where is not None and _NAME.match(lesson), lesson
        return self.where / f"{lesson}.json"

    def _unusable(self) -> str | None:
        """Why no progress can be kept at all (a file where the folder should be), or None:
        said once, not once per lesson as each file failed to open."""
        assert self.where is not None
        for p in (self.where, *self.where.parents):
            if p.exists():
                return None if p.is_dir() else f"{p} is a file, not a folder"
        return None

    def unreadable(self, lesson: str) -> bool:
        """Whether ``lesson``'s file could not be used when it was loaded (a notice says why)."""
        if "" in self._bad and self._unusable() is None:  # mended while the app ran
            self._bad.discard("")
        return lesson in self._bad or "" in self._bad

    def load(self, lesson: str) -> Record:
        if self.where is None or not _NAME.match(lesson):
            return Record()
        unusable = self._unusable()
        if unusable is not None:
            if "" not in self._bad:
                self._bad.add("")
                self.notices.append(f"Progress cannot be kept: {unusable}. Lessons start "
                                    f"fresh and nothing is saved (see {DIR_ENV}).")
            return Record()
        record, problem = _read(self._path(lesson))
        if problem is not None and lesson not in self._bad:
            self._bad.add(lesson)
            self.notices.append(f"Progress in lesson {lesson} could not be used ({problem}): "
                                "that lesson starts fresh; the others keep theirs.")
        return record or Record()

    def save(self, lesson: str, *, step: int | None | type[Ellipsis] = ...,
             task: int | None = None, answer: tuple[int, int] | None = None,
             finished: bool = False, shown: int | None = None) -> str | None:
        """Merge one change, and any earlier ones not written yet, into the lesson's file; the
        reason if it could not be written (the changes then wait for the next save)."""
        if self.where is None or not _NAME.match(lesson):
            return None
        w = self._waiting.pop(lesson, None) or _Waiting()
        w.tasks |= {task} if task is not None else set()
        w.answers.update([answer] if answer is not None else [])
        w.finished = w.finished or finished
        w.shown |= {shown} if shown is not None else set()
        failed = self._write(lesson, w, step)
        if failed is not None and (w.tasks or w.answers or w.finished or w.shown):
            # the change waits, even where no folder can be used: mended while the app runs
            # (the file in its place taken away), a task solved meanwhile was lost
            w.reason = failed
            self._waiting[lesson] = w
        # a folder that cannot be used at all is said once, by the notice of the first read
        said = failed is not None and "" in self._bad and self._unusable() is not None
        return None if said else failed

    def _write(self, lesson: str, w: _Waiting,
               step: int | None | type[Ellipsis] = ...) -> str | None:
        assert self.where is not None
        path = self._path(lesson)
        unusable = self._unusable()
        if unusable is not None:
            return f"Progress not saved: {unusable}."
        try:
            private_folders(path.parent)
            with _locked(path.parent / ".lock"):
                now, problem = _read(path)
                if problem is not None and path.exists():
                    with contextlib.suppress(OSError):  # kept for a look, out of the way
                        os.replace(path, _aside(path))
                now = now or Record()
                new = Record(
                    step=now.step if step is ... else step,  # type: ignore[arg-type]
                    tasks=now.tasks | w.tasks, answers={**now.answers, **w.answers},
                    finished=now.finished or w.finished, shown=now.shown | w.shown)
                atomic_write(path, _dump(new).encode("utf-8"), verb="save progress to")
        except FileError as exc:  # the reason alone: "Progress not saved" says the verb
            where = f" ({exc.path})" if exc.path else ""
            return f"Progress not saved: {exc.reason.rstrip('.')}{where}."
        except OSError as exc:  # in words, not "[Errno 13] …"
            name = exc.filename and Path(exc.filename)
            if name and name.name == ".lock":  # a file of ours: the folder is what to mend
                name = name.parent
            where = f" ({name})" if name else ""
            return f"Progress not saved: {(exc.strerror or str(exc)).lower()}{where}."
        return None

    def reset(self, lesson: str | None = None) -> tuple[int, list[str]]:
        """Remove every lesson's record, or ``lesson``'s: how many files went, and why each
        that stayed could not go ("select.json: permission denied"). A file set aside
        (NAME.json.bad) stays: it may be the only copy of what it held. So does one this
        attn-tui cannot read (damaged, or a newer attn-tui's): it is set aside, not removed.
        Raises OSError if the folder's lock cannot be had."""
        if self.where is None or not self.where.is_dir():
            return 0, []
        gone, stayed = 0, []
        with _locked(self.where / ".lock"):
            for f in sorted(self.where.iterdir()):
                if f.name == f"{lesson}.json" if lesson else f.name.endswith(".json"):
                    try:
                        if _read(f)[1] is not None:
                            f.replace(_aside(f))
                        else:
                            f.unlink()
                    except OSError as exc:
                        stayed.append(f"{f.name}: {(exc.strerror or str(exc)).lower()}")
                    else:
                        gone += 1
        return gone, stayed


def _aside(path: Path) -> Path:
    """Where a damaged file goes: NAME.json.bad, or the first free .bad-N beside earlier ones,
    each maybe the only copy of what it held."""
    n = 1
    while (aside := path.with_name(path.name + (".bad" if n == 1 else f".bad-{n}"))).exists():
        n += 1
    return aside


def _dump(r: Record) -> str:
    import json  # here, not at the top: the app builds a Progress before its first frame

    return json.dumps({"version": VERSION, "step": r.step, "tasks": sorted(r.tasks),
                       "answers": {str(k): v for k, v in sorted(r.answers.items())},
                       "finished": r.finished, "shown": sorted(r.shown)}, indent=1) + "\n"


def _read(path: Path) -> tuple[Record | None, str | None]:
    """The record in ``path`` (None if there is none), and what is wrong with it if anything."""
    try:
        # not blocking: a FIFO in a lesson's place froze the app until something wrote into it
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
        with open(fd, "rb") as f:
            if not stat.S_ISREG(os.fstat(fd).st_mode):
                return None, "it is not a regular file"
            data = f.read(_MAX_BYTES + 1)
    except FileNotFoundError:
        return None, None
    except OSError as exc:
        return None, f"cannot be read: {exc.strerror or exc}"
    if len(data) > _MAX_BYTES:
        return None, "too large to be a progress file"
    import json  # as in _dump

    try:
        raw = json.loads(data.decode("utf-8"))
    except (UnicodeDecodeError, ValueError, RecursionError):
        return None, "not valid JSON"
    try:
        return _record(raw), None
    except ValueError as exc:
        return None, str(exc)


def _record(raw: Any) -> Record:
    if not isinstance(raw, dict):
        raise ValueError("not a progress record")
    version = raw.get("version")
    if not _whole(version):
        raise ValueError("no version")
    if version > VERSION:
        raise ValueError(f"written by a newer attn-tui, version {version}")
    step, tasks, answers = raw.get("step", 0), raw.get("tasks", []), raw.get("answers", {})
    finished, shown = raw.get("finished", False), raw.get("shown", [])
    if step is not None and not _whole(step):
        raise ValueError("its step is not a step number (a whole number from 0)")
    if not isinstance(tasks, list) or not all(_whole(t) for t in tasks):
        raise ValueError("its tasks are not step numbers")
    if not isinstance(answers, dict) or not all(
            isinstance(k, str) and k.isdecimal() and len(k) < 6 and _whole(v) and v < 4
            for k, v in answers.items()):
        raise ValueError("its answers are not letters by step")
    if not isinstance(finished, bool):
        raise ValueError("'finished' is not true or false")
    if not isinstance(shown, list) or not all(_whole(t) for t in shown):
        raise ValueError("its shown tasks are not step numbers")
    return Record(step, frozenset(tasks), {int(k): v for k, v in answers.items()}, finished,
                  frozenset(shown))


def _whole(x: Any) -> bool:
    return isinstance(x, int) and not isinstance(x, bool) and 0 <= x < 100_000


@contextlib.contextmanager
def _locked(lock: Path) -> Iterator[None]:
    """One saver at a time across processes (a lock file; advisory, as every attn-tui asks)."""
    with open(lock, "a+b") as f:
        try:
            import fcntl
        except ImportError:  # Windows: msvcrt locks a byte range instead
            import msvcrt

            f.seek(0)
            msvcrt.locking(f.fileno(), msvcrt.LK_LOCK, 1)
            try:
                yield
            finally:
                f.seek(0)
                msvcrt.locking(f.fileno(), msvcrt.LK_UNLCK, 1)
            return
        # a while at most: another attn-tui saves in milliseconds, and the wait is on the app's
        # event loop (a lock held by something else froze the screen for as long)
        deadline = time.monotonic() + LOCK_WAIT
        while True:
            try:
                fcntl.flock(f.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
                break
            except BlockingIOError:
                if time.monotonic() > deadline:
                    raise OSError(errno.EWOULDBLOCK, "another program holds its lock",
                                  str(lock)) from None
                time.sleep(0.01)
        try:
            yield
        finally:
            fcntl.flock(f.fileno(), fcntl.LOCK_UN)
