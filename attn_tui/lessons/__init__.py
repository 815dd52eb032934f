"""Keyboard-driven lessons: one TOML file per lesson in this folder, read and checked by the loader.

Adding a lesson is adding a file: ``catalog()`` finds every ``*.toml`` here and orders them by
their ``order`` field, then by name. No textual is imported on this path.
"""

from __future__ import annotations

import argparse
from dataclasses import dataclass
from importlib import resources

from attn_tui.lessons.loader import Highlight, Lesson, LessonError, Question, Step, load_file

__all__ = ["Entry", "Highlight", "Lesson", "LessonError", "Question", "Step", "catalog",
           "lesson_cli", "load", "names"]


@dataclass(frozen=True)
class Entry:
    name: str
    title: str
    summary: str
    missing: str | None = None  # why it cannot run here

    def line(self) -> str:
        note = " (needs torch, not installed)" if self.missing else ""
        return f"{self.name:<9}{self.title} — {self.summary}{note}"


def _files() -> dict[str, object]:
    folder = resources.files(__name__)
    return {f.name[:-5]: f for f in folder.iterdir() if f.name.endswith(".toml")}


def load(name: str) -> Lesson:
    files = _files()
    if name not in files:
        raise LessonError(f"{name}.toml", None,
                          f"no such lesson; choose one of: {', '.join(names())}")
    f = files[name]
    return load_file(f.name, name=name, text=f.read_text(encoding="utf-8"))


def catalog() -> list[Entry]:
    """Every lesson, in teaching order (a broken file raises LessonError naming it)."""
    lessons = sorted((load(name) for name in _files()), key=lambda x: (x.order, x.name))
    return [Entry(x.name, x.title, x.summary, x.missing()) for x in lessons]


def names() -> list[str]:
    return sorted(_files())


def lesson_cli(name: str, parser: argparse.ArgumentParser) -> int | None:
    """``--lesson list`` prints one line per lesson (0); an unknown name is a usage error (2).

    Returns None when ``name`` is a lesson the app should open.
    """
    try:
        entries = catalog()
    except LessonError as exc:
        parser.exit(2, f"attn-tui: {exc}\n")
    if name == "list":
        from attn_tui.core.files import write_stdout

        failed = write_stdout("".join(entry.line() + "\n" for entry in entries))
        if failed:
            parser.exit(2, f"attn-tui: {failed}\n")
        return 0
    if name not in {entry.name for entry in entries}:
        parser.error(f"argument --lesson: unknown lesson {name!r} (choose from "
                     f"{', '.join(entry.name for entry in entries)}, or list)")
    missing = next(entry.missing for entry in entries if entry.name == name)
    if missing:
        parser.exit(2, f"attn-tui: {missing}\n")
    return None
