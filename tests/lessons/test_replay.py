"""Every lesson replayed as a learner would: n to the end, p back, every question both ways."""

from __future__ import annotations

import pytest
from expected import REVEALS, steps
from lesson_pilot import lesson_app, panel, press, settle, shown

from attn_tui.lessons import load
from attn_tui.lessons.loader import LETTERS
from attn_tui.tui.widgets.grid_view import GridView

EXPECTED = steps()
LESSONS = list(EXPECTED)
QUESTIONS = [(name, k) for name in LESSONS
             for k, step in enumerate(load(name).steps, start=1) if step.question]
SIZES = [(80, 24), (120, 40)]


def _check_highlights(app, step) -> None:
    for h in step.highlight:
        pane = app.screen.query_one(f"#{h.pane}")
        if isinstance(pane, GridView):
            assert h.cells <= pane.highlights, (h.pane, sorted(h.cells - pane.highlights))


@pytest.mark.slow
@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
@pytest.mark.parametrize("name", LESSONS)
async def test_walk_with_n_to_the_end_and_p_back(name, size):
    lesson = load(name)
    n = len(lesson.steps)
    async with lesson_app(name).run_test(size=size) as pilot:
        await settle(pilot)
        for k, step in enumerate(lesson.steps, start=1):
            text = shown(pilot.app)
            assert f"Step {k} of {n}" in text
            assert step.title in text
            for number in EXPECTED[name].get(k, []):
                assert number in text, f"{name} step {k}: {number} is not on the screen"
            _check_highlights(pilot.app, step)
            assert "[could not fill" not in panel(pilot.app).plain
            if size == (80, 24):  # the whole step fits: nothing hides below the panel's edge
                assert panel(pilot.app).max_scroll_y == 0, f"{name} step {k} needs scrolling"
            await press(pilot, "n")
        assert f"Step {n} of {n} · done" in shown(pilot.app)
        for _ in range(n):
            await press(pilot, "p")
        text = shown(pilot.app)
        assert f"Step 1 of {n}" in text
        for number in EXPECTED[name].get(1, []):
            assert number in text


@pytest.mark.parametrize(("name", "k"), QUESTIONS, ids=[f"{n}-{k}" for n, k in QUESTIONS])
@pytest.mark.parametrize("which", ["wrong", "right"])
async def test_each_question_answered_wrong_or_right_and_remembered(name, k, which):
    q = load(name).steps[k - 1].question
    right = LETTERS[q.answer]
    letter = right if which == "right" else next(c for c in q.letters if c != right)
    async with lesson_app(name, at=k).run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        assert f"Step {k} of" in shown(pilot.app)
        assert "answers · n next" in shown(pilot.app)  # the answer keys are announced
        await press(pilot, letter)
        said = "✓ Right." if which == "right" else f"✗ Not quite: it is {right})"
        for _ in range(2):  # answered, then again after p and n: the answer is remembered
            text = shown(pilot.app)
            assert said in text
            assert "answers · n next" not in text
            assert "[could not fill" not in panel(pilot.app).plain
            for number in REVEALS.get((name, k), []):
                assert number in text, f"{name} step {k}: {number} not shown after the answer"
            await press(pilot, "p", "n")
        await press(pilot, next(c for c in q.letters if c != letter))  # a second answer: none
        assert said in shown(pilot.app)


async def test_a_second_time_through_the_end_keeps_earlier_answers_apart():
    """Taken again from the top, a question passed with n was "not answered yet" at the end,
    while Go to (reading the kept answers) said every question was answered."""
    from attn_tui.lessons import load
    from attn_tui.lessons.loader import LETTERS

    lesson = load("select")
    app = lesson_app("select")
    questions = [i for i, step in enumerate(lesson.steps) if step.question is not None]
    tasks = [i for i, step in enumerate(lesson.steps) if step.task is not None]
    for i in tasks:
        assert app.progress.save("select", task=i) is None
    for i in questions:
        assert app.progress.save("select", answer=(i, lesson.steps[i].question.answer)) is None
    assert app.progress.save("select", step=None, finished=True) is None
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        assert "again from the top" in shown(pilot.app)
        first = questions[0]
        for _ in range(4 * len(lesson.steps)):  # n to the end, answering only the first
            if "· done ·" in shown(pilot.app):
                break
            if app.tutor.index == first and app.tutor.chosen is None:
                await press(pilot, LETTERS[lesson.steps[first].question.answer])
            await press(pilot, "n")
        text = " ".join(shown(pilot.app).split())
        later = [str(i + 1) for i in questions[1:]]
        assert "That is the whole lesson." in text
        assert "not answered yet" not in text
        assert (f"The question on step {later[0]} was passed this time through; you answered "
                "it an earlier time." in text) if len(later) == 1 else (
            f"The questions on steps {' and '.join(later)} were passed this time through; you "
            "answered them an earlier time." in text)
        # a third time in the same run, answering none: the first pass's answers still count
        app.tutor.start("select")
        await settle(pilot)
        assert "again from the top" in shown(pilot.app)
        for _ in range(4 * len(lesson.steps)):
            if "· done ·" in shown(pilot.app):
                break
            await press(pilot, "n")
        text = " ".join(shown(pilot.app).split())
        assert "That is the whole lesson." in text and "not answered yet" not in text


async def test_the_end_names_the_questions_passed_with_n_as_it_names_open_tasks():
    """n passed step 5's question; the end said only 'That is the whole lesson.', though Go
    to counted 1/2 answered and the same panel names the tasks not met."""
    async with lesson_app("select", at=5).run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        for _ in range(6):  # an n just after a question comes is held back once
            if "· done ·" in shown(pilot.app):
                break
            await press(pilot, "n")
        text = " ".join(shown(pilot.app).split())
        assert "That is the whole lesson." in text
        assert ("The tasks on steps 2, 4 and 6 are not met yet. The questions on steps 3 and "
                "5 are not answered yet." in text)
