"""UndoStack: undo and redo over a screen's immutable state (a lab's settings, the model screen's
choice of sentence and head).

Each change is one entry, the state from before it. A change made of several (a lesson's "show
me" setting two controls, a step put back) is one entry too: whatever happens inside ``change``
counts once, nested ones included. Changes of one kind in a row (the letters of a sentence
typed) can be merged into the entry of the first.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Generic, TypeVar

T = TypeVar("T")
LIMIT = 200  # as the workbench keeps


class UndoStack(Generic[T]):
    def __init__(self, limit: int = LIMIT) -> None:
        self.limit = limit
        self._undo: list[T] = []
        self._redo: list[T] = []
        self._depth = 0
        self._run: str | None = None  # the kind of the last change, while it may merge
        self._floor = 0  # entries below are a lesson's set-up, not the learner's changes

    @contextmanager
    def change(self, now: Callable[[], T], merge: str | None = None) -> Iterator[None]:
        """Everything done inside is one change, read with ``now()`` before and after; nothing
        is kept if the state did not change. ``merge``: a change of this kind right after
        another of it joins that one's entry."""
        self._depth += 1
        before = now() if self._depth == 1 else None
        try:
            yield
        finally:
            self._depth -= 1
        if self._depth:
            return
        if now() == before:
            return
        if merge is None or merge != self._run:
            self._undo.append(before)  # type: ignore[arg-type]
            dropped = max(0, len(self._undo) - self.limit)
            del self._undo[:dropped]
            self._floor = max(0, self._floor - dropped)
        self._redo.clear()
        self._run = merge

    def seal(self) -> None:
        """The next change starts an entry of its own, whatever its kind (a sentence typed
        after the box was left and opened again is another sentence)."""
        self._run = None

    def stop_here(self, stops: bool = True) -> None:
        """Undo goes back no further than the state now: what came before it is a lesson's
        set-up (its step started from the panes before it, with nothing of the learner's).
        ``stops`` False: undo goes back through everything again (the lesson closed)."""
        self._floor = len(self._undo) if stops else 0

    @property
    def at_start(self) -> bool:
        """Undo stops here, with earlier entries that are a lesson's set-up."""
        return 0 < len(self._undo) <= self._floor

    def undo(self, now: T) -> T | None:
        """The state before the last change (``now`` kept for redo), or None if there is none
        (or none since ``stop_here``)."""
        if len(self._undo) <= self._floor:
            self._run = None
            return None
        return self._step(self._undo, self._redo, now)

    def redo(self, now: T) -> T | None:
        return self._step(self._redo, self._undo, now)

    def _step(self, source: list[T], target: list[T], now: T) -> T | None:
        self._run = None
        if not source:
            return None
        target.append(now)
        return source.pop()

    def __len__(self) -> int:
        return len(self._undo)
