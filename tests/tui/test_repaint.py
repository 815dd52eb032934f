"""What an edit repaints: the new α in the first frame after Enter, and only what changed."""

from __future__ import annotations

import re

import pytest
from screen_text import screen_text
from textual import events

from attn_tui.compute import attend
from attn_tui.core.state import random_workspace
from attn_tui.report.fmt import num
from attn_tui.tui import textual_compat
from attn_tui.tui.app import make_app
from attn_tui.tui.textual_compat import on_each_frame
from attn_tui.tui.widgets.heatmap import Heatmap
from attn_tui.tui.widgets.step_table import StepTable


def _frames(app) -> list[str]:
    """Every compositor update the app sends from now on, as the text a terminal receives."""
    sent: list[str] = []

    def frame(_screen, text: str | None) -> None:
        if text is not None:
            sent.append(text)

    on_each_frame(app, frame)
    return sent


def _key(app, char: str) -> None:
    key = "enter" if char == "\r" else char
    app.post_message(events.Key(key, char))


async def test_the_first_frame_after_enter_already_shows_the_new_alpha():
    # A frame painted before the new α would start Textual's 60 fps clock and hold α back.
    ws = random_workspace(8, 3, seed=1)
    async with make_app(workspace=ws).run_test(size=(120, 40)) as pilot:
        app = pilot.app
        await pilot.pause()
        for ch in "2.5":
            _key(app, ch)
            await pilot.pause()
        sent = _frames(app)
        _key(app, "\r")
        await pilot.pause()
        await pilot.pause()
        new = app.screen.workspace
        assert new.q[0][0] == 2.5
        steps = attend(new.q, new.k, new.v, mask=new.mask, scale=new.scale)
        alpha = num(float(steps.weights[0, 0]))
        assert app.screen.query_one(StepTable).cell_text(0, 3) == alpha
        assert sent, "nothing was painted after Enter"
        assert alpha in sent[0]


async def test_an_edit_to_one_query_repaints_one_row_of_the_map():
    ws = random_workspace(8, 3, seed=1)
    async with make_app(workspace=ws).run_test(size=(120, 40)) as pilot:
        app = pilot.app
        await pilot.pause()
        heatmap = app.screen.query_one(Heatmap)
        rows: list[int] = []
        whole: list[bool] = []
        heatmap.refresh_row = rows.append  # record instead of repainting
        heatmap.invalidate = lambda: whole.append(True)
        await pilot.press("2", "enter")
        await pilot.pause()
        assert app.screen.workspace.q[0][0] == 2.0
        assert rows == [0] and not whole
        # and every row it shows is still the compute core's
        del heatmap.refresh_row, heatmap.invalidate
        heatmap.invalidate()
        await pilot.pause()
        new = app.screen.workspace
        steps = attend(new.q, new.k, new.v, mask=new.mask, scale=new.scale)
        text = screen_text(app)
        for i in range(8):
            assert heatmap.cell_text(i, 0) == num(float(steps.weights[i, 0]))
            assert num(float(steps.weights[i, 0])) in text


async def test_a_new_smallest_weight_still_repaints_one_row_of_the_map():
    # Weights are shaded against the largest weight alone; the smallest moving (here it is in
    # the edited row) changes no other row's text or shade.
    ws = random_workspace(8, 3, seed=8)
    async with make_app(workspace=ws).run_test(size=(120, 40)) as pilot:
        app = pilot.app
        await pilot.pause()
        heatmap = app.screen.query_one(Heatmap)
        lo, hi = heatmap._lo, heatmap._hi
        rows: list[int] = []
        whole: list[bool] = []
        heatmap.refresh_row = rows.append
        heatmap.invalidate = lambda: whole.append(True)
        await pilot.press("2", "enter")
        await pilot.pause()
        assert app.screen.workspace.q[0][0] == 2.0
        assert heatmap._hi == hi and heatmap._lo != lo  # the case this test is about
        assert rows == [0] and not whole


async def test_an_edit_to_a_key_repaints_the_whole_map():
    ws = random_workspace(8, 3, seed=1)
    async with make_app(workspace=ws).run_test(size=(120, 40)) as pilot:
        app = pilot.app
        await pilot.pause()
        heatmap = app.screen.query_one(Heatmap)
        whole: list[bool] = []
        original = heatmap.invalidate
        heatmap.invalidate = lambda: (whole.append(True), original())
        await pilot.press("tab")  # K
        await pilot.pause()
        assert app.focused.id == "grid-k"
        await pilot.press("2", "enter")
        await pilot.pause()
        assert app.screen.workspace.k[0][0] == 2.0
        assert whole


async def test_the_edit_line_in_the_border_never_leaves_stale_text():
    # The edit line is the Q box's subtitle, and only that border line is repainted when it
    # changes: after each key the screen must equal a full repaint of the box.
    async with make_app().run_test(size=(80, 24)) as pilot:
        app = pilot.app
        await pilot.pause()
        editor = app.screen.query_one("#editor-q")
        seen = []
        for key in ("0", "full_stop", "7", "7", "backspace", "enter", "1", "escape", "minus", "minus",
                    "enter", "escape"):
            await pilot.press(key)
            await pilot.pause()
            shown = screen_text(app)
            editor.refresh()
            await pilot.pause()
            assert screen_text(app) == shown, f"stale text on screen after {key!r}"
            seen.append(shown)
        border = [text.splitlines()[4] for text in seen]  # the Q box's bottom border
        assert "who·d1 = 0.77▏" in border[3]
        assert "1×3" in border[5] and "who·d1" not in seen[5]  # Enter: back to the shape
        assert "1×3" in border[7]  # Escape after "1"
        assert "who·d1 = --" in seen[10]  # refused: kept on the line, with a message below
        assert "1×3" in border[11] and "who·d1" not in seen[11]


async def test_box_titles_that_change_never_leave_stale_text():
    # moving the query retitles the steps box; v retitles the map box (top border lines)
    async with make_app(workspace=random_workspace(8, 3, seed=1)).run_test(size=(80, 24)) as pilot:
        app = pilot.app
        await pilot.pause()
        titles = []
        for key in ("down", "down", "v", "up", "v"):
            await pilot.press(key)
            await pilot.pause()
            shown = screen_text(app)
            app.screen.refresh()
            for widget in app.screen.query("*"):
                widget.refresh()
            await pilot.pause()
            assert screen_text(app) == shown, f"stale text on screen after {key!r}"
            titles.append(shown)
        assert "(3 of 8)" in titles[1] and "(2 of 8)" in titles[3]


async def test_a_new_key_in_the_outputs_view_under_a_mask_repaints_the_map():
    """The outputs view keeps its shape (T × d_v) when a key is added, but the mask's blocked
    cells gain a column: the map must repaint whole, not compare rows of unequal width."""
    async with make_app().run_test(size=(80, 24)) as pilot:
        for key in ("m", "v", "v", "v"):
            await pilot.press(key)
        await pilot.pause()
        heatmap = pilot.app.screen.query_one(Heatmap)
        assert heatmap.view == "output"
        await pilot.press("]")
        await pilot.pause()
        assert pilot.app.is_running
        assert heatmap.steps.blocked.shape == (1, 4)
        assert heatmap.cell_text(0, 0) == num(0.4)


# a cursor move followed by another move, a line break or the end draws nothing
NO_OP_MOVE = re.compile(r"\x1b\[\d+;\d+H(?=\x1b\[\d+;\d+H|\n|$)")


@pytest.mark.parametrize("size", [(80, 24), (120, 40)])
async def test_rendering_only_what_changed_draws_what_textual_draws(monkeypatch, size):
    """Every partial update of a student's keys (typing, Enter, mask, scaling, each map view,
    a token more and fewer, the other panes, the dimensions bar, help opened and closed)
    sends what Textual's own update sends."""
    from textual._compositor import Compositor

    ours = Compositor.render_partial_update
    assert getattr(ours, textual_compat.PATCH_MARK, False)
    textuals = ours.__wrapped__
    compared: list[int] = []

    def both(self):
        dirty = self._dirty_regions.copy()
        mine = ours(self)
        self._dirty_regions.update(dirty)
        theirs = textuals(self)
        assert (mine is None) == (theirs is None)
        if mine is not None:
            console = self.root.app.console
            text = NO_OP_MOVE.sub("", mine.render_segments(console))
            assert text == NO_OP_MOVE.sub("", theirs.render_segments(console))
            compared.append(len(text))
        return mine

    monkeypatch.setattr(Compositor, "render_partial_update", both)
    async with make_app().run_test(size=size) as pilot:
        await pilot.pause()
        for key in ("4", "full_stop", "2", "enter", "m", "s", "v", "v", "v", "v", "m", "s",
                    "1", "enter", "v", "right_square_bracket", "right_square_bracket",
                    "left_square_bracket", "down", "tab", "7", "enter", "right", "tab", "m",
                    "tab", "down", "down", "D", "up", "escape", "question_mark", "escape",
                    "m", "greater_than_sign", "less_than_sign"):
            await pilot.press(key)
        await pilot.pause()
    assert len(compared) >= 30


async def test_a_typed_digit_renders_the_cell_and_not_the_whole_screen():
    async with make_app().run_test(size=(80, 24)) as pilot:
        app = pilot.app
        await pilot.press("4")
        await pilot.pause()
        rendered: list[str] = []
        for widget in app.screen.query("*"):
            original = widget.render_lines
            widget.render_lines = (lambda crop, w=widget, f=original:
                                   rendered.append(type(w).__name__) or f(crop))
        await pilot.press("full_stop")
        await pilot.pause()
        assert "MatrixGrid" in rendered
        assert not {"TitleBar", "KeyBar", "StepTable", "Heatmap"} & set(rendered)


async def _lab_screens(changes_only: bool, keys: tuple[str, ...]) -> list[str]:
    async def settle(pilot) -> None:
        await pilot.pause()
        await pilot.app.workers.wait_for_complete()
        await pilot.pause()

    app = make_app(lab="scaling")
    app.animation_level = "none"
    async with app.run_test(size=(120, 40)) as pilot:
        if not changes_only:
            textual_compat._CHANGES_ONLY.discard(app)
        await settle(pilot)
        shown = []
        for key in keys:
            await pilot.press(key)
            await settle(pilot)
            await settle(pilot)  # textual-plot draws its canvases a frame after its data
            shown.append(screen_text(app))
    return shown


async def test_plots_redrawn_by_a_partial_update_are_those_textual_draws():
    """textual-plot draws its canvases inside the plot widget's render, and the widget lies
    wholly behind them: rendering only what changed must still render it, or its plots stay
    as they were (the scaling lab's, after s or a new d_k)."""
    keys = ("s", "down", "s", "right", "up", "s")
    ours, theirs = await _lab_screens(True, keys), await _lab_screens(False, keys)
    assert len(set(ours)) > 2  # the plots did change
    for key, mine, textuals in zip(keys, ours, theirs, strict=True):
        assert mine == textuals, f"the lab's screen after {key!r}"


def _plain(text: str) -> str:
    return re.sub(r"\x1b\[[0-9;?]*[A-Za-z]", "", text)


@pytest.mark.parametrize("how", ["ctrl+l", "resumed", "ctrl+l in a dialog"])
async def test_ctrl_l_and_a_resume_from_suspend_draw_the_whole_screen_again(how):
    # after SIGTSTP and fg the screen stayed blank: only what changed would be drawn again
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        if how == "ctrl+l in a dialog":
            await pilot.press("p")
            await pilot.pause()
        sent = _frames(app)
        await pilot.press("shift")  # no key of the app's: draws nothing
        await pilot.pause()
        assert not any("attn-tui — workbench" in _plain(t) for t in sent)
        if how == "resumed":
            app.app_resume_signal.publish(app)
        else:
            await pilot.press("ctrl+l")
        await pilot.pause()
        whole = _plain("".join(sent))
        for words in ("attn-tui — workbench", "mask none", "steps for query 'who'"):
            assert words in whole, words
        if how == "ctrl+l in a dialog":
            assert "Load an example" in whole and type(app.screen).__name__ == "PresetModal"
