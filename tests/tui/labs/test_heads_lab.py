"""The heads lab under Pilot: the split, picking a head, each control, h not dividing D."""

from __future__ import annotations

import numpy as np
import pytest
from lab_pilot import lab_app, run_action, settle
from screen_text import screen_text

from attn_tui.compute.heads import heads_inputs, split_heads
from attn_tui.report.fmt import num
from attn_tui.tui.widgets.heatmap import Heatmap
from attn_tui.tui.widgets.text_table import TextTable


def _heads(app) -> TextTable:
    return app.screen.query_one("#heads-table", TextTable)


def _expected(T=6, D=512, h=8, seed=0, mask="none"):
    return split_heads(*heads_inputs(T, D, seed), h, mask=mask)


async def test_defaults() -> None:
    async with lab_app("heads").run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        screen = pilot.app.screen
        r = _expected()
        t = _heads(pilot.app)
        assert list(t.row_labels) == [str(i) for i in range(1, 9)]
        assert t.column(0) == ["64"] * 8
        assert t.column(1) == [num(r.mean_entropy(i)) for i in range(8)]
        assert screen.query_one("#split-box").border_title == (
            "D = 512 split into h = 8 heads of d_k = 64")
        shapes = str(screen.query_one("#shapes").render())
        assert "6 × (8 × 64) = 6 × 512" in shapes
        params = str(screen.query_one("#params-note").render())
        assert "4 D² = 1,048,576" in params and "8 × 131,072 = 1,048,576" in params
        np.testing.assert_allclose(screen.query_one(Heatmap).steps.weights, r.heads[0].weights)


async def test_picking_a_head() -> None:
    async with lab_app("heads").run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        screen = pilot.app.screen
        r = _expected()
        await pilot.press("right_square_bracket")
        await settle(pilot)
        assert screen.settings.head == 2
        await run_action(pilot, "set_head(5)")
        assert screen.query_one("#map-box").border_title.startswith("head 5 of 8")
        np.testing.assert_allclose(screen.query_one(Heatmap).steps.weights, r.heads[4].weights)
        assert _heads(pilot.app).cursor_row == 4
        await run_action(pilot, "previous_head()")
        assert screen.settings.head == 4
        await run_action(pilot, "set_head(9)")
        assert "head must be between 1 and 8; 9 is outside" in screen.message
        assert screen.settings.head == 4


@pytest.mark.parametrize(
    ("action", "kwargs"),
    [("set_heads(16)", dict(h=16)), ("set_width(256)", dict(D=256)),
     ("set_tokens(4)", dict(T=4)), ("set_seed(5)", dict(seed=5)),
     ("toggle_causal()", dict(mask="causal"))],
)
async def test_each_control(action: str, kwargs: dict) -> None:
    async with lab_app("heads").run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await run_action(pilot, action)
        r = _expected(**kwargs)
        t = _heads(pilot.app)
        assert t.column(1) == [num(r.mean_entropy(i)) for i in range(r.h)]
        assert t.column(0)[0] == str(r.d_k)
        steps = pilot.app.screen.query_one(Heatmap).steps
        assert steps.weights.shape == (r.T, r.T)
        assert pilot.app.screen.message == ""


async def test_splitting_adds_no_parameters() -> None:
    async with lab_app("heads").run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        for h in (1, 2, 32):
            await run_action(pilot, f"set_heads({h})")
            params = str(pilot.app.screen.query_one("#params-note").render())
            assert "4 D² = 1,048,576" in params


async def test_heads_that_do_not_divide_d_keep_the_last_split() -> None:
    async with lab_app("heads").run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await run_action(pilot, "set_heads(7)")
        screen = pilot.app.screen
        assert "does not split into h = 7 heads" in screen.message
        assert "Still showing D = 512 split into h = 8." in screen.message
        assert len(_heads(pilot.app).row_labels) == 8
        # the head picked is one of the 8 on screen, not of the 7 asked for
        await run_action(pilot, "set_head(8)")
        assert screen.settings.head == 8 and "head must be" not in screen.message
        # and it is the head shown: the map read "head 1 of 8" beside head ‹8› on the bar
        box = screen.query_one("#map-box")
        assert box.border_title.startswith("head 8 of 8:")
        assert _heads(pilot.app).cursor_row == 7
        np.testing.assert_allclose(np.asarray(screen.query_one(Heatmap).steps.weights),
                                   np.asarray(_expected().heads[7].weights))
        await run_action(pilot, "set_head(9)")
        assert "head must be between 1 and 8; 9 is outside" in screen.message
        await run_action(pilot, "set_heads(4)")
        assert screen.message == "" and len(_heads(pilot.app).row_labels) == 4
        assert screen.settings.head == 4


async def test_next_head_pressed_twice_in_a_burst_settles_on_the_third() -> None:
    # ] ] in one burst: the table cursor's stale moves and the head picks answered each
    # other for ever, at 100% CPU, and later presses jumped around
    import asyncio

    from textual import events

    async with lab_app("heads").run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        screen = pilot.app.screen
        offers: list[tuple[str, object]] = []
        real = screen.offer
        screen.offer = lambda key, value: offers.append((key, value)) or real(key, value)
        for _ in range(2):
            pilot.app.post_message(events.Key("right_square_bracket", "]"))
        await asyncio.wait_for(settle(pilot), timeout=10)  # an endless exchange never settles
        assert screen.settings.head == 3 and _heads(pilot.app).cursor_row == 2
        assert offers == [("head", 2), ("head", 3)]


async def test_with_an_h_that_does_not_divide_d_brackets_walk_the_split_shown() -> None:
    """h 3 typed over the 8-way split of D 512: ] from head 3 wrapped to head 1 (at the h
    typed), and head 7 picked before it was cut to 3, though 8 heads still showed."""
    async with lab_app("heads").run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        screen = pilot.app.screen
        await run_action(pilot, "set_head(7)")
        await run_action(pilot, "set_heads(3)")
        assert "Still showing D = 512 split into h = 8." in screen.message
        assert screen.settings.head == 7 and _heads(pilot.app).cursor_row == 6
        await pilot.press("right_square_bracket")
        await settle(pilot)
        assert screen.settings.head == 8
        await pilot.press("right_square_bracket")
        await settle(pilot)
        assert screen.settings.head == 1
        await pilot.press("left_square_bracket")
        await settle(pilot)
        assert screen.settings.head == 8
        assert screen.query_one("#map-box").border_title.startswith("head 8 of 8:")
        await run_action(pilot, "set_heads(16)")  # a split again: the head picked stays
        assert screen.settings.head == 8 and screen.result.h == 16
        await run_action(pilot, "set_heads(4)")
        assert screen.settings.head == 4


async def test_a_head_past_h_typed_is_refused_and_stays_to_mend() -> None:
    """head 12 with h = 8 was refused by the lab, after the field had taken it: the 12 went
    and ‹1› came back, and the Esc a learner then pressed left the lab."""
    from lab_pilot import lab_app, settle

    from attn_tui.tui.widgets.control_bar import ControlBar

    async with lab_app("heads").run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        screen = pilot.app.screen
        bar = screen.query_one(ControlBar)
        bar.field = [f.key for f in bar.fields].index("head")
        await pilot.press("1", "2", "enter")
        await settle(pilot)
        assert "head must be between 1 and 8; 12 is outside" in screen.message
        assert bar.editing == "12" and screen.settings.head == 1
        await pilot.press("backspace", "enter")
        await settle(pilot)
        assert bar.editing is None and screen.settings.head == 1 and screen.message == ""
        await pilot.press("3", "enter")
        await settle(pilot)
        assert screen.settings.head == 3


@pytest.mark.parametrize(("lab", "saved", "says"), [
    ("heads", {"h": 7}, "Still showing D = 512 split into h = 8."),
    # head 8 is one of the split shown: it stayed picked before leaving, and must after
    ("heads", {"h": 3, "head": 8}, "Still showing D = 512 split into h = 8."),
    ("model", {"D": 100, "h": 8}, "The numbers below are the last valid ones (D = 512, h = 8)."),
])
async def test_reopened_with_a_split_that_cannot_be_shown_it_shows_the_defaults(lab, saved, says):
    """Left (or saved in a session) at h = 7 of D = 512, Go to reopened the lab with its
    reason and empty boxes: nothing valid had been shown yet."""
    async with lab_app(lab, lab_options={"saved": saved}).run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        screen = pilot.app.screen
        assert all(getattr(screen.settings, k) == v for k, v in saved.items())  # as left
        assert screen.message.endswith(says)
        if lab == "heads":
            assert len(_heads(pilot.app).row_labels) == 8
            i = saved.get("head", 1) - 1
            assert screen.query_one("#map-box").border_title.startswith(f"head {i + 1} of 8:")
            np.testing.assert_allclose(np.asarray(screen.query_one(Heatmap).steps.weights),
                                       np.asarray(_expected().heads[i].weights))
        else:
            assert screen.count.D == 512 and screen.count.total == 44_502_016
            assert "44,502,016" in screen_text(pilot.app)


@pytest.mark.parametrize("size", [(60, 20), (40, 12)])
async def test_a_resize_keeps_the_focused_tables_cursor_in_sight(size) -> None:
    """The workbench follows its cursor after a resize; a lab did not: at 60x20 the focused
    table of heads was scrolled out of sight, and only a key brought it back."""
    from attn_tui.tui.textual_compat import visible_region

    app = lab_app("heads")
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        table = app.screen.query_one("#heads-table", TextTable)
        table.focus()
        await pilot.press("down", "down")
        await settle(pilot)
        row = table.cursor_row
        await pilot.resize_terminal(*size)
        await settle(pilot)
        await pilot.pause()
        shown = visible_region(table)
        assert shown is not None, "the focused table is out of sight"
        region, clip = shown
        y = region.y + table.gutter.top + 1 + row - int(table.scroll_y)  # header, then rows
        assert clip.contains(region.x + table.gutter.left + 1, y), (row, region, clip)


async def test_after_r_a_split_refused_before_is_not_said_again() -> None:
    """h = 10 refused (512 does not split into 10), then R: a later refusal of T ended in
    "Still: D = 512 does not split into h = 10 heads" while the bar showed h 8."""
    app = lab_app("heads")
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        screen = app.screen
        await run_action(pilot, "set_heads(10)")
        assert screen.standing_problem() is not None
        await pilot.press("R")
        await settle(pilot)
        assert screen.settings.h == 8 and screen.standing_problem() is None
        await run_action(pilot, "set_tokens(0)")  # refused: said with nothing stale after it
        assert "split into h = 10" not in screen.message


async def test_the_head_field_names_one_range_the_split_shown() -> None:
    """head 70 typed was refused as "between 1 and 64" (the field's own top), head 9 as
    "between 1 and h = 8": the range now follows the split on screen, and ↑ stops at h."""
    from attn_tui.tui.widgets.control_bar import ControlBar

    async with lab_app("heads").run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        screen = pilot.app.screen
        bar = screen.query_one(ControlBar)
        bar.focus()
        bar.field = [f.key for f in bar.fields].index("head")
        await pilot.press("7", "0", "enter")
        await settle(pilot)
        assert screen.message == "head must be between 1 and 8; 70 is outside."
        await pilot.press("escape")
        await run_action(pilot, "set_head(8)")
        await pilot.press("up")
        await settle(pilot)
        assert screen.settings.head == 8 and "head is already the largest, 8" in screen.message
        await run_action(pilot, "set_heads(16)")
        await run_action(pilot, "set_head(12)")
        assert screen.settings.head == 12 and screen.message == ""
        await run_action(pilot, "set_heads(7)")  # no split: the 16 heads stay, and the range
        await run_action(pilot, "set_head(16)")
        assert screen.settings.head == 16
        assert "head must be" not in screen.message


async def test_a_session_with_a_head_past_its_h_shows_and_keeps_the_last_head_of_the_split():
    # {"h": 4, "head": 7}, written by hand: the map showed head 4 of 4, the bar said 7, and ↑
    # said "head is already the largest, 7."
    from attn_tui.tui.widgets.control_bar import ControlBar

    async with lab_app("heads", lab_options={"saved": {"h": 4, "head": 7}}).run_test(
            size=(80, 24)) as pilot:
        await settle(pilot)
        screen = pilot.app.screen
        assert screen.settings.head == 4 and screen.query_one(ControlBar).values["head"] == 4
        assert screen.query_one("#map-box").border_title.startswith("head 4 of 4:")
        assert screen.message == ("From the session, not taken: head 7, past the split's 4 "
                                  "heads (head 4 is shown).")


async def test_a_head_one_column_wide_is_said_in_the_singular() -> None:
    """D = 8 split 8 ways read "d_k = 1 columns … fills columns 3 … 3 of the concat"."""
    async with lab_app("heads").run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        await run_action(pilot, "set_width(8)")
        await run_action(pilot, "set_head(3)")
        note = " ".join(str(pilot.app.screen.query_one("#head-note").render()).split())
        assert "own d_k = 1 column of Q, K, V" in note and "fills column 3 of the concat" in note
        assert "6 × 1  (1 column wide)" in str(pilot.app.screen.query_one("#shapes").render())


async def test_undo_says_which_control_it_put_back() -> None:
    from attn_tui.tui.textual_compat import notifications

    app = lab_app("heads")
    async with app.run_test(size=(80, 24), notifications=True) as pilot:
        await settle(pilot)
        await run_action(pilot, "set_heads(4)")
        await pilot.press("u")
        await settle(pilot)
        assert [str(n.message) for n in notifications(app)] == ["Undid: h 4 → 8."]
        await pilot.press("U")
        await settle(pilot)
        assert [str(n.message) for n in notifications(app)] == ["Redid: h 8 → 4."]


@pytest.mark.parametrize(("lab", "says"), [
    ("heads", "Still showing D = 256 split into h = 4."),
    ("model", "The numbers below are the last valid ones (D = 256, h = 4)."),
])
async def test_a_split_left_standing_reopens_beside_the_numbers_shown_when_saved(lab, says):
    """h = 4, D = 256, then D = 7: the panes kept D = 256's numbers. Saved (ctrl+s, or kept
    by Esc for Go to) and reopened, the lab showed the defaults' D = 512 and h = 8 instead."""
    async with lab_app(lab).run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        for key, value in (("h", 4), ("D", 256), ("D", 7)):
            await run_action(pilot, f"set('{key}', {value})")
        screen = pilot.app.screen
        assert screen.message.endswith(says)
        saved = screen.session_settings()
    assert (saved["D"], saved["h"], saved["shown_D"]) == (7, 4, 256) and "shown_h" not in saved
    async with lab_app(lab, lab_options={"saved": saved}).run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        screen = pilot.app.screen
        assert (screen.settings.D, screen.settings.h) == (7, 4)  # the bar as left
        assert screen.message.endswith(says) and "not taken" not in screen.message
        if lab == "heads":
            assert len(_heads(pilot.app).row_labels) == 4
            assert "D = 256 split into h = 4" in screen_text(pilot.app)
        else:
            assert (screen.count.D, screen.count.h) == (256, 4)
        await run_action(pilot, "set('D', 512)")  # mended: the bar's own numbers again
        assert not screen.message and screen.session_settings().keys().isdisjoint({"shown_D"})
