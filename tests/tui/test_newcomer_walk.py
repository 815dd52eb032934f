"""What a newcomer met at 80×24: keys that arrive together in help, a step naming a control
the cursor is not on, marks left out of view after a resize, and words that confuse."""

from __future__ import annotations

import pytest
from key_burst import from_the_terminal, settle

from attn_tui.tui.app import make_app


@pytest.mark.parametrize(("sequence", "lines"), [("\x1b[B", 6), ("\x1b[6~", None)])
async def test_help_counts_every_key_of_a_burst(sequence, lines):
    from textual.containers import VerticalScroll

    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("question_mark")
        await settle(pilot)
        scroll = app.screen.query_one(VerticalScroll)
        page = scroll.scrollable_content_region.height
        from_the_terminal(app, sequence * 3 if lines is None else sequence * lines)
        for _ in range(3):
            await settle(pilot)
        await pilot.wait_for_scheduled_animations()
        assert scroll.scroll_y == (3 * page if lines is None else lines)


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

    app = make_app(lesson=lesson)
    async with app.run_test(size=(80, 24)) as pilot:
        await app.workers.wait_for_complete()
        for _ in range(k):
            await pilot.press("n")
            await app.workers.wait_for_complete()
            await settle(pilot)
        assert app.tutor.index == k
        bar = app.screen.query_one(ControlBar)
        assert bar.current.key == control and app.focused is bar


async def test_a_resize_there_and_back_brings_the_marked_cells_back_side_by_side():
    """mask step 3 marks the map's sum column: at 120×40 everything fits and the right column
    scrolls to its top; back at 80×24 the marks must come back into view."""
    from screen_text import screen_text

    app = make_app(lesson="mask")
    async with app.run_test(size=(80, 24)) as pilot:
        await app.workers.wait_for_complete()
        for _ in range(2):
            await pilot.press("n")
            await app.workers.wait_for_complete()
            await settle(pilot)
        assert app.tutor.index == 2 and "›1.0000" in screen_text(app)
        await pilot.resize_terminal(120, 40)
        await settle(pilot)
        await pilot.resize_terminal(80, 24)
        await settle(pilot)
        await settle(pilot)
        text = screen_text(app)
        assert text.count("›1.0000") == 4  # the four marked row sums
        assert "Q  queries" in text and app.focused.id == "grid-q"  # the cursor's pane too


@pytest.mark.parametrize("where", ["cell", "dims"])
async def test_ctrl_c_while_typing_cancels_and_keeps_the_old_value(where):
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        bench = app.workbench()
        before = bench.workspace
        keys = ["7", "ctrl+c"] if where == "cell" else ["D", "9", "ctrl+c"]
        for key in keys:
            await pilot.press(key)
        await settle(pilot)
        assert bench.workspace == before
        if where == "cell":
            editor = bench.query_one("#editor-q")
            assert editor.editing is None
        else:
            assert bench.query_one("#dims").editing is None
        assert app.return_code is None and app.screen is bench


async def test_go_to_narrows_the_list_as_a_name_is_typed():
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("g")
        await pilot.pause()
        options = app.screen.query_one("OptionList")
        everything = options.option_count
        await pilot.press("l", "a", "b")
        await pilot.pause()
        ids = [options.get_option_at_index(i).id for i in range(options.option_count)]
        assert ids and all(i.startswith("lab:") for i in ids) and len(ids) < everything
        await pilot.press("space", "s")
        await pilot.pause()
        ids = [options.get_option_at_index(i).id for i in range(options.option_count)]
        assert ids == ["lab:scaling"]
        for _ in range(5):
            await pilot.press("backspace")
        await pilot.pause()
        assert options.option_count == everything


@pytest.mark.parametrize(("lesson", "title"), [("mask", "attn-tui — lesson mask"),
                                               ("scale", "attn-tui — lesson scale · lab scaling")])
async def test_the_title_bar_names_the_lesson_while_one_runs(lesson, title):
    from attn_tui.tui.widgets.title_bar import TitleBar

    app = make_app(lesson=lesson)
    async with app.run_test(size=(80, 24)) as pilot:
        await app.workers.wait_for_complete()
        await settle(pilot)
        bar = app.screen.query_one(TitleBar)
        assert bar.title_content().plain == title
        await pilot.press("escape")
        await settle(pilot)
        assert "lesson" not in bar.title_content().plain


async def test_a_on_a_step_without_a_question_says_so_and_adds_no_token():
    app = make_app(lesson="mask")
    async with app.run_test(size=(80, 24), notifications=True) as pilot:
        await app.workers.wait_for_complete()
        await settle(pilot)
        assert app.tutor.lesson.steps[app.tutor.index].question is None
        before = app.workbench().workspace
        await pilot.press("a")
        await settle(pilot)
        assert app.workbench().workspace == before
        assert any("asks no question" in n.message for n in app._notifications)
        await pilot.press("escape")  # out of the lesson, a adds a token as ever
        await settle(pilot)
        await pilot.press("a")
        await settle(pilot)
        assert app.workbench().workspace.t_q == before.t_q + 1


async def test_the_first_screen_points_at_the_lessons():
    from screen_text import screen_text

    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        assert "g Lessons" in screen_text(app).splitlines()[-1]
