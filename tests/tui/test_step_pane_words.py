"""What the step pane says in words at 80 columns: its summary never cuts a number, its edge
says when α·v is off to the side, and the dimensions bar says what T counts."""

from __future__ import annotations

import re

import pytest
from screen_text import screen_text

from attn_tui.tui.app import make_app


async def _shown(pilot) -> str:
    await pilot.pause()
    await pilot.pause()
    return screen_text(pilot.app)


@pytest.mark.parametrize(("preset", "keys", "whole"), [
    ("mask", ("m", "m"), "ζ = (0.4551, 0.1674, 0.1015, 0.2760)"),  # no mask
    ("mask", ("m",), "α sums to 0.4551; 0.5449 lost"),  # softmax, then mask
    ("lecture-head", (), "ζ = ("),
])
async def test_the_summary_shortens_its_words_and_never_cuts_a_number_at_80x24(preset, keys, whole):
    async with make_app(preset=preset).run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await pilot.press(*keys)
        text = await _shown(pilot)
        assert whole in text
        assert not re.findall(r"\d…", text), "a number cut by the pane's edge"


async def test_the_summary_takes_its_longest_form_where_there_is_room():
    async with make_app(preset="mask").run_test(size=(160, 40)) as pilot:
        await pilot.pause()
        await pilot.press("m")
        text = await _shown(pilot)
        assert "output ζ = (0.4551, 0.0000, 0.0000, 0.0000)" in text
        assert "α sums to 0.4551; 0.5449 lost (softmax came first)" in text


async def test_the_step_pane_says_alpha_v_is_to_the_right_and_q_k_to_the_left():
    async with make_app().run_test(size=(80, 24)) as pilot:
        text = await _shown(pilot)
        assert "→ α·v · ↑↓ in Q picks the query" in text
        pilot.app.screen.query_one("#steps").focus()
        await pilot.press("end")
        text = await _shown(pilot)
        assert "α·v3" in text
        assert "← q·k · ↑↓ in Q picks the query" in text and "→ α·v" not in text
    async with make_app().run_test(size=(160, 40)) as pilot:  # all in sight: nothing to say
        text = await _shown(pilot)
        assert "─ ↑↓ in Q picks the query ─╯" in text and "→ α·v" not in text


async def test_the_dimensions_bar_says_t_counts_the_keys():
    async with make_app().run_test(size=(80, 24)) as pilot:  # Q is 1 × 3, K 3 × 3
        text = await _shown(pilot)
        assert "T keys ‹3›" in text
        assert "1×3" in text


async def test_the_map_names_the_column_off_to_its_right():
    async with make_app(preset="mask").run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await pilot.press("m")  # softmax, then mask: the map gains a lost column
        text = await _shown(pilot)
        assert "→ lost · v: change view" in text
