"""Read a lesson file (TOML) into plain dataclasses, and say exactly what is wrong with a bad one.

A lesson is data: a title, a one-line summary and a list of steps. Each step names the screen it
runs on, the workspace it starts from, the actions that put the panes in the state it describes
(the same action strings the keys run), the cells to point at, the keys to try, and at most one
question. Nothing here imports textual, so `attn-tui --lesson list` stays light.
"""

from __future__ import annotations

import re
import tomllib
from pathlib import Path
from typing import Any

from attn_tui.core.labs import SCREENS
from attn_tui.lessons.lesson import (
    LETTERS,
    Highlight,
    Lesson,
    LessonError,
    Question,
    Step,
    parse_action,
    placeholders,
)
from attn_tui.lessons.tasks import Task, TaskError, evaluate, holds, simulate_start, solved
from attn_tui.lessons.tasks import parse as parse_task
from attn_tui.lessons.workspaces import LECTURE_WORKSPACES, WORKSPACE_NAMES, build

__all__ = ["LETTERS", "SCREENS", "Highlight", "Lesson", "LessonError", "Question", "Step",
           "load_file", "parse_action", "placeholders"]


# what a {placeholder} in a step's text may start with, by screen
ROOTS = {"workbench": ("row", "s", "ws", "lec", "lec64")}
LAB_ROOTS = ("lab",)

LESSON_KEYS = {"title", "summary", "order", "screen", "workspace", "steps", "needs"}
NEEDS = ("torch", "minilm")  # what a lesson may need beyond numpy: a library, a model
STEP_KEYS = {"title", "text", "screen", "workspace", "actions", "highlight", "keys", "question",
             "conceal", "task"}
QUESTION_KEYS = {"prompt", "choices", "answer", "why", "reveal", "reveal_highlight", "conceal"}
HIGHLIGHT_KEYS = {"pane", "cells", "rect", "part", "from_softmax"}
PARTS = ("lower", "upper", "diagonal")
_PANE = re.compile(r"^[a-z][a-z0-9-]*$")


def load_file(path: Path | str, name: str | None = None, text: str | None = None) -> Lesson:
    path = Path(path)
    file = path.name
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8") if text is None else text)
    except tomllib.TOMLDecodeError as exc:
        raise LessonError(file, None, f"not valid TOML: {exc}") from None
    except OSError as exc:
        raise LessonError(file, None, f"cannot be read: {exc.strerror}") from None
    return _lesson(data, name or path.stem, file)


def _lesson(data: dict[str, Any], name: str, file: str) -> Lesson:
    def fail(message: str) -> LessonError:
        return LessonError(file, None, message)

    _known(data, LESSON_KEYS, "the lesson", fail)
    title = _text(data, "title", fail)
    summary = _text(data, "summary", fail)
    order = data.get("order", 100)
    if isinstance(order, bool) or not isinstance(order, int):
        raise fail("'order' must be a whole number")
    needs = data.get("needs", [])
    if not isinstance(needs, list) or any(n not in NEEDS for n in needs):
        raise fail(f"'needs' must be a list of: {', '.join(NEEDS)}")
    screen = data.get("screen", "workbench")
    workspace = data.get("workspace")
    raw_steps = data.get("steps")
    if not isinstance(raw_steps, list) or not raw_steps:
        raise fail("needs at least one [[steps]] table")
    steps = []
    for i, raw in enumerate(raw_steps, start=1):
        if not isinstance(raw, dict):
            raise LessonError(file, i, "each step must be a [[steps]] table")
        steps.append(_step(raw, screen, workspace, lambda m, i=i: LessonError(file, i, m)))
    return Lesson(name, title, summary, order, tuple(steps), file, tuple(needs))


def _step(raw: dict[str, Any], screen: Any, workspace: Any, fail) -> Step:
    _known(raw, STEP_KEYS, "a step", fail)
    screen = raw.get("screen", screen)
    if screen not in SCREENS:
        raise fail(f"unknown screen {screen!r}; choose one of: {', '.join(SCREENS)}")
    roots = ROOTS.get(screen, LAB_ROOTS)
    workspace = raw.get("workspace", workspace if screen == "workbench" else None)
    if workspace is not None and screen != "workbench":
        raise fail(f"a workspace can only be loaded on the workbench, not on {screen}")
    if workspace is not None and workspace not in WORKSPACE_NAMES:
        raise fail(f"unknown workspace {workspace!r}; choose one of: {', '.join(WORKSPACE_NAMES)}")
    keys = raw.get("keys", {})
    if not isinstance(keys, dict) or not all(isinstance(v, str) for v in keys.values()):
        raise fail('\'keys\' must be a table of key = "what it does"')
    question = None
    if "question" in raw:
        question = _question(raw["question"], roots, fail)
        clash = [k for k in keys if k in question.letters]
        if clash:
            raise fail(f"key {clash[0]!r} answers the question on this step; suggest another key")
    actions = _actions(raw, "actions", fail)
    task = None
    if "task" in raw:
        if question is not None:
            raise fail("a step asks a question or sets a task, not both")
        try:
            task = parse_task(raw["task"], screen)
        except TaskError as exc:
            raise fail(f"task: {exc}") from None
        _check_task(task, screen, workspace, actions, fail)
    return Step(
        title=_text(raw, "title", fail), text=_filled(raw, "text", roots, fail), screen=screen,
        workspace=workspace, actions=actions,
        highlight=_highlights(raw.get("highlight", []), "highlight", fail),
        keys=tuple(keys.items()), question=question,
        conceal=_highlights(raw.get("conceal", []), "conceal", fail), task=task,
    )


def _check_task(task: Task, screen: str, workspace: str | None, actions: tuple[str, ...],
                fail) -> None:
    """The task's cells are on the step's workspace, its goal does not hold at the step's start
    and its solution reaches it without breaking a rule."""
    ws = None
    if screen == "workbench":
        if workspace is None:
            raise fail("task: a task on the workbench needs the step's workspace")
        ws = build(workspace, backend="numpy")  # the shapes and relations every backend has
        t_q, t_k = ws.t_q, ws.t_k
        width = ws.d_v if task.stage == "output" else t_k
        if task.cell is not None and not (task.cell[0] < t_q and task.cell[1] < width):
            raise fail(f"task: cell {list(task.cell)} is outside the workspace "
                       f"{workspace!r} ({t_q} queries × {width} columns)")
        if task.row is not None and not 0 <= task.row < t_q:
            raise fail(f"task: row {task.row} is outside the workspace {workspace!r} "
                       f"({t_q} queries)")
        for e in task.solution:
            if e.cell is not None:
                rows, cols = len(ws.matrix(e.target)), len(ws.matrix(e.target)[0])
                if not (e.cell[0] < rows and e.cell[1] < cols):
                    raise fail(f"task: the solution's cell {e.target}{list(e.cell)} is outside "
                               f"the workspace ({rows} × {cols})")
    if screen in ("lab:minilm", "lab:train") or workspace in LECTURE_WORKSPACES:
        # their figures need the trained model, a training run or torch's draws (numpy's are
        # other numbers), which a lesson list must not wait for: the suite checks these
        # tasks' starts and solutions (tests/lessons/test_tasks.py)
        return
    start = simulate_start(screen, ws, tuple(parse_action(a)[1:] for a in actions))
    if holds(task, start):
        raise fail(f"task: the goal already holds at the step's start "
                   f"({evaluate(task, start, None).line()})")
    end = solved(task, start)
    verdict = evaluate(task, end, start)
    if not verdict.met:
        raise fail(f"task: its solution does not reach the goal ({verdict.line()})")
    if verdict.broken:
        raise fail(f"task: its solution breaks its own rule: {verdict.broken}")


def _question(raw: Any, roots: tuple[str, ...], fail) -> Question:
    if not isinstance(raw, dict):
        raise fail("'question' must be a table")
    _known(raw, QUESTION_KEYS, "the question", fail)
    choices = raw.get("choices")
    if not isinstance(choices, list) or not 2 <= len(choices) <= len(LETTERS) or not all(
            isinstance(c, str) and c.strip() for c in choices):
        raise fail(f"the question needs 2 to {len(LETTERS)} choices, each a non-empty string")
    for choice in choices:
        _check_roots(choice, roots, "a choice", fail)
    answer = raw.get("answer")
    letters = LETTERS[: len(choices)]
    if not isinstance(answer, str) or len(answer) != 1 or answer not in letters:
        raise fail(f"the answer must be one of the letters {', '.join(letters)}, got {answer!r}")
    return Question(
        prompt=_filled(raw, "prompt", roots, fail), choices=tuple(choices),
        answer=letters.index(answer), why=_filled(raw, "why", roots, fail),
        reveal=_actions(raw, "reveal", fail),
        reveal_highlight=_highlights(raw.get("reveal_highlight", []), "reveal_highlight", fail),
        conceal=_highlights(raw.get("conceal", []), "conceal", fail),
    )


def _highlights(raw: Any, field: str, fail) -> tuple[Highlight, ...]:
    items = [raw] if isinstance(raw, dict) else raw
    if not isinstance(items, list):
        raise fail(f"'{field}' must be a table or a list of tables")
    out = []
    for item in items:
        if not isinstance(item, dict):
            raise fail(f"'{field}' must be a table or a list of tables")
        _known(item, HIGHLIGHT_KEYS, f"'{field}'", fail)
        pane = item.get("pane")
        if not isinstance(pane, str) or not _PANE.match(pane):
            raise fail(f"'{field}' needs a pane: a widget id, like \"steps\" or \"heatmap\"")
        cells = set()
        for cell in item.get("cells", []):
            if not _whole_numbers(cell, 2):
                raise fail(f"in '{field}', a cell is [row, column] of whole numbers, got {cell!r}")
            cells.add((cell[0], cell[1]))
        if "rect" in item:
            rect = item["rect"]
            if not _whole_numbers(rect, 4) or rect[0] > rect[2] or rect[1] > rect[3]:
                raise fail(f"in '{field}', rect is [first row, first column, last row, "
                           f"last column], got {rect!r}")
            cells |= {(r, c) for r in range(rect[0], rect[2] + 1)
                      for c in range(rect[1], rect[3] + 1)}
        part = item.get("part")
        if part is not None and part not in PARTS:
            raise fail(f"in '{field}', part must be one of: {', '.join(PARTS)}")
        keep = {"lower": lambda r, c: c <= r, "upper": lambda r, c: c > r,
                "diagonal": lambda r, c: c == r}.get(part, lambda r, c: True)
        marked = {(r, c) for r, c in cells if keep(r, c)}
        if cells and not marked:
            raise fail(f"'{field}' on pane {pane!r} points at no cells")
        cells = marked  # no cells at all: the pane is only brought into view
        from_softmax = item.get("from_softmax", False)
        if not isinstance(from_softmax, bool) or (from_softmax and (pane != "heatmap" or not cells)):
            raise fail(f"in '{field}', from_softmax is true or false, and only for cells of "
                       "the map (pane \"heatmap\")")
        out.append(Highlight(pane, frozenset(cells), from_softmax))
    return tuple(out)


def _whole_numbers(x: Any, n: int) -> bool:
    return isinstance(x, list) and len(x) == n and all(
        isinstance(v, int) and not isinstance(v, bool) and v >= 0 for v in x)


def _actions(raw: dict[str, Any], field: str, fail) -> tuple[str, ...]:
    actions = raw.get(field, [])
    if not isinstance(actions, list) or not all(isinstance(a, str) for a in actions):
        raise fail(f"'{field}' must be a list of action strings")
    for action in actions:
        try:
            parse_action(action)
        except ValueError as exc:
            raise fail(str(exc)) from None
    return tuple(actions)


def _known(raw: dict[str, Any], allowed: set[str], what: str, fail) -> None:
    unknown = sorted(set(raw) - allowed)
    if unknown:
        raise fail(f"unknown field {unknown[0]!r} in {what} (known: {', '.join(sorted(allowed))})")


def _text(raw: dict[str, Any], field: str, fail) -> str:
    value = raw.get(field)
    if value is None:
        raise fail(f"missing field '{field}'")
    if not isinstance(value, str) or not value.strip():
        raise fail(f"'{field}' must be non-empty text")
    # one paragraph per blank-line-separated block; line breaks inside a block are spaces
    return "\n".join(" ".join(p.split()) for p in re.split(r"\n\s*\n", value.strip()))


def _filled(raw: dict[str, Any], field: str, roots: tuple[str, ...], fail) -> str:
    value = _text(raw, field, fail)
    _check_roots(value, roots, f"'{field}'", fail)
    return value


def _check_roots(text: str, roots: tuple[str, ...], where: str, fail) -> None:
    try:
        found = placeholders(text)
    except ValueError as exc:
        raise fail(f"{where} has a broken {{placeholder}}: {exc}") from None
    for root in found:
        if root not in roots:
            raise fail(f"{where} uses {{{root}…}}, which this screen does not offer "
                       f"(it offers: {', '.join(roots)})")
