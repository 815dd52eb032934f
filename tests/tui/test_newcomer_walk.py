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
