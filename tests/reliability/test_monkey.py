"""Thousands of random keys on every screen: no exception, and the numbers still add up after.

Seeded, so a failure replays. The keys are every binding the app has plus printable characters,
Enter, Escape, Tab and the arrows; quitting is left out so the storm runs to the end.
"""

from __future__ import annotations

import random

import numpy as np
import pytest
from textual import events

from attn_tui.compute import attend
from attn_tui.core.labs import LABS
from attn_tui.lessons import names
from attn_tui.tui.app import make_app
from attn_tui.tui.help_keys import sections
from attn_tui.tui.textual_compat import app_exception, character_to_key, unicode_name_of_key

pytestmark = pytest.mark.slow  # seconds a test: make test starts them first (conftest)

NAMED = ["enter", "escape", "tab", "shift+tab", "up", "down", "left", "right", "pageup",
         "pagedown", "home", "end", "backspace", "delete", "ctrl+u", "ctrl+z", "ctrl+y",
         "ctrl+s", "ctrl+o", "ctrl+p", "f1", "space"]
PRINTABLE = list("0123456789.-+/e abcdfghijklmnoprstuvwxyzABDRUX[]<>{}*=?½−")
NEVER = {"q", "ctrl+q", "ctrl+c"}


def key_pool() -> list[str]:
    """Every key the storm draws from, as key names: the named keys, printable characters and
    every one-character key the keyboard reference lists, quitting left out."""
    bound = set()
    for _, entries in sections():
        for keys, _ in entries:
            bound.update(k for k in keys.split() if len(k) == 1)
    pool = sorted(set(NAMED) | set(PRINTABLE) | bound - NEVER)
    names_for = {"?": "question_mark", "[": "left_square_bracket", "]": "right_square_bracket",
                 "<": "less_than_sign", ">": "greater_than_sign", " ": "space", "+": "plus",
                 "-": "minus", "=": "equals_sign", "*": "asterisk", "/": "slash",
                 "{": "left_curly_bracket", "}": "right_curly_bracket", ".": "full_stop"}
    return [names_for.get(k, k) for k in pool]


def keys_to_press(rng: random.Random, n: int) -> list[str]:
    pool = key_pool()
    return [rng.choice(pool) for _ in range(n)]


CHARACTERS = {"enter": "\r", "tab": "\t", "shift+tab": None, "space": " ", "escape": "\x1b",
              "backspace": "\x7f"}


def key_event(key: str) -> events.Key:
    """The event a terminal's key press becomes (what Pilot.press sends, without its waits)."""
    if len(key) == 1:
        return events.Key(character_to_key(key), key)
    if key in CHARACTERS:
        return events.Key(key, CHARACTERS[key])
    char = unicode_name_of_key(key)
    return events.Key(key, char if len(char or "") == 1 else None)


async def storm(app, seed: int, n: int, monkeypatch, tmp_path) -> None:
    monkeypatch.chdir(tmp_path)  # a stray ctrl+s / export writes here, not into the checkout
    rng = random.Random(seed)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        for i, key in enumerate(keys_to_press(rng, n)):
            # keys arrive in bursts of up to 8, as from a fast typist or a paste
            app.post_message(key_event(key))
            if i % 8 == 7:
                await pilot.pause()
            if i % 50 == 0:
                size = rng.choice([(80, 24), (120, 40), (60, 20), (100, 30)])
                await pilot.resize_terminal(*size)
        await app.workers.wait_for_complete()
        await pilot.pause()
        assert app.is_running and app_exception(app) is None
        bench = app.workbench()
        assert bench is not None
        ws = bench.workspace
        want = attend(ws.q, ws.k, ws.v, mask=ws.mask, scale=ws.scale, backend=ws.backend,
                      dtype=ws.dtype)
        np.testing.assert_allclose(bench.steps.weights, want.weights)
        np.testing.assert_allclose(bench.steps.output, want.output)
        # and it still answers keys: Escape back out of whatever is open, then ask for help
        from attn_tui.tui.screens.help_screen import HelpScreen
        from attn_tui.tui.screens.workbench_screen import WorkbenchScreen
        from attn_tui.tui.widgets.control_bar import ControlBar
        from attn_tui.tui.widgets.matrix_editor import MatrixEditor

        for _ in range(8):  # a refused value stays open in a cell or the bar, to be mended
            if isinstance(app.screen, WorkbenchScreen) and all(
                    e.editing is None for e in [*bench.query(MatrixEditor),
                                                *bench.query(ControlBar)]):
                break
            await pilot.press("escape")
            await pilot.pause()
        assert app.screen is bench
        await pilot.press("question_mark")
        await pilot.pause()
        assert isinstance(app.screen, HelpScreen)


@pytest.mark.parametrize(("preset", "seed"), [("one", 1), ("mask", 2), ("random", 3)])
async def test_monkey_on_the_workbench(preset, seed, monkeypatch, tmp_path):
    await storm(make_app(preset=preset, confirm_quit=False), seed=seed, n=500,
                monkeypatch=monkeypatch, tmp_path=tmp_path)


@pytest.mark.parametrize("lesson", names())
async def test_monkey_in_every_lesson(lesson, monkeypatch, tmp_path):
    await storm(make_app(lesson=lesson, confirm_quit=False), seed=7, n=250,
                monkeypatch=monkeypatch, tmp_path=tmp_path)


@pytest.mark.parametrize("lab", list(LABS))
async def test_monkey_in_every_lab(lab, monkeypatch, tmp_path):
    await storm(make_app(lab=lab, confirm_quit=False), seed=11, n=250,
                monkeypatch=monkeypatch, tmp_path=tmp_path)


@pytest.mark.parametrize("burst", [["g", "enter", "enter"], ["p", "enter", "enter"],
                                   ["question_mark", "escape", "escape"],
                                   ["ctrl+o", "escape", "escape"]])
async def test_a_double_key_closes_one_dialog_not_the_workbench(burst):
    app = make_app(confirm_quit=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        for key in burst:  # all three arrive before the dialog has closed
            app.post_message(key_event(key))
        await pilot.pause()
        await pilot.pause()
        # the dialog is gone, the workbench is the only screen left and the app goes on
        assert app.screen_stack == [app.workbench()]
        assert app.is_running
        assert app_exception(app) is None


async def test_two_quick_escapes_in_a_lab_leave_the_workbench_standing():
    app = make_app(lab="model", confirm_quit=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        app.post_message(key_event("escape"))
        app.post_message(key_event("escape"))
        await pilot.pause()
        assert app.screen is app.workbench()


@pytest.mark.parametrize("key", key_pool())  # one app each: the suite's workers share them
async def test_every_bound_key_typed_with_q_leaves_a_clean_exit(key):
    """q and the next key in one read: the app is closing when the second key is handled, and
    whatever that key would open must not break the exit (e once crashed it)."""
    app = make_app(confirm_quit=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        for k in ("q", key):
            app.post_message(key_event(k))
        await pilot.pause()
        await pilot.pause()
    assert app_exception(app) is None, key
    assert app.return_code == 0, key
