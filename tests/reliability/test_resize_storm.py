"""Windows dragged from 250×80 down to 20×6 and back: every screen survives, and one too small
to use says so instead of drawing garbage."""

from __future__ import annotations

import random

import pytest
from screen_text import screen_text

from attn_tui.core.labs import LABS
from attn_tui.tui.app import make_app
from attn_tui.tui.screens.too_small_screen import MIN_HEIGHT, MIN_WIDTH, TooSmallScreen
from attn_tui.tui.textual_compat import app_exception

pytestmark = pytest.mark.slow  # seconds a test: make test starts them first (conftest)

# each edge of "too small" from both sides, the extremes, a usable size after a usable one and a
# too-small one after a too-small one; then sizes at random, as a window dragged by hand
EDGES = [(250, 80), (MIN_WIDTH - 1, 24), (MIN_WIDTH, MIN_HEIGHT), (MIN_WIDTH, MIN_HEIGHT - 1),
         (MIN_WIDTH + 1, MIN_HEIGHT + 1), (250, MIN_HEIGHT - 1), (MIN_WIDTH - 1, 80), (20, 6),
         (80, 24), (120, 40)]


def storm_sizes(rng: random.Random, dragged: int = 10) -> list[tuple[int, int]]:
    return EDGES + [(rng.randint(20, 250), rng.randint(6, 80)) for _ in range(dragged)]


CASES = [({}, ()), ({"preset": "mask"}, ("m",)), ({}, ("question_mark",)),
         ({"lesson": "mask"}, ("n",))] + [({"lab": name}, ()) for name in LABS]


@pytest.mark.parametrize(("kwargs", "keys"), CASES,
                         ids=lambda v: "-".join(f"{k}={x}" for k, x in v.items())
                         if isinstance(v, dict) else "".join(v))
async def test_resize_storm(kwargs, keys):
    app = make_app(confirm_quit=False, **kwargs)
    rng = random.Random(5)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.press(*keys)
        await app.workers.wait_for_complete()
        await pilot.pause()
        top = app.screen
        for w, h in storm_sizes(rng):
            await pilot.resize_terminal(w, h)
            await pilot.pause()
            small = w < MIN_WIDTH or h < MIN_HEIGHT
            assert isinstance(app.screen, TooSmallScreen) == small, (w, h)
        await pilot.resize_terminal(20, 6)
        await pilot.pause()
        assert "Too small: 20×6" in screen_text(app)
        await pilot.resize_terminal(120, 40)
        await app.workers.wait_for_complete()
        await pilot.pause()
        assert app.screen is top
        assert app_exception(app) is None


async def test_the_too_small_screen_goes_when_a_dialog_over_it_closes_at_full_size():
    """q on the too-small screen with unsaved work opens the quit dialog on top of it; if the
    window grows while that dialog is up, closing the dialog must not leave "Too small"."""
    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.press("2", "enter")  # an edit: q now asks first
        await pilot.pause()
        bench = app.screen
        await pilot.resize_terminal(30, 10)
        await pilot.pause()
        await pilot.press("q")
        await pilot.pause()
        await pilot.resize_terminal(32, 10)  # still too small, under the dialog
        await pilot.pause()
        await pilot.resize_terminal(120, 40)
        await pilot.pause()
        await pilot.press("escape")  # keep working
        await pilot.pause()
        assert app.screen is bench and len(app.screen_stack) == 1
        assert not any(isinstance(s, TooSmallScreen) for s in app.screen_stack)
