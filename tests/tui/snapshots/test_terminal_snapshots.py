"""How the workbench looks in a light theme and with NO_COLOR: nothing may rest on colour."""

from __future__ import annotations

import pytest

from attn_tui.tui.app import make_app


async def _causal_after(pilot) -> None:
    pilot.app.animation_level = "none"
    await pilot.press("m")
    await pilot.app.workers.wait_for_complete()
    await pilot.pause()


def test_light_theme(snap_compare, monkeypatch: pytest.MonkeyPatch):
    """textual-light, mask example in causal-after: dark text on light panes, sums 0.4551 …,
    the status line says 'softmax, then zero the future (weight lost)'. In a terminal of more
    than 16 colours, whatever the one running the tests: there no notice suggests ansi-light."""
    import textual.constants

    monkeypatch.setenv("COLORTERM", "truecolor")
    monkeypatch.setattr(textual.constants, "COLOR_SYSTEM", "auto")  # read when imported
    app = make_app(preset="mask", theme="textual-light")
    assert snap_compare(app, terminal_size=(80, 24), run_before=_causal_after)


def test_no_color(snap_compare, monkeypatch: pytest.MonkeyPatch):
    """NO_COLOR: greys only, yet masked cells still read '·', sums show their numbers, the
    cursor is reverse video, the pane with the keys has a heavy border and the mode is named
    in words."""
    monkeypatch.setenv("NO_COLOR", "1")
    app = make_app(preset="mask")
    assert app.no_color
    assert snap_compare(app, terminal_size=(80, 24), run_before=_causal_after)
