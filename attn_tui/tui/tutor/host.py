"""LessonHost: what a screen a lesson runs on (the workbench, every lab) offers the lesson runner.

The runner knows its hosts only through this: no screen is probed for what it happens to have.
"""

from __future__ import annotations

from typing import Any, ClassVar, Protocol


class LessonHost(Protocol):
    # Every host undoes: u brings back what a step, "show me" or ctrl+r replaced. This is the
    # notice once "show me" has put a solution on: what it did, and what u does then
    shown_note: str  # (a property where it changes: the train lab's run trains, then ends)
    state_words: ClassVar[str]  # what a step replaces here, in words: "numbers", "settings"
    sub_title: str | None  # the title bar's second part: it names the lesson while one runs

    def settle_edits(self) -> bool:
        """Store a value sent or being typed, as Enter would; False if it is refused."""
        ...

    def lesson_state(self) -> object:
        """What the learner changes here, comparable: whether a step changed it, or they did."""
        ...

    def lesson_work(self) -> object:
        """The learner's work as it stands, to keep if a step replaces it."""
        ...

    def has_unsaved_work(self) -> bool:
        """Work quitting would lose (a lab's settings are never saved work)."""
        ...

    def lesson_owns_state(self, also: bool = False) -> None:
        """The state now on screen is the lesson's, not the learner's: quitting does not ask
        about it. ``also``: as well as the step's start (a solution "show me" put there)."""
        ...

    def lesson_undo_stops_here(self, stops: bool = True) -> None:
        """The state now on screen is where u stops while the lesson is open: the step started
        from it and replaced nothing of the learner's, so what undo would bring back from
        before it is the lesson's own set-up. A host with replaced work of the learner's still
        unsaved keeps undoing back to it. ``stops`` False (the lesson closed): u goes back
        through everything again."""
        ...

    def lesson_replaced_work(self, work: object, by: str) -> None:
        """``by`` (a lesson step, ctrl+r…: runner.REPLACED_BY) replaced ``work`` (from
        ``lesson_work``), unsaved: quitting asks about it, naming what replaced it."""
        ...

    def lesson_live(self) -> object:
        """The state a lesson task is checked against (``attn_tui.lessons.tasks.Live``)."""
        ...

    def lesson_look_as(self, work: object) -> None:
        """ctrl+r: what is looked at as ``work`` (from ``lesson_work``) had it, where that is no
        part of ``lesson_state`` (the workbench's query)."""
        ...

    def lesson_restore(self, state: object, edits: tuple = ()) -> None:
        """Put ``state`` (from ``lesson_state``) back on the panes, with a task's ``edits``
        (``tasks.Edit``) made on it, as one change: u undoes it where the host can undo."""
        ...

    def lesson_panel_room(self, panel_rows: int) -> int | None:
        """The rows the lesson panel, now ``panel_rows`` high, may take for a question or an
        answer while the panes keep the rows its words are about; None: no limit of the host's
        (the panel's own share of the screen)."""
        ...

    # what every Screen has, and the runner uses: the panel is mounted on the host, marked
    # cells are found and scrolled to there
    def mount(self, *widgets: Any, **kwargs: Any) -> Any: ...
    def query(self, selector: Any = None) -> Any: ...
    def add_class(self, *names: str, update: bool = True) -> Any: ...
    def remove_class(self, *names: str, update: bool = True) -> Any: ...
    def has_class(self, *names: str) -> bool: ...
    def call_after_refresh(self, callback: Any, *args: Any, **kwargs: Any) -> bool: ...
