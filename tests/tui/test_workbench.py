"""The workbench driven from the keyboard, checked on the numbers it shows."""

from __future__ import annotations

from dataclasses import replace

import pytest
from screen_text import screen_text
from textual import events

from attn_tui.compute import attend
from attn_tui.core import state
from attn_tui.report.fmt import num
from attn_tui.tui.app import make_app
from attn_tui.tui.screens.workbench_screen import WorkbenchScreen
from attn_tui.tui.textual_compat import app_exception, notifications
from attn_tui.tui.widgets.grid_view import GridView
from attn_tui.tui.widgets.heatmap import Heatmap
from attn_tui.tui.widgets.matrix_editor import MatrixEditor


def bench(app) -> WorkbenchScreen:
    screen = app.screen
    assert isinstance(screen, WorkbenchScreen)
    return screen


async def test_first_screen_shows_the_chapter_example_at_80x24():
    async with make_app().run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        text = screen_text(pilot.app)
        for shown in ("0.3200", "0.1300", "0.4400", "0.1848", "0.0751", "0.2540", "1.2029",
                      "1.0779", "1.2892", "0.3369", "0.3019", "0.3611", "3.5701", "1.0000",
                      "(0.4118, 0.4514, 0.5816)", "1.5811", "1.5850"):
            assert shown in text, shown
        assert "query 'who'" in text
        assert "mask none" in text


@pytest.mark.parametrize("size, layout", [((80, 24), "-side-by-side"), ((72, 24), "-snug"),
                                          ((60, 20), "-stacked"), ((40, 12), "-stacked")],
                         ids=lambda v: f"{v[0]}x{v[1]}" if isinstance(v, tuple) else v)
async def test_narrow_windows_keep_the_alpha_column_in_view(size, layout):
    # side by side, the inputs' 34 columns leave the step table too few for α under 76
    # columns: the inputs give up six, and under 70 the results go below them
    async with make_app().run_test(size=size) as pilot:
        await pilot.pause()
        screen = bench(pilot.app)
        assert screen.has_class(layout)
        text = screen_text(pilot.app)
        header = next(line for line in text.splitlines() if "q·k" in line)
        assert "α" in header, header
        if size[1] >= 20:
            for alpha in ("0.3369", "0.3019", "0.3611"):
                assert alpha in text, alpha
        inputs = screen.query_one("#inputs")
        results = screen.query_one("#results")
        if layout == "-stacked":
            assert results.region.y >= inputs.region.bottom
            assert results.region.width == inputs.region.width == size[0]
        else:
            assert results.region.x >= inputs.region.right


async def test_at_40_columns_the_step_table_narrows_its_cells_and_says_unscaled_shortly():
    async with make_app().run_test(size=(40, 12)) as pilot:
        await pilot.pause()
        await pilot.press("s")  # ÷√d_k off: "unscaled" is a 9-column header
        await pilot.pause()
        header = next(line for line in screen_text(pilot.app).splitlines() if "q·k" in line)
        assert "÷ off" in header and header.rstrip(" │▁▂▃▄▅▆▇█").endswith("α"), header
        await pilot.resize_terminal(80, 24)
        await pilot.pause()
        header = next(line for line in screen_text(pilot.app).splitlines() if "q·k" in line)
        assert "unscaled" in header, header


async def test_masked_first_the_column_after_q_k_is_headed_for_the_mask_it_holds():
    """It read "unscaled" (or ÷2) over dog's −inf, whose q·k is 1.0: −inf is no score divided
    by √d_k, but what the mask gives the softmax."""
    async with make_app(preset="mask").run_test(size=(80, 24)) as pilot:
        await pilot.pause()

        def header() -> str:
            return next(x for x in screen_text(pilot.app).splitlines() if "q·k" in x)

        assert "q·k   masked" in header() and "dog       1.0000     -inf" in screen_text(
            pilot.app)
        await pilot.press("s")
        await pilot.pause()
        assert "q·k  ÷2+mask" in header()
        for _ in range(3):  # the last query hides no key: the column is the scaled score
            await pilot.press("down")
        await pilot.pause()
        assert "q·k       ÷2" in header() and "-inf" not in screen_text(pilot.app)
        await pilot.press("m")  # softmax first: the column holds no −inf, whatever the query
        await pilot.press("up")
        await pilot.pause()
        assert "q·k       ÷2" in header()


async def test_the_layout_follows_the_window_as_it_is_resized():
    async with make_app().run_test(size=(120, 40)) as pilot:
        screen = bench(pilot.app)
        for width, layout in ((64, "-stacked"), (74, "-snug"), (100, "-side-by-side"),
                              (50, "-stacked")):
            await pilot.resize_terminal(width, 24)
            await pilot.pause()
            assert screen.has_class(layout), (width, screen.classes)
            assert "0.3369" in screen_text(pilot.app), width


async def paste(pilot, editor: MatrixEditor, text: str) -> None:
    editor.grid.post_message(events.Paste(text))
    await pilot.pause()


async def _type_into(pilot, keys: list[str]) -> None:
    for key in keys:
        await pilot.press(key)
    await pilot.pause()


async def test_editing_a_query_cell_recomputes_alpha_and_output():
    async with make_app().run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await _type_into(pilot, ["1", "enter"])
        ws = bench(pilot.app).workspace
        assert ws.q == ((1.0, 0.2, 0.3),)
        k = [[0.4, 0.5, 0.6], [0.2, 0.1, 0.3], [0.6, 0.7, 0.8]]
        expected = attend([1.0, 0.2, 0.3], k, k)
        text = screen_text(pilot.app)
        assert "0.6800" in text and "0.9800" in text  # q . k by hand: 0.4 + 0.1 + 0.18, ...
        for a in expected.weights:
            assert num(float(a)) in text
        assert "(" + ", ".join(num(float(x)) for x in expected.output) + ")" in text


async def test_large_and_tiny_numbers_keep_their_sign_and_never_read_as_zero():
    """-1e6 in q made q·k -399999.72, which a 9-wide cell cut to "9999.7200"; -300 made every
    exp below 1e-10, shown as 0.0000 beside α = 1."""
    from attn_tui.tui.widgets.step_table import StepTable

    async with make_app().run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await paste(pilot, bench(pilot.app).query_one("#editor-q", MatrixEditor), "-1e6")
        await _type_into(pilot, ["enter"])
        table = bench(pilot.app).query_one(StepTable)
        steps = bench(pilot.app).steps
        assert table.cell_text(0, 0) == "-4.000e5"
        for row in range(3):
            for col, stage in enumerate(("scores", "scaled")):
                shown = table.cell_text(row, col)
                assert len(shown) < table.cell_width
                assert float(shown) == pytest.approx(float(getattr(steps, stage)[0, row]),
                                                     rel=1e-3)
        assert "-4.000e5" in screen_text(pilot.app)

        await _type_into(pilot, ["enter", "ctrl+u", "minus", "3", "0", "0", "enter"])
        assert bench(pilot.app).workspace.q[0][0] == -300.0
        steps = bench(pilot.app).steps
        for row in range(3):
            exp = float(steps.exp[0, row])
            assert 0 < exp < 1e-10  # 0.0000 in four decimals
            assert float(table.cell_text(row, 2)) == pytest.approx(exp, rel=1e-2)
        assert float(table.cell_text(3, 2)) == pytest.approx(float(steps.exp[0].sum()), rel=1e-2)


async def test_enter_opens_the_current_value_and_escape_cancels():
    async with make_app().run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await pilot.press("right", "enter")
        editor = pilot.app.screen.query_one("#editor-q", MatrixEditor)
        assert editor.buffer.text == "0.2" and editor.editing == (0, 1)
        assert "who·d2 = 0.2" in editor.border_subtitle
        await pilot.press("backspace", "9", "escape")
        await pilot.pause()
        assert bench(pilot.app).workspace.q == ((0.1, 0.2, 0.3),)
        assert editor.editing is None


BAD_INPUTS = [
    "abc", "nan", "NaN", "inf", "-inf", "1e400", "2e6", "-1000001", "--1", "1..2", "+", "0x10",
    "1_000", "1/0", "1e-400", "1,5", "one", "1 2", "e5", ".", "x" * 70,
]


@pytest.mark.parametrize("bad", BAD_INPUTS)
async def test_bad_input_keeps_the_old_value_and_says_why(bad: str):
    async with make_app().run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        before = bench(pilot.app).workspace
        await pilot.press("enter")
        editor = pilot.app.screen.query_one("#editor-q", MatrixEditor)
        await paste(pilot, editor, bad)
        await pilot.press("enter")
        await pilot.pause()
        assert bench(pilot.app).workspace == before
        assert editor.has_class("-invalid")
        assert "Kept 0.1" in editor.message
        assert editor.buffer.text == bad  # what was typed is not thrown away
        # the step table still shows the old numbers
        assert "0.3369" in screen_text(pilot.app)


@pytest.mark.parametrize("shrink", ["[", "<", "preset"])
async def test_a_pending_edit_on_a_cell_that_goes_away_is_dropped(shrink: str):
    """A refused value left pending in K's last row (or column), then the matrix shrinks: the
    next key typed into K crashed (IndexError), or a commit wrote a fifth number into a
    four-column row, and every later compute failed."""
    async with make_app(preset="mask").run_test(size=(100, 30), notifications=True) as pilot:
        await pilot.pause()
        editor = pilot.app.screen.query_one("#editor-k", MatrixEditor)
        editor.grid.focus()
        await pilot.pause()
        await _type_into(pilot, ["end"] if shrink == "<" else ["down", "down", "down"])
        await paste(pilot, editor, "1abc")
        await _type_into(pilot, ["enter", "tab"])  # refused; Tab leaves it pending
        assert editor.editing is not None and editor.has_class("-invalid")
        assert pilot.app.focused is not editor.grid
        if shrink == "preset":
            bench(pilot.app).apply(state.from_preset("one"))
        else:
            await _type_into(pilot, [shrink])  # T−1 or d_k−1, from the next pane
        await pilot.pause()
        assert editor.editing is None and not editor.has_class("-invalid")
        editor.grid.focus()
        await pilot.pause()
        assert any("you were typing into is gone" in n.message
                   for n in notifications(pilot.app))
        await _type_into(pilot, ["5", "enter"])  # a new edit, at the cursor, works
        ws = bench(pilot.app).workspace
        assert len({len(row) for row in ws.k}) == 1  # never ragged
        assert 5.0 in [x for row in ws.k for x in row]
        assert bench(pilot.app).steps is not None and "Not computed" not in screen_text(
            pilot.app)


async def test_empty_cell_is_refused():
    async with make_app().run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await pilot.press("enter", "backspace", "enter")
        editor = pilot.app.screen.query_one("#editor-q", MatrixEditor)
        await pilot.pause()
        assert "empty" in editor.message
        assert bench(pilot.app).workspace.q == ((0.1, 0.2, 0.3),)


@pytest.mark.parametrize(("typed", "value"), [("−2", -2.0), ("1/4", 0.25), ("2.5e-1", 0.25)])
async def test_unicode_minus_fractions_and_scientific_are_accepted(typed: str, value: float):
    async with make_app().run_test(size=(80, 24)) as pilot:
        await pilot.press("enter")
        await paste(pilot, pilot.app.screen.query_one("#editor-q", MatrixEditor), typed)
        await pilot.press("enter")
        await pilot.pause()
        assert bench(pilot.app).workspace.q[0][0] == value


def heatmap_column(app, col: int) -> list[str]:
    hm = app.screen.query_one(Heatmap)
    return [hm.cell_text(r, col) for r in range(hm.n_rows)]


async def test_mask_key_cycles_and_row_sums_show_the_lost_mass():
    async with make_app(preset="mask").run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        assert bench(pilot.app).workspace.mask == "causal"
        assert heatmap_column(pilot.app, 4) == ["1.0000"] * 4
        assert "mask causal: mask, then softmax" in screen_text(pilot.app)
        await pilot.press("m")
        await pilot.pause()
        assert bench(pilot.app).workspace.mask == "causal-after"
        assert heatmap_column(pilot.app, 4) == ["0.4551", "0.6742", "0.8122", "1.0000"]
        assert heatmap_column(pilot.app, 5)[0] == "▼0.5449"
        text = screen_text(pilot.app)
        # at 80 columns the status line says it short, and still shows backend and precision
        assert "mask causal-after: softmax first (weight lost)" in text
        assert "numpy float64" in text
        assert "α sums to 0.4551; 0.5449 lost" in text
        await pilot.press("m")
        await pilot.pause()
        assert bench(pilot.app).workspace.mask == "none"
        assert heatmap_column(pilot.app, 4) == ["1.0000"] * 4


@pytest.mark.parametrize("width, mask_words", [
    (80, "mask causal-after: softmax first (weight lost)"),
    (64, "mask causal-after │"),
    (50, "mask causal-after │"),
    (44, "causal-after │"),
    (40, "causal-after│÷√d_k OFF│"),
])
async def test_the_status_line_gives_up_the_mask_words_before_the_backend(width, mask_words):
    async with make_app(preset="mask").run_test(size=(width, 20)) as pilot:
        await pilot.press("m")  # causal-after: the longest words
        await pilot.pause()
        line = screen_text(pilot.app).splitlines()[-2]
        assert line.strip().startswith(mask_words), line
        assert line.rstrip().endswith("numpy float64"), line
        assert "│" in line.rstrip()[-16:], line  # the backend after a bar, whole


async def test_mask_preset_tables_match_the_chapter():
    async with make_app(preset="mask").run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        hm = pilot.app.screen.query_one(Heatmap)
        assert [hm.cell_text(3, c) for c in range(4)] == ["0.2760", "0.1674", "0.1015", "0.4551"]
        assert [hm.cell_text(1, c) for c in range(4)] == ["0.1824", "0.8176", "·", "·"]
        await pilot.press("m")
        await pilot.pause()
        assert [hm.cell_text(1, c) for c in range(4)] == ["0.1230", "0.5512", "·", "·"]


async def test_the_softmax_input_view_shows_what_the_softmax_received_in_each_mask_order():
    # causal-after: the map showed -inf for the later keys, yet the softmax saw their scores
    # (the step table beside it counted their exp); the scores title said "scaled" with ÷√d_k off
    async with make_app(preset="mask").run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        screen = bench(pilot.app)
        hm = screen.query_one(Heatmap)
        screen.view = "scores"
        await pilot.pause()
        assert "all queries: scores (q·k, unscaled)" in screen_text(pilot.app)
        screen.view = "masked"
        await pilot.pause()
        assert [hm.cell_text(0, c) for c in range(4)] == ["2.0000", "-inf", "-inf", "-inf"]
        assert "softmax input (masked)" in screen_text(pilot.app)
        await pilot.press("m")  # causal-after
        await pilot.pause()
        assert [hm.cell_text(0, c) for c in range(4)] == ["2.0000", "1.0000", "0.5000", "1.5000"]
        assert hm.cell_style(0, 1) != hm.style_of("muted")
        assert "softmax input (unmasked)" in screen_text(pilot.app)
        screen.view = "scores"  # the scores that input came from: all of them, as the step
        await pilot.pause()  # table beside it shows (they were · as if masked)
        assert [hm.cell_text(0, c) for c in range(4)] == ["2.0000", "1.0000", "0.5000", "1.5000"]
        screen.view = "masked"
        await pilot.pause()
        await pilot.press("m", "s")  # no mask, scaled by √4 = 2
        await pilot.pause()
        assert [hm.cell_text(0, c) for c in range(4)] == ["1.0000", "0.5000", "0.2500", "0.7500"]
        text = screen_text(pilot.app)
        assert "all queries: softmax input ─" in text or "all queries: softmax input " in text
        screen.view = "scores"
        await pilot.pause()
        assert "all queries: scores (q·k ÷ √d_k)" in screen_text(pilot.app)


async def test_switching_backend_keeps_every_number():
    pytest.importorskip("torch")
    async with make_app(preset="select").run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        before = screen_text(pilot.app).splitlines()
        await pilot.press("b")
        await pilot.app.workers.wait_for_complete()
        await pilot.pause()
        assert bench(pilot.app).workspace.backend == "torch"
        after = screen_text(pilot.app).splitlines()
        assert "torch float64" in "\n".join(after)
        changed = [(a, b) for a, b in zip(before, after, strict=True) if a != b]
        # only the status line (and a notification) may differ
        assert all("numpy" in a or "torch" in b or "Loading" in a + b for a, b in changed)


async def test_torch_missing_keeps_numpy_and_says_how_to_install(monkeypatch):
    import sys

    monkeypatch.setitem(sys.modules, "torch", None)
    async with make_app().run_test(size=(80, 24), notifications=True) as pilot:
        await pilot.press("b")
        await pilot.app.workers.wait_for_complete()
        await pilot.pause()
        assert bench(pilot.app).workspace.backend == "numpy"
        notes = [n.message for n in notifications(pilot.app)]
        assert any("pip install 'attn-tui[torch]'" in m for m in notes)
        # as drawn: Textual markup read [torch] as a style and showed pip install 'attn-tui'
        await pilot.pause()
        assert "attn-tui[torch]" in "".join(screen_text(pilot.app).split())


async def test_scale_toggle_and_float32():
    async with make_app().run_test(size=(80, 24)) as pilot:
        await pilot.press("s")
        await pilot.pause()
        text = screen_text(pilot.app)
        assert "unscaled" in text and "÷√d_k OFF" in text
        k = [[0.4, 0.5, 0.6], [0.2, 0.1, 0.3], [0.6, 0.7, 0.8]]
        raw = attend([0.1, 0.2, 0.3], k, k, scale=False)
        assert num(float(raw.weights[0])) in text
        await pilot.press("f")
        await pilot.pause()
        assert bench(pilot.app).workspace.dtype == "float32"
        assert "numpy float32" in screen_text(pilot.app)


async def test_query_row_in_q_picks_the_explained_query():
    async with make_app(preset="select").run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await pilot.press("down")
        await pilot.pause()
        text = screen_text(pilot.app)
        assert "query 'verb?' (2 of 3)" in text
        assert "0.8343" in text and "0.8135" in text


async def test_tokens_and_dimensions_grow_and_shrink_keeping_values():
    async with make_app().run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await pilot.press("tab", "a")  # K editor: add a key (and its value row)
        await pilot.pause()
        ws = bench(pilot.app).workspace
        assert ws.t_k == 4 and len(ws.v) == 4 and ws.k[:3] == ((0.4, 0.5, 0.6), (0.2, 0.1, 0.3),
                                                               (0.6, 0.7, 0.8))
        await pilot.press("A")
        await pilot.pause()
        ws = bench(pilot.app).workspace
        assert ws.d_k == 4 and ws.q[0][:3] == (0.1, 0.2, 0.3)
        await pilot.press("x", "X")
        await pilot.pause()
        ws = bench(pilot.app).workspace
        assert (ws.t_k, ws.d_k) == (3, 3)
        await pilot.press("u", "u", "u", "u")
        await pilot.pause()
        assert bench(pilot.app).workspace.k == ((0.4, 0.5, 0.6), (0.2, 0.1, 0.3), (0.6, 0.7, 0.8))


@pytest.mark.parametrize(("size", "hint"), [((60, 15), "(D to change)"),
                                            ((80, 24), "(Tab here or press D to change)")])
async def test_the_dims_bar_hint_is_whole_or_shorter_never_cut(size, hint):
    # at 60 columns it read "(Tab here or press", cut mid-sentence
    async with make_app().run_test(size=size) as pilot:
        await pilot.pause()
        line = next(x for x in screen_text(pilot.app).splitlines() if "seed ‹0›" in x)
        assert line.rstrip().endswith(hint)


async def test_brackets_at_their_limit_say_so():
    # [ at T = 1 and < at d_k = 1 did nothing, silently
    async with make_app().run_test(size=(80, 24)) as pilot:
        await pilot.press("left_square_bracket", "left_square_bracket", "left_square_bracket")
        await pilot.press("less_than_sign", "less_than_sign", "less_than_sign")
        await pilot.pause()
        ws = bench(pilot.app).workspace
        assert (ws.t_k, ws.d_k) == (1, 1)
        said = [str(n.message) for n in notifications(pilot.app)]
        assert "T is already the smallest it can be (1)." in said
        assert "d_k is already the smallest it can be (1)." in said


async def test_dims_bar_changes_t_and_dk_live():
    async with make_app(preset="random").run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await pilot.press("D", "pageup")  # T 6 -> 12
        await pilot.pause()
        ws = bench(pilot.app).workspace
        assert ws.t_k == ws.t_q == 12
        await pilot.press("right", "up", "up")  # d_k 4 -> 6
        await pilot.pause()
        assert bench(pilot.app).workspace.d_k == 6


async def test_a_value_typed_in_the_dims_bar_is_kept_by_leaving_it_saving_or_quitting(tmp_path):
    # D 1 2 then ctrl+q quit at once, a click away dropped the 12 silently, and ctrl+s, Tab
    # or F1 did nothing while typing; the key bar offered m Mask (m typed an m)
    from attn_tui.tui.screens.dialogs.confirm_quit_modal import ConfirmQuitModal
    from attn_tui.tui.widgets.key_bar import KeyBar

    async with make_app().run_test(size=(80, 24)) as pilot:
        await pilot.press("D", "1", "2")
        await pilot.pause()
        shown = [i.description for i in bench(pilot.app).query_one(KeyBar).items()[0]]
        assert shown[:2] == ["Set", "Cancel"] and "Mask" not in shown
        await pilot.press("tab")  # leaving the bar keeps the value, as a cell does
        await pilot.pause()
        assert bench(pilot.app).workspace.t_k == 12
        await pilot.press("D", "5", "ctrl+q")
        await pilot.pause()
        assert isinstance(pilot.app.screen, ConfirmQuitModal)
        assert pilot.app.workbench().workspace.t_k == 5
    async with make_app().run_test(size=(80, 24)) as pilot:
        bench(pilot.app).session_path = str(tmp_path / "s.json")
        await pilot.press("D", "7", "ctrl+s")
        await pilot.pause()
        assert session_t(tmp_path / "s.json") == 7
        await pilot.press("D", "9", "x", "ctrl+q")  # refused text: asked, not dropped
        await pilot.pause()
        assert isinstance(pilot.app.screen, ConfirmQuitModal)
        assert "A value being typed is refused" in screen_text(pilot.app)


def session_t(path) -> int:
    from attn_tui.core import session

    return session.load(path)[0].t_k


async def test_dims_bar_takes_a_typed_value_and_refuses_one_out_of_range():
    async with make_app(preset="random").run_test(size=(80, 24)) as pilot:
        app = pilot.app
        await pilot.pause()
        await pilot.press("D", "6", "4")
        await pilot.pause()
        assert "‹64▏›" in screen_text(app)  # the typed text, in place
        assert bench(app).workspace.t_k == 6  # nothing changes before Enter
        await pilot.press("enter")
        await pilot.pause()
        assert bench(app).workspace.t_k == bench(app).workspace.t_q == 64
        await pilot.press("9", "9", "9", "enter")
        await pilot.pause()
        assert bench(app).workspace.t_k == 64
        notes = [n.message for n in notifications(app)]
        assert "T must be between 1 and 256; 999 is outside." in notes
        assert "‹999▏›" in screen_text(app)  # refused, it stays to be mended, as in a cell
        await pilot.press("backspace")
        await pilot.pause()
        assert "‹99▏›" in screen_text(app)
        await pilot.press("escape")
        await pilot.pause()
        assert bench(app).workspace.t_k == 64
        await pilot.press("right", "3", "escape")  # d_k: typed, then abandoned
        await pilot.pause()
        assert bench(app).workspace.d_k == 4
        await pilot.press("enter", "8", "enter")  # Enter opens the old value; 8 replaces it
        await pilot.pause()
        assert bench(app).workspace.d_k == 8


async def test_a_number_pasted_into_the_dims_bar_is_typed_there():
    """Pasting into the dimensions bar (or a lab's controls) did nothing at all."""
    from attn_tui.tui.widgets.dims_bar import DimsBar

    async with make_app(preset="random").run_test(size=(80, 24)) as pilot:
        app = pilot.app
        await pilot.press("D")
        bar = bench(app).query_one(DimsBar)
        bar.post_message(events.Paste(" 32\nsecond line ignored"))
        await pilot.pause()
        assert bar.editing == "32" and bench(app).workspace.t_k == 6  # shown, not yet taken
        await pilot.press("enter")
        await pilot.pause()
        assert bench(app).workspace.t_k == 32
        bar.post_message(events.Paste("1e9"))
        await pilot.press("enter")
        await pilot.pause()
        assert bench(app).workspace.t_k == 32
        assert any("T must be" in n.message or "whole number" in n.message
                   for n in notifications(app))


async def test_random_fill_is_seeded_and_reset_restores_the_preset():
    async with make_app(preset="random").run_test(size=(80, 24)) as pilot:
        first = bench(pilot.app).workspace
        await pilot.press("r")
        await pilot.pause()
        assert bench(pilot.app).workspace.q == first.q  # same seed, same values
        await pilot.press("R")
        await pilot.pause()
        assert bench(pilot.app).workspace.q == first.q


async def test_random_fill_keeps_shapes_and_names_and_r_brings_the_example_back():
    # r on the select example (cross-attention, d_v 2) made T×T self-attention with d_v = d_k
    # and tokens t0…; R then loaded the random example instead of select
    async with make_app(preset="select").run_test(size=(80, 24)) as pilot:
        first = bench(pilot.app).workspace
        await pilot.press("r")
        await pilot.pause()
        ws = bench(pilot.app).workspace
        assert (ws.t_q, ws.t_k, ws.d_k, ws.d_v) == (first.t_q, first.t_k, first.d_k, first.d_v)
        assert (ws.query_tokens, ws.key_tokens) == (first.query_tokens, first.key_tokens)
        assert ws.q != first.q and ws.preset == "select"
        await pilot.press("R")
        await pilot.pause()
        assert bench(pilot.app).workspace == first


async def test_help_lists_the_keys():
    async with make_app().run_test(size=(80, 24)) as pilot:
        await pilot.press("question_mark")
        await pilot.pause()
        assert "attn-tui keys" in screen_text(pilot.app)
        for _ in range(8):  # past the introduction, to the workbench's keys
            if "mask order: none → causal" in screen_text(pilot.app):
                break
            await pilot.press("down")
            await pilot.pause()
        assert "mask order: none → causal" in screen_text(pilot.app)
        await pilot.press("escape")
        await pilot.pause()
        assert isinstance(pilot.app.screen, WorkbenchScreen)


async def test_resizing_small_and_back_keeps_working():
    async with make_app(preset="mask").run_test(size=(80, 24)) as pilot:
        await pilot.resize_terminal(40, 12)
        await pilot.pause()
        await pilot.press("m", "down", "right")
        await pilot.resize_terminal(120, 40)
        await pilot.pause()
        assert "0.4551" in screen_text(pilot.app)


async def test_quit_key():
    async with make_app().run_test(size=(80, 24)) as pilot:
        await pilot.press("q")
        await pilot.pause()
    assert pilot.app.return_code in (0, None)


@pytest.mark.parametrize("after", ["e", "ctrl+o", "p", "g", "question_mark"])
async def test_a_key_that_arrives_with_q_opens_nothing_while_the_app_closes(after: str):
    """Over SSH one read often holds q and the next key: both are handled before the app has
    closed, and a dialog mounted then used to crash the exit (e: NoMatches in FileModal)."""
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        for key in ("q", after):  # posted together, as a driver posts one read's keys
            event = events.Key(key, key if len(key) == 1 else None)
            event.set_sender(app)
            app.post_message(event)
        await pilot.pause()
        await pilot.pause()
    assert app_exception(app) is None
    assert app.return_code == 0


async def test_tab_away_keeps_a_valid_value_and_an_invalid_one_stays_typed():
    async with make_app().run_test(size=(80, 24)) as pilot:
        editor = pilot.app.screen.query_one("#editor-q", MatrixEditor)
        await pilot.press("7", "tab")
        await pilot.pause()
        assert bench(pilot.app).workspace.q[0][0] == 7.0
        await pilot.press("shift+tab", "right", "enter", "x", "enter", "tab")
        await pilot.pause()
        assert bench(pilot.app).workspace.q[0][1] == 0.2
        assert editor.editing == (0, 1) and editor.buffer.text == "x"
        assert "not a number" in editor.message


async def test_typing_e_inside_a_number_is_not_the_export_key():
    async with make_app().run_test(size=(80, 24)) as pilot:
        await pilot.press("2", "e", "-", "1", "enter")
        await pilot.pause()
        assert bench(pilot.app).workspace.q[0][0] == 0.2
        assert len(pilot.app.screen_stack) == 1  # no export dialog opened


async def test_the_same_notice_is_not_stacked_while_it_shows():
    """Thirty presses of u stacked eight "Nothing to undo." toasts over the tables."""
    app = make_app()
    own = type(app).notify
    # a minute on screen, not 2 s: thirty presses on a loaded machine outlast the first notice
    app.notify = lambda message, **kw: own(app, message, **(kw | {"timeout": 60}))
    async with app.run_test(size=(80, 24), notifications=True) as pilot:
        await pilot.pause()
        for _ in range(30):
            await pilot.press("u")
        await pilot.pause()
        notices = [n.message for n in notifications(pilot.app)]
        assert notices == ["Nothing to undo."]
        assert len(pilot.app.screen.query("Toast")) == 1
        await pilot.press("U")  # a different notice is not held back by it
        await pilot.pause()
        notices = [n.message for n in notifications(pilot.app)]
        assert notices == ["Nothing to undo.", "Nothing to redo."]


def test_a_backend_without_the_precision_falls_back_to_float32():
    from attn_tui.core.state import from_preset, on_backend

    ws = replace(from_preset("mask"), backend="torch", dtype="bfloat16")
    moved, note = on_backend(ws, "numpy")
    assert (moved.backend, moved.dtype) == ("numpy", "float32")
    assert note == "numpy has no bfloat16, so it computes in float32."
    same, none = on_backend(replace(ws, dtype="float64"), "numpy")
    assert (same.backend, same.dtype, none) == ("numpy", "float64", None)


async def test_b_from_torch_bfloat16_computes_on_numpy_and_saves_a_file_that_opens(tmp_path):
    # b left the workspace on numpy/bfloat16: "Not computed", stale tables, and ctrl+s wrote a
    # session the loader then refused
    pytest.importorskip("torch")
    from attn_tui.core import session
    from attn_tui.core.state import from_preset

    ws = replace(from_preset("mask"), backend="torch", dtype="bfloat16")
    app = make_app(workspace=ws, backend="torch", dtype="bfloat16")
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        await pilot.press("b")
        await pilot.pause()
        bench_ws = bench(pilot.app).workspace
        assert (bench_ws.backend, bench_ws.dtype) == ("numpy", "float32")
        assert "numpy float32" in screen_text(pilot.app)
        assert not any(n.title == "Not computed" for n in notifications(pilot.app))
        session.save(bench_ws, tmp_path / "s.json")
        assert session.load(tmp_path / "s.json")[0] == bench_ws


async def test_enter_a_value_enter_typed_in_one_burst_leaves_no_edit_open():
    # keys that arrive together (a fast typist, a terminal sending "\r5\r" in one read): the
    # binding's action for the first Enter ran after the rest, and reopened the new value
    from textual import events

    async with make_app().run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        for key, char in (("enter", "\r"), ("5", "5"), ("enter", "\r")):
            pilot.app.post_message(events.Key(key, char))
        await pilot.pause()
        await pilot.pause()
        editor = bench(pilot.app).query_one("#editor-q", MatrixEditor)
        assert bench(pilot.app).workspace.q[0][0] == 5.0
        assert editor.editing is None


@pytest.mark.parametrize("second", ["b", "set_backend('numpy')", "u"])
async def test_b_again_while_torch_loads_stays_on_numpy(second):
    # b, then b 0.3 s later (torch still loading): it ended on torch, with one undo entry;
    # so did the palette's Backend: numpy
    pytest.importorskip("torch")
    import threading

    import attn_tui.compute as backend_module

    gate = threading.Event()
    real = backend_module.namespace

    def slow(name, *args, **kwargs):
        if name == "torch":
            gate.wait(5)  # torch "loads" until the second b has been pressed
        return real(name, *args, **kwargs)

    backend_module.namespace = slow
    try:
        async with make_app().run_test(size=(80, 24)) as pilot:
            await pilot.press("b")
            await pilot.pause()
            if second in ("b", "u"):  # u said "Nothing to undo.", and torch landed after
                await pilot.press(second)
            else:
                await bench(pilot.app).run_action(second)
            await pilot.pause()
            gate.set()
            await pilot.app.workers.wait_for_complete()
            await pilot.pause()
            assert bench(pilot.app).workspace.backend == "numpy"
            said = [str(n.message) for n in notifications(pilot.app)]
            if second == "b":
                assert any("Staying on numpy" in m for m in said)
            if second == "u":
                assert "Undid: the switch to torch, still loading." in said
    finally:
        backend_module.namespace = real


@pytest.mark.parametrize(("size", "width"), [((80, 24), 34), ((120, 40), 34), ((200, 40), 56)])
async def test_q_k_v_get_wider_on_a_wide_screen(size, width):
    # at 250 columns Q, K and V stayed 34 wide and cut d4 off a long token's row
    async with make_app(preset="mask").run_test(size=size) as pilot:
        await pilot.pause()
        assert bench(pilot.app).query_one("#inputs").size.width == width


async def test_the_outputs_map_names_its_columns_and_a_limit_names_itself():
    # the outputs view kept the corner q\k over d1 … d3; x on Q's only row said "the smallest
    # or largest this matrix can be"
    async with make_app().run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        heatmap = bench(pilot.app).query_one(Heatmap)
        assert heatmap.corner == "q\\k"
        bench(pilot.app).view = "output"
        await pilot.pause()
        assert heatmap.corner == "q\\d" and "q\\d" in screen_text(pilot.app)
        await pilot.press("x")
        await pilot.pause()
        assert any(str(n.message) == "Q already has the fewest rows it can have (1)."
                   for n in notifications(pilot.app))


async def test_undo_while_typing_undoes_the_typing_not_the_last_edit():
    # 5 Enter, Right, 7, ctrl+z: d1 went back to 0.1 while d2 still showed 7▏
    async with make_app().run_test(size=(80, 24)) as pilot:
        await pilot.press("5", "enter", "right", "7")
        await pilot.pause()
        editor = bench(pilot.app).query_one("#editor-q", MatrixEditor)
        assert editor.editing == (0, 1)
        await pilot.press("ctrl+z")
        await pilot.pause()
        assert editor.editing is None
        assert bench(pilot.app).workspace.q[0][:2] == (5.0, 0.2)
        await pilot.press("ctrl+z")  # not typing: undo as ever
        await pilot.pause()
        assert bench(pilot.app).workspace.q[0][0] == 0.1


async def test_an_exp_that_overflows_is_explained_beside_the_finite_alpha():
    # float32, q = 300: the exp column read inf and its sum inf, α beside them 1.0000, and
    # nothing said why (α is computed as exp(x − max) / Σ, which never overflows)
    async with make_app().run_test(size=(80, 24)) as pilot:
        await pilot.press("f", "3", "0", "0", "enter")
        await pilot.pause()
        summary = str(bench(pilot.app).query_one("#summary").render())
        assert "exp overflows float32; α uses e^(x − max)" in summary
        assert "entropy" not in summary
        await pilot.press("u")
        await pilot.pause()
        assert "entropy" in str(bench(pilot.app).query_one("#summary").render())


async def test_where_the_pane_is_wide_the_entropy_stays_beside_a_note():
    """An overflow's note took the entropy's line at any width: at 120 x 40 the entropy of a
    query whose α is all but 1 on one key was nowhere."""
    async with make_app().run_test(size=(120, 40)) as pilot:
        await pilot.press("f", "3", "0", "0", "enter")
        await pilot.pause()
        summary = str(bench(pilot.app).query_one("#summary").render())
        note = "exp overflows float32; α uses e^(x − max) · entropy "
        assert note in summary and summary.endswith(" bits, max 1.5850")
        await pilot.press("m", "m")  # causal-after: the overflow is still said, with no entropy
        await pilot.pause()
        summary = str(bench(pilot.app).query_one("#summary").render())
        assert summary.endswith("\nexp overflows float32; α uses e^(x − max)")


@pytest.mark.parametrize("dtype_keys", [(), ("f",)])
async def test_an_exp_that_underflows_is_explained_beside_the_alpha_it_did_not_zero(dtype_keys):
    # q = -1000 (float32) or -123456.7 (float64): every exp read 0.0000, their sum 0.0000, and
    # α beside them 1.0000 for one key, unexplained
    value = "-1000" if dtype_keys else "-123456.7"
    async with make_app().run_test(size=(80, 24)) as pilot:
        await pilot.press(*dtype_keys, *value, "enter")
        await pilot.pause()
        summary = str(bench(pilot.app).query_one("#summary").render())
        assert "exp underflows to 0; α uses e^(x − max)" in summary
        box = bench(pilot.app).query_one("#steps-box")
        assert str(box.border_title) == "'who' (1 of 1) · exp underflows"


async def test_r_puts_q_s_cursor_on_the_query_it_selects():
    # Down Down R: the step pane went back to 'animal?' while Q's cursor stayed on 'undecided'
    async with make_app(preset="select").run_test(size=(100, 30)) as pilot:
        await pilot.press("down", "down")
        await pilot.pause()
        grid = bench(pilot.app).query_one("#grid-q")
        assert bench(pilot.app).workspace.selected == 2 == grid.cursor_row
        await pilot.press("R")
        await pilot.pause()
        assert bench(pilot.app).workspace.selected == 0 == grid.cursor_row
        await pilot.press("down")
        await pilot.pause()
        assert bench(pilot.app).workspace.selected == 1 == grid.cursor_row


async def test_typing_in_the_dims_bar_keeps_ctrl_y_ctrl_u_and_unbound_keys_to_itself():
    # D 5 ctrl+y stored T = 5 and said "Nothing to redo" (the redo was lost); D 999 Tab said
    # its refusal twice; ctrl+u stored the 5 instead of clearing it, as a cell does
    from textual import events

    async with make_app().run_test(size=(80, 24), notifications=True) as pilot:
        await pilot.press("m", "u")  # something to redo
        await pilot.press("D", "5", "ctrl+y")
        await pilot.pause()
        bar = bench(pilot.app).query_one("#dims")
        assert bar.editing == "5" and bench(pilot.app).workspace.t_k == 3
        await pilot.press("ctrl+u", "7", "escape", "tab", "ctrl+y")
        await pilot.pause()
        assert bench(pilot.app).workspace.mask == "causal"  # the redo was still there
        await pilot.press("D", "9", "9", "9", "tab")
        await pilot.pause()
        said = [str(n.message) for n in notifications(pilot.app)]
        assert len([m for m in said if "T must be between 1 and 256" in m]) == 1
        # the terminal window losing focus is not leaving the bar: 1, away and back, 6 is 16
        await pilot.press("D", "1")
        pilot.app.post_message(events.AppBlur())
        await pilot.pause()
        pilot.app.post_message(events.AppFocus())
        await pilot.pause()
        await pilot.press("6", "enter")
        await pilot.pause()
        assert bench(pilot.app).workspace.t_k == 16


@pytest.mark.parametrize(("typed", "shown", "border"), [
    ("-1e-300", "-≈0", "who·d1 = -1e-300 · 1×3"),
    ("-123456", "-1e5", "who·d1 = -123456 · 1×3"),
    ("0.25", "0.25", "1×3"),
    ("1.000000001", "1.0", "who·d1 = 1.000000001 · 1×3"),  # it read "= 1" at 8 digits
])
async def test_a_cell_shown_rounded_has_its_value_in_full_on_the_border(typed, shown, border):
    # -1e-300 read as -1e-3… and -123456 as -1e5, with no way to see the value but typing
    async with make_app().run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await pilot.press("enter", *typed, "enter")
        await pilot.pause()
        editor = bench(pilot.app).query_one("#editor-q")
        assert editor.grid.cell_text(0, 0) == shown
        assert str(editor.border_subtitle) == border
        await pilot.press("right")
        await pilot.pause()
        assert str(editor.border_subtitle) == "1×3"
        await pilot.press("left")
        await pilot.pause()
        assert str(editor.border_subtitle) == border


async def test_in_float32_a_tensors_value_shows_in_full_in_float32s_digits():
    """The lecture's V in float32 showed t0·d1 as 0.1807715892791748, the float64 text of a
    float32 number; a value typed stays as typed, and f brings the 17 digits back."""
    from attn_tui.report.fmt import exact

    assert exact(0.1807715892791748, "float32") == "0.18077159"
    assert exact(0.1807715892791748, "float64") == "0.1807715892791748"
    assert exact(0.1, "float32") == "0.1" and exact(-123456.0, "float32") == "-123456"
    assert exact(1e39, "float32") == "1e+39" and exact(1e-300, "float32") == "1e-300"
    ws = replace(state.from_preset("one"), q=((0.1807715892791748, 0.0, 0.0),), dtype="float32")
    async with make_app(workspace=ws, dtype="float32").run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        editor = bench(pilot.app).query_one("#editor-q")
        assert str(editor.border_subtitle) == "who·d1 = 0.18077159 · 1×3"
        await pilot.press("f")  # float64: the same stored number, all its digits
        await pilot.pause()
        # the size gives way, then the row's name is cut, before the cell goes unnamed
        assert str(editor.border_subtitle) == "who·d1 = 0.1807715892791748"
        editor.grid.row_labels = ("a-longer-name",)
        editor._subtitle(editor._resting_subtitle())
        assert str(editor.border_subtitle) == "a-…e·d1 = 0.1807715892791748"


async def test_when_the_query_is_picked_for_the_cursor_the_border_names_the_cell_it_moved_to():
    """nanogpt step 9 picked t5 for its task (select_query) and the cursor followed, but Q's
    border still read "t7·d1 = 0.14591496", the cell the cursor had left."""
    from attn_tui.report.fmt import exact

    async with make_app(preset="lecture-head").run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        screen = bench(pilot.app)
        editor = screen.query_one("#editor-q")
        values = editor.grid.values
        await pilot.press(*["down"] * 7)  # t7, the last row
        await pilot.pause()
        assert editor.grid.cursor_row == 7
        assert str(editor.border_subtitle).endswith(exact(values[7][0], "float64"))
        screen.select_query(5)
        await pilot.pause()
        assert editor.grid.cursor_row == 5
        assert str(editor.border_subtitle).endswith(exact(values[5][0], "float64"))


async def test_a_click_on_a_cell_puts_the_cursor_there_and_typing_edits_that_cell():
    """A click on K's barked·d3 focused K but left its cursor on the·d1, where the 5 typed
    next went."""
    app = make_app(preset="mask")
    async with app.run_test(size=(80, 24)) as pilot:
        grid = app.screen.query_one("#grid-k")
        ws = bench(app).workspace
        row = ws.key_tokens.index("barked")
        x = grid.label_width + 2 * grid.cell_width + 2  # inside d3's cell
        await pilot.click(grid, offset=(x, 1 + row))
        await pilot.pause()
        assert app.focused is grid and (grid.cursor_row, grid.cursor_col) == (row, 2)
        await pilot.press("5", "enter")
        await pilot.pause()
        k = bench(app).workspace.k
        assert k[row][2] == 5.0 and k[0][0] == ws.k[0][0]


async def test_a_click_elsewhere_stores_a_typed_value_but_a_refused_one_keeps_the_cursor():
    app = make_app(preset="mask")
    async with app.run_test(size=(80, 24)) as pilot:
        grid = app.screen.query_one("#grid-q")
        editor = app.screen.query_one("#editor-q", MatrixEditor)
        x1 = grid.label_width + grid.cell_width + 2  # d2
        await pilot.press("7")  # typed into q[0][0]
        await pilot.click(grid, offset=(x1, 2))
        await pilot.pause()
        assert bench(app).workspace.q[0][0] == 7.0 and (grid.cursor_row, grid.cursor_col) == (1, 1)
        await pilot.press("enter", "x")
        await pilot.click(grid, offset=(x1, 1))  # "x" is not a number: it stays open, with why
        await pilot.pause()
        assert editor.editing == (1, 1) and editor.buffer.text == "x"
        assert (grid.cursor_row, grid.cursor_col) == (1, 1)
        await pilot.press("escape")
        await pilot.click(grid, offset=(x1, 1), times=2)  # a double click opens the cell
        await pilot.pause()
        assert editor.editing == (0, 1)


async def test_a_refused_dimension_leaves_the_bar_and_the_status_line_in_sight():
    """The "Not changed" notice covered the dimensions bar it was about: the seed field beside
    the value typed, and the status line under it."""
    app = make_app()
    async with app.run_test(size=(80, 24), notifications=True) as pilot:
        await pilot.pause()
        await pilot.press("D", "right", *"9999", "enter")
        await pilot.pause()
        lines = screen_text(pilot.app).splitlines()
        assert "d_k must be between 1 and 1024" in "\n".join(lines)
        bar = next(line for line in lines if "d_k ‹" in line)
        assert "seed ‹0›" in bar and "▌" not in bar
        assert lines[-2].startswith(" mask none") and "▌" not in lines[-2]


async def test_a_workspace_opened_on_query_3_puts_the_q_cursor_on_row_3():
    ws = replace(state.from_preset("select"), selected=2)  # as a session saved at query 3 keeps it
    async with make_app(workspace=ws).run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        editor = pilot.app.screen.query_one("#editor-q", MatrixEditor)
        assert editor.grid.cursor_row == 2
        assert "(3 of 3)" in screen_text(pilot.app)
        await pilot.press("up")  # ↑ picks query 2, the one above the query shown
        assert bench(pilot.app).workspace.selected == 1


async def test_the_output_and_entropy_line_never_shows_a_non_zero_as_zero():
    """V's cells at 1e-300 gave 1.0e-300 in the step table's sums and 0.0000 in ζ under it; a
    query that has all but chosen had entropy 0.0000 where it is 6.6e-24 bits."""
    ws = replace(state.from_preset("one"), q=((500.0, 0.2, 0.3),),
                 v=((1e-300, 2e-300, 0.5), (1e-300, 2e-300, 0.5), (1e-300, 2e-300, 0.5)))
    async with make_app(workspace=ws).run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        steps = bench(pilot.app).steps
        h = float(steps.entropy[0])
        assert 0 < h < 1e-20
        text = screen_text(pilot.app)
        assert "output ζ = (1.0e-300, 2.0e-300, 0.5000)" in text
        mantissa, power = f"{h:.1e}".split("e")
        assert f"entropy {mantissa}e{int(power)} bits" in text


async def test_a_masked_scaled_column_too_narrow_for_plus_mask_still_names_the_division():
    """A head from the model screen (d_k 32, ÷5.66) with m: the header read "masked" above
    q·k ÷ 5.66 (27.0602 beside 4.7836), so nothing said the numbers were scaled."""
    from dataclasses import replace

    async with make_app(preset="mask").run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await pilot.press("s")  # ÷√d_k on: ÷2+mask fits
        await pilot.pause()
        table = pilot.app.screen.query_one("#steps")
        assert table.col_labels[1] == "÷2+mask"
        steps = replace(table.steps, d_k=32)  # as a real head's: √32 = 5.66
        table.show(steps, table.query_index, table.row_labels[:-1])
        assert table.col_labels[1] == "÷5.66"


async def test_undo_and_redo_say_what_they_took_back_one_notice_at_a_time():
    from dataclasses import replace

    app = make_app(confirm_quit=False)
    async with app.run_test(size=(80, 24), notifications=True) as pilot:
        await pilot.press("7", "enter", "m", "u")
        await pilot.pause()
        assert [str(n.message) for n in notifications(app)] == ["Undid: mask causal → none."]
        await pilot.press("u")
        await pilot.pause()
        assert [str(n.message) for n in notifications(app)] == ["Undid: Q who d1 7 → 0.1."]
        await pilot.press("U")
        await pilot.pause()
        assert [str(n.message) for n in notifications(app)] == ["Redid: Q who d1 0.1 → 7."]
        # more than three changes end "…", and no full stop after it
        bench = app.screen
        bench.apply(replace(bench.workspace, mask="causal", scale=False, seed=3, dtype="float32"))
        await pilot.press("u")
        await pilot.pause()
        assert [str(n.message) for n in notifications(app)] == [
            "Undid: mask causal → none, ÷√d_k off → on, dtype float32 → float64 …"]


async def test_x_and_shift_x_say_what_they_removed_and_that_u_undoes():
    # a token's or a dimension's numbers went without a word: only the tables shrank
    async with make_app(preset="mask").run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await pilot.press("down", "x")
        await pilot.pause()
        said = [str(n.message) for n in notifications(pilot.app)]
        assert "Removed token 2, 'dog' (T 4 → 3); u undoes." in said
        assert bench(pilot.app).workspace.key_tokens == ("the", "barked", "loudly")
        await pilot.press("right", "right", "X")
        await pilot.pause()
        said = [str(n.message) for n in notifications(pilot.app)]
        assert "Removed d3 of Q and K (d_k 4 → 3); u undoes." in said
        assert bench(pilot.app).workspace.d_k == 3


async def test_an_exp_out_of_range_is_named_in_the_step_tables_title():
    """At 80×24 with T = 16 the summary that explains an inf in the exp column sits below the
    table, out of sight: the table's title names it (the underflow's test checks its own)."""
    async with make_app(preset="random").run_test(size=(80, 24)) as pilot:
        await pilot.press("D", "ctrl+u", "1", "6", "enter")
        await pilot.pause()
        assert bench(pilot.app).workspace.t_k == 16
        bench(pilot.app).query_one("#editor-q").query_one(GridView).focus()  # Q's first cell
        await pilot.press("f", "3", "0", "0", "enter")  # float32; into Q's first cell
        await pilot.pause()
        box = bench(pilot.app).query_one("#steps-box")
        assert str(box.border_title) == "'t1' (1 of 16) · exp overflows"
        summary = bench(pilot.app).query_one("#summary")
        assert summary.region.y >= bench(pilot.app).query_one("#results").region.bottom
        await pilot.resize_terminal(120, 40)  # fitted again to the width
        await pilot.pause()
        assert str(box.border_title) == "steps for query 't1' (1 of 16) · exp overflows"
        await pilot.resize_terminal(80, 24)
        await pilot.pause()
        assert str(box.border_title) == "'t1' (1 of 16) · exp overflows"
        await pilot.press("u")
        await pilot.pause()
        assert str(box.border_title) == "steps for query 't1' (1 of 16)"


async def test_numbers_float16_cannot_hold_are_shown_with_why_not_empty_panes():
    # a session file in float16 with a cell of 100000: Q, K and V opened empty, T 1, and the
    # notice said "not a finite number (nan or inf)"
    ws = replace(state.set_cell(state.from_preset("mask"), "Q", 0, 0, 100000.0), dtype="float16")
    app = make_app(workspace=ws, dtype="float16")
    async with app.run_test(size=(80, 24), notifications=True) as pilot:
        await pilot.pause()
        text = screen_text(pilot.app)
        assert "the       1e5     1   0.5   1.5" in text and "T keys ‹4›" in text
        assert [str(n.message) for n in notifications(pilot.app)] == [
            "Q holds 100000, more than float16 holds (at most 65,504): use a wider dtype, or "
            "smaller numbers"]
        await pilot.press("f")  # float64 holds it
        await pilot.pause()
        assert bench(pilot.app).steps.scores[0, 0] == 100000.0


async def test_escape_leaves_the_dimensions_bar_and_a_smaller_t_says_what_it_removed():
    # D then Esc did nothing, and ↓ pressed to get back to the grid took the last token away,
    # with no word (x in a pane says "Removed token …")
    async with make_app(preset="mask").run_test(size=(80, 24), notifications=True) as pilot:
        await pilot.pause()
        screen = bench(pilot.app)
        grid = screen.query_one("#editor-k", MatrixEditor).grid
        screen.set_focus(grid)
        await pilot.press("D")
        assert "Esc back" in screen_text(pilot.app)
        await pilot.press("escape")
        await pilot.pause()
        assert screen.focused is grid
        await pilot.press("D", "down")
        await pilot.pause()
        assert screen.workspace.t_k == 3
        said = [str(n.message) for n in notifications(pilot.app)]
        assert said[-1] == "Removed token 4, 'loudly' (T 4 → 3); u undoes."
        await pilot.press("escape", "less_than_sign")
        await pilot.pause()
        said = [str(n.message) for n in notifications(pilot.app)]
        assert said[-1] == "Removed column d4 of Q and K (d_k 4 → 3); u undoes."
        await pilot.press("D", "enter", "1", "enter")
        await pilot.pause()
        said = [str(n.message) for n in notifications(pilot.app)]
        assert said[-1] == "Removed tokens 2 to 3 (T 3 → 1); u undoes."


async def test_a_new_seed_says_what_it_is_for():
    # p random, then the bar's seed ↑: the bar said seed 1 and nothing else changed or said why
    async with make_app(preset="random").run_test(size=(80, 24), notifications=True) as pilot:
        await pilot.pause()
        before = bench(pilot.app).workspace
        await pilot.press("D", "right", "right", "right", "up")
        await pilot.pause()
        ws = bench(pilot.app).workspace
        assert ws.seed == before.seed + 1 and ws.q == before.q
        said = [str(n.message) for n in notifications(pilot.app)]
        assert said[-1].startswith(f"Seed {ws.seed}: r fills Q, K and V from it")


async def test_backspace_on_a_cell_opens_it_empty_and_escape_keeps_the_old_value():
    # Backspace and Delete on a cell not open did nothing and said nothing
    async with make_app().run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        editor = bench(pilot.app).query_one("#editor-q", MatrixEditor)
        for key in ("backspace", "delete"):
            await pilot.press(key)
            assert editor.editing == (0, 0) and editor.buffer.text == ""
            await pilot.press("escape")
            assert editor.editing is None and bench(pilot.app).workspace.q[0][0] == 0.1
        await pilot.press("backspace", "7", "enter")
        await pilot.pause()
        assert bench(pilot.app).workspace.q[0][0] == 7.0
