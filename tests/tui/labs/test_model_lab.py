"""The model calculator under Pilot: the chapter's count, presets, each control, D % h."""

from __future__ import annotations

import pytest
from lab_pilot import lab_app, run_action, settle

from attn_tui.compute import count_params
from attn_tui.report.fmt import count
from attn_tui.tui.widgets.text_table import TextTable


def _params(app) -> TextTable:
    return app.screen.query_one("#params-table", TextTable)


def _costs(app) -> TextTable:
    return app.screen.query_one("#cost-table", TextTable)


def _note(app) -> str:
    return str(app.screen.query_one("#preset-note").render())


async def test_defaults_are_the_chapters_count() -> None:
    async with lab_app("model").run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        t = _params(pilot.app)
        assert list(t.row_labels) == [
            "attention Q,K,V,O", "feed-forward", "layer norms", "one layer", "all 6 layers",
            "embeddings", "total",
        ]
        assert t.column(0)[:3] == ["4 D²", "2 D H + H + D", "4 D"]
        assert t.column(1) == ["1,048,576", "2,099,712", "2,048", "3,150,336", "18,902,016",
                               "25,600,000", "44,502,016"]
        assert t.column(2)[:2] == ["33.3% layer", "66.7% layer"]
        c = _costs(pilot.app)
        assert list(c.row_labels) == ["128", "512", "2048", "8192", "32768"]
        assert c.column(0) == ["16,384", "262,144", "4,194,304", "67,108,864", "1,073,741,824"]
        assert c.column(1) == ["0.06×", "1.00×", "16.00×", "256.00×", "4096.00×"]
        shares = str(pilot.app.screen.query_one("#shares").render())
        assert "d_k = D / h = 512 / 8 = 64" in shares
        assert "44,502,016" in _note(pilot.app)


@pytest.mark.parametrize(
    ("preset", "formula", "published"),
    [
        ("bert-base", "108,458,496", "109,482,240"),
        ("gpt2-small", "123,614,976", "124,439,808"),
        ("transformer-base", "37,846,016", "about 65 million"),
        ("chapter", "44,502,016", "44,502,016"),
    ],
)
async def test_presets_and_what_the_formula_leaves_out(preset, formula, published) -> None:
    async with lab_app("model").run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        await run_action(pilot, f"set_preset('{preset}')")
        assert _params(pilot.app).column(1)[-1] == formula
        note = _note(pilot.app)
        assert published in note
        if preset in ("bert-base", "gpt2-small"):  # the extras account for every parameter
            total_line = next(line for line in note.splitlines() if "formula + these" in line)
            assert total_line.split()[:2] == ["=", published]
            assert "biases of Q, K, V, O" in note and "position embeddings" in note


@pytest.mark.parametrize(
    ("action", "change"),
    [
        ("set_vocab(1000)", dict(V=1000)),
        ("set_width(256)", dict(D=256)),
        ("set_layers(12)", dict(L=12)),
        ("set_heads(4)", dict(h=4)),
        ("set_hidden(1024)", dict(H=1024)),
    ],
)
async def test_each_dimension_recounts(action: str, change: dict) -> None:
    async with lab_app("model").run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await run_action(pilot, action)
        dims = dict(V=50000, D=512, L=6, h=8, H=2048) | change
        assert _params(pilot.app).column(1)[-1] == count(count_params(**dims).total)
        assert pilot.app.screen.settings.preset == "custom"
        assert pilot.app.screen.message == ""


async def test_sequence_length_sets_the_cost_table() -> None:
    async with lab_app("model").run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await run_action(pilot, "set_tokens(1024)")
        c = _costs(pilot.app)
        assert list(c.row_labels) == ["256", "1024", "4096", "16384", "65536"]
        assert c.column(1)[1] == "1.00×" and c.column(0)[1] == "1,048,576"


async def test_heads_that_do_not_divide_d_keep_the_last_numbers() -> None:
    async with lab_app("model").run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await pilot.press("right", "right", "right", "right", "up")  # h: 8 -> 9
        await settle(pilot)
        screen = pilot.app.screen
        assert "does not split into h = 9 heads" in screen.message
        assert "last valid" in screen.message
        assert _params(pilot.app).column(1)[-1] == "44,502,016"
        assert "512 / 8 = 64" in str(screen.query_one("#shares").render())
        await run_action(pilot, "set_heads(16)")
        assert screen.message == ""
        assert "512 / 16 = 32" in str(screen.query_one("#shares").render())


async def test_p_steps_through_the_presets_and_bad_names_are_refused() -> None:
    async with lab_app("model").run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await pilot.press("p")
        await settle(pilot)
        assert pilot.app.screen.settings.preset == "transformer-base"
        await run_action(pilot, "set_preset('gpt-5')")
        assert "not one of" in pilot.app.screen.message
        assert pilot.app.screen.settings.preset == "transformer-base"
        await run_action(pilot, "set_width(0)")
        assert "between 1 and 16384" in pilot.app.screen.message


async def test_the_preset_cycle_comes_back_to_the_learners_own_dimensions() -> None:
    # Enter on the preset field cycled the published presets and threw custom values away
    from attn_tui.tui.widgets.control_bar import ControlBar

    async with lab_app("model").run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        screen = pilot.app.screen
        bar = screen.query_one(ControlBar)
        assert "↑↓ or Enter: another preset" in str(bar.render())  # the preset field's hint
        for _ in range(4):  # no custom dimensions yet: the cycle skips "custom"
            await pilot.press("enter")
            await settle(pilot)
        assert screen.settings.preset == "chapter"
        await run_action(pilot, "set_hidden(3000)")
        assert screen.settings.preset == "custom"
        seen = []
        for _ in range(5):
            await pilot.press("enter")
            await settle(pilot)
            seen.append(screen.settings.preset)
        assert seen == ["chapter", "transformer-base", "bert-base", "gpt2-small", "custom"]
        assert screen.settings.H == 3000 and _params(pilot.app).column(1)[1] == count(
            count_params(V=50000, D=512, L=6, h=8, H=3000).feed_forward)


async def test_r_keeps_the_learners_dimensions_for_the_preset_cycle() -> None:
    async with lab_app("model").run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        screen = pilot.app.screen
        await run_action(pilot, "set_layers(7)")
        await run_action(pilot, "reset")
        assert screen.settings.preset == "chapter" and screen.settings.L == 6
        for _ in range(4):
            await run_action(pilot, "next_preset")
        assert screen.settings.preset == "custom" and screen.settings.L == 7
        await run_action(pilot, "set_layers(9)")  # changed again, then R: the newest set
        await run_action(pilot, "reset")
        for _ in range(4):
            await run_action(pilot, "next_preset")
        assert screen.settings.L == 9


async def test_a_refusal_keeps_saying_that_the_numbers_are_stale() -> None:
    # D = 7 (h = 8 does not divide it) kept the last valid table; then 65536, refused,
    # replaced that message, and the bar said D 7 over a table for D = 512 with no word why
    from lab_pilot import lab_app, settle

    async with lab_app("model").run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        screen = pilot.app.screen
        assert screen.offer("D", 7)
        await settle(pilot)
        assert not screen.offer("D", 65536)
        assert screen.message.startswith("D must be between 1 and 16384; 65536 is outside.")
        assert "Still: D = 7 does not split into h = 8 heads" in screen.message
        assert "last valid ones (D = 512, h = 8)" in screen.message
        assert screen.offer("h", 7)  # consistent again: a refusal is only itself
        await settle(pilot)
        assert not screen.offer("D", 0)
        assert "Still" not in screen.message


async def test_a_table_with_columns_off_to_the_right_says_so_in_its_header():
    # at 64 columns the share column was gone with only a scrollbar's sliver to say so
    async with lab_app("model").run_test(size=(64, 24)) as pilot:
        await settle(pilot)
        table = pilot.app.screen.query_one("#params-table", TextTable)
        assert table.virtual_size.width > table.scrollable_content_region.width
        assert table.render_line(0).text.rstrip().endswith("→")
    async with lab_app("model").run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        table = pilot.app.screen.query_one("#params-table", TextTable)
        assert "→" not in table.render_line(0).text  # every column in sight


async def test_values_changed_while_the_split_is_refused_are_named_as_held_too() -> None:
    """V 1 and L 2 set after h 1024 (D = 512 does not split into it) changed nothing on the
    panes, and the message named only D and h as the numbers shown."""
    from lab_pilot import lab_app, settle

    async with lab_app("model").run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        screen = pilot.app.screen
        assert screen.offer("h", 1024)
        await settle(pilot)
        assert screen.offer("V", 1) and screen.offer("L", 2)
        await settle(pilot)
        assert (screen.settings.V, screen.settings.L) == (1, 2)
        assert ("The numbers below are the last valid ones (V = 50,000, D = 512, L = 6, h = 8)."
                in screen.message)


async def test_one_layer_is_not_called_1_layers() -> None:
    async with lab_app("model").run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await run_action(pilot, "set_layers(1)")
        assert "1 layer" in _params(pilot.app).row_labels
        caption = str(pilot.app.screen.query_one("#cost-caption").render())
        assert "every head of the one layer." in caption and "1 layers" not in caption


async def test_a_cost_column_is_all_in_full_or_all_in_e_notation() -> None:
    # n = 65536: "68,719,476,736" sat above "1.100e+12" in one column (the tokens are
    # written as n is everywhere, 262144, as lengths and widths are)
    async with lab_app("model").run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await run_action(pilot, "set_tokens(65536)")
        c = _costs(pilot.app)
        for col in (0, 2):
            cells = c.column(col)
            assert all("e+" in x for x in cells) or not any("e+" in x for x in cells), cells
        assert c.column(0)[0] == f"{16384 ** 2:.3e}"
