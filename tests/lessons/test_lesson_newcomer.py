"""What a newcomer met in the lessons at 80×24: a step naming a control the cursor was not on,
marks left out of view after a resize, a title that said "workbench", and an answer key that
added a token where no question was asked."""

from __future__ import annotations

import pytest
from lesson_pilot import lesson_app, press, settle, shown
from screen_text import screen_text

from attn_tui.tui.textual_compat import notifications


def _steps_naming_a_control() -> list[tuple[str, int, str]]:
    """(lesson, step index, control) for each lab step whose keys say what to do "on" a
    control: "↑↓ on H: the feed-forward count follows"."""
    import re

    from attn_tui.lessons import load, names

    out = []
    for name in names():
        for k, step in enumerate(load(name).steps):
            for _, does in step.keys:
                if step.screen.startswith("lab:") and (m := re.match(r"on (\w+)\b", does)):
                    out.append((name, k, m.group(1)))
    return out


def test_the_lessons_have_steps_that_name_a_control():
    assert ("params", 1, "H") in _steps_naming_a_control()


@pytest.mark.parametrize(("lesson", "k", "control"), _steps_naming_a_control())
async def test_a_step_that_names_a_control_puts_the_cursor_on_it(lesson, k, control):
    from attn_tui.tui.widgets.control_bar import ControlBar

    app = lesson_app(lesson)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await press(pilot, *["n"] * k)
        assert app.tutor.index == k
        bar = app.screen.query_one(ControlBar)
        assert bar.current.key == control and app.focused is bar


async def test_a_resize_there_and_back_brings_the_marked_cells_back_side_by_side():
    """mask step 3 marks the map's sum column: at 120×40 everything fits and the right column
    scrolls to its top; back at 80×24 the marks must come back into view."""
    app = lesson_app("mask")
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await press(pilot, "n", "n")
        assert app.tutor.index == 2 and "›1.0000" in screen_text(app)
        await pilot.resize_terminal(120, 40)
        await settle(pilot)
        await pilot.resize_terminal(80, 24)
        await settle(pilot)
        await settle(pilot)
        text = screen_text(app)
        assert text.count("›1.0000") == 4  # the four marked row sums
        assert "Q  queries" in text and app.focused.id == "grid-q"  # the cursor's pane too


@pytest.mark.parametrize(("lesson", "title"), [("mask", "attn-tui — lesson mask"),
                                               ("scale", "attn-tui — lesson scale · lab scaling")])
async def test_the_title_bar_names_the_lesson_while_one_runs(lesson, title):
    from attn_tui.tui.widgets.title_bar import TitleBar

    app = lesson_app(lesson)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        bar = app.screen.query_one(TitleBar)
        assert bar.title_content().plain == title
        await pilot.press("escape")
        await settle(pilot)
        assert "lesson" not in bar.title_content().plain


async def test_a_on_a_step_without_a_question_says_that_it_added_a_token():
    app = lesson_app("mask")
    async with app.run_test(size=(80, 24), notifications=True) as pilot:
        await settle(pilot)
        assert app.tutor.lesson.steps[app.tutor.index].question is None
        before = app.workbench().workspace
        await press(pilot, "a")
        assert app.workbench().workspace.t_q == before.t_q + 1  # the editor's a, as ever
        assert any("asks no question, so a added a token" in n.message
                   for n in notifications(app))


async def test_real_heads_at_80x24_keeps_the_chosen_layer_and_its_summary_in_sight():
    """Under the panel the grid showed layers 0 to 3 whatever head was picked, and the line
    the step says to read had scrolled away with the pictures."""
    pytest.importorskip("tokenizers")
    async with lesson_app("real-heads", at=5).run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        screen = pilot.app.screen
        assert (screen.layer_index, screen.head_index) == (4, 0)
        for layer in (4, 5, 4, 3, 2, 1, 0):
            if layer != screen.layer_index:
                await press(pilot, "down" if layer > screen.layer_index else "up")
            lines = screen_text(pilot.app).splitlines()
            row = next((x for x in lines if x.startswith(f" L{layer + 1} ")), None)
            assert row is not None and "[" in row, f"layer {layer + 1} is not on screen"
            share = f"[CLS] {screen.summary.cls:.4f}"
            assert share in " ".join(screen_text(pilot.app).split()), f"{share} is not on screen"


async def test_real_heads_7_shows_the_step_table_it_points_at_not_the_grid():
    """Picking the step's head scrolled the grid into view after the step had pointed at the
    step table."""
    pytest.importorskip("tokenizers")
    async with lesson_app("real-heads", at=7).run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        text = screen_text(pilot.app)
        # the table is cut by the panel: its title says how to read the rest
        assert "steps for query 'cat' (3 of 13) · real q, k · [ ] picks · Tab: the table ↓" in text
        assert "[CLS]     27.0602" in text


async def test_a_labs_bar_offers_c_only_where_no_question_takes_it():
    """learning step 7 asks with a) to c), and the bar under it said "Tab here (or press c)":
    c answered the question. Once the lesson closes, c is the bar's again."""
    from attn_tui.lessons import load
    from attn_tui.tui.widgets.control_bar import ControlBar

    k = next(k for k, step in enumerate(load("learning").steps, start=1)
             if step.question is not None and "c" in step.question.letters
             and step.screen == "lab:train")
    app = lesson_app("learning", at=k - 1)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        assert app.tutor.index == k - 2
        app.set_focus(None)  # as after a click on the maps: the bar says how to reach it
        await settle(pilot)
        assert "Tab here (or press c) to change the controls" in screen_text(app)
        for _ in range(3):  # n on to the step with the question (an n may be held once)
            if app.tutor.index == k - 1:
                break
            await press(pilot, "n")
        assert app.tutor.index == k - 1
        assert app.focused is not app.screen.query_one(ControlBar)
        text = screen_text(app)
        assert "Tab here to change the controls" in text and "press c" not in text
        await press(pilot, "escape")  # the lesson closes; the lab stays
        assert app.tutor.lesson is None
        assert "Tab here (or press c) to change the controls" in screen_text(app)


async def test_looking_at_another_layer_on_the_model_screen_is_not_a_broken_rule():
    """real-heads asks for a head in layer 5; ↑ to look at layer 3 said "✗ Rule broken: layer
    must stay 5 … ctrl+r starts the step again", though ↓ alone put it right."""
    from attn_tui.lessons import load

    k = next(k for k, step in enumerate(load("real-heads").steps, start=1)
             if step.task is not None and "layer" in step.task.keep)
    app = lesson_app("real-heads", at=k)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        assert app.tutor.index == k - 1 and app.screen.layer_index == 4
        await press(pilot, "up", "up")
        assert app.screen.layer_index == 2
        text = shown(app)
        assert "Rule broken" not in text and "must stay" not in text
        assert "Not yet: share on [CLS] of layer 3 head 1: counts only in layer 5" in text
        await press(pilot, "down", "down", "right")  # back in layer 5, another head: checked
        assert "counts only in" not in shown(app)
        assert "Rule broken" not in shown(app) and app.screen.layer_index == 4
