"""Run a lesson over the live panes: n, p, Escape and the answer keys, as the app's own bindings.

A step is replayed from scratch whenever it is entered: its screen is brought up, its workspace
loaded, its actions run through ``run_action`` (the very actions the keys run), its cells
highlighted and its text filled with the numbers now on the panes. The lesson keys are priority
bindings, so they win over a focused grid, but they are switched off (``check_action``) whenever
no lesson runs, a dialog is open or a cell is being typed into: then the key goes where it
would have gone anyway.
"""

from __future__ import annotations

import asyncio
import contextlib
import importlib
from collections.abc import Iterable
from dataclasses import replace
from functools import partial
from typing import TYPE_CHECKING

from textual._context import active_message_pump
from textual.app import App, SystemCommand
from textual.binding import Binding
from textual.screen import Screen
from textual.widget import AwaitMount
from textual.worker import WorkerCancelled, WorkerFailed

from attn_tui.tui.keys import after_keys, line_up, takes_text

if TYPE_CHECKING:
    from attn_tui.lessons import Step
    from attn_tui.lessons.loader import Highlight, Lesson
    from attn_tui.tui.tutor.panel import PanelView

# Lessons are imported when one starts, not before the first frame (see make bench).
LETTERS = "abcd"  # the answer keys; the loader checks lesson files against the same letters

ACTIONS = {"lesson_next", "lesson_prev", "lesson_leave", "lesson_answer", "lesson_scroll"}


def _state_of(screen: Screen) -> object:
    """What the learner changes on a screen: the workbench's workspace (which query the cursor
    is on aside: moving it is not an edit), a lab's settings."""
    ws = getattr(screen, "workspace", None)
    return replace(ws, selected=0) if ws is not None else getattr(screen, "settings", None)


def _nothing_unsaved(screen: Screen | None) -> bool:
    # a lab's settings are not saved work: only the workbench has anything unsaved
    return screen is not None and not getattr(screen, "dirty", False)


def _lessons_own(screen: Screen, was_saved: bool, replaced_all: bool) -> None:
    """A lesson's own numbers are not the learner's work: the state a step (or a reveal) set
    up is the screen's lesson baseline, which quitting does not ask about, when nothing of the
    learner's was unsaved before it, or the step replaced the whole workspace. The session
    file's own record of what it holds is left as it is."""
    if (was_saved or replaced_all) and hasattr(screen, "lesson_baseline"):
        screen.lesson_baseline = screen.workspace


class LessonRunner(App[int]):
    BINDINGS = [
        # the panel's lower edge names these; the footer keeps room for the screen's own keys
        Binding("n", "lesson_next", "Next step", show=False, priority=True),
        Binding("p", "lesson_prev", "Previous step", show=False, priority=True),
        Binding("escape", "lesson_leave", "Leave lesson", show=False, priority=True),
        *(Binding(c, f"lesson_answer('{c}')", f"answer {c}", show=False, priority=True)
          for c in LETTERS),
        # the panel cannot take focus (the panes keep it): in a small window its words scroll
        Binding("shift+down", "lesson_scroll(1)", "Lesson text down", show=False,
                tooltip="scroll the lesson's words down (a small window)"),
        Binding("shift+up", "lesson_scroll(-1)", "Lesson text up", show=False,
                tooltip="scroll the lesson's words up"),
    ]

    initial_lesson: str | None = None
    lesson: Lesson | None = None
    lesson_index = 0
    lesson_chosen: int | None = None  # the letter index the learner pressed on this step
    lesson_done = False
    lesson_host: Screen | None = None
    _lesson_note = ""
    _lesson_view: PanelView | None = None
    _lesson_busy = False
    _lesson_pending: str | None = None  # an answer key pressed while the step was setting up
    _lesson_pointed: tuple = ()  # the marks the step last brought into view
    # per lesson this session: (the step to come back to, the letter answered at each step);
    # the step is None once the lesson is finished: opened again, it starts from the top
    _lesson_memory: dict[str, tuple[int | None, dict[int, int]]] | None = None
    _lesson_setup: object = None  # the host's state as the current step set it up
    _lesson_keys_ahead = 0  # lesson keys put off until the keys typed before them are read
    _reading_handed_back = False  # the App is reading a key from the line (see key_order)

    def on_mount(self) -> None:
        if self.initial_lesson:
            self.start_lesson(self.initial_lesson)

    # ---- entry points: CLI, command palette, the g menu
    def start_lesson(self, name: str) -> None:
        from attn_tui.lessons import LessonError, load

        try:
            lesson = load(name)
        except LessonError as exc:
            self.notify(str(exc), title="This lesson cannot be opened", severity="error", markup=False)
            return
        if (missing := lesson.missing()) is not None:
            self.notify(missing[0].upper() + missing[1:] + ".", title="This lesson cannot be opened",
                        severity="warning", timeout=8, markup=False)
            return
        self._lesson_close()
        self.clear_notifications()  # "Lesson closed…" would cover the panel it names
        self.lesson = lesson
        memory = self._lesson_memory = self._lesson_memory or {}
        k, answers = memory.get(name, (0, {}))
        if k is None:  # finished last time: from the top, fresh
            k, answers = 0, {}
        memory[name] = (k, answers)
        if k:
            self.notify(f"Back at step {k + 1} of {len(lesson.steps)}, where you left this "
                        "lesson: p goes back.", timeout=4)
        self._lesson_go(k)

    def lesson_entries(self) -> list[tuple[str, str, str]]:
        """(name, title, summary) of every lesson that loads."""
        from attn_tui.lessons import LessonError, catalog

        try:
            # the go-to list and the palette say what one cannot run here before it is chosen
            return [(e.name, e.title + (" (needs torch)" if e.missing else ""), e.summary)
                    for e in catalog()]
        except LessonError as exc:
            self.notify(str(exc), title="A lesson file is broken", severity="error", markup=False)
            return []

    def lesson_commands(self) -> Iterable[SystemCommand]:
        for name, title, summary in self.lesson_entries():
            yield SystemCommand(f"Lesson: {name}", f"{title}: {summary}",
                                lambda n=name: self.start_lesson(n))

    # ---- the keys
    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action not in ACTIONS:
            return super().check_action(action, parameters)
        live = (self.lesson is not None and self.lesson_host is not None
                and self.screen is self.lesson_host and not takes_text(self.focused))
        if not live or action != "lesson_answer":
            return live
        # on a question step a-d belong to the question, answered or not
        q = self._lesson_step().question
        return q is not None and not self.lesson_done and str(parameters[0]) in q.letters

    def keys_on_hold(self) -> bool:
        """Keys from the terminal wait (see key_order) while a step sets up, or a lesson key
        typed before them waits its turn: typed into the numbers a step is about to replace,
        they would vanish unseen (n 7 Enter lost the 7)."""
        return bool(self._lesson_keys_ahead) or (self._lesson_busy and self.lesson is not None)

    def _put_off(self, key: str, char: str) -> bool:
        """Lesson keys are priority keys, read by the App before the keys typed just ahead of
        them reach the focused widget. Put one off until those have been read, then line it
        up behind any of them still waiting (handed back by a dialog that opened) and ahead
        of the keys typed after it, which wait meanwhile (``keys_on_hold``): in its turn the
        App reads it again, as a lesson key, or as text if a cell or a dialog now has the
        keys (5 n types 5n, as typed slowly). True if put off."""
        if active_message_pump.get(None) is not self or self._reading_handed_back:
            return False
        self._lesson_keys_ahead += 1

        def later() -> None:
            self._lesson_keys_ahead -= 1
            line_up(self, key, char)

        after_keys(self, later)
        return True

    def action_lesson_scroll(self, lines: int) -> None:
        from attn_tui.tui.tutor.panel import LessonPanel

        if self.lesson_host is not None:
            for panel in self.lesson_host.query(LessonPanel):
                # from where earlier presses are taking it: three fast presses move six lines
                panel.scroll_to(y=panel.scroll_target_y + 2 * lines, animate=False)

    def action_lesson_next(self) -> None:
        if self._put_off("n", "n"):
            return
        assert self.lesson is not None
        q, note = self._lesson_step().question, ""
        if q is not None and self.lesson_chosen is None and not self.lesson_done:
            view = self._lesson_view
            choices = view.choices if view is not None and view.choices else q.choices
            note = f"Step {self.lesson_index + 1}'s answer: {LETTERS[q.answer]}) " \
                   f"{choices[q.answer]}"
        if self.lesson_index + 1 < len(self.lesson.steps):
            self._lesson_note = note
            self._lesson_go(self.lesson_index + 1)
        elif not self.lesson_done:
            self.lesson_done, self._lesson_note = True, note
            assert self._lesson_memory is not None
            self._lesson_memory[self.lesson.name] = (None, self._lesson_answers())
            if self._lesson_view is not None:
                self._lesson_show(replace(self._lesson_view, done=True, note=note))

    def action_lesson_prev(self) -> None:
        if self._put_off("p", "p"):
            return
        self._lesson_note = ""
        if self.lesson_done:
            self._lesson_go(self.lesson_index)
        elif self.lesson_index > 0:
            self._lesson_go(self.lesson_index - 1)
        else:
            self.notify("This is the first step.", timeout=2)

    async def action_lesson_answer(self, letter: str) -> None:
        if self._put_off(letter, letter):
            return
        from attn_tui.lessons.facts import fill

        q = self._lesson_step().question
        if self._lesson_busy and q is not None:  # pressed while the step sets up: kept for it
            self._lesson_pending = letter
            return
        if q is None or self.lesson_chosen is not None:
            return
        self.lesson_chosen = LETTERS.index(letter)
        self._lesson_answers()[self.lesson_index] = self.lesson_chosen
        was_saved = _nothing_unsaved(self.lesson_host)
        for action in q.reveal:
            await self._lesson_run(action)
        await self._lesson_settle()
        if self.lesson_host is not None:  # the reveal's changes are the step's, not the learner's
            self._lesson_setup = _state_of(self.lesson_host)
            _lessons_own(self.lesson_host, was_saved, replaced_all=False)
        self._lesson_conceal(self._lesson_step().conceal)  # what later questions ask stays hidden
        if self._lesson_view is not None:
            why = fill(q.why, self._lesson_context())
            self._lesson_show(replace(self._lesson_view, chosen=self.lesson_chosen, why=why),
                              at_end=True)
        self._lesson_point(q.reveal_highlight or self._lesson_step().highlight)

    def action_lesson_leave(self) -> None:
        if self._put_off("escape", "\x1b"):
            return
        host = self.lesson_host
        self._lesson_close()
        where = "here" if host is self.workbench() else "in this lab (Esc again: the workbench)"
        self.notify(f"Lesson closed. Everything stays as it is {where}: keep playing. "
                    "g opens another lesson.", timeout=5, markup=False)

    # ---- stepping
    def _lesson_step(self) -> Step:
        assert self.lesson is not None
        return self.lesson.steps[self.lesson_index]

    def _lesson_answers(self) -> dict[int, int]:
        assert self.lesson is not None and self._lesson_memory is not None
        return self._lesson_memory[self.lesson.name][1]

    def _lesson_go(self, k: int) -> None:
        assert self.lesson is not None and self._lesson_memory is not None
        answers = self._lesson_answers()
        self._lesson_memory[self.lesson.name] = (k, answers)  # p after the end: in it again
        self.lesson_index, self.lesson_chosen, self.lesson_done = k, answers.get(k), False
        settle = getattr(self.lesson_host, "settle_edits", None)
        if settle is not None:  # a value Enter sent just before n is the learner's, not the step's
            settle()
        self._lesson_busy, self._lesson_pending = True, None
        # a callable, not a coroutine: a step the app never gets to start (n typed just before
        # q) then leaves no "coroutine was never awaited" warning on the terminal at exit
        self.run_worker(partial(self._lesson_enter, self._lesson_step()), exclusive=True,
                        group="lesson")

    async def _lesson_enter(self, step: Step) -> None:
        from attn_tui.core.presets import PRESET_NAMES as PLAIN_EXAMPLES
        from attn_tui.lessons.facts import fill, lecture_facts
        from attn_tui.lessons.loader import placeholders
        from attn_tui.tui.tutor.panel import LessonPanel

        host = await self._lesson_host_for(step.screen)
        if host is not self.lesson_host:
            self._lesson_close(keep_lesson=True)
            self.lesson_host = host
            await host.mount(LessonPanel(id="lesson-panel"))
            host.add_class("-lesson")  # after the mount, so the panel's CSS is loaded
        self._lesson_show(self._lesson_view_for(step, busy=True))
        before = _state_of(host)
        was_saved = _nothing_unsaved(host)
        # the learner's edits: made during the lesson, or unsaved on the screen it opened on
        # (g, then a lesson, replaced them)
        edited = (before != self._lesson_setup if self._lesson_setup is not None
                  else not was_saved)
        replaced_ws = getattr(host, "workspace", None)
        if step.workspace is not None:
            from attn_tui.lessons.workspaces import build

            ws = await asyncio.to_thread(build, step.workspace)
            if step.workspace in PLAIN_EXAMPLES:  # the learner's backend and precision stay
                ws = replace(ws, backend=host.workspace.backend, dtype=host.workspace.dtype)
            host.apply(ws)
            await self.run_action("screen.set_view('weights')")
        for action in step.actions:
            await self._lesson_run(action)
        q = step.question
        words = [step.text, *((q.prompt, q.why, *q.choices) if q is not None else ())]
        if {"lec", "lec64"} & {root for text in words for root in placeholders(text)}:
            # the lecture's runs (and torch) load in a thread, not in the event loop
            await asyncio.to_thread(lambda: (lecture_facts("float32"), lecture_facts("float64")))
        await self._lesson_settle()
        # the step's words are filled from its own numbers, before any reveal runs again
        view = self._lesson_view_for(step)
        answered = q is not None and self.lesson_chosen is not None
        if answered:  # answered on an earlier visit: as it was left
            for action in q.reveal:
                await self._lesson_run(action)
            await self._lesson_settle()
            view = replace(view, chosen=self.lesson_chosen,
                           why=fill(q.why, self._lesson_context()))
        self._lesson_conceal(step.conceal + (q.conceal if q is not None and not answered
                                             else ()))
        self._lesson_setup = _state_of(host)
        _lessons_own(host, was_saved, replaced_all=step.workspace is not None)
        if edited and self._lesson_setup != before:  # the learner's own numbers were replaced
            undo = " u brings yours back, one change at a time." if hasattr(host, "action_undo") \
                else ""
            # said in the panel, where the learner reads: a notice covered the choices, or the
            # numbers the step is about
            said = f"Step {self.lesson_index + 1} starts from its own numbers.{undo}"
            view = replace(view, note=" ".join(filter(None, (view.note, said))))
            if not was_saved and hasattr(host, "lesson_replaced"):  # quitting asks about it
                host.lesson_replaced = (*host.lesson_replaced, replaced_ws)[-20:]
        self._lesson_busy = False
        self._lesson_show(view, at_end=answered)
        # after the panel has its height: then scroll
        self._lesson_point(q.reveal_highlight or step.highlight if answered else step.highlight)
        self.refresh_bindings()
        pending, self._lesson_pending = self._lesson_pending, None
        if pending is not None and not answered:
            await self.action_lesson_answer(pending)

    async def _lesson_host_for(self, screen: str) -> Screen:
        if screen == "workbench":
            host = self.workbench()
            # not the too-small screen: it stays until the window is large enough
            while (self.screen is not host and len(self.screen_stack) > 1
                   and not getattr(self.screen, "says_too_small", False)):
                await self.pop_screen()
        else:
            from attn_tui.core.labs import LABS

            lab = LABS[screen[4:]]
            if not isinstance(self.screen,
                              getattr(importlib.import_module(lab.module), lab.screen_class)):
                self.open_lab(screen[4:])
            host = self.screen
        await AwaitMount(host, [host])
        return host

    async def _lesson_run(self, action: str) -> None:
        from attn_tui.lessons.loader import parse_action

        namespace, name, _ = parse_action(action)
        # "screen." is the lesson's own screen, not whatever is on top of it (the too-small
        # screen, when a lesson starts in a small window)
        host = self.lesson_host if namespace == "screen" else None
        target = host or (self.screen if namespace == "screen" else self)
        if not hasattr(target, f"action_{name}"):
            self.notify(f"This lesson asks for '{action}', which {type(target).__name__} does "
                        "not have.", title="Lesson step skipped an action", severity="error", markup=False)
            return
        if host is not None:
            await self.run_action(action.strip().split(".", 1)[1], host)
        else:
            await self.run_action(action)

    async def _lesson_settle(self) -> None:
        """Let the host finish what the actions started (a lab may compute in a thread)."""
        host = self.lesson_host
        if host is None:
            return
        for worker in [w for w in self.workers if w.node is host and not w.is_finished]:
            # cancelled: a newer request replaced it; failed: the screen says what went wrong
            with contextlib.suppress(WorkerCancelled, WorkerFailed):
                await worker.wait()

    def _lesson_conceal(self, items: tuple[Highlight, ...]) -> None:
        from attn_tui.tui.tutor.marks import conceal

        if self.lesson_host is not None:
            conceal(self.lesson_host, items)

    def lesson_points_again(self, only_stacked: bool = False) -> bool:
        """Bring the step's marked cells back into view (the window was resized, the panel
        took a new height); False if no lesson is showing, or, with ``only_stacked``, if its
        panes are not the one scrolling column of a narrow window (side by side, each pane
        keeps its own scroll: the learner may have moved to another)."""
        host = self.lesson_host
        if self.lesson is None or host is None or self.screen is not host:
            return False
        if only_stacked and not host.has_class("-stacked"):
            return False
        if not self._lesson_busy:  # a step setting up points at its own marks when ready
            self._lesson_point(self._lesson_pointed)
        return True

    def _lesson_point(self, highlights: tuple[Highlight, ...]) -> None:
        from attn_tui.tui.tutor.marks import bring_into_view, mark

        self._lesson_pointed = highlights
        host = self.lesson_host
        if host is not None:
            # scroll once the layout has settled (the panel may just have changed height)
            lead = highlights[0].cells if highlights else frozenset()
            host.call_after_refresh(bring_into_view, host, mark(host, highlights), lead)

    # ---- the panel
    def _lesson_context(self) -> dict:
        from attn_tui.lessons.facts import Context, Wrapped, workbench_context

        host = self.lesson_host
        if host is not None and hasattr(host, "steps") and hasattr(host, "workspace"):
            return workbench_context(host.steps, host.workspace)
        return Context(lab=Wrapped(host))

    def _lesson_view_for(self, step: Step, busy: bool = False) -> PanelView:
        """The panel for a step just entered: its words filled from the panes as they are now."""
        from attn_tui.lessons.facts import fill
        from attn_tui.tui.tutor.panel import PanelView

        assert self.lesson is not None
        view = PanelView(lesson=self.lesson.name, k=self.lesson_index + 1,
                         n=len(self.lesson.steps), title=step.title, note=self._lesson_note,
                         busy=busy)
        if busy:
            return view
        ctx, q = self._lesson_context(), step.question
        view = replace(view, text=fill(step.text, ctx), keys=step.keys)
        if q is not None:
            view = replace(view, prompt=fill(q.prompt, ctx), answer=q.answer,
                           choices=tuple(fill(c, ctx) for c in q.choices))
        return view

    def _lesson_show(self, view: PanelView, at_end: bool = False) -> None:
        from attn_tui.tui.tutor.panel import LessonPanel

        self._lesson_view = view
        if self.lesson_host is not None:
            for panel in self.lesson_host.query(LessonPanel):
                panel.show(view, at_end=at_end)

    def _lesson_close(self, keep_lesson: bool = False) -> None:
        from attn_tui.tui.tutor.marks import mark
        from attn_tui.tui.tutor.panel import LessonPanel

        host = self.lesson_host
        if host is not None:
            mark(host, ())
            self._lesson_conceal(())
            host.query(LessonPanel).remove()
            host.remove_class("-lesson")
        self.lesson_host = None
        self._lesson_setup = None
        self._lesson_pointed = ()
        if not keep_lesson:
            self.workers.cancel_group(self, "lesson")
            self.lesson, self.lesson_done, self._lesson_note = None, False, ""
        self.refresh_bindings()
