"""v's fifth view: α as a picture, every query in sight at once — at T = 256 the rows are
averaged in bands, and the causal triangle shows."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
from screen_text import screen_text

from attn_tui.core import state
from attn_tui.tui.app import make_app
from attn_tui.tui.widgets.alpha_picture import HeadPicture
from attn_tui.tui.widgets.heatmap import Heatmap


async def _picture(pilot):
    for _ in range(4):  # weights → scores → masked → output → picture
        await pilot.press("v")
    await pilot.pause()  # the picture's new layout ...
    await pilot.pause()  # ... and its paint at the size that layout gave it
    return pilot.app.screen.query_one("#map-picture", HeadPicture)


async def test_v_reaches_the_picture_and_comes_back_to_the_numbers():
    async with make_app(preset="mask").run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        picture = await _picture(pilot)
        screen = pilot.app.screen
        assert screen.view == "picture" and picture.display and not screen.query_one(Heatmap).display
        text = screen_text(pilot.app)
        assert "all queries: α as a picture" in text
        assert "each row to its max · v: change view" in text  # not as the model screen shades
        # the mask preset's first row: all on 'the', the three masked keys blank
        assert "▶1 the    ███          " in text  # queries counted from 1
        np.testing.assert_array_equal(picture.alpha, screen.steps.weights)
        await pilot.press("v")
        await pilot.pause()
        assert screen.view == "weights" and screen.query_one(Heatmap).display
        assert not picture.display


async def test_at_t_256_the_whole_map_fits_in_bands_and_keeps_the_triangle():
    ws = replace(state.resize(state.from_preset("random"), t=256), mask="causal", selected=200)
    async with make_app(workspace=ws).run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        picture = await _picture(pilot)
        bands = picture._bands()
        assert len(bands) == 30  # the window's 40 rows less the panes around the picture
        assert bands[0][0] == 0 and bands[-1][1] == 256
        assert all(b[1] >= c[0] for b, c in zip(bands, bands[1:], strict=False))  # no gaps
        here = next(f"{a + 1}–{b}" for a, b in bands if a <= 200 < b)  # named from 1
        lines = screen_text(pilot.app).splitlines()
        assert any("keys 1–256, about" in x and "keys a column" in x for x in lines)  # 256 keys averaged into the columns
        first = next(x for x in lines if " 1–8 " in x).split("1–8", 1)[1].strip(" │")
        last = next(x for x in lines if "248–256" in x).split("248–256", 1)[1].strip(" │")
        # causal: the first band sees only the first keys, the last band every key
        assert len(first) <= 4 and len(last) >= 60 and " " not in last
        assert any(f"▶{here}" in x for x in lines)  # the query the step table explains


async def test_more_keys_than_queries_each_key_has_its_column():
    # the first screen is 1 query × 3 keys: only "1" headed the columns; at 25 keys the row
    # was blank (the picture was laid out for the queries' count)
    async with make_app().run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        picture = await _picture(pilot)
        lines = screen_text(pilot.app).splitlines()
        header = next(x for x in lines if "1  2  3" in x)
        row = next(x for x in lines if "▶1 who" in x).split("▶1 who", 1)[1].strip(" │")
        assert "4" not in header.split("1  2  3", 1)[1]
        assert len(row) == 9  # three columns a key
        assert picture._layout(picture.size.width)[2] == 3
    ws = state.resize(state.from_preset("one"), t=25)
    async with make_app(workspace=ws).run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        picture = await _picture(pilot)
        assert np.shape(picture.alpha) == (1, 25)
        row = next(x for x in screen_text(pilot.app).splitlines() if "▶1 who" in x)
        assert len(row.split("▶1 who", 1)[1].strip(" │")) == 25


def test_the_keys_are_numbered_every_fifth_where_a_number_would_not_fit_each():
    from attn_tui.tui.widgets.alpha_picture import key_numbers

    # counted from 1, as the rows are: the first key's number, then every fifth's
    assert key_numbers(13, 1) == "1   5    10   "[:13]
    assert key_numbers(12, 2) == "1       5         10    "
    assert key_numbers(4, 3) == "  1  2  3  4"
    for keys, per in ((128, 1), (40, 2), (7, 1)):
        line = key_numbers(keys, per)
        assert len(line) == keys * per
        assert line.split()[0] == "1"
        # each number stands over its own key's first column
        for n in range(5, keys + 1, 5):
            if line[(n - 1) * per].isdigit():
                assert line[(n - 1) * per:].split()[0] == str(n)


async def test_at_t_64_the_picture_is_in_sight_below_the_long_step_table():
    """The picture takes no focus, so no key could scroll to it: at T = 64 it must be in sight
    by itself, the step table scrolling inside its own box."""
    ws = state.resize(state.from_preset("random"), t=64)
    for size in ((120, 40), (80, 24)):
        async with make_app(workspace=ws).run_test(size=size) as pilot:
            await pilot.pause()
            await _picture(pilot)
            await pilot.pause()
            text = screen_text(pilot.app)
            # its title and its last band of queries, whatever the bands' size
            assert "all queries: α as a picture" in text and "–64 " in text, size


async def test_v_to_the_picture_from_the_map_leaves_the_keys_with_q_where_up_picks_the_query():
    """The focused map hidden by v took the keys with it: ↑↓ did nothing, even back in the
    numbers, until Tab or a click."""
    async with make_app(preset="mask").run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        screen = pilot.app.screen
        screen.query_one(Heatmap).focus()
        await pilot.press("down")
        await pilot.pause()
        assert screen.workspace.selected == 1
        await _picture(pilot)
        assert pilot.app.focused is screen.query_one("#editor-q").grid
        await pilot.press("down")
        await pilot.pause()
        assert screen.workspace.selected == 2
        assert "▶3 barked" in screen_text(pilot.app)
        await pilot.press("v", "up")
        await pilot.pause()
        assert screen.view == "weights" and screen.workspace.selected == 1


async def test_v_brings_the_map_up_from_under_a_step_table_that_fills_the_column():
    """Side by side at T = 16 the map was below the fold, and v changed nothing in sight."""
    ws = state.resize(state.from_preset("random"), t=16)
    async with make_app(workspace=ws).run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        screen = pilot.app.screen
        assert not screen.has_class("-stacked")
        assert "all queries:" not in screen_text(pilot.app)
        await pilot.press("v")
        await pilot.pause()
        await pilot.pause()
        assert "all queries: scores (q·k ÷ √d_k)" in screen_text(pilot.app)


def test_a_special_token_too_wide_for_its_row_loses_its_brackets_not_its_middle():
    # at 80×24 the real heads' picture labelled [CLS] "1 […S]", which reads as [SEP], and the
    # same [UNK] "8 […K]" in one row and "13 …K]" in another
    from attn_tui.tui.widgets.alpha_picture import row_name

    assert row_name(0, "[CLS]", 6) == "1 CLS" and row_name(0, "[CLS]", 7) == "1 [CLS]"
    assert row_name(7, "[UNK]", 6) == "8 UNK" and row_name(12, "[UNK]", 6) == "13 UNK"
    assert row_name(12, "[UNK]", 5) == "13 U…"
    assert row_name(2, "position_01", 6) == "3 p…01"  # other names keep their ends
