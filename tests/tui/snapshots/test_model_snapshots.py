"""Pictures of the model screen: reviewed by eye, then held still.

Update with `pytest tests/tui/snapshots/test_model_snapshots.py --snapshot-update` after
looking at the SVGs.
"""

from __future__ import annotations

import pytest

from attn_tui.tui.app import make_app

SIZES = [(80, 24), (120, 40)]


def _previous_token_head(pilot_keys: tuple[str, ...]):
    async def run_before(pilot) -> None:
        pilot.app.animation_level = "none"
        await pilot.app.workers.wait_for_complete()
        await pilot.pause()
        await pilot.app.workers.wait_for_complete()
        await pilot.press(*pilot_keys)
        await pilot.app.workers.wait_for_complete()
        await pilot.pause()

    return run_before


@pytest.mark.parametrize("size", SIZES, ids=[f"{w}x{h}" for w, h in SIZES])
def test_model_screen(snap_compare, size):
    """'The cat sat on the mat because it was tired.' as 13 tokens; the 6 x 12 grid of shade
    pictures with layer 1 head 3 in brackets; beside it that head large, a clean diagonal one
    below the main one (each token looks at the one before), ▶ on query 4 'sat'; the summary
    says previous token 0.9997, mostly: previous token; below, the step table for 'sat' with
    α 0.9998 on 'cat' (at 80x24 the step table is below the fold, its title in sight)."""
    app = make_app(lab="minilm", confirm_quit=False)
    keys = ("right", "right", "right_square_bracket", "right_square_bracket",
            "right_square_bracket")
    assert snap_compare(app, terminal_size=size, run_before=_previous_token_head(keys))


def test_model_screen_no_color(snap_compare, monkeypatch: pytest.MonkeyPatch):
    """NO_COLOR at 80x24: the pictures are the same shades (·░▒▓█), the chosen head is in
    brackets and its layer and head numbers in reverse video; nothing rests on colour."""
    monkeypatch.setenv("NO_COLOR", "1")
    app = make_app(lab="minilm", confirm_quit=False)
    assert snap_compare(app, terminal_size=(80, 24),
                        run_before=_previous_token_head(("down", "right")))
