"""What a screen or the app may offer beyond what every Screen has: each a role, named.

Widgets and controllers ask ``isinstance(screen, HoldsForQuestion)`` rather than probing for
an attribute, so what a screen must provide to play a part is written down in one place, and
a screen that is renamed loses its part loudly in a type check, not silently at run time.
The screens' classes are not imported for these checks: the labs and the model screen load
only when opened.
"""

from __future__ import annotations

from typing import Any, ClassVar, Protocol, runtime_checkable


@runtime_checkable
class HoldsForQuestion(Protocol):
    """A screen whose numbers or settings a lesson's open question keeps as they are (the
    workbench, every lab)."""

    def held(self) -> bool:
        """True, and said to the learner, while a question keeps them."""
        ...


@runtime_checkable
class SettlesEdits(Protocol):
    """A screen where a value sent by Enter may still be on its way to being stored."""

    def settle_edits(self) -> bool:
        """Store a value sent or being typed, as Enter would; False if it is refused."""
        ...


@runtime_checkable
class StepsFields(Protocol):
    """A lab that steps a control by its other settings (the train lab's d_model, by heads)."""

    def step_value(self, field: Any, value: Any, direction: int) -> Any: ...


@runtime_checkable
class HasControls(Protocol):
    """A lab with a control bar of fields (help opens on every lab's keys, then its own)."""

    FIELDS: ClassVar[tuple[Any, ...]]


@runtime_checkable
class KeepsSettings(Protocol):
    """A lab whose settings a session saves and reopens."""

    def session_settings(self) -> dict[str, Any]: ...


@runtime_checkable
class TakesTyping(Protocol):
    """A lab whose bar may hold a value being typed as the lab is left."""

    def take_typing(self) -> str | None: ...


@runtime_checkable
class HoldsSentence(Protocol):
    """The model screen: a sentence typed there is work a session keeps."""

    saved_text: str | None  # the sentence as a session last saved it

    def has_unsaved_work(self) -> bool: ...


@runtime_checkable
class HoldsRun(Protocol):
    """The train lab: a run trained there is work a file keeps."""

    keep_on_leaving: bool  # False: closing the lab lets its run go

    def held_run(self) -> Any:
        """The run as work to keep (``train_runs.HeldRun``), or None."""
        ...


@runtime_checkable
class ReplacedByLesson(Protocol):
    """A screen whose learner's work a lesson's step may have replaced, unsaved."""

    def replaced_by_lesson(self) -> tuple[str, ...]: ...


@runtime_checkable
class Undoes(Protocol):
    """A screen with its own undo history (the palette lists Undo and Redo for it)."""

    def action_undo(self) -> None: ...
    def action_redo(self) -> None: ...


@runtime_checkable
class SaysWhyNot(Protocol):
    """A screen with a key shown but not usable now (its check_action answers None: dimmed on
    the key bar); pressed anyway, or chosen in the palette, the screen says why."""

    def say_why_not(self, action: str) -> bool:
        """Say why ``action`` does nothing now; False if it is not held back."""
        ...


@runtime_checkable
class SavesRun(Protocol):
    """A screen that saves a training run to a file."""

    def action_save_run(self) -> None: ...


@runtime_checkable
class PointedByLesson(Protocol):
    """A host that keeps something of its own in view after a resize: once a lesson's step
    has brought its marks into view, they are what it keeps."""

    def lesson_pointed(self) -> None: ...


@runtime_checkable
class ScrollsUnderPanel(Protocol):
    """A host with a pane that scrolls on its own in the room a lesson's panel leaves (the
    train lab's maps): when the panel takes a new height, the step's marks are brought into
    view again, side by side too."""

    def scrolls_under_panel(self) -> bool: ...


@runtime_checkable
class ExplainsQuery(Protocol):
    """A host whose step table explains one query, key by key (the workbench): a lesson keeps
    the key its task, or its marked cell of the map, is about in sight there."""

    def explained_query(self) -> int: ...
    def map_keys(self) -> int: ...


@runtime_checkable
class SaysForLesson(Protocol):
    """A host with a line of its own that a lesson's step can make it say (the model screen's
    "Answer first" for w): once the lesson closes there, that line goes."""

    def lesson_over(self) -> None: ...


@runtime_checkable
class TypedInto(Protocol):
    """A widget that holds text being typed into it (a Q/K/V cell, a lab's control): while
    it does, every key that types a character is that character, never a command."""

    @property
    def is_typing(self) -> bool: ...


@runtime_checkable
class FollowsCursor(Protocol):
    """A widget with a cursor of its own (a table's cell, the picked head): after a resize it
    scrolls it back into sight, and the panes around it with it."""

    def follow_cursor(self) -> None: ...


@runtime_checkable
class HoldsKeys(Protocol):
    """An app that may hold keys back a while (a lesson's step being set up)."""

    def keys_on_hold(self) -> float:
        """The longest it holds keys now, in seconds (0: it does not)."""
        ...

    def reads_at_once(self, key: str) -> bool:
        """Whether it reads ``key`` now, ahead of the keys it holds."""
        ...

    def act_at_once(self, key: str) -> None:
        """Do what ``key`` does when read at once."""
        ...

