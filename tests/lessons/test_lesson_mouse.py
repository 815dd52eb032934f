"""A lesson walked with the mouse alone: the panel's edge and a question's choices answer a
click as their keys do (the keys were the only way: a mouse user could not move a step)."""

from __future__ import annotations

from lesson_pilot import lesson_app, panel, settle, shown
from screen_text import where


async def click_words(pilot, words: str) -> None:
    """Click the first character of ``words`` where the screen shows them (the lowest such
    line: the panel's edge is below the panes)."""
    await pilot.click(offset=where(pilot.app, words, lowest=True))
    await settle(pilot)


async def test_next_back_a_choice_and_leave_are_clicks_too():
    async with lesson_app("one").run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await click_words(pilot, "n next")
        await click_words(pilot, "n next")
        assert "Step 3 of" in panel(pilot.app).border_title
        assert "a, b or c answers" in panel(pilot.app).edge_text
        await click_words(pilot, "b) ")
        text = " ".join(panel(pilot.app).plain.split())
        assert "✓ Right. b) " in text or "you chose b) " in text
        assert pilot.app.screen.workspace.t_q == 1  # an answer, not the Q editor's a
        await click_words(pilot, "p back")
        assert "Step 2 of" in panel(pilot.app).border_title
        await click_words(pilot, "Esc keep playing")
        assert pilot.app.tutor.lesson is None and not pilot.app.screen.query("LessonPanel")


async def test_a_tasks_hint_and_show_me_are_clicks_too():
    async with lesson_app("select", at=4).run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        await click_words(pilot, "h hint")
        assert "Hint 1:" in shown(pilot.app)
        for _ in range(3):  # the hints, then "show me" is offered
            if "y show me" in panel(pilot.app).edge_text:
                break
            await click_words(pilot, "h hint")
        await click_words(pilot, "y show me")  # on the edge, where h hint was: not a click
        assert "Done:" not in shown(pilot.app)
        await click_words(pilot, "y shows it")  # the words that offer it
        assert "Done:" in shown(pilot.app)
        await click_words(pilot, "ctrl+r reset")
        assert "Done:" not in shown(pilot.app)


def _click_now(pilot, words: str) -> None:
    """A press and release on ``words`` as the terminal reports them, without waiting."""
    from textual import events

    x, y = where(pilot.app, words, lowest=True)
    for cls in (events.MouseDown, events.MouseUp):
        pilot.app.post_message(cls(None, x, y, 0, 0, 1, False, False, False, screen_x=x,
                                   screen_y=y))


async def test_a_click_while_a_step_sets_up_is_not_taken_and_the_step_completes(monkeypatch):
    """Esc keep playing clicked while the next step trained its run closed the lesson at
    once and cancelled the training half way; keys wait for the step, so must clicks."""
    import asyncio

    import pytest
    from pilot_wait import until

    pytest.importorskip("torch")
    from attn_tui.tui.screens.labs.train_lab_screen import TrainLabScreen
    from attn_tui.tui.textual_compat import notifications
    from attn_tui.tui.tutor import runner

    gate = asyncio.Event()

    async def trains_until_let_go(self) -> None:  # the step's training, held by the test
        await gate.wait()

    monkeypatch.setattr(TrainLabScreen, "action_ensure_trained", trains_until_let_go)
    monkeypatch.setattr(runner, "SETUP_GRACE", 0.0)  # every click now is a press of its own
    refused = ("Step 3 is still getting ready, so a click was not taken: click again once the "
               "step's words show.")
    async with lesson_app("learning", at=2).run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        tutor = pilot.app.tutor
        _click_now(pilot, "n next")
        # (not pilot.pause: keys are held while a step sets up, and its idle wait waits them)
        await until(pilot, lambda: tutor.setting_up, "step 3 setting up")
        # said once the wait is long enough to be seen (runner.SETUP_SAID_AFTER)
        await until(pilot, lambda: panel(pilot.app).edge_text.startswith("getting ready…"),
                    "the wait said")
        _click_now(pilot, "Esc keep playing")
        await until(pilot, lambda: refused in [n.message for n in notifications(pilot.app)],
                    "the click's refusal")
        assert tutor.lesson is not None and tutor.setting_up
        gate.set()
        await settle(pilot)
        assert tutor.lesson is not None and not tutor.setting_up
        assert "Step 3 of" in panel(pilot.app).border_title


async def test_a_double_click_on_n_next_takes_one_step():
    async with lesson_app("one").run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await pilot.double_click(offset=where(pilot.app, "n next", lowest=True))
        await settle(pilot)
        assert "Step 2 of" in panel(pilot.app).border_title


async def test_an_answer_whose_reveal_trains_says_the_choice_at_once(monkeypatch):
    """Learning's step 2 trains a run to show its answer: for seconds the panel still offered
    its choices, and a click on another one, or n, seemed to do nothing or skipped the why."""
    import asyncio

    import pytest
    from textual import events

    pytest.importorskip("torch")
    from attn_tui.tui.screens.labs.train_lab_screen import TrainLabScreen

    gate = asyncio.Event()
    trained = TrainLabScreen.action_ensure_trained

    async def trains_once_let_go(self) -> None:
        await gate.wait()
        trained(self)

    monkeypatch.setattr(TrainLabScreen, "action_ensure_trained", trains_once_let_go)
    async with lesson_app("learning", at=2).run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        try:
            # (Pilot's waits wait for the App, busy with this answer until the run trains)
            pilot.app.post_message(events.Key("b", "b"))
            deadline = asyncio.get_running_loop().time() + 30
            while "You chose b) " not in panel(pilot.app).plain:
                assert asyncio.get_running_loop().time() < deadline, panel(pilot.app).plain
                await asyncio.sleep(0.05)  # polling what the panel says, not a wait for it
            assert panel(pilot.app).edge_text == "getting ready… · Esc keep playing"
        finally:
            gate.set()  # (a failure above must not leave the answer waiting for ever)
        await settle(pilot)
        await pilot.app.workers.wait_for_complete()
        await settle(pilot)
        assert "✓ Right." in panel(pilot.app).plain
