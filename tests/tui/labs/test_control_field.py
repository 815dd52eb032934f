"""A lab control's rules: what it accepts, how it steps, and the words it refuses with."""

from __future__ import annotations

import pytest
from lab_pilot import lab_app, settle

from attn_tui.tui.widgets.control_field import Field

DK = Field("d_k", "d_k", "pow2", 1, 4096)
KEYS = Field("keys", "keys", "int", 2, 64)
TEMP = Field("temperature", "temp", "float", 0.05, 20, step=0.1, places=2)
MULT = Field("m", "scores ×", "ladder", 0.001, 100_000, choices=(1, 2, 5, 10))
MASK = Field("causal", "causal", "bool")
PRESET = Field("preset", "preset", "choice", choices=("a", "b", "c"))
N = Field("n", "n", "int", 1, 65536, geometric=True)


def test_pow2_steps_double_and_halve_within_range() -> None:
    assert DK.stepped(1024, 1) == 2048 and DK.stepped(1024, -1) == 512
    assert DK.stepped(4096, 1) == 4096 and DK.stepped(1, -1) == 1


def test_a_ladder_never_steps_the_wrong_way_from_a_typed_value() -> None:
    # 0.5 typed, ↓ went to 1 (up); 50000 typed, ↑ went to 10 (down); at the top it said
    # "already the smallest"
    assert MULT.stepped(0.5, -1) == 0.5 and MULT.stepped(0.5, 1) == 1
    assert MULT.stepped(50_000, 1) == 50_000 and MULT.stepped(50_000, -1) == 10
    assert MULT.at_end(10, 1) == ("scores ×: the steps go from 1 to 10; type a value for more "
                                  "(0.001 to 100000)")
    assert MULT.at_end(100_000, 1) == "scores × is already the largest, 100000"
    assert DK.at_end(4096, 1) == "d_k is already the largest, 4096"
    assert DK.at_end(1, -1) == "d_k is already the smallest, 1"


def test_a_value_past_the_range_is_never_stepped_the_wrong_way() -> None:
    # a run saved with --layers 6 opens with L 6 in a lab whose ↑↓ reach 4: ↑ went to 4
    layers = Field("layers", "L", "int", 1, 4)
    assert layers.stepped(6, 1) == 6 and layers.stepped(6, -1) == 4
    assert KEYS.stepped(1, -1) == 1 and KEYS.stepped(1, 1) == 2
    assert DK.stepped(8192, 1) == 8192 and DK.stepped(8192, -1) == 4096


@pytest.mark.parametrize(("value", "words"), [(100, "power of two"), (8192, "between 1 and 4096"),
                                             (2.5, "whole number"), ("x", "not a number"),
                                             (True, "not a number")])
def test_pow2_refusals(value, words) -> None:
    stored, error = DK.check(value)
    assert stored is None and words in error


def test_int_float_ladder_bool_choice() -> None:
    assert KEYS.check(8) == (8, None) and KEYS.check(8.0) == (8, None)
    assert TEMP.stepped(1.0, 1) == 1.1 and TEMP.stepped(0.1, -1) == 0.05
    assert MULT.stepped(2, 1) == 5 and MULT.stepped(3, -1) == 2 and MULT.stepped(10, 1) == 10
    assert MULT.check(3.7) == (3.7, None)
    assert MASK.stepped(False, 1) is True and MASK.text(True) == "on"
    assert PRESET.stepped("c", 1) == "a" and PRESET.stepped("custom", 1) == "a"
    assert "not one of a, b, c" in PRESET.check("z")[1]
    assert N.stepped(512, 1) == 1024 and N.check(1000) == (1000, None)


@pytest.mark.parametrize(("field", "text", "value"), [(DK, "2048", 2048), (KEYS, " 16 ", 16),
                                                      (TEMP, "0.5", 0.5), (MULT, "1e3", 1000.0),
                                                      (N, "1,000", 1000), (KEYS, "16.0", 16),
                                                      (KEYS, "１６", 16), (DK, "1024.", 1024)])
def test_typed_values(field, text, value) -> None:
    assert field.parse(text) == (value, None)


@pytest.mark.parametrize(("field", "text", "words"), [(DK, "abc", "not a whole number"),
                                                      (DK, "3", "power of two"),
                                                      (TEMP, "nan", "not allowed"),
                                                      (TEMP, "50", "between 0.05 and 20"),
                                                      # numbers, written otherwise: "not a
                                                      # whole number" before
                                                      (KEYS, "−5", "between 2 and 64; -5 is"),
                                                      (DK, "1e9", "1,000,000,000 is outside"),
                                                      (KEYS, "2.5", "whole number, not 2.5"),
                                                      (KEYS, "1.9999999999999999",
                                                       "whole number, not 1.9999999999999999"),
                                                      (N, "1000.0000000000001",
                                                       "whole number, not 1000.0000000000001"),
                                                      (KEYS, "7/2", "whole number, not 7/2"),
                                                      # cut at 16 with no sign of the cut
                                                      (DK, "abc01e400nan1e-91/3",
                                                       "'abc01e400nan1e-91/3' is not"),
                                                      (DK, "x" * 30, f"'{'x' * 23}…' is not")])
def test_typed_refusals(field, text, words) -> None:
    value, error = field.parse(text)
    assert value is None and words in error


async def test_enter_then_typing_replaces_the_old_value():
    from attn_tui.tui.app import make_app

    app = make_app(lab="precision", confirm_quit=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await pilot.press("c", "enter", "5", "0", "enter")
        await app.workers.wait_for_complete()
        await pilot.pause()
        assert app.screen.settings.multiplier == 50


def test_seed_doubles_and_halves_from_and_to_zero() -> None:
    """PgDn on a seed of 0 went up to 1, and then said 1 was the smallest."""
    seed = Field("seed", "seed", "int", 0, 2**31 - 1)
    assert seed.scaled(0, up=False) == 0
    assert seed.scaled(1, up=False) == 0
    assert seed.scaled(7, up=False) == 3
    assert seed.scaled(0, up=True) == 1  # twice 0 would not move
    assert seed.scaled(5, up=True) == 10
    assert seed.scaled(2**31 - 1, up=True) == 2**31 - 1
    assert KEYS.scaled(3, up=False) == 2  # still never below the field's own floor


def test_out_of_range_messages_name_the_fields_range_and_the_number_as_typed() -> None:
    """1e9 in "scores ×" was refused with the matrix cells' limit (|x| at most 1e6), and a seed
    of 2147483648 was quoted back as 2.14748e+09."""
    seed = Field("seed", "seed", "int", 0, 2**31 - 1)
    assert seed.parse("2147483648")[1] == (
        "seed must be between 0 and 2,147,483,647; 2,147,483,648 is outside")
    assert MULT.parse("1e9")[1] == "scores × must be between 0.001 and 100000; 1000000000 is outside"
    assert TEMP.parse("1e-400")[1] == "temp: '1e-400' is too small to store; type 0 for zero"
    assert "not a number" in TEMP.parse("abc")[1]


def test_a_fields_refusal_speaks_of_the_field_not_of_cells() -> None:
    # "cells take finite numbers only" and "try … -2 …" on a field that refuses negatives
    assert MULT.parse("inf")[1] == "scores ×: 'inf' is not allowed: this takes finite numbers only"
    assert MULT.parse("abc")[1] == "scores ×: 'abc' is not a number (try 0.5, 1e-3 or 1/3)"


@pytest.mark.parametrize("lab", ["scaling", "heads"])
async def test_a_valid_value_typed_after_a_refused_one_clears_the_refusal(lab: str) -> None:
    """-1 Enter on seed said '✗ seed must be between 0 and 2,147,483,647'; a valid 0 Enter (the
    seed it already had) left that on screen."""

    from attn_tui.tui.widgets.control_bar import ControlBar

    async with lab_app(lab).run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        screen = pilot.app.screen
        bar = screen.query_one(ControlBar)
        bar.field = [f.key for f in bar.fields].index("seed")
        await pilot.press("enter", "minus", "1", "enter")
        await settle(pilot)
        assert "seed must be between 0 and 2,147,483,647" in screen.message
        assert bar.editing == "-1"  # kept to mend (it went, and ‹0› came back)
        assert "refused: mend it" in str(screen.query_one(ControlBar).render())
        await pilot.press("backspace", "backspace", "0", "enter")
        await settle(pilot)
        assert screen.message == "" and screen.settings.seed == 0
        assert not screen.query_one("#lab-message").has_class("-shown")


def test_values_from_a_session_file_are_refused_in_one_short_line():
    """A 401-digit seed raised OverflowError in math.isfinite and closed the app; "false" for
    a switch was taken as on; 1e308 was quoted with all 309 digits."""
    seed = Field("seed", "seed", "int", 0, 2**31 - 1)
    value, error = seed.check(10**400)
    assert value is None and error == ("seed must be between 0 and 2,147,483,647; a 401-digit "
                                       "number is outside")
    value, error = seed.check(1e308)
    assert value is None and error.endswith("; a 309-digit number is outside")
    switch = Field("scale", "÷√d_k", "bool")
    assert switch.check("false") == (None, '÷√d_k: "false" is not on or off (true or false)')
    assert switch.check(False) == (False, None) and switch.check(1) == (True, None)
    task = Field("task", "task", "choice", choices=("sort", "reverse"))
    # as the file writes it, its closing quote kept: it read "'xxx…" and "True"
    assert task.check("x" * 500)[1] == f'task: "{"x" * 37}…" is not one of sort, reverse'
    assert Field("keys", "keys", "int", 2, 64).check(True)[1] == "keys: true is not a number"


@pytest.mark.parametrize(("lab", "key", "minus"), [("train", "lr", "minus"),
                                                   ("scaling", "d_k", "minus"),
                                                   ("train", "seed", "−")])
async def test_a_sign_typed_first_starts_the_value_and_is_refused_not_dropped(lab, key, minus):
    """-1 typed on lr set lr 1 and -2 on top d_k set 2, with no word: typing began only at a
    digit, so the sign was dropped."""

    from attn_tui.tui.widgets.control_bar import ControlBar

    async with lab_app(lab).run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        screen = pilot.app.screen
        bar = screen.query_one(ControlBar)
        bar.focus()
        bar.field = [f.key for f in bar.fields].index(key)
        before = getattr(screen.settings, key)
        if minus == "−":  # as the terminal sends U+2212: a character with no key name
            from textual import events

            from attn_tui.tui.textual_compat import character_to_key

            pilot.app.post_message(events.Key(character_to_key(minus), minus))
            await pilot.pause()
            await pilot.press("2")
        else:
            await pilot.press(minus, "2")
        assert bar.editing == ("−2" if minus == "−" else "-2")
        await pilot.press("enter")
        await settle(pilot)
        assert getattr(screen.settings, key) == before
        assert "-2 is outside" in screen.message or "power of two" in screen.message, \
            screen.message


async def test_where_minus_is_a_key_of_the_screen_the_bar_leaves_it_to_that_key():
    """The precision lab's - is 'scores ×↓', and the dimensions bar's −1: a sign that began
    typing there would take their key away."""

    from attn_tui.tui.app import make_app
    from attn_tui.tui.widgets.control_bar import ControlBar

    async with lab_app("precision").run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        screen = pilot.app.screen
        bar = screen.query_one(ControlBar)
        bar.focus()
        await pilot.press("plus")
        await settle(pilot)
        up = screen.settings.multiplier
        await pilot.press("minus")
        await settle(pilot)
        assert bar.editing is None and screen.settings.multiplier < up
    async with make_app(preset="random").run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await pilot.press("D", "enter")  # T typed: 8 selected; then out again
        await pilot.press("escape")
        bench = pilot.app.workbench()
        t = bench.workspace.t_k
        await pilot.press("minus")
        await pilot.pause()
        assert bench.workspace.t_k == t - 1


async def test_where_minus_is_the_screens_key_a_digit_after_it_types_a_negative_number():
    """scores × in the precision lab: - 5 Enter set 5 (- stepped down, then 5 was typed),
    with no word about the sign."""
    from attn_tui.tui.widgets.control_bar import ControlBar

    async with lab_app("precision").run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        screen = pilot.app.screen
        bar = screen.query_one(ControlBar)
        bar.focus()
        await pilot.press("plus", "plus")
        await settle(pilot)
        await pilot.press("minus")
        await settle(pilot)
        stepped = screen.settings.multiplier
        await pilot.press("5")
        assert bar.editing == "-5"
        await pilot.press("enter")
        await settle(pilot)
        assert screen.settings.multiplier == stepped
        assert "-5 is outside" in screen.message, screen.message
        await pilot.press("escape", "minus", "right", "left", "5")  # not right after the minus
        assert bar.editing == "5"


async def test_a_value_typed_long_enough_to_wrap_the_bar_keeps_the_hint_below_it():
    # 24 digits wrapped the fields onto a second line, which took the hint's: "Enter sets
    # it, Escape cancels" (and, refused, how to get out) was gone while it was needed
    from screen_text import screen_text

    from attn_tui.tui.widgets.control_bar import ControlBar

    async with lab_app("scaling").run_test(size=(80, 24)) as pilot:
        screen, bar = await _on_the_seed(pilot)
        bar.focus()
        await pilot.press(*"9" * 24)
        await pilot.pause()
        assert bar.size.height == 3
        assert "typing: Enter sets it, Escape cancels" in screen_text(pilot.app)
        await pilot.press("enter")
        await settle(pilot)
        assert "refused: mend it and Enter" in screen_text(pilot.app)
        await pilot.press("escape")
        await settle(pilot)
        assert screen.query_one(ControlBar).size.height == 2


async def test_a_digit_on_a_named_choice_says_what_the_field_takes():
    # 3 on preset ‹chapter› did nothing, and said nothing
    from attn_tui.tui.widgets.control_bar import ControlBar

    async with lab_app("model").run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        screen = pilot.app.screen
        screen.query_one(ControlBar).focus()
        before = screen.settings
        await pilot.press("3")
        await settle(pilot)
        assert screen.settings == before
        assert screen.message.startswith("preset takes one of chapter, "), screen.message
        assert screen.message.endswith(": ↑↓ steps through them.")


async def _on_the_seed(pilot):
    """The scaling lab settled, its bar on the seed field: (screen, bar)."""
    from attn_tui.tui.widgets.control_bar import ControlBar

    await settle(pilot)
    screen = pilot.app.screen
    bar = screen.query_one(ControlBar)
    bar.field = [f.key for f in bar.fields].index("seed")
    return screen, bar


async def test_escape_after_a_refusal_takes_the_refusal_down_with_the_typing() -> None:
    """The ✗ line stayed after Esc had cancelled, and over the next value typed."""
    async with lab_app("scaling").run_test(size=(80, 24)) as pilot:
        screen, bar = await _on_the_seed(pilot)
        await pilot.press(*"99999999999999999999", "enter")
        await settle(pilot)
        assert "seed must be between" in screen.message and bar.editing is not None
        await pilot.press("escape")
        await settle(pilot)
        assert bar.editing is None and screen.message == ""
        assert not screen.query_one("#lab-message").has_class("-shown")


async def test_escape_on_typing_nothing_refused_leaves_the_screens_words() -> None:
    async with lab_app("scaling").run_test(size=(80, 24)) as pilot:
        screen, bar = await _on_the_seed(pilot)
        screen.say("a note of the lab's own")
        await pilot.press("5", "escape")
        await settle(pilot)
        assert bar.editing is None and screen.message == "a note of the lab's own"


def test_a_float_typed_finer_than_the_fields_places_is_shown_as_typed() -> None:
    # temp 0.055 was taken as 0.055 but drawn as 0.06, so the bar and the numbers disagreed
    assert TEMP.text(0.055) == "0.055" and TEMP.text(1.23456789) == "1.23457"
    assert TEMP.text(0.5) == "0.50" and TEMP.text(1.0 + 0.1 + 0.1) == "1.20"


def test_an_empty_whole_number_field_says_empty_as_a_cell_does() -> None:
    # ctrl+u, Enter on steps: "steps: '' is not a whole number"
    steps = Field("steps", "steps", "int", 1, 1_000_000)
    assert steps.parse("")[1] == "steps: empty: type a number (Escape keeps the old value)"
    assert steps.parse("  ")[1] == "steps: empty: type a number (Escape keeps the old value)"
    assert steps.parse("x")[1] == "steps: 'x' is not a whole number"
    assert steps.parse("2²")[1] == "steps: '2²' is not a whole number"  # not 22


def test_a_ladders_refusal_writes_its_limits_as_they_are_typed() -> None:
    # "lr must be between 1e-08 and 1e+06; 1e-09 is outside": Python's %g, not a learner's
    lr = Field("lr", "lr", "ladder", 1e-8, 1e6, choices=(1e-3, 1e-2))
    assert lr.parse("1e-9")[1] == "lr must be between 1e-8 and 1e6; 1e-9 is outside"
    # the number refused in full: not rounded to the bound it broke
    assert lr.parse("1000000.5")[1].endswith("; 1000000.5 is outside")


@pytest.mark.parametrize("field", [KEYS, DK, TEMP, Field("V", "V", "int", 1, 1_000_000)])
def test_a_number_too_large_to_store_is_outside_the_range_as_any_large_number_is(field) -> None:
    """1e999 read "not a whole number" in V and T, "too large to store" in temp, where 1e9
    read "must be between …; … is outside"."""
    for typed in ("1e999", "-1e999", " 1E400 "):
        value, error = field.parse(typed)
        assert value is None
        assert error == (f"{field.label} must be between {field.text(field.lo_value)} and "
                         f"{field.text(field.hi_value)}; {typed.strip()} is outside")
    assert field.parse("1e9")[1].startswith(f"{field.label} must be between")
