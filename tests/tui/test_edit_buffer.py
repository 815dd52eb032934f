"""The in-place cell editor's text and caret."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from attn_tui.tui.widgets.edit_buffer import EditBuffer


def test_opening_with_the_old_value_selected_replaces_on_first_key():
    buf = EditBuffer.opened_with("0.25", replace=True)
    buf.insert("7")
    assert (buf.text, buf.caret) == ("7", 1)


def test_arrows_keep_the_old_value_for_editing():
    buf = EditBuffer.opened_with("0.25", replace=True)
    buf.move("left")
    buf.backspace()
    buf.insert("3")
    assert buf.text == "0.35"


def test_home_end_delete_and_clear():
    buf = EditBuffer.opened_with("12345", replace=False)
    buf.move("home")
    buf.delete()
    buf.move("end")
    buf.backspace()
    assert buf.text == "234"
    buf.clear()
    assert (buf.text, buf.caret) == ("", 0)


def test_shown_keeps_the_caret_in_view_and_escapes_control_characters():
    buf = EditBuffer.opened_with("1234567890", replace=False)
    assert buf.shown(5) == "…890▏"  # cut where the text goes on, marked: never another number
    buf.move("home")
    assert buf.shown(5) == "▏123…"
    buf.move("right"), buf.move("right"), buf.move("right"), buf.move("right")
    assert buf.shown(5) == "…34▏…"
    # opened on its old value (selected): the number's start, as it is read
    assert EditBuffer.opened_with(repr(1 / 3), replace=True).shown(5) == "0.33…"
    assert EditBuffer.opened_with("-123456.7", replace=True).shown(5) == "-123…"
    assert EditBuffer.opened_with("-1234", replace=True).shown(5) == "-1234"
    # a control character shows as its symbol, never as itself (an escape would reach the
    # terminal): a pasted line break as ␊, a tab as ␉, ESC as ␛
    assert EditBuffer.opened_with("\x1b[2J", replace=True).shown(10) == "␛[2J"
    assert EditBuffer.opened_with("1\n2\t3\x7f", replace=True).shown(10) == "1␊2␉3␡"


def test_cell_text_always_fits_and_never_hides_a_nonzero_value():
    from attn_tui.tui.widgets.matrix_editor import cell_text

    for x in (-0.915, 0.0255, -123456.5, 1e6, -1e6, 1 / 3, -0.07, 1e-6, -1e-6, 0.5,
              -0.0001, -0.0005, -1234.5, 12345.6):  # -0.0001 showed as 0.0001
        text = cell_text(x)
        assert len(text) <= 5, (x, text)
        assert text != "0"
        assert abs(float(text) - x) <= abs(x) * (0.06 if abs(x) < 1e4 else 0.25), (x, text)
    assert cell_text(0.0) == "0" and cell_text(-0.0) == "0"


def test_a_value_rounded_to_a_whole_number_keeps_a_decimal_where_one_fits():
    # a real head's -0.99863 showed as -1, read as a whole number typed
    from attn_tui.tui.widgets.matrix_editor import cell_text

    assert [cell_text(x) for x in (-0.99863, 0.99999, 9.9996, 99.996)] == \
        ["-1.0", "1.0", "10.0", "100.0"]
    assert [cell_text(x) for x in (-1.0, 3.0, 1234.56, 1e6)] == ["-1", "3", "1235", "1e6"]
    # as many decimals as fit: three significant digits showed 100.25 as "100.0", 100.75 as
    # "101.0" and 12345.6 as "1.2e4"
    assert [cell_text(x) for x in (100.25, 100.75, 12345.6)] == ["100.2", "100.8", "12346"]


# five characters hold -1e-9 but not -1e-10: smaller values show as ≈0, with the full value on
# the editor's border when the cursor is on them (and Enter opens the cell with it)
@given(st.floats(min_value=-1e6, max_value=1e6).filter(lambda x: abs(x) >= 1e-9))
def test_a_typed_value_keeps_its_sign_and_is_rounded_not_cut(x: float):
    from attn_tui.tui.widgets.matrix_editor import cell_text

    text = cell_text(x)
    assert len(text) <= 5, text
    back = float(text)
    assert back != 0 and (back < 0) == (x < 0), text
    mantissa, _, exp = text.partition("e")
    unit = 10.0 ** (int(exp or 0) - len(mantissa.partition(".")[2]))
    assert abs(back - x) <= unit / 2 * (1 + 1e-9), text


@given(st.floats(min_value=-1e-10, max_value=1e-10).filter(lambda x: 0 < abs(x) < 1e-9
                                                           and cell_text_len(x) > 5))
def test_a_value_too_small_for_five_columns_is_near_zero_not_cut(x: float):
    # -1e-300 was cut to "-1e-3…", which reads as -0.001
    from attn_tui.tui.widgets.matrix_editor import cell_text

    assert cell_text(x) == ("-≈0" if x < 0 else "≈0")


def cell_text_len(x: float) -> int:
    mantissa, _, exp = f"{x:.0e}".partition("e")
    return len(f"{mantissa}e{int(exp)}")
