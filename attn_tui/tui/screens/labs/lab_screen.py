"""What every lab shares: a header, the control bar, a message line, a scrolling body, a footer.

A lab keeps its settings in one frozen dataclass held in a reactive; every change, from a key,
the command palette or a lesson's ``screen.set_…(…)`` action, goes through ``offer``, which
checks it with the field's own rules and either replaces the settings (the watcher recomputes)
or shows why not and keeps the last valid settings. Each accepted change, R, and a lesson's
"show me" or step reset is one entry in ``history``: u undoes it, U redoes it.

Every lab has ``set(field, value)`` and ``toggle(field)``; ``setter`` and ``toggler`` give them
the names a lab's lessons and docs use (``action_set_dk = setter("d_k")``: ``set_dk(256)`` is
``set('d_k', 256)``).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import asdict, replace
from typing import Any, ClassVar

from rich.text import Text
from textual import events, on
from textual.app import ComposeResult
from textual.containers import VerticalScroll
from textual.reactive import reactive
from textual.screen import Screen
from textual.widgets import Static

from attn_tui.compute.backend import STANDARD_DTYPES, torch_problem
from attn_tui.core.labs import lab_of_module
from attn_tui.tui import bindings, textual_compat
from attn_tui.tui.keys import take_once
from attn_tui.tui.roles import FollowsCursor
from attn_tui.tui.screens import say_put_back
from attn_tui.tui.undo_stack import UndoStack
from attn_tui.tui.widgets.control_bar import ControlBar
from attn_tui.tui.widgets.control_field import Field
from attn_tui.tui.widgets.key_bar import KeyBar
from attn_tui.tui.widgets.title_bar import TitleBar
from attn_tui.tui.widgets.words_in_place import put_words

# a session's key for the value of a control whose numbers are shown while the bar's cannot be
SHOWN = "shown_"


class LabBody(VerticalScroll):
    """The lab's panes, below its controls. Tab stops here only while there is more of it to
    scroll to (↑↓ and PgUp/PgDn then scroll it), and the stop is tinted. While some of it is
    below the window, its lower edge says so: under a lesson's panel at 80×24 a sentence
    ended mid-way at the window's edge, and a one-cell scrollbar was the only sign."""

    DEFAULT_CSS = """
    LabBody.-more-below { border-bottom: hkey $foreground 30%;
                          border-subtitle-align: right; border-subtitle-color: $text-muted; }
    """
    # the key that scrolls the panes from where the keys are: the bar takes PgDn on a number
    # (Tab leaves it for the panes), a table inside the panes pages its own rows with it
    MORE_BELOW = {"screen": "↓ more below · PgDn", "bar": "↓ more below · Tab, then PgDn",
                  "other": "↓ more below"}

    def allow_focus(self) -> bool:
        return self.max_scroll_y > 0

    def on_mount(self) -> None:
        self.watch(self.screen, "focused", self._focus_moved)

    def _focus_moved(self, focused) -> None:
        active = self.screen.active_bindings.get("pagedown")
        node = active.node if active is not None else None
        where = ("bar" if isinstance(focused, ControlBar)
                 else "screen" if node is self.screen or node is self else "other")
        self.border_subtitle = self.MORE_BELOW[where]

    def on_resize(self) -> None:  # the window's size
        self._mark_more_below()

    def watch_virtual_size(self) -> None:  # the panes' own: a result shown, a box grown
        self.call_after_refresh(self._mark_more_below)

    def watch_scroll_y(self, old_value: float, new_value: float) -> None:
        super().watch_scroll_y(old_value, new_value)
        self._mark_more_below()

    def _mark_more_below(self) -> None:
        # lines hidden below as the panes would be without the edge, which takes a line: a
        # box's lower edge alone (the plots' legend, scrolled to by a lesson) is not worth
        # hiding under one. Counted so, drawing the edge cannot undo itself
        # (from the sizes, not max_scroll_y: during the resize the edge makes, that is stale)
        marked = self.has_class("-more-below")
        below = self.virtual_size.height - self.size.height - round(self.scroll_y)
        hidden = max(0, below) - marked
        self.set_class(hidden >= 2, "-more-below")


class LabScreen(Screen):
    BINDINGS = bindings.LAB
    HORIZONTAL_BREAKPOINTS = [(0, "-narrow"), (110, "-wide")]
    DEFAULT_CSS = """
    LabScreen #lab-message { height: auto; padding: 0 1; display: none; }
    LabScreen #lab-message.-shown { display: block; }
    LabScreen #lab-message.-invalid { color: $text-error; text-style: bold; }
    LabScreen #lab-body { height: 1fr; scrollbar-size-vertical: 1; }
    LabScreen #lab-body:focus { background-tint: $foreground 5%; }
    LabScreen .lab-text { height: auto; padding: 0 1; }
    LabScreen .lab-status { height: auto; padding: 0 1; color: $text-muted; }
    """
    FIELDS: ClassVar[tuple[Field, ...]] = ()
    shown_note: ClassVar[str] = "Shown: settings that meet the goal. u undoes it."
    state_words: ClassVar[str] = "settings"
    ENTER_ON_BAR: ClassVar[bool] = True  # False: the lab binds Enter itself
    keep_on_leaving: bool = True  # False: the learner let the lab go, Go to reopens it afresh

    settings: reactive[Any] = reactive(None, init=False, always_update=False)

    def __init__(self, backend: str = "numpy", dtype: str = "float64",
                 saved: dict[str, Any] | None = None, history: UndoStack | None = None,
                 **kwargs) -> None:
        super().__init__(**kwargs)
        textual_compat.start_at_breakpoints(self)
        self.fallback = ""  # why the lab computes on numpy when torch was asked for
        if backend == "torch" and (problem := torch_problem()) is not None:
            backend, dtype = "numpy", dtype if dtype in STANDARD_DTYPES else "float32"
            self.fallback = f"{problem}. numpy computes in {dtype} instead"
        self.backend, self.dtype = backend, dtype
        self.message = ""  # the text of the message line, for tests and lessons
        self.set_reactive(LabScreen.settings, self.default_settings())
        # as the lab was left, with the settings it left (`saved`): u still undoes what led there
        self.history: UndoStack[Any] = history if history is not None else UndoStack()
        self.saved = dict(saved or {})  # a session's values for the controls, taken on mount
        self.shown_settings: Any = None  # the settings of the numbers on the panes
        self.saved_refused: list[str] = []

    # ---- a session's copy of the controls
    def session_settings(self) -> dict[str, Any]:
        """The controls' values, as a session file keeps them; while they cannot be shown
        (h = 4 of D = 7), also those of the numbers shown, as ``shown_D``: reopened, the lab
        showed the defaults' numbers in their place."""
        now = {f.key: getattr(self.settings, f.key) for f in self.FIELDS}
        shown = self.shown_settings
        if shown is not None and self.standing_problem() is not None:
            now |= {SHOWN + f.key: getattr(shown, f.key) for f in self.FIELDS
                    if getattr(shown, f.key) != now[f.key]}
        return now

    def _computed(self) -> None:
        self.recompute()
        if self.standing_problem() is None:
            self.shown_settings = self.settings

    def take_saved(self) -> None:
        """Start from a session's values, each checked as if typed and taken in the bar's order
        through ``updated`` (a task or a preset brings its own values first); a refused one
        keeps what was there, and is listed in ``saved_refused``."""
        known = {f.key for f in self.FIELDS}
        self.saved_refused += [f"{k} is not one of this lab's controls" for k in self.saved
                               if k not in known and k.removeprefix(SHOWN) not in known]
        for field in self.FIELDS:
            if field.key not in self.saved:
                continue
            value, error = field.check(self.saved[field.key])
            if error:
                self.saved_refused.append(error)
            else:
                self.set_reactive(LabScreen.settings, self.updated(field.key, value))
        self.query_one(ControlBar).show(**asdict(self.settings))

    # ---- for subclasses
    def default_settings(self) -> Any:
        raise NotImplementedError

    def compose_body(self) -> ComposeResult:
        yield from ()

    def compose_top(self) -> ComposeResult:
        """Lines above the scrolling body, always in view (a run's progress)."""
        yield from ()

    def recompute(self) -> None:
        """Show the current settings: called once on mount and after every accepted change."""

    # ---- layout
    def compose(self) -> ComposeResult:
        yield TitleBar(icon="α")
        yield ControlBar(self.FIELDS, asdict(self.settings), enter_cycles=self.ENTER_ON_BAR,
                         id="controls")
        yield Static(id="lab-message")
        yield from self.compose_top()
        with LabBody(id="lab-body"):
            yield from self.compose_body()
        yield KeyBar()

    def lesson_panel_room(self, panel_rows: int) -> int | None:  # as a LessonHost
        return None  # the panel's own share: the panes here scroll on their own

    def on_resize(self, event: events.Resize) -> None:
        # what has the keys stays in sight at the new size, as on the workbench (in a lesson,
        # the step's marks do: its panel brings them back)
        if self.app.tutor.host is not self:
            self.call_after_refresh(self._focus_into_view)

    def _focus_into_view(self) -> None:
        focused = self.focused
        if focused is None or not focused.is_mounted:
            return
        if isinstance(focused, FollowsCursor):
            focused.follow_cursor()
        else:
            focused.scroll_visible(animate=False, immediate=True)

    def on_screen_resume(self, event: events.ScreenResume) -> None:
        textual_compat.styled_once_on_first_show(self, event)

    def on_unmount(self) -> None:
        # the settings as the learner left them, for Go to (the train lab keeps its run, and
        # a run's settings are its own); not a lesson's, whose steps set them, nor a lab the
        # learner let go (a session or lesson takes it)
        if self.app.tutor.host is not self and self.keep_on_leaving:
            left = self.app.left_labs.setdefault(lab_of_module(type(self).__module__), {})
            if not {"run", "record"} & left.keys():
                left["saved"] = self.session_settings()
                left["history"] = self.history
        self.app.tutor.host_gone(self)  # a lesson running here closes, and says so

    def on_mount(self) -> None:
        self.title = "attn-tui"
        self.sub_title = f"lab: {lab_of_module(type(self).__module__)}   (Esc: workbench)"
        # the lab opens at its top: a focus that scrolled would put the pane's title above a
        # focused widget (the train lab's maps: their step and pattern) out of sight
        self.set_focus(self.first_focus(), scroll_visible=False)
        if self.fallback:
            self.say(self.fallback, error=True)
        if self.saved:
            self.take_saved()
        self._computed()
        if self.saved and self.standing_problem() is not None:
            # saved as left, beyond what can be shown (h = 7 of D = 512): the numbers shown
            # when it was saved (its shown_ values) are shown as the last valid ones, else the
            # defaults', or the panes would open empty
            self.set_reactive(LabScreen.settings, self._shown_when_saved())
            self._computed()
            if self.standing_problem() is not None:  # shown_ values written by hand
                self.set_reactive(LabScreen.settings, self.default_settings())
                self._computed()
            # taken again beside those numbers: a head of the split they show stays picked
            self.saved_refused = []
            self.take_saved()
            self._computed()
        if self.saved_refused:  # after recompute; refuse() adds a problem that still stands
            self.refuse("From the session, not taken: " + "; ".join(self.saved_refused))

    def _shown_when_saved(self) -> Any:
        """The settings of the numbers shown when the session was saved: its shown_ values,
        and the bar's where none is kept (the same then), each checked as if typed."""
        settings = self.default_settings()
        for field in self.FIELDS:
            key = SHOWN + field.key if SHOWN + field.key in self.saved else field.key
            if key in self.saved:
                value, error = field.check(self.saved[key])
                if not error:
                    settings = replace(settings, **{field.key: value})
        return settings

    def first_focus(self):
        """What has the keys when the lab opens: the controls, unless a lab says otherwise."""
        return self.query_one(ControlBar)

    def watch_settings(self) -> None:
        self.query_one(ControlBar).show(**asdict(self.settings))
        self._computed()
        self.app.tutor.host_changed(self)  # a lesson's task is checked after every change

    # ---- changes
    def offer(self, key: str, value: Any) -> bool:
        """Take ``value`` for the control ``key`` if its field accepts it; else say why not."""
        bar = self.query_one(ControlBar)
        if (held := self.app.tutor.holds_back(self)) is not None:
            self.refuse(held.rstrip("."))
            self._held_said = self.message
            bar.show(**asdict(self.settings))
            return False
        value, error = bar.field_named(key).check(value)
        if error:
            self.refuse(error)
            bar.show(**asdict(self.settings))  # the bar goes back to the last valid value
            return False
        self.say("")
        with self.history.change(self._now):
            self.settings = self.updated(key, value)
        return True

    def _now(self) -> Any:
        return self.settings

    def action_set(self, key: str, value: Any) -> None:
        """Offer ``value`` for the control ``key``: the one door for actions and lessons."""
        self.offer(key, value)

    def action_toggle(self, key: str) -> None:
        self.offer(key, not getattr(self.settings, key))

    def refuse(self, reason: str) -> None:
        """Say why a value was not taken, and what still keeps the settings from being
        shown, if anything: a second refusal must not hide that the numbers are stale."""
        standing = self.standing_problem()
        self.say(f"{reason}." + (f" Still: {standing}" if standing else ""), error=True)
        self._refusal_said = self.message

    _refusal_said: str | None = None  # the last refusal, while it is the line shown
    _held_said: str | None = None  # "Answer first…", said while a question held the settings

    def lesson_pointed(self) -> None:
        """A lesson's step has pointed at its marks, as an answer or another step does: an
        "Answer first" that held only until then goes (it stayed above the answer's words)."""
        if (self._held_said is not None and self.message == self._held_said
                and self.app.tutor.holds_back(self) is None):
            self.say(self.standing_problem() or "", error=bool(self.standing_problem()))
        self._held_said = None

    @on(ControlBar.Moved)
    def _control_moved(self, event: ControlBar.Moved) -> None:
        # "scores × is already the smallest" stood under the next field picked as if of it
        if self._refusal_said is not None and self.message == self._refusal_said:
            standing = self.standing_problem()
            self.say(standing or "", error=bool(standing))
        self._refusal_said = None

    def standing_problem(self) -> str | None:
        """Why the current settings cannot be shown (the last valid ones are), or None."""
        return None

    def updated(self, key: str, value: Any) -> Any:
        """The settings with ``key`` set to an accepted ``value`` (a lab may change more)."""
        return replace(self.settings, **{key: value})

    def say(self, text: str, *, error: bool = False) -> None:
        """One line under the controls: a refusal (marked ✗, not only by colour) or a note."""
        self.message = text
        line = self.query_one("#lab-message", Static)
        put_words(line, Text(("✗ " if error else "") + text))
        line.set_class(bool(text), "-shown")
        line.set_class(error and bool(text), "-invalid")

    @on(ControlBar.Changed)
    def _control_changed(self, event: ControlBar.Changed) -> None:
        if not event.stale and take_once(event, event.bar) and not self.offer(
                event.key, event.value) and event.typed is not None:
            event.bar.reopen(event.key, event.typed)  # refused here: kept to mend

    def take_typing(self) -> str | None:
        """As the lab is left: a value being typed on the bar is taken as Enter takes it; a
        refused one goes, and why is returned."""
        found = self.query(ControlBar)  # none yet: popped before it was built
        if not found or found.first().editing is None:
            return None
        bar = found.first()
        _, refused = bar.current.parse(bar.editing)
        if refused is not None:
            bar.action_typed("drop")
            return refused
        bar.take_typed(keep_refused=False)
        self.settle_edits()
        return None

    def settle_edits(self) -> bool:
        """Take a value the bar has sent but this screen not yet received, before a key's
        binding run early (see key_order) reads the settings."""
        change = self.query_one(ControlBar).in_flight
        if change is not None and not change.stale and take_once(change, change.bar):
            self.offer(change.key, change.value)
        return True

    # ---- as a LessonHost (see attn_tui.tui.tutor.host): a lab's settings are never saved work
    def lesson_state(self) -> object:
        return self.settings

    def lesson_work(self) -> object:
        return self.settings

    def has_unsaved_work(self) -> bool:
        return False

    def lesson_owns_state(self, also: bool = False) -> None:
        pass

    def lesson_look_as(self, work: object) -> None:
        pass  # the settings are all there is

    def lesson_shows(self) -> tuple[object, str]:
        """What the lab shows for its current settings (None while computing or refused), and
        why there is nothing when there is not: what a lesson's task reads."""
        return None, "computing…"

    def lesson_live(self) -> object:
        from attn_tui.lessons.tasks import lab_live

        shown, waiting = self.lesson_shows()
        return lab_live(f"lab:{lab_of_module(type(self).__module__)}", self.settings, shown,
                        waiting if shown is None else "")

    def lesson_restore(self, state: object, edits: tuple = ()) -> None:
        with self.history.change(self._now):  # one change, however many controls it sets
            self.say("")
            self.settings = state
            self.query_one(ControlBar).show(**asdict(self.settings))
            for e in edits:  # as if typed: the lab's own rules (a model preset follows them)
                self.offer(e.target, e.value)

    def lesson_undo_stops_here(self, stops: bool = True) -> None:
        self.history.stop_here(stops)

    def lesson_replaced_work(self, work: object, by: str) -> None:
        pass

    @on(ControlBar.Kept)
    def _control_kept(self, event: ControlBar.Kept) -> None:
        # a valid value typed after a refused one: the refusal is over, a standing problem not
        standing = self.standing_problem()
        self.say(standing or "", error=bool(standing))

    @on(ControlBar.Rejected)
    def _control_rejected(self, event: ControlBar.Rejected) -> None:
        self.refuse(event.reason)

    def held(self) -> bool:
        """True, and said, while a lesson's open question keeps the settings as they are."""
        if (why := self.app.tutor.holds_back(self)) is None:
            return False
        self.refuse(why.rstrip("."))
        return True

    def action_reset(self) -> None:
        """R: the defaults, put back on the bar too. The settings may already be the defaults
        while the bar is not: a step read in the same burst as R moves the bar first, and its
        message would otherwise land after R and win."""
        if self.held():
            return
        self.say("")
        with self.history.change(self._now):
            self.settings = self.default_settings()
        self.query_one(ControlBar).show(**asdict(self.settings))

    def action_undo(self) -> None:
        # from the palette, or a key the bar does not read, while a value is typed: the
        # typing is the last change, as ctrl+z in the bar drops it
        if self._drop_typing() or self.held():
            return
        self.put_back(self.history.undo(self.settings), "undo")

    def action_redo(self) -> None:
        self._drop_typing()  # the value typed would otherwise stand over the one put back
        if self.held():
            return
        self.put_back(self.history.redo(self.settings), "redo")

    def _drop_typing(self) -> bool:
        bar = self.query_one(ControlBar)
        if bar.editing is None:
            return False
        bar.action_typed("cancel")
        self.say(self.standing_problem() or "", error=bool(self.standing_problem()))
        return True

    def put_back(self, settings: Any, what: str) -> None:
        """Settings from the history on the lab and its bar (the watcher recomputes them and
        has a lesson's task checked), or say there are none."""
        if settings is None:
            self.notify(f"Nothing to undo: the {self.state_words} are as the lesson step set "
                        "them up." if what == "undo" and self.history.at_start
                        else f"Nothing to {what}.", timeout=3)
            return
        self.say("")
        before = asdict(self.settings)
        self.settings = settings
        bar = self.query_one(ControlBar)
        bar.show(**asdict(self.settings))
        # which change it took back, in the bar's own words: "Undid: h 4 → 8"
        after = asdict(self.settings)
        changed = [f"{f.label} {f.text(before[f.key])} → {f.text(after[f.key])}"
                   for f in bar.fields if f.key in before and before[f.key] != after[f.key]]
        if changed:  # every one: R's defaults changed four, and the fourth went unsaid
            say_put_back(self.app, what == "undo", ", ".join(changed))

    def action_back(self) -> None:
        # two quick Escapes can both reach this screen before the first pop lands: only the
        # screen on top may pop, or the second would take the workbench with it
        if self.app.screen is self:
            self.app.pop_screen()

    def action_pick_control(self, key: str) -> None:
        """Put the cursor on the control ``key`` (a lesson step that names a control)."""
        bar = self.query_one(ControlBar)
        bar.field = next(i for i, f in enumerate(bar.fields) if f.key == key)
        bar.refresh()
        self.set_focus(bar)

    def action_focus_controls(self) -> None:
        self.set_focus(self.query_one(ControlBar))  # at once: the keys typed after c go there

    def action_page(self, direction: int) -> None:
        """PgDn / PgUp scroll the panes below the controls, from wherever the keys are."""
        body = self.query_one(LabBody)
        (body.scroll_page_down if direction > 0 else body.scroll_page_up)(animate=False)



def setter(key: str) -> Callable[[LabScreen, Any], None]:
    """An action that sets the control ``key``: ``action_set_dk = setter("d_k")``."""
    def action(self: LabScreen, value: Any) -> None:
        self.action_set(key, value)

    action.__doc__ = f"set('{key}', value)"
    return action


def toggler(key: str) -> Callable[[LabScreen], None]:
    """An action that flips the on/off control ``key``."""
    def action(self: LabScreen) -> None:
        self.action_toggle(key)

    action.__doc__ = f"toggle('{key}')"
    return action
