"""Everything a learner might type or paste into a cell: accepted with a documented meaning, or
refused with a message. Never a crash, never a changed value on refusal."""

from __future__ import annotations

import pytest
from textual import events

from attn_tui.core.parse import parse_cell
from attn_tui.tui.app import make_app
from attn_tui.tui.widgets.matrix_editor import MatrixEditor

ACCEPTED = {
    "0.5": 0.5, "-3": -3.0, ".5": 0.5, "5.": 5.0, "+2": 2.0, "1e-3": 0.001, "2.5E2": 250.0,
    "−2": -2.0,  # Unicode minus
    "1/3": 1 / 3, "-2/8": -0.25, "½": 0.5, "１２": 12.0,  # full-width digits
    "١٢": 12.0,  # Arabic-Indic digits
    "  7  ": 7.0, "-0": 0.0, "1e6": 1e6, "-1e6": -1e6, "0.000001": 1e-6,
}
REFUSED = [
    "hello", "nan", "NaN", "-nan", "inf", "-inf", "Infinity", "1e400", "-1e400", "1e-400",
    "", " ", "\t", "--1", "1..2", "+", "-", ".", "0x10", "1_000", "1,5", "1 2", "e5", "1e",
    "1/0", "1/", "/2", "2e6", "1000001", "x" * 10_000, "\x00", "\x1b[31m1", "1\x07",
    "\x1b[2J", "٫٥", "1/3/3", "(1)", "1+1", "√2", "π",
    "[/]", "1[b]", "[red]2",  # text that looks like markup is shown as typed
    # NFKC made 22, 102, 11/2 and 1/22 of these: a number of its own beside digits
    "2²", "10²", "1½", "1/2²", "10⁻³", "2₂",
    "2⅟", "1⳽", "1 2⅟",  # a fraction sign NFKC leaves whole: these raised, and the app ended
]


def test_the_corpus_is_big_enough():
    assert len(ACCEPTED) + len(REFUSED) >= 30


@pytest.mark.parametrize(("text", "value"), ACCEPTED.items())
def test_accepted_with_its_meaning(text: str, value: float):
    parsed = parse_cell(text)
    assert parsed.ok, parsed.error
    assert parsed.value == pytest.approx(value, rel=1e-15)


@pytest.mark.parametrize("text", REFUSED)
def test_refused_with_a_message(text: str):
    parsed = parse_cell(text)
    assert parsed.value is None
    assert parsed.error and len(parsed.error) < 120
    assert "\x1b" not in parsed.error and "\x00" not in parsed.error  # shown escaped, one line
    assert "\n" not in parsed.error


@pytest.mark.parametrize(("text", "says"), [
    # a block pasted into a cell being typed: "'1 2\r3 4' is not a number (try 0.5, …)"
    ("1 2\r3 4", "'1 2\\r3 4' is 4 numbers, and a cell takes one: Escape, then paste them "
                 "on the grid"),
    ("0.1, 0.2", "'0.1, 0.2' is 2 numbers, and a cell takes one: Escape, then paste them on "
                 "the grid"),
])
def test_several_numbers_in_one_cell_are_said_to_go_on_the_grid(text: str, says: str):
    assert parse_cell(text) == (None, says)
    # a lab's field has no grid to paste on
    assert parse_cell(text, cell_limit=False).error.endswith(", and this takes one")


@pytest.mark.parametrize(("text", "says"), [
    ("2²", "'2²' is not a number: ² as a power is not read; type its value (4)"),
    ("10⁻³", "'10⁻³' is not a number: ⁻³ as a power is not read; type its value (0.001)"),
    ("1½", "'1½' is not a number: ½ beside other digits is not read; write 1.5"),
    ("−12⅓", "'−12⅓' is not a number: ⅓ beside other digits is not read; write -37/3"),
    # the value meant, exactly, and only where a cell could hold it
    ("-2²", "'-2²' is not a number: ² as a power is not read; type its value (-4)"),
    ("3⁻¹", "'3⁻¹' is not a number: ⁻¹ as a power is not read; type its value (1/3)"),
    ("2⁻¹⁰", "'2⁻¹⁰' is not a number: ⁻¹⁰ as a power is not read; type its value "
             "(0.0009765625)"),
    ("10⁷", "'10⁷' is not a number: ⁷ as a power is not read; type its value"),
    ("10⁻⁴⁰⁰", "'10⁻⁴⁰⁰' is not a number: ⁻⁴⁰⁰ as a power is not read; type its value"),
    # its digits were all built before any check: 16 s, or for ever, the screen frozen
    ("1e9999999²", "'1e9999999²' is not a number: ² as a power is not read; type its value"),
    ("1e999999⁶⁴", "'1e999999⁶⁴' is not a number: ⁶⁴ as a power is not read; type its value"),
])
def test_a_power_or_fraction_sign_beside_digits_names_the_value_meant(text: str, says: str):
    assert parse_cell(text) == (None, says)
    assert parse_cell(text, cell_limit=False) == (None, says)  # a lab's field reads it alike


@pytest.mark.parametrize("text", ["2" + "²" * 5000, "1" * 5000 + "½", "1" * 400 + "½"])
def test_a_long_paste_with_a_number_sign_is_refused_for_its_length(text: str):
    # int() of over 4,300 digits, or a float of 400, raised on the paste's way in
    from attn_tui.core.parse import one_number, too_long

    assert not one_number(text)
    assert parse_cell(text).error == f"too long ({len(text):,} characters): type one number"
    assert too_long(text) == parse_cell(text).error


@pytest.mark.parametrize("text", ["x" * 10_000, "\x1b[2J\x1b[H", "nan", "1e400", "\x00\x01",
                                  "1[/]", "[b]2", "2⅟", "1 2⅟"])
async def test_pasting_junk_into_the_app_changes_nothing(text: str):
    async with make_app().run_test(size=(80, 24)) as pilot:
        before = pilot.app.screen.workspace
        await pilot.press("enter")
        editor = pilot.app.screen.query_one("#editor-q", MatrixEditor)
        editor.grid.post_message(events.Paste(text))
        await pilot.pause()
        await pilot.press("enter")
        await pilot.pause()
        assert pilot.app.screen.workspace == before
        assert editor.has_class("-invalid")
        await pilot.press("escape")
        await pilot.pause()
        assert editor.editing is None and not editor.has_class("-invalid")


async def test_brackets_typed_into_a_cell_are_text_not_markup():
    async with make_app().run_test(size=(80, 24)) as pilot:
        editor = pilot.app.screen.query_one("#editor-q", MatrixEditor)
        await pilot.press("1", "left_square_bracket", "slash", "right_square_bracket")
        await pilot.pause()
        assert "1[/]" in editor.border_subtitle.replace("\\", "")
        await pilot.press("enter")
        await pilot.pause()
        assert "'1[/]'" in editor.message and editor.has_class("-invalid")
        await pilot.press("tab")  # leaving the cell keeps the refused text and its message
        await pilot.pause()
        assert editor.buffer.text == "1[/]" and editor.has_class("-invalid")


@pytest.mark.parametrize(("text", "says"), [
    ("1,000,000,000", "'1,000,000,000' is too large: keep |x| at most 1e6"),
    ("-2,000,000", "'-2,000,000' is too large: keep |x| at most 1e6"),
    ("1,000,000", "'1,000,000' is not a number here: write 1000000"),
    ("2,500", "'2,500' is not a number here: write 2500 (or 2.500, with a point)"),
])
def test_a_grouped_number_is_told_a_form_the_cell_takes(text: str, says: str):
    """A cell given 1,000,000,000 was told to write 1000000000, which it then refused as too
    large. A lab's field (no cell limit) is still told the plain form."""
    assert parse_cell(text) == (None, says)
    plain = text.replace(",", "")
    assert parse_cell(text, cell_limit=False).error.startswith(
        f"'{text}' is not a number here: write {plain}")
    if "write" in says:  # what it is told to write, the cell takes
        assert parse_cell(plain).ok
