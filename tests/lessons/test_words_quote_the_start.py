"""A step's words quote its numbers as the step set them up. Once the learner changes the panes
(as the step's "Try" invites), the panel says the words are about the step's start and that
ctrl+r puts it back; back at the start, the line goes."""

from __future__ import annotations

import pytest
from lesson_pilot import lesson_app, panel, press, settle
from pilot_wait import until
from screen_text import screen_text

LINE = "The words quote the step's start, not the panes now: ctrl+r puts it back."


def _said(app) -> str:
    return " ".join(panel(app).plain.split())


async def test_an_edit_on_a_worded_step_is_said_and_ctrl_r_takes_it_back():
    async with lesson_app("one", at=2).run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        host = pilot.app.screen
        start = host.lesson_state()
        assert "= 0.3200" in _said(pilot.app) and LINE not in _said(pilot.app)
        assert "ctrl+r" not in panel(pilot.app).edge_text
        await press(pilot, "enter", "0", ".", "5", "enter")  # q = (0.5, 0.2, 0.3)
        assert "0.4800" in screen_text(pilot.app)  # the table follows ...
        assert "= 0.3200" in _said(pilot.app)  # ... the words stay with the step's start
        assert LINE in _said(pilot.app)
        assert "ctrl+r reset" in panel(pilot.app).edge_text
        await press(pilot, "ctrl+r")
        assert host.lesson_state() == start
        assert LINE not in _said(pilot.app)
        assert "ctrl+r" not in panel(pilot.app).edge_text
        await press(pilot, "u")  # the reset is one change: the learner's q comes back
        assert "0.4800" in screen_text(pilot.app) and LINE in _said(pilot.app)
        await press(pilot, "u")  # and undoing that edit is the step's start again
        assert host.lesson_state() == start and LINE not in _said(pilot.app)


async def test_a_question_s_reveal_is_the_step_s_own_change_not_a_drift():
    # lesson one, step 3: the answer's reveal turns the scaling off on the panes
    async with lesson_app("one", at=3).run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        host = pilot.app.screen
        before = host.lesson_state()
        await press(pilot, "b")
        assert "Right" in _said(pilot.app)
        assert host.lesson_state() != before  # the reveal changed the panes
        assert LINE not in _said(pilot.app)
        # s puts the division back, as the answer says: the step's own words hold again
        # (the line said they did not, and ctrl+r put the division off again)
        await press(pilot, "s")
        assert host.workspace.scale and LINE not in _said(pilot.app)
        await press(pilot, "u", "u")  # past the reveal, back to the step's start: the same
        assert host.lesson_state() == before and LINE not in _said(pilot.app)
        await press(pilot, "U")  # the reveal again: the answer's words hold
        assert LINE not in _said(pilot.app)
        await press(pilot, "enter", "0", ".", "5", "enter")  # neither's numbers now
        assert LINE in _said(pilot.app)
        await press(pilot, "ctrl+r")  # the panes as the answer left them
        assert not host.workspace.scale and LINE not in _said(pilot.app)


async def test_a_task_step_says_nothing_of_the_kind():
    # changing the panes is what a task asks for: its live check speaks instead
    async with lesson_app("one", at=5).run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        await press(pilot, "enter", "2", "enter")
        assert "Task" in _said(pilot.app) and LINE not in _said(pilot.app)


async def test_an_answer_given_after_a_refused_edit_speaks_of_the_steps_own_numbers():
    # the answer's words speak of the step's numbers: an edit before the answer paired one
    # set's figures with another's. An open question now keeps the numbers as they are.
    async with lesson_app("one", at=3).run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        host = pilot.app.screen
        await press(pilot, "enter", "0", ".", "5", "enter")
        assert host.workspace.q[0][0] == 0.1 and LINE not in _said(pilot.app)
        await press(pilot, "b")
        said = _said(pilot.app)
        assert "For the answer, the step's own numbers are back" not in said
        assert host.workspace.q[0][0] == 0.1 and not host.workspace.scale  # the reveal's
        assert "0.3385" in said and LINE not in said  # the why, from the step's own numbers
        await press(pilot, "enter", "0", ".", "5", "enter")  # answered: edits are free again
        said = _said(pilot.app)
        assert host.workspace.q[0][0] == 0.5 and LINE in said
        await press(pilot, "ctrl+r")
        said = _said(pilot.app)
        assert host.workspace.q[0][0] == 0.1 and LINE not in said


async def test_in_a_lab_at_80x24_the_line_is_in_sight_above_the_words():
    # a long step's end is below the panel's edge: the line came last, out of sight
    async with lesson_app("scale").run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await press(pilot, "up")  # the top d_k, on the lab's bar
        assert "The words quote the step's start" in screen_text(pilot.app)
        assert "ctrl+r reset" in panel(pilot.app).edge_text


async def test_quit_names_what_replaced_the_learners_edits_not_every_cause_it_might_be():
    """It said "a lesson step, ctrl+r or show me (y)" whichever of them it was."""
    async with lesson_app("one", at=6).run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await press(pilot, "enter", "0", "enter", "h", "h", "h", "y")  # V's d1 typed, then shown
        await press(pilot, "q")
        assert pilot.app.screen.question.startswith(
            "Edits of yours that show me (y) replaced were never saved")
    async with lesson_app("one", at=6).run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await press(pilot, "enter", "0", "enter", "ctrl+r", "down", "enter", "0", "enter",
                    "h", "h", "h", "y")
        await press(pilot, "q")
        assert pilot.app.screen.question.startswith(
            "Edits of yours that ctrl+r or show me (y) replaced were never saved")


async def test_ctrl_r_over_the_learners_edit_still_has_quit_ask_about_it():
    # ctrl+r put the step's start over an unsaved edit, and q then quit without a word
    async with lesson_app("one", at=2).run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await press(pilot, "enter", "0", ".", "5", "enter", "ctrl+r")
        assert pilot.app.screen.workspace.q[0][0] == 0.1
        await press(pilot, "q")
        assert pilot.app.screen.question.startswith(
            "Edits of yours that ctrl+r replaced were never saved")  # the one that did


async def test_a_head_picked_that_leaves_every_quoted_number_is_not_a_change_of_the_words():
    # real-heads 1 says 6 layers of 12 heads and the token count: picking another head, as
    # its Try line invites, brought up the line though every word still held
    async with lesson_app("real-heads").run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        before = pilot.app.screen.lesson_state()
        await press(pilot, "right")
        assert pilot.app.screen.lesson_state() != before
        assert LINE not in _said(pilot.app)


async def test_an_answer_after_a_new_sentence_puts_the_steps_sentence_back():
    # real-heads 2 quotes its numbers only in the answer's words: the check left those out,
    # and the answer named 'sat' and 'cat' beside the learner's "a dog ran"
    async with lesson_app("real-heads", at=2).run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        host = pilot.app.screen
        start = host.lesson_state()
        host.action_set_text("a dog ran")
        await settle(pilot)
        await press(pilot, "b")
        said = _said(pilot.app)
        assert "the step's own sentence, head and query are back" in said
        assert host.lesson_state().text == start.text and "'sat' gives 0.9998" in said


async def test_after_an_answer_a_change_to_what_the_answer_quotes_is_said():
    # one 3's answer quotes α = (0.3385, 0.2799, 0.3816): m changed them, with no word
    async with lesson_app("one", at=3).run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        await press(pilot, "b")
        assert LINE not in _said(pilot.app)
        await press(pilot, "m")  # the causal mask: 'who' sees only 'is'
        assert LINE in _said(pilot.app)


async def test_an_answer_after_training_the_steps_own_settings_puts_nothing_back():
    # learning: Enter trained the step's settings, then b on step 2 said "the step's own
    # settings are back" though none had changed (the words quote the run, which had). Step
    # 2's question holds Enter until the answer, so the run is trained on step 1.
    pytest.importorskip("torch")
    async with lesson_app("learning").run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        host = pilot.app.screen
        await press(pilot, "enter")
        await until(pilot, lambda: host.state == "done", "the run trained", seconds=60)
        await press(pilot, "n")
        await settle(pilot)
        assert "Predict: once trained" in _said(pilot.app)  # step 2, its question open
        start = host.lesson_state()
        await press(pilot, "b")
        said = _said(pilot.app)
        assert "Right" in said and "are back" not in said
        assert host.lesson_state() == start and host.state == "done"


async def test_after_an_answer_quoting_only_in_its_own_words_a_new_sentence_is_said():
    # real-heads 2 quotes its numbers in the answer alone: with the step's words unchanged by
    # a new sentence, the answer's stale figures went without the line
    async with lesson_app("real-heads", at=2).run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        host = pilot.app.screen
        await press(pilot, "b")
        assert LINE not in _said(pilot.app)
        host.action_set_text("a dog ran")
        await settle(pilot)
        assert LINE in _said(pilot.app)
        await press(pilot, "ctrl+r")
        assert LINE not in _said(pilot.app) and "'sat' gives 0.9998" in _said(pilot.app)


async def test_at_80x24_a_drift_after_an_answer_is_said_in_sight():
    # the panel stayed scrolled to the answer's end, and the line at its top was out of sight
    async with lesson_app("one", at=3).run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await press(pilot, "b", "enter", "0", ".", "5", "enter")
        assert LINE in _said(pilot.app)
        lesson = panel(pilot.app)
        assert lesson.max_scroll_y > 0 and lesson.scroll_y == 0
        assert "The words quote the step's start" in screen_text(pilot.app)


@pytest.mark.parametrize("at", [3, 4, 5, 6])
async def test_a_sentence_typed_on_the_step_before_gives_way_to_the_lessons_own(at):
    # the learner's "my dog ate it", typed on step 2, stayed for steps 3 to 6, whose hints and
    # answers name the lesson's sentence: step 4's answer read "|v| against 5.46 for 'the'"
    async with lesson_app("real-heads", at=at - 1).run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        host = pilot.app.screen
        lesson_text = host.lesson_state().text
        host.action_set_text("my dog ate it")
        await settle(pilot)
        await press(pilot, "n")
        assert host.lesson_state().text == lesson_text
        assert host.run.tokens[1] == "the"
        said = _said(pilot.app)
        if at in (3, 5):  # a task that keeps the sentence: u at once would break its rule
            assert (f"Step {at} starts from its own sentence, head and query, and its task's "
                    "rules count from them. Once you are done with it, u brings yours back, "
                    "one change at a time.") in said, said
        else:
            assert f"Step {at} starts from its own sentence, head and query. u brings" in said
