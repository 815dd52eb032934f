"""The train lab: train a tiny causal transformer and watch its heads' α take shape.

Enter starts a run with the settings on the bar (a run in progress: Enter pauses it, and again
resumes). Training runs in a worker thread, a step at a time, and the screen is told what
happened four times a second: the progress bar, the loss and held-out accuracy, and α for
the task's example sequence in every head. Paused or done, ←→ walk through the captured frames
and ↑↓ pick a head; w opens the picked head's Q, K and V in the workbench.

Actions (for keys, the command palette and lessons, as ``screen.<action>``):
``set_task("sort")`` (also puts that task's defaults on the bar), ``set_layers(2)``,
``set_heads(2)``, ``set_width(48)``, ``set_steps(2000)``, ``set_lr(0.003)``, ``set_seed(0)``;
``start()``, ``pause()``, ``scrub(±1)``, ``pick_head(±1)``, ``to_workbench()``, ``reset()``,
``undo()``, ``redo()``. Undo, redo and a lesson's step reset pause a run of the settings they
take away; a lesson's "show me" trains the settings it puts on the bar.
State to read: ``settings`` (TrainConfig), ``state`` (idle, loading, running, paused, done,
diverged, loaded), ``step``, ``losses``, ``evals``, ``frames``, ``frame`` (the index shown, None
for the newest), ``head``, ``message``.
"""

from __future__ import annotations

import contextlib
import math
import time
from collections.abc import Callable
from dataclasses import replace
from typing import Any

import numpy as np
from rich.cells import cell_len
from textual import events, on, work
from textual.app import ComposeResult
from textual.containers import Horizontal, ScrollableContainer, Vertical
from textual.css.query import NoMatches
from textual.reactive import reactive
from textual.widgets import ProgressBar, Static
from textual.worker import get_current_worker

from attn_tui.compute import torch_available
from attn_tui.report.fmt import fit, num
from attn_tui.report.train import diverged_words, frames_kept_words
from attn_tui.train.config import (
    INSTALL_TORCH_TRAIN,
    LIMITS,
    MAX_LR,
    MIN_LR,
    TASKS,
    TrainConfig,
    TrainConfigError,
)
from attn_tui.train.config import default_config as task_defaults
from attn_tui.tui import bindings, textual_compat
from attn_tui.tui.keys import after_keys, take_once
from attn_tui.tui.screens.labs.lab_screen import LabScreen
from attn_tui.tui.widgets.alpha_maps import AlphaMaps
from attn_tui.tui.widgets.control_bar import ControlBar
from attn_tui.tui.widgets.control_field import Field
from attn_tui.tui.widgets.fitted_line import FittedLine
from attn_tui.tui.widgets.line_plot import LinePlot
from attn_tui.tui.widgets.words_in_place import put_words

LR_STEPS = (1e-4, 3e-4, 1e-3, 3e-3, 1e-2, 3e-2, 0.1, 0.3, 1.0, 3.0, 10.0, 30.0, 100.0, 300.0,
            1000.0)
# the ranges `train` and a saved run take: a run loaded from a file, kept in a session,
# must open again ("steps must be between 1 and 100,000" refused a 200,000-step run's)
FIELDS = (
    Field("task", "task", "choice", choices=tuple(TASKS)),
    Field("layers", "L", "int", *LIMITS["layers"], meaning="layers"),
    Field("heads", "h", "int", *LIMITS["heads"], meaning="heads in each layer"),
    Field("d_model", "D", "int", *LIMITS["d_model"], step=8,
          meaning="numbers per token (d_model)"),
    Field("steps", "steps", "int", *LIMITS["steps"], step=100, meaning="training steps to run"),
    Field("lr", "lr", "ladder", MIN_LR, MAX_LR, choices=LR_STEPS,
          meaning="learning rate: the size of each step"),
    Field("seed", "seed", "int", *LIMITS["seed"],
          meaning="the weights' and batches' draws: same seed, same run"),
)
PLOT_EVERY = 4  # reports per redraw of the loss and accuracy plot
TELL_EVERY = 0.25  # seconds between the worker's reports: each redraws the plot and maps


def status_forms(step: int, steps: int, loss: str, first: str, acc: str, checked: int,
                 state: str, more: str) -> tuple[str, ...]:
    """The status line, longest first, for FittedLine: ``state`` is what the run is doing,
    ``more`` what Enter would do. At 80 columns the whole took two lines beside the progress
    bar: the first loss goes, then the accuracy's "step" (the line's first word says it), then
    the line's own "step" (the progress bar beside it says what it counts), then Enter is
    written as the key bar's ⏎; what Enter would do is kept (the shortest form wraps rather
    than drop it)."""
    # held-out accuracy is checked 20 times a run: between two checks the figure is an older
    # step's, and says which
    at = f" at step {checked}" if checked != step else ""
    short = at.replace(" step", "")
    also = f" (first {first})" if first else ""
    head = f"{step}/{steps} · loss {loss}"
    keys = more.replace("Enter", "⏎")
    return (f"step {head}{also} · acc {acc}{at} · {state}{more}",
            f"step {head} · acc {acc}{at} · {state}{more}",
            f"step {head} · acc {acc}{short} · {state}{more}",
            f"{head} · acc {acc}{short} · {state}{more}",
            f"{head} · acc {acc}{short} · {state}{keys}")


class TrainLabScreen(LabScreen):
    FIELDS = FIELDS
    ENTER_ON_BAR = False
    BINDINGS = bindings.LABS["train"]
    # idle, loading, running, paused, done, diverged, loaded; the key bar follows it (w)
    state: reactive[str] = reactive("idle", repaint=False, init=False, bindings=True)

    @property
    def shown_note(self) -> str:  # as a LessonHost: said while "show me"'s run trains, and after
        if self.state in ("loading", "running"):
            return ("Shown: settings that meet the goal, and their run has started; the task "
                    "is checked when it ends. u stops it and puts yours back.")
        return "Shown: settings that meet the goal, and their run. u puts yours back."

    DEFAULT_CSS = """
    TrainLabScreen #train-top { height: auto; padding: 0 1; }
    TrainLabScreen #train-progress { width: 22; }
    TrainLabScreen #train-progress Bar { width: 16; }
    TrainLabScreen.-narrow #train-progress { width: 18; }
    TrainLabScreen.-narrow #train-progress Bar { width: 12; }
    TrainLabScreen #train-status { width: 1fr; height: auto; }
    TrainLabScreen #train-cols { height: auto; layout: vertical; }
    TrainLabScreen.-wide #train-cols { layout: horizontal; }
    TrainLabScreen #maps-box { height: auto; }
    TrainLabScreen.-wide #maps-box { width: 1fr; }
    TrainLabScreen #plot-box { height: auto; }
    TrainLabScreen.-wide #plot-box { width: 52; }
    """

    def __init__(self, backend: str = "numpy", dtype: str = "float64", record=None,
                 kept: bool = False, head: int = 0, frame: int | None = None, run=None,
                 saved_step: int | None = None, lessons: bool = False,
                 bar: TrainConfig | None = None, **kwargs) -> None:
        super().__init__(backend, dtype, **kwargs)
        # the run was trained by a lesson's step: its exercise, which quitting does not ask about
        self.lessons_run = lessons
        self.keep_on_leaving = True  # for Go to, as Esc leaves it
        self.state = "idle"
        self.run = None  # the trainer's Run: touched by the worker only while one runs
        self.record = record  # a loaded run, or the last finished one (numpy only)
        self.kept = kept  # the record is the run this lab had when the learner left it
        # the step the run was last saved at (e): quitting asks about a run not saved since.
        # A run loaded from a file is saved as it is.
        self.saved_step = saved_step if kept or run is not None else (
            record.steps_done if record is not None else None)
        self._replace_asked = None  # the settings an Enter was told would replace a run
        self.step = 0
        self.losses: list[float] = []
        self.evals: list[tuple[int, float]] = []
        self.frames: list[tuple[int, np.ndarray]] = []
        self.tokens: tuple[str, ...] = ()
        self.frame: int | None = None
        self.head = 0
        self.reports = 0  # reports from the worker shown so far
        self.training: TrainConfig | None = None  # the settings the latest run trains
        self._pause_asked = False
        self._after_pause: list = []  # to run once a pause asked for has landed (when_paused)
        self._say_when_paused: Callable[[], None] | None = None  # see _say_paused
        # the latest request to train: news from a worker that carries another is stale (a
        # run replaced while its thread had not yet seen that it was cancelled)
        self._ticket = object()
        if record is not None:
            if self.saved:
                self.saved = {}
                self.saved_refused.append("its settings, as the loaded run's are on the bar")
            self.set_reactive(LabScreen.settings, record.config)
            self._take_record(record)
            self.state = "loaded"
        elif run is not None:  # left while it trained: back paused where it stopped, Enter goes on
            self.set_reactive(LabScreen.settings, run.config)
            self.run, self.training, self.state = run, run.config, "paused"
            self.step, self.losses, self.evals, self.frames, _ = self._snapshot(run)
            self.tokens = _tokens(run.example.tolist())
        if record is not None or run is not None:  # back: the head and frame that were picked
            c = self.settings
            self.head = min(max(0, head), c.layers * c.heads - 1)
            if frame is not None and 0 <= frame < len(self.frames):
                self.frame = frame
        # back: the settings changed on the bar and not yet trained, beside the run
        self.bar_kept = bar is not None and bar != self.settings
        if self.bar_kept:  # one change, which u takes back to the run's own settings
            with self.history.change(self._now):
                self.set_reactive(LabScreen.settings, bar)

    def default_settings(self) -> TrainConfig:
        # R keeps the task on the bar and puts back its own defaults (sort's, as the lab opens)
        now = self.settings  # None while the lab is made
        return task_defaults(now.task if now is not None else "sort")

    def compose_top(self) -> ComposeResult:
        # out of the scrolling body: picking the 10th head must not scroll the run's progress away
        with Horizontal(id="train-top"):
            yield ProgressBar(id="train-progress", total=1, show_eta=False)
            yield FittedLine(id="train-status")

    def compose_body(self) -> ComposeResult:
        with Horizontal(id="train-cols"):
            with Vertical(id="maps-box", classes="pane"):
                yield AlphaMaps(id="train-maps")
            with Vertical(id="plot-box", classes="pane"):
                yield LinePlot(id="train-plot")
        yield Static(id="train-note", classes="lab-text")

    def on_mount(self) -> None:  # LabScreen.on_mount runs too (Textual calls each class's)
        # what Enter does, on the status line, changes with a lesson's open question and a
        # value being typed on the bar: both refresh the bindings
        self.bindings_updated_signal.subscribe(self, self._enter_may_mean_another_thing)
        if not torch_available():
            self.say(INSTALL_TORCH_TRAIN, error=True)
        elif self.state == "paused" and self.bar_kept:
            self.say(f"Paused at step {self.step}, where you left it, with the settings you "
                     "changed on the bar: u puts back the run's own.")
        elif self.state == "paused":
            self.say(f"Paused at step {self.step}, where you left it: Enter trains on.")
        elif self.state == "loaded" and self.record is not None and self.record.diverged:
            r = self.record
            kept = frames_kept_words([int(s) for s in r.frame_steps])
            self.say(f"{diverged_words(list(r.losses), r.steps_done, r.config.lr)} "
                     f"{kept[:1].upper()}{kept[1:]} (←→).", error=True)
        elif self.state == "loaded" and self.record is not None and self.record.resume_problem:
            self.say(f"This run cannot train on: {self.record.resume_problem}. Enter trains it "
                     "anew from step 0.", error=True)

    def first_focus(self):
        # a loaded run: ←→ walk its frames at once
        return self.query_one(AlphaMaps) if self.frames else super().first_focus()

    def on_unmount(self) -> None:
        self.bindings_updated_signal.unsubscribe(self)
        self.workers.cancel_node(self)  # leaving the lab stops the run at its next step
        if not self.keep_on_leaving:  # let go by the learner (see train_runs.drop_held_run)
            return
        if (self.state in ("running", "paused") and self.run is not None and not self.run.done
                and self.run.config == self.training):
            # kept as it is, paused: Esc in the middle of a run, or after pausing it, lost the
            # run (its worker may still be finishing a step; the next one waits, see _train)
            self.app.left_labs["train"] = {"run": self.run, "head": self.head,
                                           "frame": self.frame,
                                           "saved_step": self.saved_step,
                                           "lessons": self.lessons_run, "bar": self.settings}
        elif self.state not in ("loading", "running"):  # no worker is changing the run
            kept = self.record or (self.run.record() if self.run is not None else None)
            if kept is not None:  # a diverged run too: its frames show where it broke
                self.app.left_labs["train"] = {"record": kept, "kept": True,
                                               "head": self.head, "frame": self.frame,
                                               "saved_step": self.saved_step,
                                               "lessons": self.lessons_run, "bar": self.settings}

    # ---- settings
    def step_value(self, field: Field, value: Any, direction: int) -> Any:
        """↑↓ on the bar: D steps to the next width its heads split (by the smallest multiple
        of h that is at least 8: 48 → 50 → 60 for 5 heads); ↑ by 8 from 48 gave 56, refused.
        h steps to the next count that splits D (48: 3 → 4 → 6), not through 5 and 7, refused."""
        if field.key == "heads":
            d = self.settings.d_model
            new = field.stepped(value, direction)
            while d % new and field.lo_value < new < field.hi_value:
                new = field.stepped(new, direction)
            # none left that way: the plain step, whose refusal says why
            return new if d % new == 0 else field.stepped(value, direction)
        if field.key != "d_model":
            return field.stepped(value, direction)
        heads = self.settings.heads
        unit = heads * -(-8 // heads)
        new = (value // unit + 1) * unit if direction > 0 else ((value - 1) // unit) * unit
        return new if field.lo_value <= new <= field.hi_value else value

    def updated(self, key: str, value: Any) -> TrainConfig:
        if key == "task":  # a task brings the model and the steps it is known to train with
            return replace(task_defaults(value), seed=self.settings.seed)
        return replace(self.settings, **{key: value})

    def standing_problem(self) -> str | None:
        try:
            self.settings.checked()
        except TrainConfigError as exc:
            return str(exc)
        return None

    def recompute(self) -> None:
        problem = self.standing_problem()
        if problem:
            self.say(problem, error=True)
        self._draw()

    # ---- training
    def action_start(self) -> None:
        if textual_compat.active_message_pump() is self.app:
            # a priority key, read by the App ahead of the keys typed just before it: `1 0 0
            # Enter` typed in one burst must set lr to 100, as typed slowly, not train at 0.003
            after_keys(self.app, self._enter)
        else:
            self._enter()

    def _enter(self) -> None:
        if self not in self.app.screen_stack:  # Escape typed before it has closed the lab
            return
        bar = self.query_one("#controls")
        if bar.editing is not None:  # the digits before it had not reached the bar
            bar.take_typed(keep_refused=True)
            return
        if self.held():  # a question that says "answer, and the lab trains"
            return
        problem = self.standing_problem()
        if problem and self.state not in ("loading", "running"):  # (Enter still pauses a run)
            # neither "Enter again trains them" nor a question about the run they would
            # replace: settings that cannot train replace nothing
            self.say(problem, error=True)
            return
        held = self.held_run()
        # asked once per settings, and never of a lesson's runs, which are its exercises
        ask = (held is not None and self._replace_asked != self.settings
               and self.app.tutor.host is not self)
        changed = ask and self._settings_changed(self.run.config if self.run is not None
                                                 else self.record.config)
        if changed and self._asks_first():
            # the new settings would train in the place of a run that no file holds
            self._replace_asked = self.settings
            self.say(f"The {held.task} run (step {held.steps}) is not saved: e saves it. "
                     "Enter again trains the new settings in its place.")
            self._draw()  # the status's "Enter twice" is one Enter now
            return
        # (a finished run loaded from a file is no loss: its status says Enter trains anew; the
        # lab's own, left with Esc and back, is the run it was)
        back_done = (self.state == "loaded" and self.kept and self.record is not None
                     and self.record.steps_done >= self.record.config.steps)
        ended = self.state in ("done", "diverged") or self._diverged() or back_done
        if ask and not changed and ended and not self.lessons_run:
            # the same settings and seed train the very same run again: say so before it goes
            self._replace_asked = self.settings
            if self._diverged():
                self.say("The same settings diverge again, step for step: lower the learning "
                         "rate first, or Enter again to watch it once more.")
                return
            kept = " It is not saved: e saves it." if held.unsaved else ""
            self.say(f"This run is done; the same settings train it again, step for step.{kept} "
                     "Enter again trains it from step 0; or change a setting first.")
            return
        self._replace_asked = None
        self._enter_on_bar = bar.has_focus
        self._train_or_pause()

    def _asks_first(self) -> bool:
        """Whether Enter on new settings asks before training them: the run they would take
        the place of (paused, done, or kept when the learner left) is in no file. Asked once
        per settings, and never of a lesson's runs, which are its exercises."""
        held = self.held_run()
        return (held is not None and held.unsaved and self._replace_asked != self.settings
                and self.app.tutor.host is not self
                and (self.state in ("paused", "done") or (self.state == "loaded" and self.kept)))

    # Enter pressed on the controls: a learner trying settings (↑ on lr, Enter, and again) keeps
    # the bar when the run stops; a run started elsewhere, or by a lesson, gives the maps the keys
    _enter_on_bar = False

    def _train_or_pause(self) -> None:
        if self.state in ("loading", "running"):
            self.action_pause()
            return
        if self.state == "paused" and self.run is not None and \
                self.run.config == self.settings:
            self._go()
            return
        if not torch_available():
            self.say(INSTALL_TORCH_TRAIN, error=True)
            return
        try:
            config = self.settings.checked()
        except TrainConfigError as exc:
            self.say(f"{exc}.", error=True)
            return
        self.say("")
        # a run loaded from a file that keeps its optimizer's state trains on from its step
        record = self.record if (self.state == "loaded" and self.record is not None
                                 and self.record.resumable
                                 and self.record.config == config) else None
        self.run, self.record = None, None
        self._after_pause = []  # asked of the run this one replaces
        self._say_when_paused = None
        if record is None:
            self.saved_step = None
            self.step, self.losses, self.evals, self.frames = 0, [], [], []
        self.frame, self.head = None, min(self.head, config.layers * config.heads - 1)
        self.query_one(ProgressBar).update(total=config.steps, progress=self.step)
        self.state = "loading"
        self.training = config
        self.lessons_run = self.app.tutor.host is self
        self.keep_on_leaving = True  # a new run: kept for Go to, whatever the last one was
        self._pause_asked = False
        self._draw()
        self.app.tutor.host_changed(self)  # a lesson's task: "training…", not "not trained"
        self._train(config, None, self._new_ticket(), record)

    def _go(self) -> None:
        self.say("")  # as a new run does: "Paused at step …" no longer holds
        self.lessons_run = self.app.tutor.host is self  # trained on by the learner: theirs
        self._pause_asked = False
        self.frame = None
        self.state = "running"
        self._draw()
        self.app.tutor.host_changed(self)
        self._train(self.run.config, self.run, self._new_ticket())

    def _new_ticket(self) -> object:
        self._ticket = object()
        return self._ticket

    def action_pause(self) -> None:
        if self.state in ("loading", "running"):
            self._pause_asked = True
        elif self.state == "paused":
            self._go()

    @work(thread=True, exclusive=True, group="train-lab")
    def _train(self, config: TrainConfig, run: Any, ticket: object, record: Any = None) -> None:
        worker = get_current_worker()
        if run is None:
            from attn_tui.train.trainer import Run  # torch loads here, not on the UI thread

            try:
                run = Run(config) if record is None else Run.from_record(record)
            except ValueError as exc:  # a training state torch will not take: train anew
                self._tell(self._resume_refused, ticket, record, str(exc))
                return
            if worker.is_cancelled:
                return
        # a pause asked while torch loaded is kept: the run stops before its first step
        self._tell(self._started, ticket, run)
        due = [time.monotonic() + TELL_EVERY]

        def stop() -> bool:
            return worker.is_cancelled or self._pause_asked or time.monotonic() >= due[0]

        # one thread steps a run at a time: a run kept on Esc may still be in the step of
        # the worker that lab left behind
        with run.stepping:
            while not run.done and not worker.is_cancelled and not self._pause_asked:
                run.advance(stop=stop)
                due[0] = time.monotonic() + TELL_EVERY
                self._tell(self._report, ticket, self._snapshot(run))
            # paused, or left with Esc (back paused): the last frame is the α that w opens
            run.frame_now()
        if not worker.is_cancelled:
            self._tell(self._stopped, ticket, self._snapshot(run), run.done)

    def _tell(self, callback, *args) -> None:
        # the app is closing: nobody is left to tell (RuntimeError once its loop has gone;
        # NoMatches while its screens are being taken down, still on the stack)
        with contextlib.suppress(RuntimeError, NoMatches):
            self.app.call_from_thread(callback, *args)

    @staticmethod
    def _snapshot(run) -> tuple:
        return (run.step, run.losses[:], run.evals[:], run.frames[:], run.diverged)

    def _current_run(self, ticket: object) -> bool:
        """A report of this screen's current run, and the screen still on the app's stack: one
        sent just before Esc can land while the screen's widgets are being taken down, or after
        (Textual's is_mounted stays true once a widget has been mounted)."""
        return ticket is self._ticket and self in self.app.screen_stack

    def _started(self, ticket: object, run: Any) -> None:
        if not self._current_run(ticket):
            return
        self.run = run
        if self.state == "loading":
            self.state = "running"
            self.say("")  # a message from before the start ("Train first…") is old news
            self.tokens = _tokens(run.example.tolist())
            self._draw()

    def _resume_refused(self, ticket: object, record: Any, why: str) -> None:
        if not self._current_run(ticket):
            return
        self.record, self.state = replace(record, resume={}), "loaded"
        self._draw()
        self.say(f"This run cannot train on: {why}. Enter trains it anew from step 0.",
                 error=True)

    def _report(self, ticket: object, snap: tuple) -> None:
        if not self._current_run(ticket):
            return
        self.step, self.losses, self.evals, self.frames, _ = snap
        self.reports += 1
        self.query_one(ProgressBar).update(progress=self.step)
        # the plot costs most of a redraw (≈10 ms): once a second is live enough for a curve
        self._draw(plot=self.reports % PLOT_EVERY == 0)

    def _stopped(self, ticket: object, snap: tuple, done: bool) -> None:
        if not self._current_run(ticket):
            return
        self._report(ticket, snap)
        diverged = snap[4]
        self.state = "diverged" if diverged else "done" if done else "paused"
        if self.message in (self.WALK_WHEN_PAUSED, self.PAUSE_FIRST):  # paused or done now:
            self.say("")  # the refusals while it trained no longer stand
        if done:
            self.record = self.run.record()
        bar = self.query_one(ControlBar)
        keep_bar = bar.has_focus and (self._enter_on_bar or bar.editing is not None)
        if diverged:
            words = diverged_words(self.losses, self.step, self.run.config.lr)
            kept = frames_kept_words([at for at, _ in self.frames])
            # ←→ walk frames: with one kept, there is nothing to walk
            walk = "" if len(self.frames) < 2 else " (f, then ←→)" if keep_bar else " (←→)"
            self.say(f"{words} Stopped; {kept}{walk}.", error=True)
        if not keep_bar:
            # ←→ scrub from here; c goes back to the controls. A learner on the bar keeps it:
            # a digit typed next must not become a command on the maps
            self.query_one(AlphaMaps).focus()
        self._draw()
        self.app.tutor.host_changed(self)  # a lesson's task reads the finished run
        said, self._say_when_paused = self._say_when_paused, None
        if said is not None and self.state == "paused":  # not of a run that ended meanwhile
            said()
        waiting, self._after_pause = self._after_pause, []
        if self.app.screen is self:  # not over a dialog opened meanwhile (q's question saves too)
            for then in waiting:
                then()

    def _take_record(self, r) -> None:
        self.step = r.steps_done
        self.losses = r.losses.tolist()
        self.evals = list(zip(r.eval_steps.tolist(), r.accuracy.tolist(), strict=True))
        self.frames = list(zip(r.frame_steps.tolist(), list(r.frames), strict=True))
        self.tokens = r.tokens

    # ---- drawing
    def _enter_may_mean_another_thing(self, _screen) -> None:
        with contextlib.suppress(NoMatches):  # the lab being taken down
            self._draw_status(self._shown())

    def _shown(self) -> TrainConfig:
        """The settings of the run shown: the run's, the record's, or the bar's."""
        return self.run.config if self.run is not None else (
            self.record.config if self.record is not None else self.settings)

    def _draw(self, plot: bool = True) -> None:
        c = self._shown()
        shown = self.frame if self.frame is not None else len(self.frames) - 1
        maps = self.query_one(AlphaMaps)
        heads = c.layers * c.heads
        self.head = min(self.head, heads - 1)
        if self.frames:
            step, alpha = self.frames[shown]
            where = f"frame {shown + 1} of {len(self.frames)}, step {step}"
            if self.state in ("running", "loading"):
                hint = "Enter pauses"
            elif maps.has_focus:  # w refuses a diverged run's weights: not offered then
                hint = "←→ frame ↑↓ head" + ("" if self._diverged() else " w: to workbench")
            else:
                hint = "f: ←→ frame, ↑↓ head"
            from attn_tui.train.patterns import pattern_pairs

            rows = tuple(sorted({q for q, _ in pattern_pairs(c.task, alpha.shape[-1])}))
            maps.show(alpha, self.tokens, self.head, f"{where} · {hint}", rows)
        else:
            maps.show(None, (), 0, "Enter trains: each head's α for one example shows here.")
        box = self.query_one("#maps-box")
        # the step shown, on the top edge: at 80×24 a lesson's panel hides the caption below
        at = f" at step {self.frames[shown][0]}" if self.frames else ""
        # the pattern in full is in the note below: here it must fit beside the plot at 120
        # columns and alone at 80
        task = TASKS[c.task]
        if self._settings_changed(c):
            # the bar names another task or size: its pattern is not what these maps answer
            box.border_title = f"the last run's α{at} ({c.task}; settings changed)"
        else:
            box.border_title = f"α per head{at} ({c.task}: {task.short_for(c.layers)})"
        # the maps' tokens end one short of the sequence, whose last token is only predicted
        note = (f"Task {c.task}: {task.line}. The pattern that solves it: "
                f"{task.pattern_for(c.layers)}. The maps show the tokens the model reads" + (
                    "; the last one of the sequence it only predicts, so it has no row or "
                    "column." if task.last_only_predicted else "."))
        put_words(self.query_one("#train-note", Static), note)  # each frame: no layout
        box.border_subtitle = "█ ≥ .75, ▓ ▒ ░, · < .05, blank masked"
        self._draw_status(c)
        if plot:
            self._draw_plot(c, shown)

    def _draw_status(self, c: TrainConfig) -> None:
        acc = self.evals[-1][1] if self.evals else math.nan
        loss = self.losses[-1] if self.losses else math.nan
        words = {"idle": "Enter trains", "loading": "loading torch…",
                 "running": "training", "paused": "paused",
                 "done": "done", "diverged": "diverged",
                 "loaded": "kept" if self.kept else "loaded"}[self.state]
        hint = ""  # what Enter does, said where it fits (the key bar says ⏎ Train / pause)
        if self.state == "loaded" and self.record is not None and self.record.diverged:
            words = "diverged"  # loaded: its weights are nan, the frames before are all it has
        elif self.state == "loaded" and self.record is not None and c == self.settings:
            # a file from before runs kept the optimizer's state cannot train on where it stopped
            hint = " (Enter trains on)" if self.record.resumable else " (Enter trains anew)"
        if self.state in ("paused", "done", "diverged") and self.step and \
                self.saved_step == self.step:
            words += ", saved"
        # Enter is not for training now: a lesson's question waits for its answer, or the bar
        # takes the value being typed (its own line says so)
        answer_first = self.app.tutor.holds_back(self) is not None
        typing = self.query_one(ControlBar).is_typing
        if answer_first or typing:
            hint = ""
            if words == "Enter trains":
                words = "answer first, then Enter trains" if answer_first else "not trained"
        changed = long = ""
        if self._settings_changed(c):
            # the run shown is of settings since changed on the bar: its accuracy is not theirs;
            # Enter asks first where the run is in no file (see _enter), and the line says so
            changed = " · settings changed"
            long = (": Enter twice trains them (e saves this run)" if self._asks_first()
                    else ": Enter trains them")
        elif self.state in ("loading", "running") and self.training not in (None, self.settings):
            # a run goes on with the settings it started with, whatever the bar says now
            changed = " · settings changed"
            long = ": Enter pauses, Enter again trains them"
        if self.standing_problem():  # the line under the controls says why
            if changed:
                long = ": they cannot train as they are"
            elif words == "Enter trains":
                words = "these settings cannot train"
        if answer_first or typing:
            long = ""
        checked = self.evals[-1][0] if self.evals else self.step
        shown_loss = fit(loss, 9) if self.losses else "–"
        # the plot draws loss ÷ its first value: where there is room the line says the first,
        # so the two can be read together (2.5388 beside a line at 1.1)
        first = (fit(self.losses[0], 9)
                 if len(self.losses) > 1 and fit(self.losses[0], 9) != shown_loss else "")
        self.query_one("#train-status", FittedLine).show(*status_forms(
            self.step, c.steps, shown_loss, first, num(acc) if self.evals else "–", checked,
            words, f"{hint}{changed}{long}"))
        bar = self.query_one(ProgressBar)
        if (bar.total, bar.progress) != (c.steps, self.step):  # a loaded 1-step run: total 1
            bar.update(total=c.steps, progress=self.step)

    def _settings_changed(self, c: TrainConfig) -> bool:
        """Whether the run shown (of settings ``c``) is not of the settings on the bar."""
        return self.state not in ("idle", "loading", "running") and c != self.settings

    def _draw_plot(self, c: TrainConfig, shown: int) -> None:
        plot = self.query_one(LinePlot)
        first = self.losses[0] if self.losses else 1.0
        steps = list(range(1, len(self.losses) + 1))
        scaled = [x / first for x in self.losses] if first > 0 else self.losses
        at = self.frames[shown][0] if self.frames and self.frame is not None else None
        plot.show_lines([("l", steps, scaled), ("a", [s for s, _ in self.evals],
                                                [a for _, a in self.evals])],
                        xmax=c.steps, top=1.0, at=at)
        # the status line's loss ÷ this; the number kept to the last, where the edge is narrow
        n = fit(first, 9) if self.losses else "first"
        titles = (f"l = loss ÷ first loss {n}   a = held-out accuracy",
                  f"l = loss ÷ first {n}  a = held-out accuracy",
                  f"l = loss ÷ {n}  a = held-out accuracy", f"l = loss ÷ {n}  a = accuracy",
                  f"l = loss ÷ {n}")
        if not self.losses:
            titles = ("l = loss ÷ first loss   a = held-out accuracy", *titles[2:])
        finite = [x for x in scaled if math.isfinite(x)]
        peak = max(finite, default=0.0)
        # the plot's top is 1.0: a loss above its first value would sit there unmarked
        cut = f" · l cut at 1, peak {peak:.2g}×" if peak > 1.0 else ""
        tries = [f"steps 0 … {c.steps}{cut}"]
        if at is not None:
            tries = [f"steps 0 … {c.steps}{cut} · ◆ step {at}, the frame shown",
                     f"steps 0 … {c.steps}{cut} · ◆ step {at}", f"◆ step {at}{cut}"]
        self._plot_edges = (titles, tuple(tries))
        self._title_plot()

    _plot_edges: tuple[tuple[str, ...], tuple[str, ...]] = ((), ())

    def _title_plot(self, again: bool = True) -> None:
        """The chart's edges: the longest of their words that fits (cut by Textual, "◆ ste…"
        said nothing); again once the box has its width, and when the window is resized."""
        box = self.query_one("#plot-box")
        titles, tries = self._plot_edges
        if not titles:
            return
        if not box.size.width and again:  # not laid out yet (a run loaded as the lab opens)
            self.call_after_refresh(self._title_plot, False)
        room = box.size.width - 4 if box.size.width else 10**6
        box.border_title = next((t for t in titles if cell_len(t) <= room), titles[-1])
        box.border_subtitle = next((t for t in tries if cell_len(t) <= room), tries[-1])

    def on_resize(self, event: events.Resize) -> None:
        # (LabScreen's on_resize runs too: Textual calls each class's handler in turn)
        self.call_after_refresh(self._title_plot)  # the chart narrower or wider: its words

    # ---- frames and heads
    @on(AlphaMaps.Moved)
    def _maps_moved(self, event: AlphaMaps.Moved) -> None:
        if take_once(event, event.maps):
            self._take_move(event)

    def _take_move(self, event: AlphaMaps.Moved) -> None:
        if isinstance(event, AlphaMaps.HeadPicked):
            self.pick_head(event.by)
        else:
            self.scrub(event.by)

    def settle_edits(self) -> bool:
        """The bar's value on its way, then the frames and heads ←→↑↓ sent, in order."""
        settled = super().settle_edits()
        maps = self.query_one(AlphaMaps)
        for moved in list(maps.in_flight):
            if take_once(moved, maps):
                self._take_move(moved)
        return settled

    def _diverged(self) -> bool:
        return self.state == "diverged" or (self.state == "loaded" and self.record is not None
                                            and self.record.diverged)

    WALK_WHEN_PAUSED = "Frames can be walked through when paused or done: Enter pauses."
    PAUSE_FIRST = "Pause first (Enter): the weights change with every step."

    def scrub(self, by: int) -> None:
        if self.state in ("running", "loading"):
            self.say(self.WALK_WHEN_PAUSED)
            return
        if not self.frames:
            return
        now = self.frame if self.frame is not None else len(self.frames) - 1
        self.frame = max(0, min(len(self.frames) - 1, now + by))
        self._draw()
        # the maps' top edge names the step of the frame shown: at 80×24 under a lesson's
        # panel only the maps' rows were in sight, and ← changed nothing that said which step
        self.call_after_refresh(self._maps_top_into_view)

    def _maps_top_into_view(self) -> None:
        with contextlib.suppress(NoMatches):
            box = self.query_one("#maps-box")
            column = next((w for w in box.ancestors if isinstance(w, ScrollableContainer)),
                          None)
            if column is not None and not column.content_region.y <= box.region.y < \
                    column.content_region.bottom:
                box.scroll_visible(top=True, animate=False, immediate=True)

    def pick_head(self, by: int) -> None:
        c = self.settings if self.run is None and self.record is None else (
            self.run.config if self.run is not None else self.record.config)
        self.head = (self.head + by) % (c.layers * c.heads)
        self._draw()

    def action_scrub(self, by: int) -> None:
        self.scrub(by)

    def action_pick_head(self, by: int) -> None:
        self.pick_head(by)

    TRAIN_FIRST = "Train first (Enter): there is no trained head yet."
    DIVERGED = "This run diverged: its weights are not numbers any more."
    STARTING = "The run is starting (torch loads): e saves it once it has trained."

    def _held_back(self, action: str) -> str | None:
        """Why ``action`` cannot act now (its key is dimmed on the bar), or None."""
        if action == "save_run":
            return self._nothing_to_save()
        if action != "to_workbench":
            return None
        if self.state in ("running", "loading"):
            return self.PAUSE_FIRST
        if self.state == "diverged":
            return self.DIVERGED
        if self.run is None and self.record is None:
            return self.TRAIN_FIRST
        return None

    def say_why_not(self, action: str) -> bool:
        if (reason := self._held_back(action)) is None:
            return False
        refused = self.app.tutor.refuses_hand_over(self) if action == "to_workbench" else None
        if action == "save_run" and self.held_run() is None:  # "Train first" while Enter
            # says "Answer first": the step trains once its question is answered
            refused = self.app.tutor.answer_first(self, "the step trains the run once you "
                                                  "answer, and e saves it then.")
        self.say(refused or reason, error=reason != self.STARTING)
        return True

    def _nothing_to_save(self) -> str | None:
        if self.query_one("#controls").editing is not None:
            return None  # e is typed into the number (1e-3)
        held = self.held_run()
        if held is None and self.state == "loading":
            return self.STARTING
        if held is not None and held.steps == 0 and not held.training:
            return "Paused before its first step, the run has nothing to save yet: Enter trains it."
        if held is None:
            return "Train first (Enter): there is no run to save yet."
        return None

    def on_key(self, event: events.Key) -> None:
        # a dimmed key (w, e) is no binding Textual runs: pressed anyway, it says why
        for binding in self.BINDINGS:
            if event.key in binding.key.split(",") and self.say_why_not(binding.action):
                event.stop()
                return

    def action_to_workbench(self) -> None:
        if self.say_why_not("to_workbench"):
            return
        if (refused := self.app.tutor.refuses_hand_over(self)) is not None:
            self.say(refused, error=True)
            return
        record = self.record or (self.run.record() if self.run is not None else None)
        if record is None:
            self.say(self.TRAIN_FIRST, error=True)
            return
        if record.diverged:  # a diverged run loaded from a file
            self.say(self.DIVERGED, error=True)
            return
        self.app.tutor.hand_over(self)
        from attn_tui.tui.screens.labs.train_workspace import head_workspace

        bench = self.app.workbench()
        layer, head = divmod(self.head, record.config.heads)
        ws = head_workspace(record, layer, head, bench.workspace)
        while self.app.screen is not bench:
            self.app.pop_screen()
        note = (f"Layer {layer + 1}, head {head + 1} of the {record.config.task} run at step "
                f"{record.steps_done}")
        shown = self.frames[self.frame][0] if self.frame is not None and self.frames else None
        if shown is not None and shown != record.steps_done:
            # a frame keeps α only: the weights of step 0 are gone once the run has trained
            note += f", its latest weights: the frame shown was step {shown}, and frames keep α only"
        bench.open_head(ws, note=f"{note}. u undoes; g, lab train: back to the run.")

    # ---- the run as work to keep (see train_runs)
    def held_run(self):
        from attn_tui.tui.screens.labs.train_runs import HeldRun

        if self.run is None and self.record is None:
            return None
        c = self.run.config if self.run is not None else self.record.config
        # while it trains, its own count: the screen hears of its steps four times a second
        steps = self.run.step if self.run is not None else self.step
        return HeldRun(c.task, steps, c.steps, self.state in ("loading", "running"),
                       self.saved_step == steps or self.lessons_run,
                       self.state == "diverged" or (self.record is not None
                                                    and self.record.diverged),
                       self._record_to_save, self._saved_at, self.when_paused,
                       lambda: self.run is not None and self.run.stepping.locked(),
                       lambda: self.record if self.record is not None
                       else self.run.record_now())

    def when_paused(self, then) -> None:
        """``then()`` once no worker steps this lab's run: at once, or when a pause lands (and
        this lab is on top then). One waits at a time: e e in a burst opened two dialogs."""
        if self.state in ("loading", "running"):
            self._after_pause[:] = [then]
            self._pause_asked = True
        else:
            then()

    def _record_to_save(self):
        if self.record is not None:
            return self.record
        record = self.run.record_now()
        # the frame taken at this step is shown too: the lab shows what the file holds
        self.step, self.losses, self.evals, self.frames, _ = self._snapshot(self.run)
        self._draw()
        return record

    def _saved_at(self, step: int) -> None:
        self.saved_step = step
        if self._replace_asked is not None:  # "is not saved: e saves it" is old news now
            self._replace_asked = None
            self.say("")
        self._draw_status(self.run.config if self.run is not None else self.record.config)

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        own = action in ("start", "save_run")
        if own and self.query_one("#controls").editing is not None:
            return False  # while a number is typed, Enter sets it
        if self._held_back(action) is not None:
            return None  # shown dimmed; pressed or clicked, the screen says why
        return True if own else super().check_action(action, parameters)

    def action_save_run(self) -> None:
        from attn_tui.tui.screens.labs.train_runs import save_run_dialog

        if not self.say_why_not("save_run"):  # a run in progress is paused first, where it stands
            save_run_dialog(self.app, self.held_run())

    # ---- for lessons: what a finished run shows, and the numbers a step's words read
    def lesson_shows(self) -> tuple[object, str]:
        from attn_tui.train.patterns import run_figures

        if self.state in ("loading", "running"):
            return None, ("training… (read when the run ends)" if self.training == self.settings
                          else "a run of other settings trains (Enter pauses it)")
        if self.state in ("done", "diverged") and self.run is not None \
                and self.run.config == self.settings:
            return run_figures(self.settings.task, self.evals, self.frames,
                               self.state == "diverged"), ""
        if self.state == "paused" and self.run is not None and self.run.config == self.settings:
            return None, "paused (Enter goes on)"
        return None, "not trained yet (Enter trains these settings)"

    # ---- undo, and a lesson's "show me" and step reset
    def put_back(self, settings: Any, what: str) -> None:
        paused = settings is not None and self._pause_own_run()
        super().put_back(settings, what)
        if paused:
            self._say_paused()

    def lesson_restore(self, state: object, edits: tuple = ()) -> None:
        paused = self._pause_own_run()
        super().lesson_restore(state, edits)
        if edits:  # "show me": trained too, so the goal is seen to hold
            # asked from the bar, it keeps the keys: a u after it and ↓ (the step's Try line)
            # moved a head on the maps instead of the learning rate
            self._enter_on_bar = self.query_one(ControlBar).has_focus
            self._train_afresh()
        elif paused:
            self._say_paused()

    def _pause_own_run(self) -> bool:
        """Pause a run of the settings about to be replaced: it trains what is taken away. Its
        frames stay, and Enter resumes it once its settings are back (U). True if paused."""
        if self.state in ("loading", "running") and self.training == self.settings:
            self._pause_asked = True
            return True
        return False

    def _say_paused(self) -> None:
        def say() -> None:  # as the status line words it, once the pause has landed
            enter = ("Enter twice trains these (e saves the paused run)" if self._asks_first()
                     else "Enter trains these")
            self.say(f"The run of the settings taken away is paused; {enter}.")

        if self.state in ("loading", "running"):
            # kept apart from when_paused's one waiting action (e's dialog replaced it)
            self._say_when_paused = say
        else:
            say()

    def _train_afresh(self) -> None:
        """Train the settings on the bar from step 0, whatever runs now."""
        self.workers.cancel_group(self, "train-lab")  # a cancelled run reports nothing more
        self.state = "idle"
        self._train_or_pause()

    @property
    def _task_shown(self) -> str:
        """The task of the frames on screen: the run's, else the one on the bar."""
        return self.run.config.task if self.run is not None else self.settings.task

    @property
    def accuracy(self) -> float:
        return float(self.evals[-1][1]) if self.evals else 0.0

    @property
    def first_share(self) -> float:
        from attn_tui.train.patterns import frame_share

        return frame_share(self._task_shown, self.frames, 0)

    @property
    def final_share(self) -> float:
        from attn_tui.train.patterns import frame_share

        return frame_share(self._task_shown, self.frames, -1)

    @property
    def frame_count(self) -> int:
        return len(self.frames)

    @property
    def formed_at(self) -> int:
        """The step of the first frame with half the weight on the pattern (the last if none)."""
        from attn_tui.train.patterns import formed_at

        return formed_at(self._task_shown, self.frames)

    @property
    def pattern_count(self) -> int:
        from attn_tui.train.config import seq_len
        from attn_tui.train.patterns import pattern_pairs

        # the task on the bar, trained or not: its sequences' length, not a run's example
        return len(pattern_pairs(self.settings.task, seq_len(self.settings.task)))

    @property
    def questions_per_step(self) -> int:
        return self.pattern_count * self.settings.batch

    def action_stop(self) -> None:
        """Pause a run in progress, and nothing else (a lesson's step starts on a still lab)."""
        if self.state in ("loading", "running"):
            self._pause_asked = True

    def scrolls_under_panel(self) -> bool:  # roles.ScrollsUnderPanel: the maps
        return True

    def action_focus_maps(self) -> None:
        """Give the maps the keys: ←→ walk the frames, ↑↓ pick a head (f; a lesson's step)."""
        self.set_focus(self.query_one(AlphaMaps))

    def on_descendant_focus(self, event: events.DescendantFocus) -> None:
        self._bar_taken_mid_run(event.widget)
        self._maps_focus_changed(event.widget)

    def on_descendant_blur(self, event: events.DescendantBlur) -> None:
        self._maps_focus_changed(event.widget)

    def _bar_taken_mid_run(self, widget: object) -> None:
        # the learner went to the bar while the run trained: the bar keeps them when it stops
        if isinstance(widget, ControlBar) and self.state in ("loading", "running"):
            self._enter_on_bar = True

    def _maps_focus_changed(self, widget: object) -> None:
        if isinstance(widget, AlphaMaps) and self.frames:  # the caption says how to reach ←→,
            self._draw(plot=False)  # or what they do

    def action_ensure_trained(self) -> None:
        """Train the settings on the bar, unless their run is done or on its way (lessons)."""
        if self.state in ("loading", "running"):
            return
        if self.state == "done" and self.run is not None and self.run.config == self.settings:
            return
        self._enter_on_bar = False
        self._train_or_pause()

    # ---- actions for the bar's fields
    def action_set_task(self, value: str) -> None:
        self.offer("task", value)

    def action_set_layers(self, value: int) -> None:
        self.offer("layers", value)

    def action_set_heads(self, value: int) -> None:
        self.offer("heads", value)

    def action_set_width(self, value: int) -> None:
        self.offer("d_model", value)

    def action_set_steps(self, value: int) -> None:
        self.offer("steps", value)

    def action_set_lr(self, value: float) -> None:
        self.offer("lr", value)

    def action_set_seed(self, value: int) -> None:
        self.offer("seed", value)


def _tokens(ids: list[int]) -> tuple[str, ...]:
    from attn_tui.train.config import VOCAB

    return tuple(VOCAB[i] for i in ids)
