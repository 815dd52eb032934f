"""A question is answered (or skipped with n) only once it could have been read: "nan" typed
into a cell not yet open went on a step, answered its question a) unseen, went on again, and
progress kept the wrong answer."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from lesson_pilot import lesson_app, settle

from attn_tui.tui.textual_compat import notifications
from attn_tui.tui.tutor import runner


class Clock:
    """The runner's clock, still unless a test moves it: how long a question has been up is
    the test's to say, not the machine's load."""

    def __init__(self) -> None:
        self.now = 1000.0

    def monotonic(self) -> float:
        return self.now


@pytest.fixture
def clock(monkeypatch: pytest.MonkeyPatch) -> Clock:
    clock = Clock()
    monkeypatch.setattr(runner, "time", clock)
    monkeypatch.setattr(runner, "ANSWER_GUARD", runner.READ_FIRST)  # conftest turns it off
    return clock


def _answers(progress_dir: Path) -> dict:
    return json.loads((progress_dir / "select.json").read_text()).get("answers", {})


async def _nan_held_then_b_read(pilot, clock: Clock, progress_dir: Path) -> None:
    """From step 2 of select: "nan" typed as keys brings step 3's question and neither
    answers nor skips it, each said; read, b answers it and progress keeps that."""
    tutor = pilot.app.tutor
    await pilot.press("n", "a", "n")
    await settle(pilot)
    assert tutor.index == 2 and tutor._step().question is not None
    assert tutor.chosen is None and _answers(progress_dir) == {}
    said = [n.message for n in notifications(pilot.app)]
    assert said[-2:] == [
        "Step 3's question had only just come up, so a was not taken as its answer: read "
        "it, then press a, b or c.",
        "Step 3's question had only just come up, so n did not skip it: read it, then "
        "answer it, or press n again to skip it."]
    clock.now += 1.0  # read
    await pilot.press("b")
    await settle(pilot)
    assert tutor.chosen == 1 and _answers(progress_dir) == {"2": 1}


async def test_a_word_typed_as_keys_neither_answers_nor_skips_the_question_it_brings(
        clock: Clock, progress_dir: Path) -> None:
    app = lesson_app("select", at=2)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        tutor = app.tutor
        assert tutor.index == 1 and tutor._step().question is None
        await _nan_held_then_b_read(pilot, clock, progress_dir)
        # answered: what the notices said no longer holds, and they covered the tables
        assert not [n for n in notifications(app) if "only just come up" in n.message]


async def test_n_skips_a_question_that_has_been_up_long_enough_to_read(
        clock: Clock, progress_dir: Path) -> None:
    app = lesson_app("select", at=3)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        assert app.tutor.index == 2 and app.tutor.chosen is None
        clock.now += 1.0
        await pilot.press("n")
        await settle(pilot)
        assert app.tutor.index == 3
        assert not [n for n in notifications(app) if "only just come up" in n.message]


async def test_the_answer_first_notice_goes_with_the_answer(clock: Clock) -> None:
    # it stayed for seconds over the map whose figures the answer's words quote
    app = lesson_app("mask", at=3)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        assert app.tutor._step().question is not None
        clock.now += 1.0
        await pilot.press("m")
        await settle(pilot)
        assert [n for n in notifications(app) if n.message.startswith("Answer first")]
        await pilot.press("b")
        await settle(pilot)
        assert app.tutor.chosen == 1
        assert not [n for n in notifications(app) if n.message.startswith("Answer first")]


async def test_a_question_read_before_is_not_guarded_again_after_p(clock: Clock) -> None:
    app = lesson_app("select", at=3)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        clock.now += 1.0
        await pilot.press("n")  # skipped, read: its answer is given on step 4
        await settle(pilot)
        await pilot.press("p")
        await settle(pilot)
        assert app.tutor.index == 2
        await pilot.press("n")  # at once: the learner has read this one
        await settle(pilot)
        assert app.tutor.index == 3
        assert not [n for n in notifications(app) if "only just come up" in n.message]


async def test_a_word_typed_on_a_way_back_to_a_question_read_before_does_not_answer_it(
        clock: Clock, progress_dir: Path) -> None:
    # p back, then "nan" on a control that was not open: n brought the question again (read
    # before, so not held), a answered it unseen, and progress kept the answer
    app = lesson_app("select", at=3)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        tutor = app.tutor
        clock.now += 1.0
        await pilot.press("n", "p", "p")
        await settle(pilot)
        assert tutor.index == 1
        await _nan_held_then_b_read(pilot, clock, progress_dir)
