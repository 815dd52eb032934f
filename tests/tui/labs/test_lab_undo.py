"""u and U in the labs: each change of the settings (a control, R) is one step back and forth,
shown on the bar and in what the lab draws; u while a value is typed is a letter of it, not an
undo; in the train lab u pauses a run of the settings it takes away."""

from __future__ import annotations

from dataclasses import replace

import pytest
from lab_pilot import lab_app, run_action, settle
from pilot_wait import until
from screen_text import screen_text

from attn_tui.tui.textual_compat import notifications
from attn_tui.tui.undo_stack import UndoStack


def test_the_stack_keeps_one_entry_per_change_and_merges_a_run_of_one_kind():
    box = {"v": 0}
    stack: UndoStack[int] = UndoStack(limit=3)
    now = lambda: box["v"]  # noqa: E731
    for v in (1, 2):
        with stack.change(now):
            box["v"] = v
    with stack.change(now):  # nothing changed: no entry
        pass
    with stack.change(now):  # one change made of two, nested
        box["v"] = 3
        with stack.change(now):
            box["v"] = 4
    assert len(stack) == 3
    for v in (5, 6, 7):
        with stack.change(now, merge="typing"):
            box["v"] = v
    assert len(stack) == 3  # the limit; the run of typing was one entry
    assert stack.undo(7) == 4  # the typing run, all of it
    assert stack.undo(4) == 2 and stack.redo(2) == 4 and stack.redo(4) == 7
    assert stack.redo(7) is None
    with stack.change(now, merge="typing"):  # after an undo or redo, typing starts anew
        box["v"] = 8
    assert stack.undo(8) == 7 and stack.redo(7) == 8


# (lab, what the bar says before, keys that change one setting, what it says after)
CHANGES = [
    ("scaling", "temp ‹1.00›", ["right"] * 5 + ["2", "enter"], "temp ‹2.00›"),
    ("model", "preset ‹chapter›", ["p"], "preset ‹transformer-base›"),
    ("precision", "scores × ‹1›", ["plus"], "scores × ‹2›"),
    ("heads", "head ‹1›", ["right", "right", "up"], "head ‹2›"),
]


@pytest.mark.parametrize(("lab", "before", "keys", "after"), CHANGES, ids=[c[0] for c in CHANGES])
async def test_u_undoes_a_change_and_U_redoes_it(lab, before, keys, after):
    async with lab_app(lab).run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        screen = pilot.app.screen
        start = screen.settings

        def drawn_from_settings() -> list[str]:  # not the hint, which names the field picked
            return [line for line in screen_text(pilot.app).splitlines() if "←→" not in line]

        drawn = drawn_from_settings()
        assert before in "\n".join(drawn)
        await pilot.press(*keys)
        await settle(pilot)
        changed = screen.settings
        assert changed != start and after in screen_text(pilot.app)
        await pilot.press("u")
        await settle(pilot)
        assert screen.settings == start
        assert drawn_from_settings() == drawn  # the bar and everything drawn from it
        await pilot.press("U")
        await settle(pilot)
        assert screen.settings == changed and after in screen_text(pilot.app)
        await pilot.press("ctrl+z")  # the other key for it
        await settle(pilot)
        assert screen.settings == start


async def test_R_is_one_change_u_undoes_and_an_empty_history_says_so():
    async with lab_app("scaling").run_test(size=(80, 24), notifications=True) as pilot:
        await settle(pilot)
        screen = pilot.app.screen
        await pilot.press("u")
        await settle(pilot)
        assert "Nothing to undo." in [str(n.message) for n in notifications(pilot.app)]
        await run_action(pilot, "set_keys(16)")
        await run_action(pilot, "set_temperature(4.0)")
        mine = screen.settings
        await pilot.press("R")
        await settle(pilot)
        assert screen.settings == type(mine)()
        await pilot.press("u")
        await settle(pilot)
        assert screen.settings == mine and "keys ‹16›" in screen_text(pilot.app)
        await pilot.press("u")
        await settle(pilot)
        assert screen.settings == replace(mine, temperature=1.0)


async def test_u_names_every_setting_it_puts_back():
    # after R took back four changes, u said "Undid: keys 2 → 16, trials …" with the
    # fourth cut off by "…"
    async with lab_app("scaling").run_test(size=(80, 24), notifications=True) as pilot:
        await settle(pilot)
        for action in ("set_keys(16)", "set_trials(50)", "set_seed(3)", "set_temperature(4.0)"):
            await run_action(pilot, action)
        await pilot.press("R")
        await settle(pilot)
        await pilot.press("u")
        await settle(pilot)
        [said] = [str(n.message) for n in notifications(pilot.app) if "Undid" in str(n.message)]
        assert said.startswith("Undid: ") and said.endswith(".") and "…" not in said
        for part in ("keys 8 → 16", "trials 200 → 50", "seed 0 → 3", "temp 1.00 → 4.00"):
            assert part in said, said


async def test_u_typed_into_a_control_is_text_and_7_enter_u_undoes_the_7():
    async with lab_app("scaling").run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        screen = pilot.app.screen
        await pilot.press("right", "7", "u")  # keys: a u in the typed value, not an undo
        await pilot.pause()
        assert screen.query_one("#controls").editing == "7u"
        await pilot.press("backspace", "enter", "u")
        await settle(pilot)
        assert screen.settings.keys == 8  # the 7 was stored, then undone




async def test_in_the_train_lab_u_pauses_the_run_of_the_settings_it_takes_away():
    pytest.importorskip("torch")
    async with lab_app("train").run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        screen = pilot.app.screen
        for action in ("set_task('previous')", "set_width(16)"):
            await run_action(pilot, action)
        before = screen.settings
        await run_action(pilot, "set_steps(3000)")  # long enough to be running at the u
        trained = screen.settings
        await pilot.press("enter")
        await until(pilot, lambda: screen.state == "running", "the run to start")
        await pilot.press("u")
        await until(pilot, lambda: screen.state != "running", "the run to pause")
        assert screen.state == "paused" and screen.step < 3000
        assert screen.settings == before and "steps ‹200›" in screen_text(pilot.app)
        # the run is in no file: Enter asks first, and the notice says so as the status
        # line does (it said "Enter trains these" beside "Enter twice trains them")
        assert "paused; Enter twice trains these (e saves the paused run)." in screen.message
        assert "Enter twice trains them" in " ".join(screen_text(pilot.app).split())
        live = screen.lesson_live()
        assert live.figures is None and live.waiting.startswith("not trained yet")
        await pilot.press("U")  # the run's settings again: Enter goes on from where it was
        await settle(pilot)
        assert screen.settings == trained and screen.lesson_live().waiting == (
            "paused (Enter goes on)")
        paused_at = screen.step
        await pilot.press("enter")
        await until(pilot, lambda: screen.step > paused_at or screen.state == "done",
                     "the run to go on")
        assert screen.run.config == trained
        await pilot.press("escape")


async def _running(pilot, steps: int):
    """The train lab running a small previous-token run of ``steps`` steps, started by Enter."""
    screen = pilot.app.screen
    for action in ("set_task('previous')", "set_width(16)", f"set_steps({steps})"):
        await run_action(pilot, action)
    await pilot.press("enter")
    await until(pilot, lambda: screen.state == "running", "the run to start")
    return screen


async def test_in_the_train_lab_e_pressed_as_u_pauses_keeps_the_pause_said():
    # e waits for the pause too, and its wait took the place of the notice's
    pytest.importorskip("torch")
    from attn_tui.tui.screens.dialogs.file_modal import FileModal

    async with lab_app("train").run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        screen = await _running(pilot, 3000)
        # u takes the steps back (the run of them pauses), and e before the pause has landed
        screen.action_undo()
        screen.action_save_run()
        await until(pilot, lambda: isinstance(pilot.app.screen, FileModal), "e's dialog")
        assert screen.state == "paused"
        assert "The run of the settings taken away is paused" in screen.message
        await pilot.press("escape")


async def test_in_the_train_lab_u_leaves_a_run_of_other_settings_going():
    pytest.importorskip("torch")
    async with lab_app("train").run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        screen = await _running(pilot, 100000)
        # while it runs (a settle would wait for the run): not what it trains
        await pilot.app.run_action("screen.set_seed(5)")
        await pilot.pause()
        assert screen.settings.seed == 5
        await pilot.press("u")
        await pilot.pause()
        assert screen.settings.seed == 0 and screen.state == "running"
        await pilot.press("escape")


@pytest.mark.parametrize("lab", ["scaling", "heads"])
async def test_a_lab_left_with_escape_and_opened_again_still_undoes_what_led_there(lab):
    # its settings came back as left, but u said "Nothing to undo."
    async with lab_app(lab).run_test(size=(80, 24), notifications=True) as pilot:
        await settle(pilot)
        first = pilot.app.screen.settings
        await run_action(pilot, "set_seed(3)")
        left = pilot.app.screen.settings
        await pilot.press("escape")
        await settle(pilot)
        pilot.app.reopen_lab(lab)
        await settle(pilot)
        assert pilot.app.screen.settings == left
        await pilot.press("u")
        await settle(pilot)
        assert pilot.app.screen.settings == first
        assert "Nothing to undo." not in [str(n.message) for n in notifications(pilot.app)]
