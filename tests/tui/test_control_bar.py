"""A control bar's fields: a name and its value are one unit, wrapped together, never parted."""

from __future__ import annotations

import re

import pytest
from screen_text import screen_lines

from attn_tui.tui.app import make_app
from attn_tui.tui.widgets.control_bar import ControlBar

UNIT = re.compile(r"(\S+) ‹([^›]*)›")


def _bar_lines(app) -> list[str]:
    """The bar's lines as drawn (the hint line, last, left out)."""
    bar = app.screen.query_one(ControlBar)
    region = bar.content_region
    lines = screen_lines(app)[region.y:region.y + region.height]
    return [line[region.x:region.right] for line in lines][:-1]


async def _settle(pilot) -> None:
    for _ in range(3):
        await pilot.pause()
    await pilot.app.workers.wait_for_complete()
    await pilot.pause()


async def _model_transformer_base_n_doubled(pilot, bar) -> None:
    names = bar.field_named("preset").choices
    await pilot.press(*["up"] * list(names).index("transformer-base"))
    await pilot.press(*["right"] * 6, "pageup")


async def _scaling_seed_at_its_largest(pilot, bar) -> None:
    await pilot.press("right", "right", "right", *"2147483647", "enter")


@pytest.mark.parametrize(("lab", "setup", "labels"), [
    ("model", _model_transformer_base_n_doubled, ["preset", "V", "D", "L", "h", "H", "n"]),
    ("scaling", _scaling_seed_at_its_largest,
     ["top d_k", "keys", "trials", "seed", "÷√d_k", "temp"]),
])
async def test_a_wrapped_control_row_keeps_each_name_beside_its_value(lab, setup, labels):
    app = make_app(lab=lab)
    async with app.run_test(size=(80, 24)) as pilot:
        await _settle(pilot)
        bar = app.screen.query_one(ControlBar)
        bar.focus()
        await pilot.pause()
        await setup(pilot, bar)
        await _settle(pilot)
        lines = _bar_lines(app)
        assert len(lines) >= 2  # the row did wrap at 80 columns
        for line in lines:  # no line ends on a bare name or starts with a bare value
            assert not re.search(r"\S$", line.rstrip()) or line.rstrip().endswith("›")
            assert line.lstrip().startswith(tuple(label.split()[0] for label in labels))
        shown = [(name, value) for line in lines for name, value in UNIT.findall(line)]
        assert [name for name, _ in shown] == [label.split()[-1] for label in labels]
        # the picked field (the one just changed) is drawn reversed: clear without colour
        picked = bar.fields[bar.field]
        text = bar.render()
        start = text.plain.index(f"{picked.label} ‹")
        at = start + len(picked.label) + 1
        assert any(span.start <= at < span.end and "reverse" in str(span.style)
                   for span in text.spans)


@pytest.mark.parametrize("width", [44, 60, 80, 120])
async def test_the_bar_is_as_many_lines_high_as_it_draws(width):
    app = make_app(lab="model")
    async with app.run_test(size=(width, 30)) as pilot:
        await _settle(pilot)
        bar = app.screen.query_one(ControlBar)
        lines = bar.laid_out(bar.size.width).plain.split("\n")
        fields = lines[:-1]
        assert bar.size.height >= len(lines)
        assert all(len(line) <= bar.size.width for line in fields)
        assert " ".join(fields).split() == bar.laid_out(10_000).plain.split("\n")[0].split()
