"""Keyboard-driven lessons: one TOML file per lesson in this folder, read and checked by the loader.

Adding a lesson is adding a file: ``catalog()`` finds every ``*.toml`` here and orders them by
their ``order`` field, then by name. No textual is imported on this path.
"""

from __future__ import annotations

import argparse
from collections.abc import Iterable
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources

from attn_tui.lessons.loader import Highlight, Lesson, LessonError, Question, Step, load_file

__all__ = ["Entry", "Highlight", "Lesson", "LessonError", "Question", "Step", "catalog",
           "in_order", "is_done", "lesson_cli", "load", "names", "progress_words"]


@dataclass(frozen=True)
class Entry:
    name: str
    title: str
    summary: str
    missing: str | None = None  # why it cannot run here
    needs: str = "torch"  # what it needs, in words

    def line(self, width: int = 9) -> str:
        """The lesson's line in ``--lesson list``, its name padded to ``width`` columns."""
        note = f" (needs {self.needs}, not installed)" if self.missing else ""
        return f"{self.name + ' ':<{width}}{self.title} — {self.summary}{note}"


def _files() -> dict[str, object]:
    folder = resources.files(__name__)
    return {f.name[:-5]: f for f in folder.iterdir() if f.name.endswith(".toml")}


def load(name: str) -> Lesson:
    files = _files()
    if name not in files:
        raise LessonError(f"{name}.toml", None,
                          f"no such lesson; choose one of: {', '.join(names())}")
    f = files[name]
    return _parsed(f.name, name, f.read_text(encoding="utf-8"))


@lru_cache(maxsize=32)
def _parsed(file: str, name: str, text: str) -> Lesson:
    # the same text is the same lesson: its tasks are checked (a lab's figures computed) once
    return load_file(file, name=name, text=text)


def in_order() -> list[Lesson]:
    """Every lesson, in teaching order (a broken file raises LessonError naming it)."""
    return sorted((load(name) for name in _files()), key=lambda x: (x.order, x.name))


def catalog() -> list[Entry]:
    """Every lesson's entry, in teaching order."""
    return [Entry(x.name, x.title, x.summary, x.missing(), x.needs_words) for x in in_order()]


def progress_words(lesson: Lesson, tasks: set[int], shown: set[int],
                   answers: Iterable[int]) -> str:
    """"2/3 tasks, 1 more shown · 1/2 answered": what the learner has done in ``lesson``, from
    the steps whose tasks are met, whose solutions were shown, and whose questions answered.
    Steps a changed lesson file no longer has are not counted."""
    task_steps = {i for i, s in enumerate(lesson.steps) if s.task is not None}
    question_steps = {i for i, s in enumerate(lesson.steps) if s.question is not None}
    done = tasks & task_steps
    more = (shown - done) & task_steps
    return (f"{len(done)}/{len(task_steps)} tasks" + (f", {len(more)} more shown" if more else "")
            + f" · {len(set(answers) & question_steps)}/{len(question_steps)} answered")


def status_words(lesson: Lesson, tasks: set[int], shown: set[int], answers: Iterable[int], *,
                 finished: bool, step: int | None, unreadable: bool = False,
                 see: str = "") -> str:
    """progress_words, then where the learner is: "finished", "at step 3", or that the kept
    progress could not be read (``see`` says where that is explained). Go to and
    `--lesson list` say the same."""
    if unreadable:  # not "0/2 done": how much was done is not known
        from attn_tui.core.words import plural

        n_tasks = sum(s.task is not None for s in lesson.steps)
        n_questions = sum(s.question is not None for s in lesson.steps)
        return (f"{plural(n_tasks, 'task')} · {plural(n_questions, 'question')}"
                " · its progress could not be read" + see)
    words = progress_words(lesson, tasks, shown, answers)
    if finished:
        return words + " · finished"
    if step:
        return words + f" · at step {min(step, len(lesson.steps) - 1) + 1}"
    return words


def is_done(lesson: Lesson, finished: bool, tasks: set[int]) -> bool:
    """Walked to the end with every task met: the next lesson suggested is past it."""
    return finished and all(i in tasks for i, s in enumerate(lesson.steps) if s.task is not None)


def names() -> list[str]:
    return sorted(_files())


def standing(progress: object) -> list[tuple[Lesson, str, bool]]:
    """Every lesson, in teaching order, with its progress in words and whether it is done."""
    from attn_tui.core.progress import Progress

    assert isinstance(progress, Progress)
    out = []
    for lesson in in_order():
        r = progress.load(lesson.name)
        words = status_words(lesson, r.tasks, r.shown, r.answers, finished=r.finished,
                             step=r.step, unreadable=progress.unreadable(lesson.name),
                             see=" (see below)")
        out.append((lesson, words, is_done(lesson, r.finished, r.tasks)))
    return out


def suggestion(rows: list[tuple[Lesson, str, bool]]) -> str:
    nxt = next((lesson for lesson, _, done in rows if not done and lesson.missing() is None),
               None)
    if nxt is None:
        return "Every lesson done: well done."
    return f"Next: {nxt.name} ({nxt.title}): attn-tui --lesson {nxt.name}"


def lesson_cli(name: str, parser: argparse.ArgumentParser,
               no_progress: bool = False, step: int | None = None,
               keep_model: bool = True) -> int | None:
    """``--lesson list`` prints one line per lesson with its progress (0); an unknown name, or
    a ``--step`` past the lesson's last, is a usage error (2).

    Returns None when ``name`` is a lesson the app should open. ``keep_model=False``: a
    model the lesson runs is read to check it, then let go (serve, whose server would keep it
    loaded all its life, though only each learner's own process uses it).
    """
    try:
        entries = catalog()
    except LessonError as exc:
        parser.exit(2, f"attn-tui: {exc}\n")
    if name == "list":
        from attn_tui.core.files import write_stdout
        from attn_tui.core.progress import Progress

        progress = Progress.from_env(no_progress)
        width = max(len(entry.name) for entry in entries) + 2  # the names in one column
        text = "".join(entry.line(width) + "\n" for entry in entries)
        if progress.kept:
            rows = standing(progress)
            words = {lesson.name: w for lesson, w, _ in rows}
            text = "".join(f"{entry.line(width)}\n{'':{width}}{words[entry.name]}\n"
                           for entry in entries)
            text += "".join(f"{notice}\n" for notice in progress.notices)
            text += suggestion(rows) + "\n"
        failed = write_stdout(text)
        if failed:
            parser.exit(2, f"attn-tui: {failed}\n")
        return 0
    if name not in {entry.name for entry in entries}:
        parser.error(f"argument --lesson: unknown lesson {name!r} (choose from "
                     f"{', '.join(entry.name for entry in entries)}, or list)")
    lesson = load(name)
    if missing := lesson.cannot_run(keep=keep_model):
        parser.exit(2, f"attn-tui: {missing}\n")
    if step is not None and step > (count := len(lesson.steps)):
        parser.error(f"argument --step: lesson {name} has {count} steps; {step} is past its "
                     "last")
    return None
