"""u inside a lesson stops at the step's start when nothing of the learner's came before it, and
e (or a copy) waits while a step keeps numbers back, as w does."""

from __future__ import annotations

import pytest
from lesson_pilot import lesson_app, panel, press, settle

from attn_tui.tui.screens.dialogs.file_modal import FileModal
from attn_tui.tui.textual_compat import notifications

NOTHING = "Nothing to undo: {} as the lesson step set them up."


def _said(app) -> list[str]:
    return [str(n.message) for n in notifications(app)]


async def _at(pilot, k: int) -> None:
    await settle(pilot)
    assert f"Step {k} of" in panel(pilot.app).border_title


# one u swapped the step's panes for the example the workbench starts on ("Undid: queries
# 3 → 1"), or undid the step's own mask or the query it picked
@pytest.mark.parametrize(("name", "k", "words"), [
    ("select", 6, "these numbers are"),
    ("mask", 1, "these numbers are"),
    ("real-heads", 4, "the sentence, head and query are"),
])
async def test_u_at_a_steps_start_keeps_the_steps_panes_and_says_why(name, k, words):
    async with lesson_app(name, at=k).run_test(size=(80, 24), notifications=True) as pilot:
        await _at(pilot, k)
        host = pilot.app.screen
        start = host.lesson_state()
        await press(pilot, "u")
        assert host.lesson_state() == start
        assert NOTHING.format(words) in _said(pilot.app)
        assert not any(said.startswith("Undid") for said in _said(pilot.app))


async def test_the_learners_own_edit_is_undone_then_u_stops_at_the_steps_start():
    async with lesson_app("select", at=6).run_test(size=(80, 24), notifications=True) as pilot:
        await _at(pilot, 6)
        bench = pilot.app.workbench()
        start = bench.workspace
        await press(pilot, "enter", "9", "enter")
        assert bench.workspace != start and 9.0 in {x for row in bench.workspace.q for x in row}
        await press(pilot, "u")
        assert bench.workspace == start
        assert any(said.startswith("Undid: Q ") for said in _said(pilot.app))
        await press(pilot, "u")
        assert bench.workspace == start
        assert NOTHING.format("these numbers are") in _said(pilot.app)


async def test_u_after_an_answer_and_n_never_undoes_nothing_seen():
    # select 5, c, n, u said "Undid: nothing seen." and took an undo step for it
    async with lesson_app("select", at=5).run_test(size=(80, 24), notifications=True) as pilot:
        await _at(pilot, 5)
        await pilot.pause(0.5)  # past the hold on answers typed before the question is read
        await press(pilot, "c", "n")
        await _at(pilot, 6)
        start = pilot.app.workbench().workspace
        await press(pilot, "u", "U")
        assert pilot.app.workbench().workspace == start
        assert not any("nothing seen" in said for said in _said(pilot.app))


async def test_escape_closes_the_lesson_and_u_goes_back_through_its_steps_again():
    async with lesson_app("select", at=6).run_test(size=(80, 24)) as pilot:
        await _at(pilot, 6)
        bench = pilot.app.workbench()
        start = bench.workspace
        await press(pilot, "escape", "u")
        assert bench.workspace != start  # what the workbench held before the step


async def test_e_waits_while_the_step_keeps_numbers_back_and_says_why():
    # select 3: e wrote the undecided query's α, which step 5's question asks about, and the
    # verb query's, which this step's own question asks about
    async with lesson_app("select", at=3).run_test(size=(80, 24), notifications=True) as pilot:
        await _at(pilot, 3)
        app = pilot.app
        await press(pilot, "e")
        assert not isinstance(app.screen, FileModal)
        assert ("Answer first (a, b or c): an export or a copy now would hold the numbers this "
                "question keeps back.") in _said(app)
        app.session.copy(app.workbench())  # as the palette's "Copy: tables as Markdown"
        assert app.clipboard == ""
        await pilot.pause(0.5)
        await press(pilot, "b")  # answered: the undecided query's row is still kept back
        await press(pilot, "e")
        assert not isinstance(app.screen, FileModal)
        assert ("An export or a copy now would hold the numbers this step keeps back: e and c "
                "work once they are on screen.") in _said(app)


async def test_e_on_a_step_that_keeps_nothing_back_opens_the_export_dialog():
    async with lesson_app("select", at=6).run_test(size=(80, 24)) as pilot:
        await _at(pilot, 6)
        await press(pilot, "e")
        assert isinstance(pilot.app.screen, FileModal)


async def test_an_answer_takes_down_the_answer_first_a_lab_said_for_its_question():
    # params 5: ↑ (refused: "Answer first…"), then c: the refusal stayed above the answer's
    # words, two rows of the cost table pushed down, until the bar was touched again
    async with lesson_app("params", at=5).run_test(size=(80, 24)) as pilot:
        await _at(pilot, 5)
        lab = pilot.app.screen
        await press(pilot, "up")
        assert lab.message.startswith("Answer first (a, b or c)")
        await pilot.pause(0.5)
        await press(pilot, "c")
        assert "Right." in panel(pilot.app).plain
        assert lab.message == ""


async def test_the_palette_names_no_key_a_question_takes_for_its_answers():
    # select 3 asks a, b or c: the palette offered "Copy the step table … (c)" and "Add
    # token … (a)", keys that answer the question there
    async with lesson_app("select", at=3).run_test(size=(80, 24)) as pilot:
        await _at(pilot, 3)
        helps = {c.title: c.help for c in pilot.app.get_system_commands(pilot.app.screen)}
        assert helps["Copy the step table"] == "As Markdown, to the clipboard"
        assert not helps["Add token"].endswith("(a)") and helps["Add dim"].endswith("(A)")
        await pilot.pause(0.5)
        await press(pilot, "b", "n")  # step 4 asks nothing: the keys are the panes' again
        helps = {c.title: c.help for c in pilot.app.get_system_commands(pilot.app.screen)}
        assert helps["Copy the step table"].endswith("(c)") and helps["Add token"].endswith("(a)")


async def test_the_palette_answers_a_question_by_name_as_help_says():
    # help: ctrl+p lists the open lesson's keys; "answer" found nothing on a question step
    async with lesson_app("select", at=3).run_test(size=(80, 24)) as pilot:
        await _at(pilot, 3)
        commands = {c.title: c for c in pilot.app.get_system_commands(pilot.app.screen)}
        assert commands["Lesson: answer b"].help == "a little less (b)"
        await pilot.pause(0.5)
        await commands["Lesson: answer b"].callback()
        await settle(pilot)
        assert "Right. b) a little less" in " ".join(panel(pilot.app).plain.split())
        titles = [c.title for c in pilot.app.get_system_commands(pilot.app.screen)]
        assert not any(t.startswith("Lesson: answer") for t in titles)
