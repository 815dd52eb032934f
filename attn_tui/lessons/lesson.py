"""What a lesson is, once read: plain frozen dataclasses, and the two small parsers they need.

Nothing here imports textual; the loader (``attn_tui.lessons.loader``) builds these from TOML.
"""

from __future__ import annotations

import ast
import re
import string
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from attn_tui.lessons.tasks import Task

LETTERS = "abcd"  # the keys that answer a question, in the order of its choices
_ACTION = re.compile(r"^(?:(app|screen)\.)?([A-Za-z_]\w*)(?:\((.*)\))?$", re.DOTALL)


class LessonError(ValueError):
    """A lesson file that cannot be used: names the file, the step (1-based) and the problem."""

    def __init__(self, file: str, step: int | None, message: str) -> None:
        self.file, self.step, self.message = file, step, message
        where = file if step is None else f"{file}, step {step}"
        super().__init__(f"{where}: {message}")


@dataclass(frozen=True)
class Highlight:
    pane: str  # a widget id on the step's screen, e.g. "steps", "heatmap", "grid-q"
    cells: frozenset[tuple[int, int]]  # cells of a grid to mark; none: just show the pane
    # concealed on the map only where it shows the softmax's weights or what follows from
    # them (α, the outputs, the picture): the scores a question is asked on stay in sight
    from_softmax: bool = False


@dataclass(frozen=True)
class Question:
    prompt: str
    choices: tuple[str, ...]
    answer: int  # index into choices
    why: str
    reveal: tuple[str, ...] = ()  # actions that put the answer on the live panes
    reveal_highlight: tuple[Highlight, ...] = ()
    # what would give the answer away, hidden until the learner answers: a pane's cells
    # (shown as "?"), or a whole pane when no cells are named
    conceal: tuple[Highlight, ...] = ()

    @property
    def letters(self) -> str:
        return LETTERS[: len(self.choices)]


@dataclass(frozen=True)
class Step:
    title: str
    text: str
    screen: str
    workspace: str | None
    actions: tuple[str, ...]
    highlight: tuple[Highlight, ...]
    keys: tuple[tuple[str, str], ...]
    question: Question | None
    # hidden on this step: what a later question asks about (see Question.conceal)
    conceal: tuple[Highlight, ...] = ()
    task: Task | None = None  # a goal over the live state the learner reaches (lessons.tasks)


@dataclass(frozen=True)
class Lesson:
    name: str
    title: str
    summary: str
    order: int
    steps: tuple[Step, ...]
    file: str
    needs: tuple[str, ...] = ()  # "torch": the lecture's own torch draws; "minilm": the model

    @property
    def tasks(self) -> int:
        return sum(step.task is not None for step in self.steps)

    @property
    def questions(self) -> int:
        return sum(step.question is not None for step in self.steps)

    def missing(self) -> str | None:
        """Why this lesson cannot run here (torch not installed), or None."""
        if "torch" in self.needs:
            from attn_tui.compute.backend import INSTALL_TORCH, torch_available

            if not torch_available():
                trains = any(step.screen == "lab:train" for step in self.steps)
                does = ("trains a tiny transformer with torch" if trains
                        else "replays the lecture's torch tensors")
                return f"lesson {self.name} {does}, and {INSTALL_TORCH}"
        if "minilm" in self.needs:
            from attn_tui.models.files import MINILM, ModelUnavailable, locate, require_readers

            try:
                require_readers()
                locate(MINILM)
            except ModelUnavailable as exc:
                return f"lesson {self.name} runs a trained model, and {exc}"
        return None

    def cannot_run(self, keep: bool = True) -> str | None:
        """As ``missing``, and for a lesson on the model, its files read as well: a damaged
        copy is said before the lesson starts, not in its unfilled words. ``keep``: the model
        read stays for the lesson to use (once per process); serve reads it only to check,
        as each learner's process loads its own. Listing lessons asks only ``missing``."""
        if (missing := self.missing()) is not None or "minilm" not in self.needs:
            return missing
        from attn_tui.models.files import ModelDamaged
        from attn_tui.models.model import load_model, shared_model

        try:
            (shared_model if keep else load_model)("minilm")
        except ModelDamaged as exc:
            return f"lesson {self.name} runs a trained model, and its {exc}"
        return None

    @property
    def needs_words(self) -> str:
        """What the lesson needs, for "(needs …)" beside its name."""
        return " and ".join("the minilm model" if n == "minilm" else n for n in self.needs)


def parse_action(action: str) -> tuple[str, str, tuple[Any, ...]]:
    """("screen", "set_mask", ("causal",)) from "screen.set_mask('causal')", as textual reads it."""
    m = _ACTION.match(action.strip())
    if m is None:
        raise ValueError(f"action {action!r} is not of the form [app.|screen.]name or name(args)")
    namespace, name, args = m.group(1) or "", m.group(2), m.group(3)
    try:
        params = ast.literal_eval(f"({args},)") if args and args.strip() else ()
    except (ValueError, SyntaxError):
        raise ValueError(f"the arguments of action {action!r} are not plain values") from None
    return namespace, name, params


def placeholders(text: str) -> list[str]:
    """The root names of the {placeholders} in a text, e.g. ["row", "s"]."""
    roots = []
    for _, field, _, _ in string.Formatter().parse(text):
        if field is not None:
            roots.append(re.split(r"[.\[]", field, maxsplit=1)[0])
    return roots
