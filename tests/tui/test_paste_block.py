"""Several numbers pasted onto a matrix fill its cells from the cursor; one value is typed into
the cell; anything that is not a block that fits is refused with a message, changing nothing."""

from __future__ import annotations

import pytest
from screen_text import screen_text
from textual import events

from attn_tui.compute import attend
from attn_tui.core.paste import BlockError, read_block
from attn_tui.report.fmt import num
from attn_tui.tui.app import make_app
from attn_tui.tui.textual_compat import notifications
from attn_tui.tui.widgets.matrix_editor import MatrixEditor
from attn_tui.tui.widgets.step_table import StepTable

TWO_BY_THREE = ((1.0, 2.0, 3.0), (4.0, 5.0, 6.0))


@pytest.mark.parametrize("text", [
    "1\t2\t3\n4\t5\t6\n",  # cells copied from a spreadsheet
    "1,2,3\n4,5,6",  # CSV
    "1, 2, 3\r\n4, 5, 6",
    "[[1 2 3]\n [4 5 6]]",  # a numpy print
    "array([[1., 2., 3.],\n       [4., 5., 6.]])",
    "tensor([[1.0000, 2.0000, 3.0000],\n        [4.0000, 5.0000, 6.0000]], dtype=torch.float64)",
    "[[1, 2, 3], [4, 5, 6]]",  # a Python list
    "  1 2 3\n\n4 5 6  \n",
    "1\t2\t3\r\n4\t5\t6\r\n",  # Windows line ends
    "[1 2 3; 4 5 6]",  # MATLAB and Julia: ; ends a row
    "tensor([[1., 2., 3.],\n        [4., 5., 6.]], device='cuda:0', grad_fn=<AddBackward0>)",
    "1.0,2.0,3.0\n4.0,5.0,6.0",
    "[[1,2,3],[4,5,6]]",  # in code a comma always separates, even between integers
    "[1,2,3;4,5,6]",
    # Markdown tables: with a header of names and a column of tokens, or bare rows
    "|   | d1 | d2 | d3 |\n|:--|--:|--:|--:|\n| who | 1 | 2 | 3 |\n| is | 4 | 5 | 6 |",
    "| 1 | 2 | 3 |\n| 4 | 5 | 6 |",
    "| 1 | 2 | 3 |\n|---|---|---|\n| 4 | 5 | 6 |",  # a header of numbers is a row
    '"1","2","3"\n"4","5","6"',  # quoted CSV, as spreadsheets save it
    '"1.0", 2, "3"\r\n4,"5",6',
    '"1"\t"2"\t"3"\n"4"\t"5"\t"6"',  # quoted, tab-separated
    '"1" "2" "3"\n"4" "5" "6"',
    "1;2;3\n4;5;6",  # a decimal-comma locale's CSV
    "1; 2; 3\n4 ;5 ;6",
    "1 2 3;\n4 5 6;",  # MATLAB's rows, without the brackets
    "1;2;3;\n4;5;6;",
])
def test_blocks_in_the_forms_people_copy(text: str):
    assert read_block(text) == TWO_BY_THREE


@pytest.mark.parametrize("text", ["0.5", " 0.5\n", "1,5", "-0,25", "hello", "hello world", "",
                                  "x" * 10_000, "abc [1 2]", "[1]"])
def test_one_value_or_words_are_not_a_block(text: str):
    assert read_block(text) is None  # typed into the cell, which takes or refuses it


@pytest.mark.parametrize(("text", "says"), [
    ("1 2\n3", "row 1 has 2 numbers but row 2 has 1 number"),
    ("1 abc", "number 2: 'abc' is not a number"),
    ("1 2\n3 nan", "row 2, number 2: 'nan' is not allowed"),
    ("1 2e7", "too large"),
    # a decimal comma is never split into two numbers: a locale's spreadsheet column, or cells
    ("0,5\n0,25\n1,75", "row 1, number 1: '0,5' has a comma inside; write 0.5 for one number"),
    ("0,5\t1,5\n2,5\t3,5", "write 0.5 for one number, or a space after the comma for two"),
    ("1,000 2", "'1,000' has a comma inside"),
    ("1,2\n3,4", "'1,2' has a comma inside"),
    ('"0,5","1"\n"2","3"', "row 1, number 1: '0,5' has a comma inside"),
    # an empty cell would shift every number after it into the wrong column
    ("0.9\t\t0.7\n\t0.5\t0.4", "row 1, number 2 is empty"),
    ("0.9\t0.8\t0.7\n\t0.5\t0.4", "row 2, number 1 is empty"),
    ("\t0.5\t0.4", "number 1 is empty"),  # pasted as 0.5 0.4, one cell to the left
    ("0.5\t0.4\t", "number 3 is empty"),  # a trailing comma is refused alike
    # a blank row, or a column's blank cell: the rows after it moved up one
    ("0.1\t0.2\n\t\n0.3\t0.4", "row 2, number 1 is empty"),
    ("0.1\t0.2\n\n0.3\t0.4", "row 2, number 1 is empty"),
    ("0.1\n\n0.3", "row 2 is empty"),
    ("1\n \n3\n4", "row 2 is empty"),
    ("1,,3\n4,5,6", "row 1, number 2 is empty"),
    (",5,6\n1,2,3", "row 1, number 1 is empty"),
    # semicolons (a decimal-comma locale's CSV) and a comma between spaces: 1 and 3 were read
    # as two numbers, the 3 pasted into d2
    ("1;;3", "number 2 is empty"),
    ("1;;3\n4;;6", "row 1, number 2 is empty"),
    ("1; ;3", "number 2 is empty"),
    ("1, , 3", "number 2 is empty"),
    ("[1, , 3]", "number 2 is empty"),
    ("0,5;1,5\n2;3", "row 1, number 1: '0,5' has a comma inside"),  # read as 0 5 1 5
    ("1;2,5", "number 2: '2,5' has a comma inside"),
    ("0,5; 1,5", "number 1: '0,5' has a comma inside"),
    # rows of unequal length because a decimal comma made one number of two: "row 1 has 1
    # number but row 2 has 2 numbers", of what was pasted as a rectangle
    ("1,2\n3.5,4", "row 1, number 1: '1,2' has a comma inside; write 1.2 for one number"),
    ("d1,d2\n1,2\n3,4", "row 2, number 1: '1,2' has a comma inside"),
    # tabs on one row, spaces on another: "row 2 has 1 number" of a row of three
    ("0.5\t0.5\t0.5\n1 2 3", "row 1 is split by tabs but row 2 by spaces: split every row"),
    ("1 2 3\n0.5\t0.5\t0.5", "row 2 is split by tabs but row 1 by spaces"),
    # the step table as c copies it: its sum row has empty cells
    ("| key | q·k | α |\n|---|--:|--:|\n| is | 0.3 | 0.5 |\n| sum | | 1.0 |",
     "row 2, number 1 is empty"),
])
def test_a_broken_block_says_where(text: str, says: str):
    with pytest.raises(BlockError, match=says):
        read_block(text)


def _paste(app, matrix: str, text: str) -> None:
    app.screen.query_one(f"#grid-{matrix}").post_message(events.Paste(text))


def _messages(app) -> str:
    return " | ".join(str(n.message) for n in notifications(app))


async def test_a_block_fills_k_from_the_cursor_recomputes_and_undoes_in_one_step():
    async with make_app().run_test(size=(100, 30)) as pilot:
        app = pilot.app
        await pilot.press("tab")  # K
        await pilot.press("down")  # the cursor on the second key, d1
        before = app.screen.workspace
        _paste(app, "k", "9\t8\n7\t6")
        await pilot.pause()
        ws = app.screen.workspace
        assert ws.k == ((0.4, 0.5, 0.6), (9.0, 8.0, 0.3), (7.0, 6.0, 0.8))
        assert ws.q == before.q and ws.v == before.v
        steps = attend(ws.q, ws.k, ws.v, mask=ws.mask, scale=ws.scale)
        table = app.screen.query_one(StepTable)
        assert [table.cell_text(j, 3) for j in range(3)] == [num(float(a))
                                                           for a in steps.weights[0]]
        assert "Pasted 2×2 numbers into K from the·d1" in _messages(app)
        await pilot.press("u")
        await pilot.pause()
        assert app.screen.workspace == before


@pytest.mark.parametrize(("text", "says"), [
    ("1 2 3 4", "1×4 numbers do not fit: from row 1, column 1, Q has room for 1×3"),
    ("1 2\n3 4", "2×2 numbers do not fit"),
    ("1 2\n3", "row 1 has 2 numbers but row 2 has 1 number"),
    ("0.1 abc", "number 2: 'abc' is not a number"),
])
async def test_a_block_that_does_not_fit_or_read_changes_nothing(text: str, says: str):
    async with make_app().run_test(size=(100, 30), notifications=True) as pilot:
        app = pilot.app
        before = app.screen.workspace
        _paste(app, "q", text)
        await pilot.pause()
        assert app.screen.workspace == before
        assert says in _messages(app)
        assert "Nothing pasted" in _messages(app)
        assert app.screen.query_one("#editor-q", MatrixEditor).editing is None


async def test_one_copied_value_with_its_line_break_is_typed_and_taken():
    async with make_app().run_test(size=(100, 30)) as pilot:
        app = pilot.app
        _paste(app, "q", "0.75\n")
        await pilot.pause()
        editor = app.screen.query_one("#editor-q", MatrixEditor)
        assert editor.buffer.text == "0.75"
        await pilot.press("enter")
        await pilot.pause()
        assert app.screen.workspace.q[0][0] == 0.75


async def test_a_decimal_comma_is_refused_with_the_point_form():
    async with make_app().run_test(size=(100, 30)) as pilot:
        app = pilot.app
        _paste(app, "q", "1,5")
        await pilot.pause()
        await pilot.press("enter")
        await pilot.pause()
        editor = app.screen.query_one("#editor-q", MatrixEditor)
        assert "write 1.5, with a point" in editor.message
        assert app.screen.workspace.q[0][0] == 0.1


async def test_text_pasted_into_a_cell_being_typed_shows_its_line_breaks():
    async with make_app().run_test(size=(100, 30)) as pilot:
        app = pilot.app
        await pilot.press("enter")  # open the cell: a paste now is text in it, never a block
        _paste(app, "q", "1\n2")
        await pilot.pause()
        editor = app.screen.query_one("#editor-q", MatrixEditor)
        assert editor.buffer.text == "1\n2"
        assert "1␊2" in screen_text(app)
        await pilot.press("enter")
        await pilot.pause()
        assert editor.has_class("-invalid") and app.screen.workspace.q[0][0] == 0.1
        # said as two numbers for the grid, not "not a number (try 0.5, …)"
        assert "is 2 numbers, and a cell takes one: Escape, then paste them on the grid" in \
            editor.message


def test_a_long_run_of_letters_costs_its_length_not_its_square():
    # "[" and 50,000 letters took about 18 s (a pattern retried from every letter)
    import time

    start = time.perf_counter()
    assert read_block("[" + "a" * 50_000) is None
    assert time.perf_counter() - start < 2.0


async def test_pages_of_words_pasted_on_a_cell_are_refused_at_once():
    async with make_app().run_test(size=(100, 30), notifications=True) as pilot:
        app = pilot.app
        _paste(app, "q", "lorem ipsum " * 1000)
        await pilot.pause()
        editor = app.screen.query_one("#editor-q", MatrixEditor)
        assert editor.editing is None  # not 12,000 characters in a cell's edit line
        assert "Nothing pasted: 11,999 characters are neither a number" in _messages(app)


async def test_full_width_digits_being_typed_keep_the_row_in_its_columns():
    from rich.cells import cell_len

    async with make_app().run_test(size=(100, 30)) as pilot:
        app = pilot.app
        await pilot.press("enter")
        _paste(app, "q", "１２３４５６")
        await pilot.pause()
        grid = app.screen.query_one("#grid-q")
        line = grid.render_line(1)
        assert sum(cell_len(seg.text) for seg in line) == grid.scrollable_content_region.width
        assert line.text.split()[-2:] == ["0.2", "0.3"]  # the other cells where they were


async def test_a_5000_digit_number_pasted_on_a_cell_is_called_a_number_too_long():
    digits = "1234567890" * 500
    async with make_app().run_test(size=(100, 30), notifications=True) as pilot:
        app = pilot.app
        _paste(app, "q", digits)
        await pilot.pause()
        editor = app.screen.query_one("#editor-q", MatrixEditor)
        assert editor.editing is None and app.screen.workspace.q[0][0] == 0.1
        said = _messages(app)
        assert "is a number, but too long (5,000 characters; a cell takes 64)" in said
        assert "neither a number" not in said


@pytest.mark.parametrize(("text", "number"), [
    ("1234567890" * 500, True),
    ("0." + "3" * 70, True),
    ("-" + "9" * 80 + "e-3", True),
    ("1" * 40 + "/" + "3" * 40, True),
    ("１２３" * 30, True),  # full-width digits are digits
    ("lorem ipsum " * 10, False),
    ("12" * 40 + "x", False),
])
def test_a_long_paste_says_whether_it_was_one_number(text, number):
    from attn_tui.core.parse import parse_cell
    from attn_tui.core.paste import paste_too_long

    said = paste_too_long(text)
    assert ("is a number, but too long" in said) is number
    assert ("neither a number nor a block" in said) is not number
    assert ("is a number, but too long" in parse_cell(text).error) is number
