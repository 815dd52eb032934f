"""What a newcomer met at 80×24 outside the lessons: keys that arrive together in help,
ctrl+c while typing, a Go to list that did not narrow, and a first screen silent on lessons."""

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


async def test_the_first_screen_points_at_the_lessons():
    from screen_text import screen_text

    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        top = screen_text(app).splitlines()[0]
        assert "attn-tui — workbench" in top and top.rstrip().endswith("g lessons")
