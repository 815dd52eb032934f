"""The precision lab under Pilot: default numbers, the multiplier, seed, backend, refusals."""

from __future__ import annotations

import pytest
from lab_pilot import lab_app, run_action, settle

from attn_tui.compute.precision import compare_dtypes
from attn_tui.tui.screens.labs.precision_lab_screen import sci
from attn_tui.tui.widgets.text_table import TextTable

torch = pytest.importorskip("torch")


def _softmax(app) -> TextTable:
    return app.screen.query_one("#softmax-table", TextTable)


def _dtypes(app) -> TextTable:
    return app.screen.query_one("#dtype-table", TextTable)


async def test_defaults() -> None:
    async with lab_app("precision").run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        s = _softmax(pilot.app)
        assert list(s.row_labels) == ["float64", "float32", "float16", "bfloat16"]
        assert s.column(0) == ["709.78", "88.72", "11.09", "88.72"]
        assert s.column(2)[:2] == ["0.3473", "0.3473"] and s.column(3)[0] == "0.3473"
        assert not s.highlights  # nothing overflowed
        d = _dtypes(pilot.app)
        assert list(d.row_labels) == ["float64 (ref)", "float32", "float16 (torch)",
                                      "bfloat16 (torch)"]
        expected = compare_dtypes(1, 0, "numpy")
        assert d.column(1)[1:] == [sci(r.weights) for r in expected[1:]]
        lecture = str(pilot.app.screen.query_one("#lecture-text").render())
        assert "float32: allclose False" in lecture and "float64: allclose True" in lecture
        assert "3.24e-08" in lecture


async def test_large_scores_break_the_naive_softmax_only() -> None:
    async with lab_app("precision").run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await run_action(pilot, "set_multiplier(100)")
        s = _softmax(pilot.app)
        assert s.column(1) == ["2.688e+43", "inf", "inf", "inf"]
        assert s.column(2) == ["1.0000", "nan", "nan", "nan"]
        assert s.column(3) == ["1.0000"] * 4
        assert {(1, 2), (2, 2), (3, 2)} <= s.highlights
        caption = str(pilot.app.screen.query_one("#softmax-caption").render())
        assert "NaN in float32, float16, bfloat16" in caption
        await run_action(pilot, "set_multiplier(1000)")  # past float64's 709.78 as well
        assert _softmax(pilot.app).column(2) == ["nan"] * 4


async def test_float16s_naive_weights_all_0_are_marked_and_said() -> None:
    async with lab_app("precision").run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await run_action(pilot, "set_multiplier(11)")
        s = _softmax(pilot.app)
        assert s.column(1)[2] != "inf" and s.column(2)[2] == "0.0000" and (2, 2) in s.highlights
        caption = str(pilot.app.screen.query_one("#softmax-caption").render())
        assert caption.startswith("In float16 each exp still fits but their sum does not: "
                                  "Σ exp(z) is inf, so every naive weight is x / inf = 0.")
        assert "No naive exp or sum overflows" not in caption


async def test_plus_walks_the_multiplier_ladder() -> None:
    async with lab_app("precision").run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await pilot.press("plus", "plus", "plus", "plus")  # 1 -> 2 -> 5 -> 10 -> 20
        await settle(pilot)
        assert pilot.app.screen.settings.multiplier == 20
        assert _softmax(pilot.app).column(2)[2] == "nan"  # float16: 20 > 11.09
        assert _softmax(pilot.app).column(2)[1] != "nan"  # float32: 20 < 88.72


async def test_seed_and_backend() -> None:
    async with lab_app("precision").run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await run_action(pilot, "set_seed(3)")
        expected = compare_dtypes(1, 3, "numpy")
        assert _dtypes(pilot.app).column(0)[1] == sci(expected[1].scores)
        await run_action(pilot, "set_backend('torch')")
        assert "on torch" in pilot.app.screen.query_one("#dtype-box").border_title
        expected = compare_dtypes(1, 3, "torch")
        assert _dtypes(pilot.app).column(0)[1] == sci(expected[1].scores)


@pytest.mark.parametrize(
    ("action", "words"),
    [("set_multiplier(0)", "between 0.001 and"), ("set_multiplier(-5)", "between"),
     ("set_backend('jax')", "not one of")],
)
async def test_bad_values_are_refused(action: str, words: str) -> None:
    async with lab_app("precision").run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await run_action(pilot, action)
        assert words in pilot.app.screen.message
        assert pilot.app.screen.settings.multiplier == 1
        assert _softmax(pilot.app).column(2)[0] == "0.3473"


async def test_scores_past_float16s_range_are_explained() -> None:
    async with lab_app("precision").run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await run_action(pilot, "set_multiplier(70000)")
        s = _softmax(pilot.app)
        assert s.column(3)[2] == "nan" and (2, 3) in s.highlights
        assert s.column(3)[0] == "1.0000"
        caption = str(pilot.app.screen.query_one("#softmax-caption").render())
        assert "In float16 the scores themselves are too large to store" in caption
        assert caption.endswith("stays within ε wherever the scores can be stored.")
        d = _dtypes(pilot.app)
        assert "overflow" in d.column(3)[2]
        assert "overflows float16" in str(pilot.app.screen.query_one("#dtype-caption").render())


async def test_an_inf_or_nan_difference_is_marked_not_only_coloured() -> None:
    # scores × 10000: float16's row read "inf nan nan ›NO", and only NO carried the mark
    async with lab_app("precision").run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        await run_action(pilot, "set_multiplier(10000)")
        d = _dtypes(pilot.app)
        row = d.row_labels.index("float16 (torch)")
        assert d.column(0)[row] == "inf" and d.column(3)[row] == "NO"
        assert {(row, j) for j in range(4)} <= d.highlights
        assert not any(r == 0 for r, _ in d.highlights)  # float64, the reference: nothing



async def test_without_torch_the_install_hint_is_drawn_whole(monkeypatch) -> None:
    # markup read [torch] as a style: the lab said pip install 'attn-tui'
    import sys

    from screen_text import screen_text

    from attn_tui.compute import backend

    monkeypatch.setitem(sys.modules, "torch", None)
    monkeypatch.setattr(backend, "torch_available", lambda: False, raising=False)
    async with lab_app("precision").run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        text = "".join(screen_text(pilot.app).split())
        assert "pipinstall'attn-tui[torch]'" in text
        # numpy's draws: both lines print True, and the words explained a False
        lecture = str(pilot.app.screen.query_one("#lecture-text").render())
        assert "float32: allclose True" in lecture and "Both pass with these draws" in lecture


async def test_plus_at_the_ladders_top_says_why_nothing_moved() -> None:
    async with lab_app("precision").run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await run_action(pilot, "set_multiplier(10000)")
        await pilot.press("plus")
        await settle(pilot)
        assert pilot.app.screen.settings.multiplier == 10000
        assert pilot.app.screen.message.startswith("scores ×: the steps go from 1 to 10000")
        # PgDn at the bottom rung: the words had named ↑↓, keys not pressed
        await run_action(pilot, "set_multiplier(1)")
        bar = pilot.app.screen.query_one("#controls")
        bar.field = [f.key for f in bar.fields].index("multiplier")
        bar.focus()
        await pilot.press("pagedown")
        await settle(pilot)
        assert pilot.app.screen.message.startswith("scores ×: the steps go from 1 to 10000")


@pytest.mark.parametrize("size", [(80, 60), (200, 60)])
async def test_the_reason_float16_has_no_row_is_readable_on_screen(size) -> None:
    """Scores × 100000: the float16 row read `float16 (torch)  —  —  —Q x 100000…` even at
    200 columns; the reason was cut off in its cell."""
    from screen_text import screen_text

    async with lab_app("precision").run_test(size=size) as pilot:
        await settle(pilot)
        await run_action(pilot, "set_multiplier(100000)")
        text = " ".join(screen_text(pilot.app).split())
        assert "Q × 100000 overflows float16 (its largest number is 65504)" in text
        row = next(line for line in screen_text(pilot.app).splitlines()
                   if "float16 (torch)" in line and "—" in line)
        assert "…" not in row and "›overflow" in row
        assert " —Q" not in row


async def test_a_nan_stable_error_carries_the_mark_the_legend_promises() -> None:
    async with lab_app("precision").run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        await run_action(pilot, "set_multiplier(100000)")
        s = _softmax(pilot.app)
        row = list(s.row_labels).index("float16")
        assert s.column(4)[row] == "nan" and (row, 4) in s.highlights


async def test_float64_rounding_is_said_to_be_2_to_the_29_times_finer() -> None:
    import numpy as np

    ratio = np.finfo(np.float32).eps / np.finfo(np.float64).eps
    assert ratio == 2**29 and f"{ratio:.1e}" == "5.4e+08"
    async with lab_app("precision").run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        lecture = str(pilot.app.screen.query_one("#lecture-text").render())
        assert "2²⁹ ≈ 5.4×10⁸ times finer" in lecture and "billion" not in lecture


async def test_a_step_refused_at_the_end_is_not_left_standing_under_the_next_field():
    """↓ at the smallest multiplier said "scores × is already the smallest, 0.001", and it
    stayed there after → picked the seed, as if said of it."""
    async with lab_app("precision").run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        screen = pilot.app.screen
        await run_action(pilot, "set_multiplier(0.001)")
        await settle(pilot)
        await pilot.press("down")
        await settle(pilot)
        assert screen.message.startswith("scores × is already the smallest")
        await pilot.press("right")
        await settle(pilot)
        assert screen.message == ""
