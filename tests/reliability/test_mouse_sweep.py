"""The mouse over every widget of every screen: no exception, no exit, no edit.

On the workbench (several examples), each lesson at two of its steps, each lab and each
dialog, at 80×24 and at 120×40, every widget gets a click, a double-click, a triple-click, a
drag across the screen and the wheel up and down (half of them at each size), at seeded points
inside it: now and then on its last row or column, where a scrollbar sits, now and then with
shift or ctrl held or with the right button.
The events are the ones a terminal's mouse reports become (what the driver posts to the app),
so they go through the app's own event handling as a real click does.

A click may move a cursor, pick the query the step table explains (or the heads lab's head),
focus a pane, open a cell (a double click: with its own value, not yet changed), select text or
scroll; it must not change a value, the mask, the scaling, the dimensions, a lab's settings or a
lesson's step, and it must not close the screen it lands on; after it, the keys still work.
Widgets whose click presses a key or makes a choice, words whose click runs a key's action (a
lesson panel's edge and choices, a bar's fields and arrows, a dialog's "Enter accepts") and the
dimmed screen beside a dialog (a click there closes it) get everything but the click here;
the tests at the end, and tests/tui/test_mouse.py, click those.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import replace

import pytest
from screen_text import screen_lines
from textual import events
from textual.command import CommandList, CommandPalette
from textual.geometry import Region
from textual.screen import ModalScreen
from textual.widget import Widget
from textual.widgets import Button, OptionList

from attn_tui.core.labs import LABS
from attn_tui.lessons import load, names
from attn_tui.tui.app import make_app
from attn_tui.tui.keys import takes_text
from attn_tui.tui.screens.dialogs.modal import AttnModal, ChoiceList
from attn_tui.tui.screens.labs.lab_screen import LabScreen
from attn_tui.tui.screens.too_small_screen import TooSmallScreen
from attn_tui.tui.tutor.panel import LessonPanel
from attn_tui.tui.widgets.control_bar import ControlBar
from attn_tui.tui.widgets.key_bar import KeyBar
from attn_tui.tui.widgets.matrix_editor import MatrixEditor
from attn_tui.tui.widgets.title_bar import TitleBar

pytestmark = pytest.mark.slow  # seconds a test: make test starts them first (conftest)

SIZES = ((80, 24), (120, 40))
# a click here is a key press or a choice (the title bar's icon opens the palette), and a
# press and release anywhere on one of them is a click
ACTING = (KeyBar, TitleBar, Button, OptionList)
GESTURES = ("click", "double", "triple", "drag", "wheel-up", "wheel-down")


def _mouse(cls: type[events.MouseEvent], x: int, y: int, button: int = 0,
           shift: bool = False, ctrl: bool = False) -> events.MouseEvent:
    """A mouse event as the terminal driver builds it from an SGR report."""
    return cls(None, x, y, 0, 0, button, shift, False, ctrl, screen_x=x, screen_y=y)


def _point(rng: random.Random, widget: Widget, width: int, height: int) -> tuple[int, int]:
    r = widget.region.intersection(Region(0, 0, width, height))
    x = r.x + rng.randrange(r.width)
    y = r.y + rng.randrange(r.height)
    edge = rng.random()
    if edge < 0.15:  # the vertical scrollbar, when there is one
        x = r.right - 1
    elif edge < 0.25:  # the horizontal one
        y = r.bottom - 1
    return x, y


def gesture(kind: str, at: tuple[int, int], to: tuple[int, int],
            rng: random.Random) -> list[events.MouseEvent]:
    """The events one gesture sends: a click is a press and a release where it was pressed."""
    x, y = at
    shift, ctrl = rng.random() < 0.15, rng.random() < 0.1
    if kind in ("click", "double", "triple"):
        button = 3 if rng.random() < 0.1 else 1  # now and then the right button
        times = {"click": 1, "double": 2, "triple": 3}[kind]
        out = [_mouse(events.MouseMove, x, y)]
        for _ in range(times):
            out += [_mouse(events.MouseDown, x, y, button, shift, ctrl),
                    _mouse(events.MouseUp, x, y, button, shift, ctrl)]
        return out
    if kind == "drag":
        out = [_mouse(events.MouseMove, x, y), _mouse(events.MouseDown, x, y, 1, shift, ctrl)]
        for step in range(1, 5):
            out.append(_mouse(events.MouseMove, x + (to[0] - x) * step // 4,
                              y + (to[1] - y) * step // 4, 1, shift, ctrl))
        return [*out, _mouse(events.MouseUp, *to, 1, shift, ctrl)]
    if rng.random() < 0.15:  # a sideways wheel, or shift with the wheel
        cls = events.MouseScrollLeft if kind == "wheel-up" else events.MouseScrollRight
    else:
        cls = events.MouseScrollUp if kind == "wheel-up" else events.MouseScrollDown
    return [_mouse(events.MouseMove, x, y)] + [_mouse(cls, x, y, 0, shift, ctrl)] * 3


def workspace_state(app) -> tuple:
    """What no click may change: the workbench's workspace (all but the query it explains),
    the values being typed, each lab's settings, the lesson's step and the screens open."""
    bench = app.workbench()
    ws = replace(bench.workspace, selected=0) if bench is not None else None
    # a cell opened by a double click holds its own value: only typing changes that
    typing = tuple(e.editing for e in bench.query(MatrixEditor) if e.editing is not None
                   and e.buffer.text != repr(e.grid.values[e.editing[0]][e.editing[1]])
                   ) if bench is not None else ()
    # the heads lab's table picks its head as ↑↓ do, as Q's picks the query
    labs = tuple(replace(s.settings, head=0) if hasattr(s.settings, "head") else s.settings
                 for s in app.screen_stack if isinstance(s, LabScreen))
    lesson = tuple(p.border_title for s in app.screen_stack for p in s.query(LessonPanel))
    screens = tuple(type(s).__name__ for s in app.screen_stack)
    return ws, typing, labs, lesson, screens


def _acting(screen, at: tuple[int, int]) -> Widget | None:
    """The widget at ``at`` whose click presses a key, chooses or closes, if there is one."""
    widget, _ = screen.get_widget_at(*at)
    if isinstance(widget, CommandPalette):  # a click on its background closes it
        return widget
    if widget is screen and isinstance(screen, AttnModal) and screen.CLOSES_ON_CLICK_BESIDE:
        return widget  # beside a dialog: closes it
    if screen.get_style_at(*at).meta.get("@click"):  # words that run a key's action
        return widget
    return next((w for w in widget.ancestors_with_self if isinstance(w, ACTING)), None)


def _same_acting(screen, at: tuple[int, int], to: tuple[int, int]) -> bool:
    """Pressed and released over one widget, a drag is a click where it is released: one
    that acts if that point acts."""
    down, _ = screen.get_widget_at(*at)
    up, _ = screen.get_widget_at(*to)
    return down is up and _acting(screen, to) is not None


def _on_screen(widget: Widget, width: int, height: int) -> bool:
    if not widget.display or not widget.visible:
        return False
    r = widget.region.intersection(Region(0, 0, width, height))
    return r.width > 0 and r.height > 0


async def sweep(pilot, seed: int, state_of: Callable[[object], tuple] = workspace_state,
                kinds: tuple[str, ...] = GESTURES) -> int:
    """The gestures ``kinds`` over every widget of the screen on top; returns how many were
    made."""
    app = pilot.app
    rng = random.Random(seed)
    screen = app.screen
    width, height = app.size
    before = state_of(app)
    made = 0
    widgets = [screen, *screen.query("*")]
    for widget in widgets:
        if not widget.is_mounted or not _on_screen(widget, width, height):
            continue
        done = []
        for kind in kinds:
            if not _on_screen(widget, width, height):  # a wheel can scroll it away
                break
            at = _point(rng, widget, width, height)
            if kind in ("click", "double", "triple") and _acting(screen, at) is not None:
                continue  # the widget is under one that acts on a click here
            to = (rng.randrange(width), rng.randrange(height))
            if kind == "drag" and _same_acting(screen, at, to):
                continue  # pressed and released on one such widget, a drag is a click
            for event in gesture(kind, at, to, rng):
                app.post_message(event)
            done.append(f"{kind} at {at}" + (f" to {to}" if kind == "drag" else ""))
        await pilot.pause()
        made += len(done)
        what = f"seed {seed}, {width}×{height}, {widget!r}: {', '.join(done)}"
        assert app._exception is None, f"{what}: {app._exception!r}"
        assert app.is_running and app.return_code is None, what
        assert app.screen is screen, f"{what}: the screen changed to {app.screen!r}"
        assert state_of(app) == before, what
    return made


async def sweep_sizes(pilot, seed: int) -> None:
    """Half the gestures at each size: every widget gets each of them once, at one size or the
    other (which half goes where is seeded)."""
    kinds = list(GESTURES)
    random.Random(seed).shuffle(kinds)
    for i, size in enumerate(SIZES):
        if pilot.app.size != size:
            await pilot.resize_terminal(*size)
            await settle(pilot)
        assert await sweep(pilot, seed * 10 + i, kinds=tuple(kinds[i::2])) > 0


async def settle(pilot) -> None:
    await pilot.pause()
    await pilot.app.workers.wait_for_complete()
    await pilot.pause()


async def keys_still_work(pilot, key: str) -> None:
    """After the mouse, a key still does what it does: ``key`` changes what the app shows.
    Where a click left a text box with the keys (the model screen's sentence: once in a full
    run, real-heads' step 4), Escape first leaves the box, as it does for anyone typing."""
    if (key == "escape" and takes_text(pilot.app.focused)
            and not isinstance(pilot.app.screen, ModalScreen)):  # a dialog's: Escape closes it
        box = pilot.app.focused
        await pilot.press(key)
        await settle(pilot)
        assert pilot.app.focused is not box and not takes_text(pilot.app.focused), box
    before = workspace_state(pilot.app)
    await pilot.press(key)
    await settle(pilot)
    assert workspace_state(pilot.app) != before, key


@pytest.fixture(autouse=True)
def _in_tmp(monkeypatch, tmp_path):
    monkeypatch.chdir(tmp_path)  # nothing a stray event writes lands in the checkout


@pytest.mark.parametrize(("preset", "seed"), [("one", 1), ("mask", 2), ("select", 3),
                                              ("lecture-head", 4)])
async def test_the_mouse_over_the_workbench(preset, seed):
    app = make_app(preset=preset)
    async with app.run_test(size=SIZES[0]) as pilot:
        await settle(pilot)
        await sweep_sizes(pilot, seed)
        await keys_still_work(pilot, "m")


# how each dialog is opened from the workbench; q asks only when something is unsaved
DIALOGS = {"help": ["question_mark"], "go to": ["g"], "save": ["ctrl+s"], "open": ["ctrl+o"],
           "export": ["e"], "preset": ["p"], "palette": ["ctrl+p"],
           "confirm quit": ["7", "enter", "q"]}


@pytest.mark.parametrize("dialog", list(DIALOGS))
async def test_the_mouse_over_every_dialog(dialog):
    app = make_app(preset="mask")
    async with app.run_test(size=SIZES[0]) as pilot:
        await settle(pilot)
        await pilot.press(*DIALOGS[dialog])
        await settle(pilot)
        assert app.screen is not app.workbench()
        await sweep_sizes(pilot, seed=20 + list(DIALOGS).index(dialog))
        await keys_still_work(pilot, "escape")


def _steps_to_visit(name: str) -> tuple[int, int]:
    n = len(load(name).steps)
    return 1, max(2, (n + 1) // 2)


@pytest.mark.parametrize("lesson", names())
async def test_the_mouse_in_every_lesson(lesson):
    if lesson == "nanogpt":
        pytest.importorskip("torch")
    app = make_app(lesson=lesson)
    app.animation_level = "none"
    async with app.run_test(size=SIZES[0]) as pilot:
        await settle(pilot)
        at = 1
        for step in _steps_to_visit(lesson):
            while at < step:
                await pilot.press("n")
                await settle(pilot)
                at += 1
            await sweep_sizes(pilot, seed=40 + names().index(lesson) * 3 + step)
        await keys_still_work(pilot, "escape")


@pytest.mark.parametrize("lab", list(LABS))
async def test_the_mouse_in_every_lab(lab):
    app = make_app(lab=lab)
    async with app.run_test(size=SIZES[0]) as pilot:
        await settle(pilot)
        assert type(app.screen).__name__ == LABS[lab].screen_class  # the lab itself is open
        await sweep_sizes(pilot, seed=60 + list(LABS).index(lab))
        await keys_still_work(pilot, "escape")


async def test_the_mouse_over_the_too_small_notice():
    app = make_app(preset="mask")
    async with app.run_test(size=(30, 8)) as pilot:
        await settle(pilot)
        assert isinstance(app.screen, TooSmallScreen)
        assert await sweep(pilot, seed=70) > 0
        await pilot.resize_terminal(*SIZES[0])
        await settle(pilot)
        assert app.screen is app.workbench()


def _typed_in_a_cell(app) -> tuple:
    """With 7 typed into Q's first cell: the 7, still typed or taken, and all else."""
    bench = app.workbench()
    editor = bench.query_one("#editor-q", MatrixEditor)
    ws = bench.workspace
    typed = editor.buffer.text if editor.editing == (0, 0) else None
    value = ws.q[0][0] if typed is None else float(typed)
    return value, replace(ws, selected=0, q=((0.0, *ws.q[0][1:]), *ws.q[1:]))


def _typed_in_a_bar(key: str) -> Callable[[object], tuple]:
    """The value typed for ``key`` in the control bar on top, still typed or taken, and the
    bar's other values."""
    def state(app) -> tuple:
        bar = app.screen.query_one(ControlBar)
        value = bar.values[key] if bar.editing is None else int(bar.editing)
        others = {k: v for k, v in bar.values.items() if k != key}
        return value, others, workspace_state(app)[4]
    return state


# (how the app starts, the keys that type a value, what must hold after every gesture)
TYPING = {
    "a cell": ({"preset": "mask"}, ["7"], _typed_in_a_cell),
    "the dimensions bar": ({"preset": "mask"}, ["D", "6"], _typed_in_a_bar("T")),
    "a lab's controls": ({"lab": "scaling"}, ["right", "5"], _typed_in_a_bar("keys")),
}


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
@pytest.mark.parametrize("where", list(TYPING))
async def test_the_mouse_while_a_value_is_typed_keeps_it(where, size):
    start, keys, state_of = TYPING[where]
    app = make_app(**start)
    async with app.run_test(size=size) as pilot:
        await settle(pilot)
        await pilot.press(*keys)
        await settle(pilot)
        assert str(state_of(app)[0]) in (keys[-1], f"{keys[-1]}.0")
        assert await sweep(pilot, seed=80 + size[0] + len(where), state_of=state_of) > 0


async def click_on(pilot, widget: Widget, text: str | None, times: int) -> None:
    """``times`` quick clicks on ``text`` where it shows inside ``widget`` (its middle if None)."""
    r = widget.region
    at = (r.x + r.width // 2, r.y + r.height // 2)
    if text is not None:
        lines = screen_lines(pilot.app)
        at = next((line.index(text, r.x), y) for y, line in enumerate(lines)
                  if r.y <= y < r.bottom and text in line[r.x:r.right])
    for _ in range(times):
        for cls in (events.MouseDown, events.MouseUp):
            pilot.app.post_message(_mouse(cls, *at, 1))
    await settle(pilot)
    await settle(pilot)


def outcome(app) -> tuple:
    if not app.is_running:
        return ("exited", app.return_code)
    bench = app.workbench()
    lesson = [p.border_title.split(" · ")[1] for s in app.screen_stack for p in s.query(LessonPanel)]
    return (tuple(type(s).__name__ for s in app.screen_stack), bench.workspace.preset,
            len(bench._undo), tuple(lesson))


# (keys that open the dialog, the widget and the text clicked, what one click leads to)
CHOICES = {
    "preset": (["p"], ChoiceList, "select ", (("WorkbenchScreen",), "select", 1, ())),
    "go to a lab": (["g"], ChoiceList, "lab scaling",
                    (("WorkbenchScreen", "ScalingLabScreen"), "mask", 0, ())),
    "go to a lesson": (["g"], ChoiceList, "lesson mask",
                       (("WorkbenchScreen",), "mask", 1, ("Step 1 of 5",))),
    "go to the workbench": (["g"], ChoiceList, "workbench ", (("WorkbenchScreen",), "mask", 0, ())),
    "palette": (["ctrl+p", *"help"], CommandList, "Help: every key",
                (("WorkbenchScreen", "HelpScreen"), "mask", 0, ())),
    "cancel quitting": (["7", "enter", "q"], "#quit-cancel", None,
                        (("WorkbenchScreen",), "mask", 1, ())),
    "quit anyway": (["7", "enter", "q"], "#quit-anyway", None, ("exited", 0)),
    "save and quit": (["7", "enter", "q"], "#quit-save", None,  # it asks where, first
                      (("WorkbenchScreen", "FileModal"), "mask", 1, ())),
}


@pytest.mark.parametrize("times", [1, 2, 3], ids=["click", "double", "triple"])
@pytest.mark.parametrize("choice", list(CHOICES))
async def test_clicking_a_choice_once_twice_or_thrice_chooses_it_once(choice, times):
    keys, where, text, want = CHOICES[choice]
    app = make_app(preset="mask")
    async with app.run_test(size=SIZES[0]) as pilot:
        await settle(pilot)
        await pilot.press(*keys)
        await settle(pilot)
        await click_on(pilot, app.screen.query(where).first(), text, times)
        assert app._exception is None
        assert outcome(app) == want


@pytest.mark.parametrize("key", ["e", "q"], ids=["save the run", "quit with a run unsaved"])
async def test_the_mouse_over_the_train_labs_run_dialogs(key):
    pytest.importorskip("torch")
    app = make_app(lab="train")
    async with app.run_test(size=SIZES[0]) as pilot:
        await settle(pilot)
        for action in ("set_task('previous')", "set_width(16)", "set_steps(10)", "start()"):
            await app.run_action(f"screen.{action}")
            await settle(pilot)
        assert app.screen.state == "done"
        await pilot.press(key)
        await settle(pilot)
        assert type(app.screen).__name__ in ("FileModal", "ConfirmQuitModal")
        await sweep_sizes(pilot, seed=90 + ["e", "q"].index(key))
        await keys_still_work(pilot, "escape")
