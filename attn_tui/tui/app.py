"""AttnApp and make_app(): the one way the CLI, the tests and the screenshots build the app."""

from __future__ import annotations

import contextlib
import gc
import importlib
import os
from collections.abc import Callable, Iterable
from dataclasses import replace
from typing import TYPE_CHECKING

from textual import events
from textual.app import App, SystemCommand
from textual.await_complete import AwaitComplete
from textual.binding import Binding
from textual.screen import ModalScreen, Screen

from attn_tui.compute import MASKS
from attn_tui.core import state
from attn_tui.core.labs import LABS, lab_available, lab_of_module
from attn_tui.core.presets import EXAMPLE_NAMES, LECTURE_EXAMPLES
from attn_tui.core.state import Workspace
from attn_tui.core.words import plural
from attn_tui.tui import bindings, textual_compat
from attn_tui.tui.keys import (
    AfterKeys,
    after_keys,
    bindings_checked,
    from_the_line,
    hold_if_keys_waiting,
    hold_until_first_focus,
    key_read_by_app,
    read_escape_as_typed,
    run_after_keys,
    set_aside,
    takes_text,
)
from attn_tui.tui.paste_escapes import PasteCleaned, drop_escapes_in_pastes
from attn_tui.tui.roles import (
    FollowsCursor,
    HasControls,
    KeepsSettings,
    SavesRun,
    SaysWhyNot,
    TakesTyping,
    Undoes,
)
from attn_tui.tui.screens import says_too_small, too_small
from attn_tui.tui.screens.workbench_screen import WorkbenchScreen
from attn_tui.tui.widgets.heatmap import VIEW_WORDS, VIEWS

if TYPE_CHECKING:
    from pathlib import Path

    from attn_tui.core.progress import Progress
    from attn_tui.tui.screens.session_actions import SessionController
    from attn_tui.tui.tutor.runner import LessonRunner


def resume_gc() -> None:
    """Start-up builds objects that live all session, and the cycle collector walked them again
    and again (about 45 ms before the first frame), so the launcher pauses it. After the first
    frame: collect once, freeze what is left so later collections skip it, resume."""
    if not gc.isenabled():
        gc.collect()
        gc.freeze()
        gc.enable()


def folders_then_names(paths: list[str]) -> list[str]:
    """Lines naming ``paths``: each folder once, ending in its separator, then the names of its
    files under it. A notice is some 36 columns wide at 80: a path whole broke mid-name
    (unsaved-202612 / 07-095408.json), and the run kept beside the edits repeated the folder."""
    lines: list[str] = []
    folder = None
    for path in paths:
        head, sep, name = path.rpartition(os.sep)
        if not sep or not name:  # a bare name (a browser's own files) or a folder
            lines.append(path)
            folder = None
            continue
        if head + sep != folder:
            folder = head + sep
            lines.append(folder)
        lines.append(name)
    return lines


class AttnApp(App[int]):
    """Composes and routes: lessons are run by ``tutor``, sessions saved by ``session``."""

    CSS_PATH = "app.tcss"
    TITLE = "attn-tui"
    ENABLE_COMMAND_PALETTE = True
    BINDINGS = [*bindings.APP, *bindings.LESSON]

    def __init__(self, workspace: Workspace, lab: str | None = None,
                 session_path: str | None = None, confirm_quit: bool = True,
                 lab_options: dict | None = None, asked_dtype: str | None = None) -> None:
        super().__init__()
        read_escape_as_typed()
        drop_escapes_in_pastes()
        textual_compat.render_only_what_changed(self)
        textual_compat.one_shot_timers_fire_however_late()
        textual_compat.count_a_callbacks_parameters_once()
        textual_compat.lay_out_only_when_resized()
        textual_compat.draw_a_screen_shown_at_a_new_size_once()
        textual_compat.leave_a_screen_under_an_opaque_one_unpainted()
        textual_compat.name_keys_without_the_unicode_database()
        textual_compat.repaint_only_what_focus_or_selection_changes()
        textual_compat.forget_gone_widgets_lines()
        textual_compat.repaint_what_a_rebuilt_map_drops()
        self.initial_workspace = workspace
        self.initial_lab = lab
        self.initial_lab_options = lab_options or {}  # e.g. the train lab's loaded run
        self.asked_dtype = asked_dtype  # --dtype as typed; None when left to the default
        # what a lab left behind when it closed (its run, its sentence), for Go to to reopen
        # it with: `w` to the workbench and back must not lose a trained run
        self.left_labs: dict[str, dict] = {}
        self.stopped_by: int | None = None  # the signal that ended the app (SIGTERM), if one
        self.session_path = session_path
        self.confirm_quit = confirm_quit
        self.initial_lesson: str | None = None
        self.initial_lesson_step: int | None = None
        self.closing = False  # exit() has been called
        self._endings: list = []  # each signal's rescue, then the end: kept, or lost to the GC
        self._rescuing = None  # the one rescue, which every way of ending awaits
        self.reading_from_line = False  # reading a key handed back (see keys)
        self._tutor: LessonRunner | None = None
        self._progress: Progress | None = None
        self._session: SessionController | None = None
        self._deliveries: dict[str, Callable[[], None]] = {}  # see after_delivery

    def after_delivery(self, key: str, then, wait: float = 15.0) -> None:
        """``then()`` once the browser has fetched the file delivered as ``key``, or has failed
        to, or after ``wait`` seconds (a browser that never asks for it)."""
        self._deliveries[key] = then
        self.set_timer(wait, lambda: self._delivered(key))

    def _delivered(self, key: str) -> None:
        if (then := self._deliveries.pop(key, None)) is not None:
            then()

    def on_delivery_complete(self, event: events.DeliveryComplete) -> None:
        self._delivered(event.key)

    def on_delivery_failed(self, event: events.DeliveryFailed) -> None:
        self._delivered(event.key)

    # the lesson runner and the session keys, made when first needed: the first screen needs
    # neither (about 0.3 MiB of code and a millisecond of its start)
    @property
    def tutor(self) -> LessonRunner:
        if self._tutor is None:
            from attn_tui.tui.tutor.runner import LessonRunner

            self._tutor = LessonRunner(self)
        return self._tutor

    @property
    def session(self) -> SessionController:
        if self._session is None:
            from attn_tui.tui.screens.session_actions import SessionController

            self._session = SessionController(self)
        return self._session

    @property
    def progress(self) -> Progress:
        """Lessons' progress across runs (core.progress), from the environment when a lesson
        first asks: a session without one never loads it."""
        if self._progress is None:
            from attn_tui.core.progress import Progress  # off the start-up path

            self._progress = Progress.from_env()
        return self._progress

    @progress.setter
    def progress(self, value: Progress) -> None:
        self._progress = value

    def progress_not_saved(self) -> dict[str, str]:
        """Lessons whose progress this run could not write, after one more try (the folder may
        take it now), each with the reason; none when no lesson ran."""
        return {} if self._progress is None else self._progress.save_waiting()

    def get_default_screen(self) -> Screen:
        # the workbench is the bottom screen itself, built in the start-up batch: pushed from
        # on_mount instead, its first frame was rendered, dropped and laid out again
        # a rescue's file (--session unsaved-….json) is in no file of the learner's: ctrl+s
        # asks where it goes rather than saving back into the rescue folder, and quitting
        # asks about it, as after ctrl+o
        path = self.session_path
        if path is not None:
            from attn_tui.core import rescue

            if rescue.holds(path):
                return WorkbenchScreen(self.initial_workspace, session_path=None,
                                       saved=state.from_preset("one"))
        return WorkbenchScreen(self.initial_workspace, session_path=path)

    def notify(self, message: str, *, title: str = "", severity="information",
               timeout: float | None = None, markup: bool = True) -> None:
        """As Textual's, except that a notice already on screen is not stacked again: thirty
        presses of u showed eight "Nothing to undo." over the tables."""
        try:
            showing = any(n.message == message and n.title == title and n.severity == severity
                          for n in textual_compat.notifications(self))
        except RuntimeError:  # changed by the app's thread while a worker's thread looked
            showing = False
        if not showing:
            super().notify(message, title=title, severity=severity, timeout=timeout,
                           markup=markup)

    def exit(self, *args, **kwargs) -> None:
        self.closing = True
        super().exit(*args, **kwargs)

    def push_screen(self, screen, callback=None, wait_for_dismiss=False, *, mode=None):
        if self.closing and not wait_for_dismiss:
            # keys typed just after q (one read over SSH often holds both) are still handled
            # while the app closes: a dialog opened now would mount half-way through closing
            return AwaitComplete.nothing()
        return super().push_screen(screen, callback, wait_for_dismiss, mode=mode)

    def pop_screen(self):
        # a value typed on a lab's bar and not yet taken is kept as Enter would take it, as a
        # cell typed on the workbench is kept: Go to or the palette left it without a word
        top = self.screen
        if isinstance(top, TakesTyping) and (refused := top.take_typing()) is not None:
            self.notify(f"Not kept: {refused}", title="Typed value", severity="warning",
                        timeout=6, markup=False)
        return super().pop_screen()

    def on_mount(self) -> None:
        if not self.is_headless and not self.is_web:  # a browser's has no terminal to restore
            self._exit_cleanly_on_sigterm()
            self._rescue_on_hangup()
        if not gc.isenabled():  # the launcher paused the cycle collector for start-up
            self.screen.call_after_refresh(resume_gc)
            self.set_timer(2.0, resume_gc)  # in case the workbench is not what is drawn first
        self.call_after_refresh(textual_compat.warn_on_version_mismatch, self)
        self.call_after_refresh(self._tell_of_rescues)
        self._say_if_the_theme_fades()
        self.theme_changed_signal.subscribe(self, lambda _: self._say_if_the_theme_fades())
        # back from a suspend (SIGTSTP, then fg): the terminal shows the shell's screen or a
        # blank one, and only the parts that changed since would be drawn again
        self.app_resume_signal.subscribe(self, lambda _: self.action_redraw())
        if self.initial_lab:
            self.open_lab(self.initial_lab, **self.initial_lab_options)
        self._check_size()
        if self.initial_lesson:
            self.tutor.start(self.initial_lesson, step=self.initial_lesson_step)

    def action_redraw(self) -> None:
        """The whole screen drawn again: a terminal's own output (ssh's ~^Z, a wall message)
        may have written over it, and only what changes would be drawn again otherwise."""
        self.screen.refresh(layout=True)

    def _exit_cleanly_on_sigterm(self) -> None:
        """``kill`` (SIGTERM, or SIGINT from outside: ctrl+c in the terminal is a key) ends the
        app as quitting does, unsaved work rescued and the terminal given back: the default
        ended the process on the alternate screen, the mouse still reported and the cursor
        hidden, and SIGINT ended it with nothing kept. ``stopped_by`` tells the command line
        to end by the signal after."""
        import asyncio
        import signal

        loop = asyncio.get_running_loop()

        async def rescue_then_exit(sig: int) -> None:
            await self.rescue()
            self.exit(return_code=128 + sig)

        def again(sig: int) -> None:
            # a second kill while the rescue waits or writes ends the app now, terminal given
            # back all the same (a file being written is finished as the process ends); a
            # third, of either kind, ends it at once, by that signal
            for each in (signal.SIGTERM, signal.SIGINT):
                loop.remove_signal_handler(each)
            self.stopped_by = sig
            self.exit(return_code=128 + sig)

        def stopped(sig: int) -> None:
            for each in (signal.SIGTERM, signal.SIGINT):
                loop.add_signal_handler(each, again, each)
            self.stopped_by = sig
            self._endings.append(loop.create_task(rescue_then_exit(sig)))

        with contextlib.suppress(NotImplementedError, RuntimeError, ValueError):  # not Unix
            for sig in (signal.SIGTERM, signal.SIGINT):
                loop.add_signal_handler(sig, stopped, sig)

    def _rescue_on_hangup(self) -> None:
        """The terminal hung up (the SSH connection dropped): unsaved work is rescued, then the
        process ends by the signal as before. There is no terminal left to give back."""
        import asyncio
        import signal

        loop = asyncio.get_running_loop()

        async def rescue_then_end() -> None:
            await self.rescue()
            signal.signal(signal.SIGHUP, signal.SIG_DFL)
            os.kill(os.getpid(), signal.SIGHUP)

        def hung_up() -> None:
            loop.remove_signal_handler(signal.SIGHUP)  # a second hang-up ends it at once
            self._endings.append(loop.create_task(rescue_then_end()))

        with contextlib.suppress(NotImplementedError, RuntimeError, ValueError):  # not Unix
            loop.add_signal_handler(signal.SIGHUP, hung_up)

    async def rescue(self) -> list[str]:
        """Unsaved work written to files of its own as the app ends by no choice of the
        learner's (see SessionController.rescue); their paths. Done once: a hang-up and a
        closing (ExitApp), or a hang-up and a kill, can come together, and the second waits
        for the first's files."""
        if self._rescuing is None:
            import asyncio

            # lesson progress that waits (its folder was unusable, its lock held) gets one
            # more try: quitting by choice tries it too
            self.progress_not_saved()
            self._rescuing = asyncio.get_running_loop().create_task(
                self.session.rescue(self.workbench()))
        return await self._rescuing

    def _tell_of_rescues(self) -> None:
        """A session before this one ended with unsaved work, kept in files (rescue): said
        once, and offered by ctrl+o at every start until opened."""
        if self.progress.where is None:  # nothing is kept here, and so nothing was
            return
        from attn_tui.core import rescue
        from attn_tui.core.files import OWN_FOLDER_ENV
        from attn_tui.tui.screens.session_actions import RESCUE_TITLES

        rescue.opened()  # the lists without files deleted since
        for start_file in (self.session_path, self.session.last_run):  # --session, --load
            if start_file:
                rescue.opened(os.path.expanduser(start_file))
        in_browser = bool(os.environ.get(OWN_FOLDER_ENV))

        def offered_as(paths: list[Path]) -> list[str]:
            # in a browser, a name in the learner's own files; else the path, said from ~
            return [p.name if in_browser else str(p) for p in paths]

        kept = rescue.unopened()
        # ctrl+o offers each in turn, the latest first
        self.session.rescued = offered_as([p for ending in rescue.endings(kept) for p in ending])
        found = rescue.untold()
        if found:
            latest, *before = rescue.endings(found)
            offered = offered_as([*latest, *(p for ending in before for p in ending)])
            from attn_tui.tui.screens.dialogs.file_modal import full_path

            named = [p if in_browser else full_path(p) or p for p in offered[:len(latest)]]
            edits, run_kept, both = RESCUE_TITLES
            if len(latest) == 2:
                title, said = both, ("attn-tui ended before your edits and the training run "
                                     "were saved. They are kept in")
            elif latest[0].suffix == ".npz":
                title, said = run_kept, ("attn-tui ended before the training run was saved. It "
                                         "is kept, paused, in")
            else:
                title, said = edits, "attn-tui ended before your edits were saved. They are kept in"
            said += "\n" + "\n".join(folders_then_names(named))
            if more := len(offered) - len(latest):
                said += f"\n(and {more} more file{'s' if more > 1 else ''} kept before)"
            said += "\nctrl+o offers " + ("it." if len(offered) == 1 else "each in turn.")
            self.notify(said, title=title, timeout=15, markup=False)
            rescue.told(found)
        else:  # told at a start before: offered after the session's own file, not before it
            self.session.rescued_told = True

    def rescue_report(self) -> list[str]:
        """For the terminal given back after a kill: where the unsaved work went, or why it
        could not be kept (the screen that would have said so is gone)."""
        if self._rescuing is None or not self._rescuing.done() or self._rescuing.cancelled():
            return []
        try:
            paths = self._rescuing.result()
        except Exception:  # SessionController.rescue means never to raise
            paths = []
        kept = [f"unsaved work kept in {path}; ctrl+o offers it at the next start"
                for path in paths]
        return kept + self.session.rescue_problems

    async def on_exit_app(self) -> None:
        # the browser's tab closed, or the server stopped it: ExitApp without exit() first
        if not self.closing:
            await self.rescue()

    def _say_if_the_theme_fades(self) -> None:
        """A light theme in a 16-colour terminal: grey on white, yellow on white. Say which
        theme keeps its contrast there (ansi-light uses the terminal's own colours)."""
        theme = self.get_theme(self.theme)
        if (theme is not None and not theme.dark and not self.theme.startswith("ansi")
                and not self.no_color and self.console.color_system == "standard"):
            self.notify(f"This terminal shows 16 colours, where {self.theme} loses its "
                        "contrast; try --theme ansi-light, which uses the terminal's own "
                        "colours.", severity="warning", timeout=8, markup=False)

    def on_resize(self, event) -> None:
        # the event's size: this handler may run before the app has taken the new size
        self._check_size(event.size)

    def keep_in_view(self) -> None:
        """After a resize, what the learner was looking at stays on screen: in a lesson, the
        step's marked cells (unless a cell is being typed into), then, side by side, the
        cursor's pane in its own column too; else the cursor."""
        focused = self.focused
        follow = focused.follow_cursor if isinstance(focused, FollowsCursor) else None
        if not takes_text(focused) and self.tutor.points_again(then=follow):
            return
        if follow is not None:
            follow()

    def _check_size(self, size=None) -> None:
        """Below the smallest usable size, say so instead of drawing a squashed layout."""
        small = too_small(*(size or self.size))
        showing = says_too_small(self.screen)
        if small and not showing:
            # imported here: a terminal large enough never needs it
            from attn_tui.tui.screens.too_small_screen import TooSmallScreen

            self.push_screen(TooSmallScreen())
        elif small and showing:
            self.screen.show_size(size)
        elif showing:
            self.pop_screen()
        else:
            for screen in self.screen_stack:  # under a dialog opened while it was too small
                if says_too_small(screen):
                    screen.outgrown(not small)

    def _bench(self):
        """The workbench, for the session keys (they work from a lab too), unless a dialog is
        open."""
        return None if isinstance(self.screen, ModalScreen) else self.workbench()

    def action_save(self) -> None:
        if (bench := self._bench()) is not None:
            self.session.save(bench)

    def action_open(self) -> None:
        if (bench := self._bench()) is not None:
            self.session.open(bench)

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "lesson":  # no lesson has run yet: none runs now
            return self._tutor is not None and self.tutor.allows(str(parameters[0]),
                                                                 parameters[1:])
        return super().check_action(action, parameters)

    async def action_lesson(self, verb: str, *parameters: object) -> None:
        await self.tutor.act(verb, *parameters)

    def keys_on_hold(self) -> float:
        """For how long at most keys from the terminal wait (see keys), 0 for not: while a
        lesson step sets up."""
        return 0 if self._tutor is None else self._tutor.keys_on_hold()

    def reads_at_once(self, key: str) -> bool:
        # ctrl+q while a step sets up, at once: held, it waited out a run's whole training;
        # the keys held before it wait apart, not to answer the question
        return key == "ctrl+q" and self._tutor is not None and self._tutor.setting_up

    def act_at_once(self, key: str) -> None:
        """What ``key`` does when read at once (see reads_at_once)."""
        set_aside(self)
        self._quit_asked()

    async def action_quit(self) -> None:
        # ctrl+q is a priority key, read by the App before the keys typed just ahead of it
        # have reached the focused widget: run after them, so a 7 typed and then ctrl+q
        # counts as unsaved work. q, run from a widget's own key handler (see key_order),
        # comes after them already.
        if textual_compat.active_message_pump() is self:
            after_keys(self, self._quit_asked)
        else:
            self._quit_asked()

    async def on_event(self, event: events.Event) -> None:
        if isinstance(event, events.Key) and not event.is_forwarded:
            self._last_release = None  # a click after a key is no double click's second
        if (isinstance(event, events.MouseDown | events.MouseUp) and not event.is_forwarded
                and self._mouse_waits(event)):  # (forwarded: on its way back up, not new)
            return
        if not isinstance(event, events.Key | events.Paste):  # a paste keeps its place too
            await super().on_event(event)
            return
        if not self.screen_stack:  # closing: a key still on its way has nothing to reach
            return
        came_back = event.is_forwarded
        if (not came_back and from_the_line(self, event)
                and self._tutor is not None and self.tutor.refuses_in_its_turn(event)):
            key_read_by_app(self, event, came_back)  # taken effect: the line goes on
            return
        if not came_back and isinstance(event, events.Key) and not from_the_line(self, event):
            if self.tutor.refuses_while_setting_up(event):
                return
            if self.reads_at_once(event.key):
                self.act_at_once(event.key)
                return
        if not came_back and (hold_if_keys_waiting(self, event)
                              or hold_until_first_focus(self, event)):
            return
        self.reading_from_line = from_the_line(self, event)
        try:
            await super().on_event(event)
        finally:
            self.reading_from_line = False
        key_read_by_app(self, event, came_back)

    _drop_release = False
    _pressed_on: object = None  # the screen the last press landed on
    # the last click's release: the screen its press landed on, where, when
    _last_release: tuple[object, tuple[int, int], float] | None = None

    def _mouse_waits(self, event: events.MouseDown | events.MouseUp) -> bool:
        """While a lesson step sets up (or an answer's reveal runs), a press (and its release)
        is dropped, said once a step:
        keys wait for the step, and a click acting at once (Esc keep playing, a control) cut
        the step's set-up short. The rest of a double click whose first click opened or closed
        a screen is dropped too: it was meant for the screen that is gone (a double click on a
        preset also opened the Q cell under it). True if dropped."""
        at = (event.screen_offset.x, event.screen_offset.y)
        if isinstance(event, events.MouseUp):
            dropped, self._drop_release = self._drop_release, False
            if not dropped:
                self._last_release = (self._pressed_on, at, event.time)
            return dropped
        last = self._last_release
        # Textual chains clicks whose releases are that close; a press that close to the last
        # release may be the start of one (a key between them starts anew: see on_event)
        if (last is not None and last[0] is not self.screen and last[1] == at
                and event.time - last[2] <= self.CLICK_CHAIN_TIME_THRESHOLD):
            self._drop_release = True
            return True
        self._pressed_on = self.screen
        tutor = self._tutor
        if tutor is None or not tutor.setting_up or isinstance(self.screen, ModalScreen):
            return False  # (a dialog over the step, the quit question, takes its clicks)
        self._drop_release = True
        if self._tutor.setting_up_a_while():  # not a double click's second, a moment after n
            self._tutor.say_getting_ready("a click")
        return True

    def action_command_palette(self) -> None:
        # the palette's modules load when it is first opened, not before the first frame
        from textual.command import CommandPalette

        from attn_tui.tui.screens.palette import Palette

        if self.use_command_palette and not CommandPalette.is_open(self):
            self.push_screen(Palette(id="--command-palette"))

    async def _on_key(self, event: events.Key) -> None:
        if bindings_checked(self, event):
            event.prevent_default()  # App._on_key would look its binding up a second time

    def on_paste_cleaned(self, message: PasteCleaned) -> None:
        n = message.removed
        self.notify(f"The pasted text had {plural(n, 'terminal escape sequence')} "
                    "(colours, cursor moves): taken out before it was read.",
                    timeout=4, markup=False)

    def on_after_keys(self, event: AfterKeys) -> None:
        run_after_keys(event)  # no widget on the way reads keys itself

    def _quit_asked(self) -> None:
        self.session.quit_or_ask(self.workbench(), confirm=self.confirm_quit)

    def open_lab(self, name: str, **options) -> None:
        """Open a lab over the workbench; Escape in the lab comes back."""
        lab = LABS[name]
        screen_cls = getattr(importlib.import_module(lab.module), lab.screen_class)
        bench = self.workbench()
        while self.screen is not bench and len(self.screen_stack) > 1:
            self.pop_screen()
        ws = bench.workspace if bench is not None else self.initial_workspace
        dtype = (self.asked_dtype or lab.dtype) if lab.dtype else ws.dtype
        if not options.get("saved") or not issubclass(screen_cls, KeepsSettings):
            options.pop("saved", None)  # a lab that keeps no settings in a session
        self.push_screen(screen_cls(backend=ws.backend, dtype=dtype, **options))

    def reopen_lab(self, name: str) -> None:
        """Open a lab as the learner left it (its run, its sentence), from Go to or the
        palette; a lesson or a session opens it afresh."""
        lab = LABS[name]
        if type(self.screen).__name__ == lab.screen_class:
            # what a lab leaves behind is written as it closes, so reopening it now would
            # read nothing and show it empty
            where = "the model screen" if name == "minilm" else f"lab {name}"
            self.notify(f"You are in {where} already: it stays as it is.", timeout=3,
                        markup=False)
            return
        self.open_lab(name, **self.left_labs.get(name, {}))

    def goto_entries(self) -> list[tuple[str, str]]:
        lessons = self.tutor.entries()
        labs = [n for n in LABS if lab_available(n)]
        # one column for the descriptions, as wide as the widest "lesson real-heads "
        width = max([len(f"lab {n}") for n in labs] + [len(f"lesson {n}") for n, _, _ in lessons]
                    + [len("workbench")])
        entries = [("workbench", f"{'workbench':<{width}} edit Q, K, V and watch every stage")]
        entries += [(f"lab:{n}", f"{'lab ' + n:<{width}} {LABS[n].line}") for n in labs]
        now = self.tutor.lesson.name if self.tutor.lesson is not None else None
        words, nxt = self.tutor.standing(besides=now)
        for n, t, _ in lessons:
            entries.append((f"lesson:{n}", f"{'lesson ' + n:<{width}} "
                            + ("open now: " if n == now else "next: " if n == nxt else "")
                            + t + (f" · {words[n]}" if n in words else "")))
            if n == now:  # the open lesson's steps, to go back or ahead to one
                at = self.tutor.index
                entries += [(f"step:{n}:{k}", f"{'step ' + str(k):<{width}} of {n}"
                             + (", here" if k - 1 == at else "") + f": {step.title}")
                            for k, step in enumerate(self.tutor.lesson.steps, start=1)]
        return entries

    def back_to_workbench(self) -> None:
        bench = self.workbench()
        while self.screen is not bench and len(self.screen_stack) > 1:
            self.pop_screen()

    def action_goto(self) -> None:
        from attn_tui.tui.screens.dialogs.goto_modal import GotoModal  # a dialog: when asked

        def chosen(target: str | None) -> None:
            if target is None:
                return
            if target == "workbench":
                self.back_to_workbench()
            elif target.startswith("lab:"):
                self.reopen_lab(target[4:])
            elif target.startswith("lesson:"):
                self.tutor.start(target[7:])
            elif target.startswith("step:"):
                _, name, k = target.split(":")
                self.tutor.start(name, step=int(k), why="picked in Go to")

        self.push_screen(GotoModal(self.goto_entries()), chosen)

    def action_help(self) -> None:
        from attn_tui.tui.screens.help_screen import HelpScreen  # with it, the lesson list

        if not isinstance(self.screen, HelpScreen):
            own = self._help_section()
            # a lab with controls: its own keys right after every lab's (c, u, the arrows)
            common = (own is not None and isinstance(self.screen, HasControls)
                      and own != "In any lab")
            self.push_screen(HelpScreen(section="In any lab", then=own) if common
                             else HelpScreen(section=own))

    def _help_section(self) -> str | None:
        """The keyboard reference's section for the lab on top, if any: help opens there."""
        from attn_tui.tui import bindings
        from attn_tui.tui.help_keys import sections

        name = lab_of_module(type(self.screen).__module__)
        if name is None:
            return None
        titles = [title for title, _ in sections()]
        own = bindings.HELP_TITLES.get(name, f"{name.capitalize()} lab")
        return own if own in titles else "In any lab"

    def _save_screenshot(self) -> None:
        from pathlib import Path

        from platformdirs import user_downloads_path

        from attn_tui.core.files import os_reason

        downloads = user_downloads_path()
        folder = downloads if downloads.is_dir() else Path.cwd()
        try:
            saved = self.save_screenshot(path=str(folder))
        except OSError as exc:
            self.notify(f"Not saved in {folder}: {os_reason(exc, True)}.", title="Screenshot",
                        severity="error", markup=False)
            return
        self.notify(f"Saved the screen as {saved}", title="Screenshot", markup=False)

    def workbench(self) -> WorkbenchScreen | None:
        for screen in reversed(self.screen_stack):
            if isinstance(screen, WorkbenchScreen):
                return screen
        return None

    def get_system_commands(self, screen: Screen) -> Iterable[SystemCommand]:
        for command in super().get_system_commands(screen):
            # Textual's "Keys" read as a second help beside "Help: every key": named for the
            # side panel it toggles
            if command.callback == self.action_show_help_panel:
                command = command._replace(title="Keys panel: show",
                                           help="The focused pane's keys, in a panel at the right")
            elif command.callback == self.action_hide_help_panel:
                command = command._replace(title="Keys panel: hide",
                                           help="Close the panel of keys at the right")
            elif command.title == "Screenshot" and not self.is_web:
                # Textual's saves to ~/Downloads, which a server seldom has: "Failed to save
                # screenshot", and no word of where or why
                command = command._replace(
                    help="Save the screen as an SVG picture (in Downloads, else the folder "
                         "attn-tui started in)",
                    callback=lambda: self.set_timer(0.1, self._save_screenshot))
            yield command
        # the palette reads help as markup, where "a [CLS] sink" lost its [CLS] (Textual's
        # markup.escape leaves capitals alone)
        for command in self._own_commands(screen):
            yield command._replace(help=command.help.replace("[", "\\["))

    # listed above in words of their own, or leaving the screen (Esc)
    _NOT_FROM_KEYS = frozenset({"back", "undo", "redo", "save_run"})

    _BENCH_NAMED = frozenset({"copy", "reset", "export", "toggle_scale", "toggle_backend",
                              "toggle_dtype", "random_fill"})

    def _screen_commands(self, screen: Screen,
                         skip: frozenset[str] = frozenset()) -> Iterable[SystemCommand]:
        # the screen's own keys and those its kind shares (a lab's c), not Textual's
        own = [b for cls in type(screen).__mro__ if cls.__module__.startswith("attn_tui.")
               for b in cls.__dict__.get("BINDINGS", ()) if isinstance(b, Binding)]
        # a lesson open here takes its keys first (p is its previous step, not a preset)
        lessons = self.tutor.keys_taken(screen)
        seen: set[str] = set()
        for b in own:
            name = b.action.split("(")[0]
            if name in self._NOT_FROM_KEYS or name in skip or b.action in seen:
                continue
            seen.add(b.action)
            key = self.get_key_display(replace(b, key=b.key.split(",")[0]))  # "/" of "slash,i"
            words = b.tooltip or b.description
            said = "" if set(b.key.split(",")) <= lessons else f" ({key})"
            yield SystemCommand(b.description, f"{words[:1].upper()}{words[1:]}{said}",
                                lambda b=b, key=key: self._key_from_palette(screen, b, key))

    async def _key_from_palette(self, screen: Screen, b: Binding, key: str) -> None:
        """A screen's key chosen in the palette, as the key would act; where the key would
        not (a value is being typed: Enter sets it), said, not silently nothing."""
        if not await self.run_action(b.action, screen):
            if isinstance(screen, SaysWhyNot) and screen.say_why_not(b.action):
                return
            typing = takes_text(self.focused) or any(
                w.is_typing for w in screen.query("ControlBar"))
            self.notify(f"{b.description} ({key}) does nothing now"
                        + (": Enter sets the value being typed, Escape drops it." if typing
                           else "."), timeout=4, markup=False)

    def _editor_key(self, bench: Screen, b: Binding) -> None:
        """An editor's key from the palette, in the pane the cursor is in; said, if none is."""
        from attn_tui.tui.widgets.matrix_editor import MatrixEditor

        focused = bench.focused
        editor = next((w for w in (focused, *(focused.ancestors if focused else ()))
                       if isinstance(w, MatrixEditor)), None)
        if editor is None:
            self.notify(f"{b.description} ({b.key}) works in Q, K or V: Tab to one first.",
                        timeout=4, markup=False)
            return
        self.call_later(editor.run_action, b.action)

    def _own_commands(self, screen: Screen) -> Iterable[SystemCommand]:
        bench = self.workbench()
        if bench is None:
            return
        yield SystemCommand("Help: every key", "Show the keyboard reference", self.action_help)
        yield SystemCommand("Go to", "A lesson, a lab or the workbench (g)", self.action_goto)
        yield SystemCommand("Redraw", "Draw the whole screen again, after something else wrote "
                            "over it (ctrl+l)", self.action_redraw)
        # on the screen the palette opened over: a lab and the model screen keep their own
        if isinstance(screen, Undoes):
            yield SystemCommand("Undo", "Take back the last change (u)", screen.action_undo)
            yield SystemCommand("Redo", "Put back what undo took (U)", screen.action_redo)
        if isinstance(screen, SavesRun):
            yield SystemCommand("Save the training run (.npz)",
                                "Losses, frames and weights: ctrl+o reopens it (e)",
                                screen.action_save_run)
        # the screen's own keys, found by name too; the workbench's that have commands of
        # their own below (Copy the step table, Scaling, Backend, Export) once
        yield from self._screen_commands(
            screen, skip=frozenset() if screen is not bench else self._BENCH_NAMED)
        if screen is bench:
            # a key the lesson open here takes (a question's c) is not named as this one's
            lessons = self.tutor.keys_taken(screen)

            def key(k: str) -> str:
                return "" if k in lessons else f" ({k})"

            for view in VIEWS:
                yield SystemCommand(f"View: {view}", f"Show {VIEW_WORDS[view]} (v cycles)",
                                    lambda v=view: bench.action_set_view(v))
            yield SystemCommand("Copy the step table", f"As Markdown, to the clipboard{key('c')}",
                                bench.action_copy)
            yield SystemCommand("Reset the example", "Reload the current example (R; u undoes)",
                                bench.action_reset)
            for b in bindings.EDITOR:  # a pane's keys, not the screen's: to the pane in use
                if b.action.startswith("structure("):
                    yield SystemCommand(b.description, f"In Q, K or V: {b.tooltip}{key(b.key)}",
                                        lambda b=b: self._editor_key(bench, b))
        yield from self.session.commands(bench, on_bench=screen is bench)
        yield from self.tutor.commands(screen)
        for name, lab in LABS.items():
            if lab_available(name):
                yield SystemCommand(f"Lab: {name}", lab.line, lambda n=name: self.reopen_lab(n))
        if screen is not bench:
            yield SystemCommand("Workbench", "Back to the workbench, as Esc goes back (g brings "
                                "a lab back as you left it)", self.back_to_workbench)
            # the rest change the workbench's numbers: from a lab they changed them out of
            # sight, and the notice's "u undoes" meant the workbench's u, not the lab's
            return
        for name in EXAMPLE_NAMES:
            yield SystemCommand(f"Preset: {name}", "Load this example into the workbench (u undoes)",
                                lambda n=name: bench.load_preset(n))
        for mask in MASKS:
            yield SystemCommand(f"Mask: {mask}", "Set the causal-mask order",
                                lambda m=mask: bench.action_set_mask(m))
        yield SystemCommand("Scaling: toggle ÷√d_k", "Turn the scaling on or off",
                            bench.action_toggle_scale)
        yield SystemCommand("Backend: numpy", "Compute with numpy",
                            lambda: bench.action_set_backend("numpy"))
        yield SystemCommand("Backend: torch", "Compute with torch (loads it)",
                            lambda: bench.action_set_backend("torch"))
        yield SystemCommand("Precision: toggle float64/float32", "Change the dtype",
                            bench.action_toggle_dtype)
        yield SystemCommand("Fill with seeded random values", "Same seed, same values",
                            bench.action_random_fill)


def make_app(preset: str = "one", backend: str = "numpy", dtype: str = "float64",
             seed: int = 0, workspace: Workspace | None = None,
             lab: str | None = None, lesson: str | None = None,
             theme: str | None = None, session_path: str | None = None,
             confirm_quit: bool = True, no_progress: bool = False,
             lab_options: dict | None = None, asked_dtype: str | None = None,
             lesson_step: int | None = None) -> AttnApp:
    if workspace is None and preset in LECTURE_EXAMPLES:
        from attn_tui.lessons.workspaces import build  # the lecture's tensors: torch, maybe

        workspace = build(preset)
    ws = workspace or state.from_preset(preset, seed=seed)
    # a lesson opens the screens it needs: a lab saved in a session would only be popped by it
    # half-way through mounting (--lab with --lesson is refused on the command line)
    app = AttnApp(replace(ws, backend=backend, dtype=dtype), lab=None if lesson else lab,
                  session_path=session_path, confirm_quit=confirm_quit,
                  lab_options=lab_options, asked_dtype=asked_dtype)
    app.initial_lesson = lesson
    app.initial_lesson_step = lesson_step  # 1-based, from --step
    if no_progress:
        from attn_tui.core.progress import Progress

        app.progress = Progress(None)
    if theme:
        app.theme = theme
    return app
