"""LessonRunner: runs a lesson over the live panes, for the app that creates it.

A step is replayed from scratch whenever it is entered: its screen is brought up, its workspace
loaded, its actions run through ``run_action`` (the very actions the keys run), its cells
highlighted and its text filled with the numbers now on the panes. The lesson keys (n, p,
Escape, the answer keys: ``bindings.LESSON``) are the app's priority bindings, run here; ``allows`` switches them off
whenever no lesson runs, a dialog is open or a cell is being typed into: then the key goes
where it would have gone anyway. The runner talks to its screens through ``LessonHost``.
"""

from __future__ import annotations

import asyncio
import importlib
import time
from collections.abc import Callable, Iterable
from dataclasses import replace
from functools import partial
from typing import TYPE_CHECKING

from textual import events
from textual.actions import SkipAction
from textual.app import SystemCommand
from textual.screen import Screen
from textual.widget import AwaitMount

from attn_tui.tui import textual_compat
from attn_tui.tui.bindings import LETTERS
from attn_tui.tui.keys import (
    after_keys,
    asked_again,
    hold_to_ask_again,
    key_line,
    line_up,
    takes_text,
)
from attn_tui.tui.roles import (
    ExplainsQuery,
    HoldsForQuestion,
    HoldsRun,
    PointedByLesson,
    SaysForLesson,
    ScrollsUnderPanel,
)
from attn_tui.tui.screens import says_too_small
from attn_tui.tui.widgets.matrix_editor import MatrixEditor

if TYPE_CHECKING:
    from attn_tui.lessons import Question, Step
    from attn_tui.lessons.loader import Highlight, Lesson
    from attn_tui.tui.app import AttnApp
    from attn_tui.tui.tutor.host import LessonHost
    from attn_tui.tui.tutor.panel import PanelView

# Lessons are imported when one starts, not before the first frame (see make bench).
__all__ = ["LETTERS", "LessonRunner"]


def _only_matrix(step) -> str | None:
    """The one matrix a step's task lets change ("K"), or None."""
    task = step.task
    if task is not None and task.change is not None and len(task.change) == 1:
        return task.change[0]
    return None


SHOWING = object()  # "show me" is putting its state on the panes
ONCE_ANSWERED = "Once you answer,"  # while a question holds the panes, u waits for it too
SETUP_HOLD = 60.0  # seconds keys wait at most for a step setting up (torch, a training run)
TURN_HOLD = 5.0  # seconds keys wait at most behind a lesson key waiting its turn
# step actions that only give a pane or field the keys (ctrl+r gives them again)
POINTING = ("screen.pick_control(", "screen.focus_maps")
# what put a step's own state over the learner's unsaved work, as quitting names it
REPLACED_BY = {"step": "a lesson step", "reset": "ctrl+r", "shown": "show me (y)",
               "answer": "answering a question"}
# n or p pressed this long after a step began to set up is a new press, not one typed in a
# burst with the key that started it
SETUP_GRACE = 0.25
REVEAL_SAID_AFTER = 0.25  # an answer's reveal still running then is said, not left silent
# a step still setting up then says "getting ready…"; before SETUP_GRACE, after which keys
# are refused as pressed while the panel says so
SETUP_SAID_AFTER = 0.1
# an answer (or n, skipping it) this soon after a question first shows was typed before it
# could be read: typed with the key that brought it, or as a word into a cell not yet open
READ_FIRST = 0.4
ANSWER_GUARD = READ_FIRST  # (the tests' own Pilot keys come faster than any reader)


def _back_for_the_answer(host: LessonHost) -> str:
    return (f"For the answer, the step's own {host.state_words} are back; u undoes, one change "
            "at a time.")


def _letters(q) -> str:
    """"a, b or c", with the question's own letters."""
    *most, last = q.letters
    return f"{', '.join(most)} or {last}"


def _answer_first(q) -> str:
    return f"Answer first ({_letters(q)})"


def _as_sentence(words: str) -> str:
    """``words`` ending as a sentence does, so that a note read after it starts anew."""
    return words if words.endswith((".", "?", "!", "…", ":")) else words + "."


def _without(view: PanelView, said: str) -> PanelView:
    """``view`` with the sentence ``said`` taken out of its note."""
    return replace(view, note=" ".join(view.note.replace(said, "").split()))


class LessonRunner:
    """The lesson running (if any), where it is, and what the learner answered."""

    def __init__(self, app: AttnApp) -> None:
        self.app = app
        self.lesson: Lesson | None = None
        self.index = 0
        self.chosen: int | None = None  # the letter index the learner pressed on this step
        self.done = False
        self.host: LessonHost | None = None
        self._note = ""
        self._resumed = ""  # why the step on screen is where a reopened lesson came back to
        self._view: PanelView | None = None
        self._busy = False
        self._busy_since = 0.0  # when the step now setting up began to
        self._asked: float | None = None  # when the open question showed
        self._asked_first = False  # ... for the first time (only then is n held back)
        self._seen_questions: set[tuple[str, int]] = set()  # read once: p then n is no burst
        self._refusal_told = -1.0  # the _busy_since of the step whose refusal was said
        self._pointed: tuple = ()  # the marks the step last brought into view
        self._kept_back = False  # the step hides some of its host's numbers
        self._restoring = False  # the step's start is being put back (ctrl+r, "show me")
        self._switching = False  # the runner itself is taking a host away (a step's screen)
        # per lesson this session: (the step to come back to, the letter answered at each
        # step); the step is None once the lesson is finished: opened again, it starts afresh
        self._memory: dict[str, tuple[int | None, dict[int, int]]] = {}
        self._done_tasks: dict[str, set[int]] = {}  # per lesson, the steps whose task was met
        # per lesson taken again from the top: the steps whose question an earlier time answered
        self._answered_before: dict[str, set[int]] = {}
        self._shown_tasks: dict[str, set[int]] = {}  # ... and those only "show me" met
        self._save_failed = False
        self._held = False  # see hold_checks
        self._setup: object = None  # the host's state as the current step set it up
        self._setup_view: object = None  # and its work, the query picked too (lesson_work)
        self._keys_ahead = 0  # lesson keys put off until the keys typed before them are read
        self._own_title: str | None = None  # the host's sub-title before the lesson came
        # the current step's task: the state it started from, what the check last said, the
        # hints shown, and whether "show me" waits for a y
        self._start_live: object = None
        self._verdict: object = None
        self._hints = 0
        self._offering = False
        self._shown_state: object = None  # the panes as "show me" left them
        # ... on each step shown this run: left and come back to, u brought the shown state
        # back, and it was credited as the learner's own
        self._shown_states: dict[tuple[str, int], object] = {}
        self._revealing = False  # an answer's reveal is changing the panes: the step's doing
        # the step's words (its question's and answer's too) filled from the panes at its
        # start, and again as an answer's reveal left them
        self._start_words: tuple[str, ...] | None = None
        self._answer_words: tuple[str, ...] | None = None

    # ---- entry points: CLI, command palette, the g menu
    def start(self, name: str, run_asked: bool = False, step: int | None = None,
              why: str = "--step") -> None:
        """Open lesson ``name`` where it was left (``step``, from 1: there instead, the
        panel's edge saying ``why``)."""
        from attn_tui.lessons import LessonError, load

        try:
            lesson = load(name)
        except LessonError as exc:
            self.app.notify(str(exc), title="This lesson cannot be opened", severity="error",
                            markup=False)
            return
        if (missing := lesson.cannot_run()) is not None:
            self.app.notify(missing[0].upper() + missing[1:] + ".",
                            title="This lesson cannot be opened", severity="warning", timeout=8,
                            markup=False)
            return
        if not run_asked and self._ask_about_run(lesson, name, step, why):
            return
        self._close()
        self.app.clear_notifications()  # "Lesson closed…" would cover the panel it names
        self.lesson = lesson
        if not self._memory and self.app.progress.where is None:  # once a run
            self.app.notify("Tasks met, answers and the step reached are forgotten when "
                            "attn-tui ends (--no-progress, or ATTN_TUI_NO_PROGRESS set).",
                            title="Progress is not kept in this run", timeout=6, markup=False)
        if name not in self._memory:  # the first time this run: where the last run left it
            self._memory[name], self._done_tasks[name] = self._kept(lesson)
        k, answers = self._memory[name]
        resumed = "resumed here" if k else ""
        if step is not None:  # --step: where it was left does not matter
            k, resumed = min(step, len(lesson.steps)) - 1, f"opened here ({why})"
        elif k is None:  # finished: at the first task still open, or from the top, fresh
            k = next(iter(self._open_tasks(lesson)), None)
            if k is None:  # a second time through: the questions ask again
                self._answered_before.setdefault(name, set()).update(answers)
                k, answers, resumed = 0, {}, "again from the top"
            else:
                resumed = "first open task"
        self._memory[name] = (k, answers)
        self._go(k, resumed=resumed)

    def _ask_about_run(self, lesson: Lesson, name: str, step: int | None = None,
                       why: str = "--step") -> bool:
        """A lesson that trains in the train lab takes the place of the run there: one that no
        file holds is asked about first, as quitting does. True: asked (the answer starts it)."""
        from attn_tui.tui.screens.labs.train_runs import drop_held_run, held_run, save_run_dialog

        run = held_run(self.app)
        if (run is None or not run.unsaved
                or all(step.screen != "lab:train" for step in lesson.steps)):
            return False
        from attn_tui.tui.screens.dialogs.confirm_quit_modal import ConfirmLessonModal

        def answer(choice: str | None) -> None:
            if choice == "save":
                save_run_dialog(self.app, run,
                                then=lambda: self.start(name, True, step, why))
            elif choice == "quit":  # let go: neither the lab nor Go to keeps it
                drop_held_run(self.app)
                self.start(name, True, step, why)

        self.app.push_screen(ConfirmLessonModal(
            f"{run.what()} is not saved. Lesson {name} trains its own runs in the train lab, "
            "in its place. "
            f"Save (s) / {ConfirmLessonModal.ANYWAY} (y) / Cancel (Esc)"), answer)
        return True

    def _kept(self, lesson: Lesson) -> tuple[tuple[int | None, dict[int, int]], set[int]]:
        """The lesson's progress from earlier runs, fitted to the lesson as it is now."""
        progress = self.app.progress
        before = len(progress.notices)
        r = progress.load(lesson.name)
        for notice in progress.notices[before:]:
            self.app.notify(notice, title="Progress", severity="warning", timeout=8,
                            markup=False)
        steps = lesson.steps
        answers = {i: a for i, a in r.answers.items() if i < len(steps)
                   and steps[i].question is not None and a < len(steps[i].question.choices)}
        tasks = {i for i in r.tasks if i < len(steps) and steps[i].task is not None}
        step = None if r.step is None else min(r.step, len(steps) - 1)
        return (step, answers), tasks

    def _save(self, **change: object) -> None:
        """One change to the lesson's kept progress. A file that cannot be written says so
        once; the changes wait, and a later save that works writes them and says so."""
        if self.lesson is None:
            return
        progress = self.app.progress
        failed = progress.save(self.lesson.name, **change)  # type: ignore[arg-type]
        if failed and not self._save_failed:
            self._save_failed = True
            self.app.notify(f"{failed} {progress.MEND}", title="Progress", severity="warning",
                            timeout=8, markup=False)
        elif not failed and self._save_failed and not progress.save_waiting():
            self._save_failed = False  # every lesson's waiting changes written
            self.app.notify("Progress saved again, with what could not be saved before.",
                            title="Progress", timeout=4, markup=False)
        elif not failed and progress.unsaved():  # waiting quietly, as the start's notice said
            self._save_failed = True

    def entries(self) -> list[tuple[str, str, str]]:
        """(name, title, summary) of every lesson that loads."""
        from attn_tui.lessons import LessonError, catalog

        try:
            # the go-to list and the palette say what one cannot run here before it is chosen
            return [(e.name, e.title + (f" (needs {e.needs})" if e.missing else ""), e.summary)
                    for e in catalog()]
        except LessonError as exc:
            self.app.notify(str(exc), title="A lesson file is broken", severity="error",
                            markup=False)
            return []

    def standing(self, besides: str | None = None) -> tuple[dict[str, str], str | None]:
        """Per lesson, its progress in words (tasks done, questions answered), and the lesson
        to take next: the first in order not finished with every task done, other than
        ``besides`` (the one open now)."""
        from attn_tui.lessons import LessonError, in_order, is_done, status_words

        words: dict[str, str] = {}
        nxt: str | None = None
        try:
            lessons = in_order()
        except LessonError:  # entries() has said so, and Go to lists no lessons
            return {}, None
        for lesson in lessons:
            (step, answers), tasks = self._kept(lesson)  # from the file (empty if none kept)
            finished = self.app.progress.load(lesson.name).finished or step is None
            if lesson.name in self._memory:  # this run's, which the file may not keep
                step, mine = self._memory[lesson.name]
                answers = {**answers, **mine}
                tasks = tasks | self._done_tasks.get(lesson.name, set())
                finished = finished or step is None
            shown = self._shown(lesson.name)
            unreadable = self.app.progress.unreadable(lesson.name) and (
                lesson.name not in self._memory)  # a file set aside: this run's are known
            words[lesson.name] = status_words(lesson, tasks, shown, answers, finished=finished,
                                              step=step, unreadable=unreadable)
            if (nxt is None and lesson.name != besides and lesson.missing() is None
                    and not is_done(lesson, finished, tasks)):
                nxt = lesson.name
        return words, nxt

    def runs_on(self, screen: object) -> bool:
        """Whether a lesson is open on ``screen``, its keys taking theirs first."""
        return self.lesson is not None and self.host is screen and not self.done

    def keys_taken(self, screen: object) -> set[str]:
        """The keys the lesson open on ``screen`` takes from it now: n, p and Esc always; h
        and ctrl+r on a task's step, y once show me is offered, a question's letters while
        it is open (as ``allows`` reads them for the keys)."""
        if not self.runs_on(screen):
            return set()
        step = self._step()
        taken = {"n", "p", "escape"}
        if step.task is not None:
            taken |= {"h", "ctrl+r"} | ({"y"} if self._offering else set())
        elif self._drifted():
            taken.add("ctrl+r")
        if step.question is not None:
            taken |= set(step.question.letters)
        return taken

    def commands(self, screen: object) -> Iterable[SystemCommand]:
        if self.runs_on(screen):  # the panel's keys, by name too
            task = self._step().task is not None
            for verb, title, words in (
                    ("next", "Lesson: next step", "The lesson's next step (n)"),
                    ("prev", "Lesson: previous step", "The lesson's step before (p)"),
                    *((("hint", "Lesson: hint", "A hint for this step's task (h)"),) if task
                      else ()),
                    *((("reset", "Lesson: reset the step", "This step as it began (ctrl+r; "
                        "u undoes)"),) if task or self._drifted() else ()),
                    ("leave", "Lesson: close", "Close the lesson and keep playing here (Esc; "
                     "g picks it up again)")):
                yield SystemCommand(title, words, lambda verb=verb: self._act_by_name(verb))
            q = self._step().question
            if q is not None and self.chosen is None:  # found by "answer", as help says
                from attn_tui.lessons.facts import fill

                for letter, choice in zip(q.letters, q.choices, strict=False):
                    yield SystemCommand(f"Lesson: answer {letter}",
                                        f"{fill(choice, self.context())} ({letter})",
                                        lambda letter=letter: self._act_by_name("answer",
                                                                                letter))
        for name, title, summary in self.entries():
            yield SystemCommand(f"Lesson: {name}", f"{title}: {summary}",
                                lambda n=name: self.start(n))

    # ---- the keys
    def allows(self, verb: str, parameters: tuple[object, ...]) -> bool:
        """The app's check_action for a lesson key."""
        app = self.app
        live = (self.lesson is not None and self.host is not None
                and app.screen is self.host and not takes_text(app.focused))
        if not live:
            return False
        if verb == "hint":
            return self._step().task is not None and not self.done and not self._busy
        if verb == "reset":
            return (self._step().task is not None or self._drifted()) and not (
                self.done or self._busy)
        if verb == "show":
            return self._offering and not self.done
        if verb != "answer":
            return live
        # on a question step a-d belong to the question, answered or not
        q = self._step().question
        if q is None and not self.done and parameters[0] == "a":
            # in Q, K or V a adds a token: it still does, and says so (see answer)
            return app.focused is not None and isinstance(app.focused.parent, MatrixEditor)
        return q is not None and not self.done and str(parameters[0]) in q.letters

    async def act(self, verb: str, *parameters: object) -> None:
        """Run a lesson key: next, prev, leave, answer (a letter) or scroll (lines)."""
        if verb == "next":
            self.next()
        elif verb == "prev":
            self.prev()
        elif verb == "leave":
            self.leave()
        elif verb == "answer":
            await self.answer(str(parameters[0]))
        elif verb == "scroll":
            self.scroll(int(parameters[0]))  # type: ignore[call-overload]
        elif verb == "hint":
            self.hint()
        elif verb == "show":
            self.show_me()
        elif verb == "reset":
            self.reset_step()

    # ---- a step's task: checked after every change the host makes
    def host_changed(self, host: object) -> None:
        """The host's state changed (a key, undo, a lab's result arriving): check the task."""
        if host is self.host and not self._busy and self.lesson is not None and not self._held:
            self._check()

    def hold_checks(self) -> None:
        """A question is open over a value stored only to ask it (quitting stores one being
        typed, and Cancel types it again): no task is checked, so none is met, until it is
        answered (``release_checks``)."""
        self._held = True

    def release_checks(self) -> None:
        if self._held:
            self._held = False
            if self.host is not None:
                self.host_changed(self.host)

    def _check(self) -> None:
        from attn_tui.lessons.tasks import evaluate

        task = self._step().task
        if task is None:
            view = self._view
            if view is None:
                return
            drifted = self._drifted()
            back = _back_for_the_answer(self.host) if self.host is not None else ""
            stale = drifted and bool(back) and back in view.note
            if stale:  # u took the step's numbers away again: the line no longer holds
                view = _without(view, back)
            if view.drifted != drifted or stale:
                # a drift just begun is said at the top, in sight, not at an answer's end
                self._show(view, at_end=view.chosen is not None and not drifted)
                self.app.refresh_bindings()
            return
        if self.host is None or self._start_live is None or self.done:
            return
        verdict = evaluate(task, self.host.lesson_live(), self._start_live)  # type: ignore[arg-type]
        state = self.host.lesson_state()
        if self._view is not None and self._shown_state not in (None, SHOWING):
            shown = self.host.shown_note if state == self._shown_state else ""
            if shown != self._view.shown:  # u or an edit took it away; U brought it back
                self._view = replace(self._view, shown=shown)
                if verdict == self._verdict:
                    self._show(self._view, at_end=True)
        if verdict.done:
            # credited on every check: a goal met again from the shown state, in a state of
            # the learner's own, is theirs; the shown state itself (again by U, or typed as
            # shown) stays show me's
            self._credit(shown=self._shown_state is SHOWING or state == self._shown_state)
        if verdict == self._verdict:
            return
        self._verdict = verdict
        if verdict.done:
            self._offering = False
        if self._view is not None:
            # met earlier in this visit and walked past (a head beyond the one asked for):
            # said as on coming back to the step, not as "Not yet"
            self._show(replace(self._view, verdict=verdict, offering=self._offering,
                               solved_before=self.index in self._solved()),
                       at_end=verdict.done or verdict.broken is not None)
        self.app.refresh_bindings()

    def _credit(self, shown: bool) -> None:
        """The step's goal is met: by the learner, or by "show me" (kept apart, for them and
        a teacher, until the learner meets it)."""
        assert self.lesson is not None
        mine = self._shown_tasks.setdefault(self.lesson.name, set())
        if self.index in self._solved() or (shown and self.index in mine):
            return
        if shown:
            mine.add(self.index)
            self._save(shown=self.index)
        else:
            self._solved().add(self.index)
            self._save(task=self.index)

    def hint(self) -> None:
        if self._put_off("h", "h"):
            return
        task = self._step().task
        if task is None or self._view is None:
            return
        if self._hints < len(task.hints):
            self._hints += 1
        elif not (self._verdict is not None and self._verdict.done):  # type: ignore[attr-defined]
            self._offering = True  # the hints are out: "show me" is offered, and asks first
        self._show(replace(self._view, hints=task.hints[: self._hints],
                           offering=self._offering), at_end=True)
        self.app.refresh_bindings()

    def show_me(self) -> None:
        """y after the offer: a state that meets the goal, from the step's start, as one
        change u undoes."""
        if self._put_off("y", "y"):
            return
        task = self._step().task
        if task is None or self.host is None or not self._offering:
            return
        self._offering = False
        self._shown_state = SHOWING  # a check the restore sets off is the shown state's
        self._restore(task.solution, by=REPLACED_BY["shown"])
        self.host.lesson_owns_state(also=True)  # the lesson's solution, not the learner's work
        self._shown_state = self.host.lesson_state()
        assert self.lesson is not None
        self._shown_states[(self.lesson.name, self.index)] = self._shown_state
        self._check()
        if self._view is not None:
            self._show(replace(self._view, offering=False, verdict=self._verdict,
                               shown=self.host.shown_note), at_end=True)
        self.app.refresh_bindings()

    def reset_step(self) -> None:
        """ctrl+r: the step's start back on the panes (u undoes that too)."""
        if self._put_off("ctrl+r", "\x12"):
            return
        if self.host is None or self._setup is None:
            return
        # the query picked is no edit (lesson_state leaves it out), but the step's words are
        # about the one it began on: that comes back too
        edited = self.host.lesson_state() != self._setup
        looked_away = self.host.lesson_work() != self._setup_view
        if edited:
            self._restore(by=REPLACED_BY["reset"])
        self.host.lesson_look_as(self._setup_view)
        if self._drifted():
            # the settings are the step's, not what the panes show: the train lab's run of
            # the learner's settings. Set up again, the step's actions bring its own back.
            self.app.notify("The step is set up again, with its own run (a lesson's runs are "
                            "not kept: e saves one first).", timeout=5, markup=False)
            self._go(self.index)
            return
        self._pick_again()
        if not edited:  # nothing for u to undo
            self.app.notify("Back at the step's start." if looked_away
                            else "The step is at its start already.", timeout=2)
            return
        self.app.notify("Back at the step's start (u undoes).", timeout=3, markup=False)
        if self._view is not None and (back := _back_for_the_answer(self.host)) in self._view.note:
            # that line speaks of the answer's own restore, not of this one
            self._view = _without(self._view, back)
            self._show(self._view, at_end=self._view.chosen is not None)
        self._check()

    def _pick_again(self) -> None:
        """The field or pane the step gave the keys to, given again: after ctrl+r, ↑ changed h,
        where the learner had moved, and not the D that the step's words and hints name."""
        step = self._step()
        for action in step.actions:
            if action.startswith(POINTING):
                self.app.call_later(self.app.run_action, action)
        if (only := _only_matrix(step)) is not None:  # as the step began: the task's matrix
            self.app.call_later(self.app.run_action, f"screen.pick_matrix('{only}')")

    def _restore(self, edits: tuple = (), by: str = REPLACED_BY["reset"]) -> None:
        """The step's start (and ``edits`` on it) on the panes, as one change u undoes; quit
        still asks about the learner's unsaved work it replaced, naming ``by``."""
        host = self.host
        assert host is not None
        was_saved, replaced = not host.has_unsaved_work(), host.lesson_work()
        self._restoring = True
        try:
            host.lesson_restore(self._setup, edits)
        finally:
            self._restoring = False
        if not was_saved:
            host.lesson_replaced_work(replaced, by)

    def _quoted(self) -> tuple[str, ...]:
        """The step's words (and its question's, the answer's last) as the panes now fill
        them: the answer's words are filled from the panes as it is given."""
        from attn_tui.lessons.facts import fill

        step, ctx = self._step(), self.context()
        q = step.question
        texts = [step.text, *((q.prompt, *q.choices, q.why) if q is not None else ())]
        return tuple(fill(text, ctx) for text in texts)

    def _drifted(self) -> bool:
        """Whether the panes show neither state the panel's words were filled in: the step's
        start, and once answered, the panes as the answer's reveal left them. (The step's
        words quote the first, the answer's the second: u back before a reveal that changed
        the panes, or the s an answer invites, is no drift.) A task's step is left out
        (changing the panes is what it asks for); another head or backend that leaves every
        quoted number as it was is not a change of the words."""
        if (self.lesson is None or self.host is None or self._setup is None or self.done
                or self._busy or self._revealing or self._start_words is None
                or self._step().task is not None):
            return False
        now = self._quoted()
        return now != self._start_words and now != self._answer_words

    def _open_tasks(self, lesson: Lesson) -> list[int]:
        """The steps whose task the learner has not met, this run or an earlier one: one only
        "show me" met is open too, as Go to and --lesson list count it."""
        met = self._done_tasks.get(lesson.name, set())
        return [i for i, step in enumerate(lesson.steps) if step.task is not None and i not in met]

    def _shown(self, name: str) -> set[int]:
        """The steps (array indexes) whose task only "show me" met, kept or this run."""
        return self.app.progress.load(name).shown | self._shown_tasks.get(name, set())

    def _solved(self) -> set[int]:
        assert self.lesson is not None
        return self._done_tasks.setdefault(self.lesson.name, set())

    def keys_on_hold(self) -> float:
        """For how many seconds at most keys from the terminal wait (see keys); 0: they go.
        They wait while a step sets up (an answer's reveal too), or a lesson key typed before
        them waits its turn:
        typed into the numbers a step is about to replace, they would vanish unseen (n 7
        Enter lost the 7). A step that loads torch and trains can take longer than a few
        seconds on a class's server, so keys wait for it for up to a minute."""
        if self._busy and self.lesson is not None:
            from textual.screen import ModalScreen

            # ctrl+q asks at once, while a step sets up: its answer is not held, nor what is
            # typed into a dialog it opens (Save's file name)
            return 0.0 if isinstance(self.app.screen, ModalScreen) else SETUP_HOLD
        return TURN_HOLD if self._keys_ahead else 0.0

    @property
    def setting_up(self) -> bool:
        """Whether a step is setting up, or an answer's reveal is running: what it changes,
        it points at when ready."""
        return self._busy and self.lesson is not None

    def setting_up_a_while(self) -> bool:
        """Whether a step has been setting up for longer than a burst of keys takes: a key
        now is a new press, made while the panel says the step is getting ready."""
        return self.setting_up and time.monotonic() - self._busy_since >= SETUP_GRACE

    def refuses_while_setting_up(self, event: events.Key) -> bool:
        """For the App, on a key from the terminal: n or p pressed while a step (or an
        answer's reveal) has been setting up for a while (loading torch, training a run) is
        refused, said in a notice.
        Held like other keys, each press became a step of its own once the step was ready,
        and a learner pressing n at a panel still without words skipped a step and its task.
        Behind keys still waiting (a ctrl+s whose dialog it may be typed into), it waits too,
        and is looked at again in its turn (refuses_in_its_turn). True if refused or held."""
        key = event.key
        if key not in ("n", "p") or not self.setting_up_a_while() or not self._reads_keys():
            return False
        if key_line(self.app).waiting:
            hold_to_ask_again(self.app, event)
        else:
            self.say_getting_ready(key)
        return True

    def _reads_keys(self) -> bool:
        """Whether a letter typed now reaches the lesson: not a field typed into, nor a dialog
        on top (the quit question's n is its Cancel)."""
        return not takes_text(self.app.focused) and self.app.screen is self.host

    def refuses_in_its_turn(self, event: events.Event) -> bool:
        """For the App, on a key from the line: one refuses_while_setting_up held, which would
        now still reach the lesson (no dialog opened by the keys before it took it), is
        refused, said in a notice. True if refused."""
        if not asked_again(self.app, event) or self.lesson is None or not self._reads_keys():
            return False
        assert isinstance(event, events.Key)
        self.app.notify(f"{event.key} was pressed before step {self.index + 1}'s words showed, "
                        "so it was not taken: press it again.", timeout=4, markup=False)
        return True

    def say_getting_ready(self, what: str) -> None:
        """Say, once a step, that ``what`` (n, p, a click) was not taken while it sets up."""
        if self._refusal_told != self._busy_since:  # once a step: a press on a press
            self._refusal_told = self._busy_since
            again = "click again" if what.startswith("a ") else "press it again"
            if self._revealing:
                self.app.notify(f"Step {self.index + 1}'s answer is still being worked out, so "
                                f"{what} was not taken: {again} once its words show.",
                                timeout=4, markup=False)
                return
            self.app.notify(f"Step {self.index + 1} is still getting ready, so {what} was not "
                            f"taken: {again} once the step's words show.", timeout=4,
                            markup=False)

    async def _act_by_name(self, verb: str, *parameters: object) -> None:
        """A lesson key chosen by name in the palette: the command itself, never the key
        typed again (into a value being typed on a lab's bar, n became a letter of it)."""
        self._by_name = True
        try:
            await self.act(verb, *parameters)
        finally:
            self._by_name = False

    _by_name = False

    def _put_off(self, key: str, char: str) -> bool:
        """Lesson keys are priority keys, read by the App before the keys typed just ahead of
        them reach the focused widget. Put one off until those have been read, then line it
        up behind any of them still waiting (handed back by a dialog that opened) and ahead
        of the keys typed after it, which wait meanwhile (``keys_on_hold``): in its turn the
        App reads it again, as a lesson key, or as text if a cell or a dialog now has the
        keys (5 n types 5n, as typed slowly). True if put off."""
        app = self.app
        if (self._by_name or textual_compat.active_message_pump() is not app
                or app.reading_from_line):
            return False
        self._keys_ahead += 1

        def later() -> None:
            self._keys_ahead -= 1
            line_up(app, key, char)

        after_keys(app, later)
        return True

    def scroll(self, lines: int) -> None:
        from attn_tui.tui.tutor.panel import LessonPanel

        if self.host is not None:
            for panel in self.host.query(LessonPanel):
                # from where earlier presses are taking it: three fast presses move six lines
                panel.scroll_to(y=panel.scroll_target_y + 2 * lines, animate=False)

    def _moving_on(self) -> None:
        """A notice answered a key on the step being left, and it would cover the next step's
        panel (its question's choices, at 80×24): it goes with the step. Warnings stay."""
        textual_compat.dismiss_notices(self.app)

    def next(self) -> None:
        if self._put_off("n", "n"):
            return
        assert self.lesson is not None
        q, note = self._step().question, ""
        if (q is not None and self.chosen is None and not self.done
                and self._read_first("n did not skip it", "then answer it, or press n again "
                                     "to skip it", first_only=True)):
            return
        self._moving_on()
        if q is not None and self.chosen is None and not self.done:
            view = self._view
            choices = view.choices if view is not None and view.choices else q.choices
            note = _as_sentence(f"Step {self.index + 1}'s answer: {LETTERS[q.answer]}) "
                                f"{choices[q.answer]}")
        if self.index + 1 < len(self.lesson.steps):
            self._note = note
            self._go(self.index + 1)
        elif not self.done:
            self.done, self._note = True, note
            self._memory[self.lesson.name] = (None, self._answers())
            self._save(step=None, finished=True)
            if self._view is not None:
                open_tasks = tuple(i + 1 for i in self._open_tasks(self.lesson))
                shown = self._shown(self.lesson.name)
                shown_tasks = tuple(k for k in open_tasks if k - 1 in shown)
                answers = self._answers()
                before = self._answered_before.get(self.lesson.name, set())
                passed = [i + 1 for i, step in enumerate(self.lesson.steps)
                          if step.question is not None and i not in answers]
                # answered an earlier time, the progress file (and Go to) counts it answered
                open_questions = tuple(k for k in passed if k - 1 not in before)
                passed_again = tuple(k for k in passed if k - 1 in before)
                self._show(replace(self._view, done=True, note=note, open_tasks=open_tasks,
                                   shown_tasks=shown_tasks, open_questions=open_questions,
                                   passed_again=passed_again))

    def prev(self) -> None:
        if self._put_off("p", "p"):
            return
        self._moving_on()
        self._note = ""
        if self.done:
            self._go(self.index)
        elif self.index > 0:
            self._go(self.index - 1)
        else:
            self.app.notify("This is the first step.", timeout=2)

    async def answer(self, letter: str) -> None:
        if self._put_off(letter, letter):
            return
        q = self._step().question
        if q is None:  # a in Q, K or V: the editor's, said aloud, not a silent answer
            self.app.notify("This step asks no question, so a added a token, as it does "
                            "outside a lesson (u undoes).", timeout=4, markup=False)
            raise SkipAction  # the key goes on to the editor
        if self._busy:  # typed before the question could be read (see _read_first)
            self.say_getting_ready(letter)
            return
        if self.chosen is not None:  # said: b here switched no backend, and said nothing
            self.app.notify(f"Step {self.index + 1}'s question is answered "
                            f"({LETTERS[self.chosen]}); {letter} answers nothing more here.",
                            timeout=3, markup=False)
            return
        if self._read_first(f"{letter} was not taken as its answer",
                            f"then press {_letters(q)}"):
            return
        # what the notices said ("Answer first", "only just come up") no longer holds, and
        # they would cover the panes the answer's words quote
        textual_compat.dismiss_notices(self.app, starts=("Answer first", self._just_up()))
        self.chosen = LETTERS.index(letter)
        self._answers()[self.index] = self.chosen
        self._save(answer=(self.index, self.chosen))
        host = self.host
        was_saved = host is not None and not host.has_unsaved_work()
        back = ""
        if host is not None and self._drifted() and host.lesson_state() != self._setup:
            # the answer's words speak of the step's own panes: with the learner's sentence
            # or numbers left up, it paired one sentence's figures with another's tokens.
            # (The step's own settings with a run the learner trained are the step's panes.)
            self._restore(by=REPLACED_BY["answer"])
            back = _back_for_the_answer(host)
        # in a worker, as a step sets up: a reveal that trains takes seconds, which this
        # handler would hold the App for; keys wait for it, n and p are refused meanwhile
        self._revealing = self._busy = True
        self._busy_since = began = time.monotonic()
        self.app.run_worker(partial(self._reveal, q, host, was_saved, back, began),
                            exclusive=True, group="lesson")

    async def _reveal(self, q: Question, host: LessonHost | None, was_saved: bool, back: str,
                      began: float) -> None:
        from attn_tui.lessons.facts import fill

        assert self.chosen is not None
        waiting = None
        if q.reveal and self._view is not None:
            chose = f"{LETTERS[self.chosen]}) {fill(q.choices[self.chosen], self.context())}"
            busy = replace(self._view, busy=True, answering=chose)

            def say_waiting() -> None:
                if self._revealing and self.lesson is not None:  # not left meanwhile
                    self._show(busy)

            waiting = asyncio.get_running_loop().call_later(REVEAL_SAID_AFTER, say_waiting)
        try:
            for action in q.reveal:
                await self._run(action)
            await self._settle()
        finally:
            if waiting is not None:
                waiting.cancel()
            if self._busy_since == began:  # else a step that replaced this one owns them
                self._revealing = self._busy = False
        if self.lesson is None or self.host is not host or self._busy_since != began:
            return  # the lesson closed, or another step replaced this one, meanwhile
        if host is not None:  # the reveal's changes are the step's, not the learner's
            self._setup, self._setup_view = host.lesson_state(), host.lesson_work()
            self._answer_words = self._quoted()
            if was_saved:
                host.lesson_owns_state()
        self._conceal(self._step().conceal)  # what later questions ask stays hidden
        if self._view is not None:
            why = fill(q.why, self.context())
            # answered: u brings the learner's numbers back now, not "once you answer"
            kept = self._view.note.replace(f"{ONCE_ANSWERED} u brings", "u brings")
            note = " ".join(filter(None, (kept, back)))
            self._show(replace(self._view, chosen=self.chosen, why=why, note=note, busy=False,
                               answering=""), at_end=True)  # (what the wait said, gone)
        self._point(q.reveal_highlight or self._step().highlight)
        self.app.refresh_bindings()  # the keys a question held back are the learner's again

    def refuses_hand_over(self, host: object) -> str | None:
        """Why ``host`` may not hand a head to the workbench (w) now: a question (or a step)
        keeps numbers back there, which the workbench would show. None: it may."""
        return self._keeps_back(host, "the workbench would show", "w works")

    def refuses_export(self, host: object) -> str | None:
        """Why ``host``'s tables may not be exported or copied now: the file would hold the
        numbers its question (or a later one) keeps back. None: they may."""
        return self._keeps_back(host, "an export or a copy now would hold", "e and c work")

    def _keeps_back(self, host: object, would: str, works: str) -> str | None:
        if self.lesson is None or self.host is not host or not self._kept_back:
            return None
        q = self._step().question
        if q is not None and self.chosen is None:
            return f"{_answer_first(q)}: {would} the numbers this question keeps back."
        return (f"{would[:1].upper()}{would[1:]} the numbers this step keeps back: {works} "
                "once they are on screen.")

    def answer_first(self, host: object, then: str) -> str | None:
        """"Answer first (a, b or c): ``then``" while ``host``'s question waits; else None."""
        if not self.asking(host):
            return None
        question = self._step().question
        assert question is not None
        return f"{_answer_first(question)}: {then}"

    def asking(self, host: object) -> bool:
        """Whether ``host``'s step has a question waiting for its answer (what a step keeps
        back may instead be for a question still to come)."""
        if self.lesson is None or self.host is not host:
            return False
        return self._step().question is not None and self.chosen is None

    def holds_back(self, host: object) -> str | None:
        """Why the learner may not change ``host``'s numbers, settings or view now: its step's
        question is open, and the change (s on "take the division away", m on "the other
        order") would show the answer before one is given. The keys to try come with the
        answer. None: free (the lesson's own steps, reveals and ctrl+r change them freely)."""
        if (self.lesson is None or self.host is not host or self._busy or self._revealing
                or self._restoring):
            return None
        q = self._step().question
        if q is None or self.chosen is not None:
            return None
        return (f"{_answer_first(q)}: the panes stay as the question "
                "shows them until then.")

    def hand_over(self, host: object) -> None:
        """``host`` hands a head to the workbench (w, not refused): on the lesson's last step,
        with nothing left unanswered, that is the step done as it invites (real-heads'), and
        the lesson finished."""
        if self.lesson is None or self.host is not host or self.done:
            return
        q = self._step().question
        if self.index + 1 == len(self.lesson.steps) and (q is None or self.chosen is not None):
            self.done = True
            self._memory[self.lesson.name] = (None, self._answers())
            self._save(step=None, finished=True)

    def host_gone(self, host: object) -> None:
        """``host`` has left the app (Go to, w, a lab opened over it): the lesson on it closes
        where it is, said, and g brings it back at this step."""
        if self.lesson is None or self.host is not host or self._switching:
            return
        name, k, finished = self.lesson.name, self.index + 1, self.done
        self.host = None  # its panel and marks went with it
        self._close()
        if isinstance(host, Screen):  # a lab kept for its return: its bar offers c again
            self._refresh_bars(host)
        self.app.notify(f"Lesson {name} finished: g opens another." if finished else
                        f"Lesson {name} left at step {k}, with its screen: g, lesson {name} "
                        "picks it up there.", timeout=6, markup=False)

    def leave(self) -> None:
        if self._put_off("escape", "\x1b"):
            return
        host = self.host
        name, k, finished = (self.lesson.name, self.index + 1, self.done) if self.lesson else (
            "", 0, True)
        self._close()
        where = ("here" if host is self.app.workbench()
                 else "in this lab (Esc again: the workbench)")
        back = ("g opens another lesson." if finished or not name
                else f"g, lesson {name} picks it up at step {k}.")
        self.app.notify(f"Lesson closed. Everything stays as it is {where}: keep playing. "
                        + back, timeout=5, markup=False)

    # ---- stepping
    def _step(self) -> Step:
        assert self.lesson is not None
        return self.lesson.steps[self.index]

    def _answers(self) -> dict[int, int]:
        assert self.lesson is not None
        return self._memory[self.lesson.name][1]

    def _go(self, k: int, resumed: str = "") -> None:
        assert self.lesson is not None
        self._resumed = resumed  # the panel's edge says so until the learner moves on
        answers = self._answers()
        self._memory[self.lesson.name] = (k, answers)  # p after the end: in it again
        self._save(step=k)
        self.index, self.chosen, self.done = k, answers.get(k), False
        self._start_live, self._verdict, self._hints, self._offering = None, None, 0, False
        self._shown_state = self._shown_states.get((self.lesson.name, k))
        self._start_words, self._answer_words = None, None
        if self.host is not None:  # a value Enter sent just before n is the learner's
            self.host.settle_edits()
        self._busy, self._revealing = True, False
        self._busy_since = time.monotonic()
        # a callable, not a coroutine: a step the app never gets to start (n typed just before
        # q) then leaves no "coroutine was never awaited" warning on the terminal at exit
        self.app.run_worker(partial(self._enter, self._step()), exclusive=True, group="lesson")

    async def _enter(self, step: Step) -> None:
        from attn_tui.tui.tutor.panel import LessonPanel

        host = await self._host_for(step.screen)
        if host is not self.host:
            self._close(keep_lesson=True)
            self.host = host
            # a panel a closing lesson left going (Go to from one lesson to another): gone first
            if left := host.query(LessonPanel):
                await left.remove()
            await host.mount(LessonPanel(id="lesson-panel"))
            host.add_class("-lesson")  # after the mount, so the panel's CSS is loaded
            # the title says a lesson runs here, not "workbench" (or the lab's "Esc: workbench")
            self._own_title = host.sub_title
            assert self.lesson is not None
            host.sub_title = f"lesson {self.lesson.name}" + (
                "" if step.screen == "workbench" else f" · lab {step.screen[4:]}")
            if step.screen == "workbench":
                # its steps are written from the keys in Q, as the workbench starts: left in
                # V by the lesson before, "change one cell of Q" typed 0 into V
                await self._run("screen.pick_matrix('Q')")
        busy = self._view_for(step, busy=True)
        waiting = None
        if self._shown_panel() is None:  # a panel just mounted: empty until it says something
            self._show(busy)
        else:
            # the last step's words stay until this one's are ready, or until the wait is
            # long enough to be seen: a step ready at once flashed "getting ready…" between
            self._show(busy, paint=False)
            began = self._busy_since

            def say_waiting() -> None:
                # (not left meanwhile, nor replaced by another step)
                if self.setting_up and self._busy_since == began and self._view is not None:
                    self._show(self._view)

            waiting = asyncio.get_running_loop().call_later(SETUP_SAID_AFTER, say_waiting)
        try:
            await self._set_up(step, host)
        finally:
            if waiting is not None:
                waiting.cancel()

    async def _set_up(self, step: Step, host: LessonHost) -> None:
        from attn_tui.core.presets import PRESET_NAMES as PLAIN_EXAMPLES
        from attn_tui.lessons.facts import fill, lecture_facts
        from attn_tui.lessons.loader import placeholders

        before = host.lesson_state()
        was_saved = not host.has_unsaved_work()
        # the learner's edits: made during the lesson, or unsaved on the screen it opened on
        # (g, then a lesson, replaced them)
        edited = before != self._setup if self._setup is not None else not was_saved
        replaced = host.lesson_work()
        if step.workspace is not None:  # the loader allows one on the workbench only
            from attn_tui.lessons.workspaces import build

            bench = self.app.workbench()
            assert bench is host and bench is not None
            ws = await asyncio.to_thread(build, step.workspace)
            if step.workspace in PLAIN_EXAMPLES:  # the learner's backend and precision stay
                ws = replace(ws, backend=bench.workspace.backend, dtype=bench.workspace.dtype)
            bench.apply(ws)
            await self.app.run_action("screen.set_view('weights')")
        for action in step.actions:
            await self._run(action)
        if (only := _only_matrix(step)) is not None:
            # the keys to the one matrix the task lets change: left in K by the step before,
            # the first edit of a Q task broke its rule
            await self._run(f"screen.pick_matrix('{only}')")
        q = step.question
        words = [step.text, *((q.prompt, q.why, *q.choices) if q is not None else ())]
        if {"lec", "lec64"} & {root for text in words for root in placeholders(text)}:
            # the lecture's runs (and torch) load in a thread, not in the event loop
            await asyncio.to_thread(lambda: (lecture_facts("float32"), lecture_facts("float64")))
        await self._settle()
        # the step's words are filled from its own numbers, before any reveal runs again
        view = self._view_for(step)
        start_words = self._quoted() if step.task is None else None
        answered = q is not None and self.chosen is not None
        if answered:  # answered on an earlier visit: as it was left
            for action in q.reveal:
                await self._run(action)
            await self._settle()
            view = replace(view, chosen=self.chosen, why=fill(q.why, self.context()))
        self._conceal(step.conceal + (q.conceal if q is not None and not answered else ()))
        self._setup, self._setup_view = host.lesson_state(), host.lesson_work()
        self._start_words = start_words
        self._answer_words = self._quoted() if answered else None
        if was_saved or step.workspace is not None:
            # nothing of the learner's was unsaved, or the step replaced the whole workspace
            host.lesson_owns_state()
        if edited and self._setup != before:  # the learner's own numbers were replaced
            # said in the panel, where the learner reads: a notice covered the choices, or the
            # numbers the step is about
            # an open question keeps the panes until it is answered (holds_back): u too
            held = q is not None and not answered and isinstance(host, HoldsForQuestion)
            when = f"{ONCE_ANSWERED} u" if held else "u"
            said = (f"Step {self.index + 1} starts from its own {host.state_words}. {when} "
                    "brings yours back, one change at a time.")
            task = step.task
            if task is not None and (task.keep or task.change is not None or task.max_cells):
                # its rules are counted from there: u at once broke one (Task ✗ on a goal not
                # even tried)
                said = (f"Step {self.index + 1} starts from its own {host.state_words}, and its "
                        f"task's rules count from them. Once you are done with it, {when} "
                        "brings yours back, one change at a time.")
            view = replace(view, note=" ".join(filter(None, (view.note, said))))
            if not was_saved:  # quitting asks about it
                host.lesson_replaced_work(replaced, REPLACED_BY["step"])
        if not edited:  # u stops at the step's start: before it is only the lesson's set-up
            host.lesson_undo_stops_here()
        if step.task is not None:
            self._start_live = host.lesson_live()
            if self.index in self._solved():
                view = replace(view, solved_before=True)
        self._busy = False
        self._show(view, at_end=answered)
        self._check()
        # after the panel has its height: then scroll
        self._point(q.reveal_highlight or step.highlight if answered else step.highlight)
        self.app.refresh_bindings()

    async def _host_for(self, screen: str) -> LessonHost:
        self._switching = True
        try:
            return await self._find_host(screen)
        finally:
            self._switching = False

    async def _find_host(self, screen: str) -> LessonHost:
        app = self.app
        host: Screen | None
        if screen == "workbench":
            host = app.workbench()
            # not the too-small screen: it stays until the window is large enough
            while (app.screen is not host and len(app.screen_stack) > 1
                   and not says_too_small(app.screen)):
                await app.pop_screen()
        else:
            from attn_tui.core.labs import LABS

            lab = LABS[screen[4:]]
            here = isinstance(app.screen,
                              getattr(importlib.import_module(lab.module), lab.screen_class))
            # a lesson starts in a lab afresh, as it does from anywhere else: a run left on
            # screen would stand in the lesson's first step as if the lesson had trained it
            held = here and self.host is None and isinstance(app.screen, HoldsRun)
            if not here and app.left_labs.get(screen[4:], {}).get("lessons"):
                # the lesson's own run, left with the lesson (Go to): back as it was, as the
                # notice on leaving promised
                app.reopen_lab(screen[4:])
            elif not here or (held and app.screen.held_run() is not None):
                app.open_lab(screen[4:])
            host = app.screen
        assert host is not None
        if not host.is_mounted:  # a lab just opened (waiting on a mounted one laid it out)
            await AwaitMount(host, [host])
        return host  # type: ignore[return-value]  # the workbench and the labs are hosts

    async def _run(self, action: str) -> None:
        from attn_tui.lessons.loader import parse_action

        app = self.app
        namespace, name, _ = parse_action(action)
        # "screen." is the lesson's own screen, not whatever is on top of it (the too-small
        # screen, when a lesson starts in a small window)
        host = self.host if namespace == "screen" else None
        target = host or (app.screen if namespace == "screen" else app)
        if not callable(getattr(target, f"action_{name}", None)):  # a lesson file's typo
            app.notify(f"This lesson asks for '{action}', which {type(target).__name__} does "
                       "not have.", title="Lesson step skipped an action", severity="error",
                       markup=False)
            return
        if host is not None:
            await app.run_action(action.strip().split(".", 1)[1], host)  # type: ignore[arg-type]
        else:
            await app.run_action(action)

    async def _settle(self) -> None:
        """Let the host finish what the actions started (a lab may compute in a thread)."""
        host = self.host
        if host is None:
            return
        for _ in range(3):  # a finished worker may start the next (a model loaded, then run)
            pending = [w for w in self.app.workers if w.node is host and not w.is_finished]
            if not pending:
                break
            for worker in pending:
                # cancelled by a newer request, or failed (the screen says what went wrong):
                # ended either way; this step's own cancellation ends the step here
                await textual_compat.worker_ended(worker)

    def _task_row(self, host: object) -> tuple[tuple[str, int], ...]:
        """The step table's row a task is about ("α(verb? → barked)"), when the table explains
        its query: kept in sight with the marks, as a hint that grows the panel squeezed the
        table to its first row."""
        from attn_tui.lessons.tasks import STAGES

        task = self._step().task if self.lesson is not None else None
        if (task is None or task.cell is None or task.stage == "output"
                or not STAGES.get(task.stage, ("", False))[1]):
            return ()
        if not isinstance(host, ExplainsQuery) or host.explained_query() != task.cell[0]:
            return ()
        return (("steps", task.cell[1]),)

    def _marked_key_row(self, host: object, highlights: tuple[Highlight, ...]
                        ) -> tuple[tuple[str, int], ...]:
        """The step table's row for the one key the step's first mark of the map picks out in
        the query the table explains: an answer that says "barked gets 0.8343" beside it."""
        if not highlights or highlights[0].pane != "heatmap" or not isinstance(
                host, ExplainsQuery):
            return ()
        query, t_k = host.explained_query(), host.map_keys()
        keys = [k for q, k in highlights[0].cells if q == query and k < t_k]
        return (("steps", keys[0]),) if len(keys) == 1 else ()

    def _conceal(self, items: tuple[Highlight, ...]) -> None:
        from attn_tui.tui.tutor.marks import conceal

        self._kept_back = bool(items) and self.host is not None
        if self.host is not None:
            conceal(self.host, items)  # type: ignore[arg-type]

    def points_again(self, only_stacked: bool = False, then: Callable[[], object] | None = None
                     ) -> bool:
        """Bring the step's marked cells back into view (the window was resized, the panel
        took a new height); False if no lesson is showing, or, with ``only_stacked``, if its
        panes are not the one scrolling column of a narrow window. Side by side, each column
        scrolls only as far as the marks need (the learner may have moved to another pane:
        ``then`` runs after, to bring that back)."""
        host = self.host
        if self.lesson is None or host is None or self.app.screen is not host:
            return False
        stacked = host.has_class("-stacked")
        # or a pane that scrolls on its own where the panel's height takes its room (the
        # train lab's maps: an answer's words hid the rows they spoke of)
        if only_stacked and not stacked and not isinstance(host, ScrollsUnderPanel):
            return False
        then = None if stacked else then  # stacked, the marks are what the column shows
        if not self._busy:  # a step setting up points at its own marks when ready
            self._point(self._pointed, from_top=stacked, then=then)
        elif then is not None:
            then()
        return True

    def _point(self, highlights: tuple[Highlight, ...], from_top: bool = True,
               then: Callable[[], object] | None = None) -> None:
        from attn_tui.tui.tutor.marks import bring_into_view, mark

        self._pointed = highlights
        host = self.host
        if host is None:
            return
        marks = mark(host, highlights)  # type: ignore[arg-type]
        lead = highlights[0].cells if highlights else frozenset()
        keep = self._marked_key_row(host, highlights) + self._task_row(host)  # the task's last

        def scroll() -> None:
            bring_into_view(host, marks, lead, from_top=from_top,  # type: ignore[arg-type]
                            keep=keep)
            if isinstance(host, PointedByLesson):  # what it keeps in view is ours now
                host.lesson_pointed()
            if then is not None:
                then()

        # once the layout has settled (the panel may just have changed height)
        host.call_after_refresh(scroll)

    # ---- the panel
    def context(self) -> dict:
        """What a step's words are filled from: the panes as they are now."""
        from attn_tui.lessons.facts import Context, Wrapped, workbench_context

        host, bench = self.host, self.app.workbench()
        if host is not None and host is bench:
            return workbench_context(bench.steps, bench.workspace)
        return Context(lab=Wrapped(host))

    def _view_for(self, step: Step, busy: bool = False) -> PanelView:
        """The panel for a step just entered: its words filled from the panes as they are now."""
        from attn_tui.lessons.facts import fill
        from attn_tui.tui.tutor.panel import PanelView

        assert self.lesson is not None
        view = PanelView(lesson=self.lesson.name, k=self.index + 1, n=len(self.lesson.steps),
                         title=step.title, note=self._note, busy=busy, resumed=self._resumed)
        if busy:
            return view
        ctx, q = self.context(), step.question
        view = replace(view, text=fill(step.text, ctx), keys=step.keys)
        if q is not None:
            view = replace(view, prompt=fill(q.prompt, ctx), answer=q.answer,
                           choices=tuple(fill(c, ctx) for c in q.choices))
        if step.task is not None:
            view = replace(view, goal=step.task.goal, task_why=step.task.why)
        return view

    def _read_first(self, not_taken: str, then: str, first_only: bool = False) -> bool:
        """True, said in a notice, if the open question came up too lately to have been read:
        the key was typed with the one that brought it (n a, or "nan" typed on a control that
        was not open). An answer is held back each time the question shows, since it is kept
        in progress; n only the first time, so p then n back and on again is no burst."""
        if self._asked is None or time.monotonic() - self._asked >= ANSWER_GUARD:
            return False
        if first_only and not self._asked_first:
            return False
        self._asked_first = True  # a key held back: the rest of its burst (n) is held too
        self.app.notify(f"{self._just_up()}, so {not_taken}: read it, {then}.", timeout=4,
                        markup=False)
        return True

    def _just_up(self) -> str:
        return f"Step {self.index + 1}'s question had only just come up"

    def _shown_panel(self) -> object | None:
        """What the host's panel shows now (None: nothing yet)."""
        from attn_tui.tui.tutor.panel import LessonPanel

        if self.host is None:
            return None
        panels = self.host.query(LessonPanel)
        return panels.first().view if panels else None

    def _show(self, view: PanelView, at_end: bool = False, paint: bool = True) -> None:
        """The step's state is ``view``; with ``paint``, the panel shows it too."""
        from attn_tui.tui.tutor.panel import LessonPanel

        view = replace(view, drifted=self._drifted())
        self._view = view
        if not (view.prompt and view.chosen is None and not view.busy and not view.done):
            self._asked = None
        elif self._asked is None:  # from when it shows (a step arrived at shows busy first)
            self._asked_first = (view.lesson, view.k) not in self._seen_questions
            self._seen_questions.add((view.lesson, view.k))
            self._asked = time.monotonic()
        if self.host is not None and paint:
            for panel in self.host.query(LessonPanel):
                panel.show(view, at_end=at_end)
            self._refresh_bars(self.host)

    @staticmethod
    def _refresh_bars(host: Screen) -> None:
        """A lab's bar offers c for itself only where the step leaves c to it (a question's
        c) answers)."""
        from attn_tui.tui.widgets.control_bar import ControlBar

        for bar in host.query(ControlBar):
            bar.refresh()

    def _close(self, keep_lesson: bool = False) -> None:
        from attn_tui.tui.tutor.marks import mark
        from attn_tui.tui.tutor.panel import LessonPanel

        host = self.host
        if host is not None:
            mark(host, ())  # type: ignore[arg-type]
            self._conceal(())
            host.lesson_undo_stops_here(False)  # the lesson over, u goes back through it
            host.query(LessonPanel).remove()
            host.remove_class("-lesson")
            host.sub_title = self._own_title
        self.host = None
        if isinstance(host, SaysForLesson):
            host.lesson_over()
        if host is not None:
            self._refresh_bars(host)
        self._setup = self._setup_view = None
        self._pointed = ()
        if not keep_lesson:
            self.app.workers.cancel_group(self.app, "lesson")
            self.lesson, self.done, self._note = None, False, ""
        self.app.refresh_bindings()
