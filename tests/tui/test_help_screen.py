"""The keys reference: drawn once per width, the same lines as the tables drawn directly."""

from __future__ import annotations

import pytest
from rich.console import Console, Group
from rich.table import Table
from screen_text import screen_text

from attn_tui.tui.app import make_app
from attn_tui.tui.help_keys import sections
from attn_tui.tui.screens.help_screen import DrawnOncePerWidth, HelpScreen, _reference


@pytest.mark.parametrize("width", [20, 57, 92, 200])
def test_the_replayed_lines_are_the_lines_the_reference_draws(width):
    console = Console(width=width, record=False, color_system="truecolor")
    options = console.options
    direct = console.render_lines(Group(*_reference()), options, pad=False, new_lines=True)
    cached = DrawnOncePerWidth(Group(*_reference()))
    for _ in range(2):  # drawn, then replayed
        assert console.render_lines(cached, options, pad=False, new_lines=True) == direct
    # with a height in the options (Textual gives the widget's), the same again
    tall = options.update(height=len(direct) + 5)
    assert (console.render_lines(cached, tall, pad=False, new_lines=True)
            == console.render_lines(Group(*_reference()), tall, pad=False, new_lines=True))


async def test_a_resize_draws_the_reference_tables_once_per_new_width(monkeypatch):
    drawn: list[int] = []
    table_console = Table.__rich_console__

    def counting(self, console, options):
        drawn.append(options.max_width)
        return table_console(self, console, options)

    monkeypatch.setattr(Table, "__rich_console__", counting)
    tables = len(list(sections()))
    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.press("question_mark")
        await pilot.pause()
        assert isinstance(app.screen, HelpScreen)
        assert "attn-tui keys" in screen_text(app)
        # the dialog is at most 96 wide: 120 and 100 columns give it the same width
        for size, new_width in [((100, 30), False), ((80, 24), True), ((70, 24), True),
                                ((120, 40), False), ((80, 24), False)]:
            drawn.clear()
            await pilot.resize_terminal(*size)
            await pilot.pause()
            assert "attn-tui keys" in screen_text(app)
            assert len(drawn) == (tables if new_width else 0), size


def test_every_key_in_the_reference_is_named_whole():
    """The keys' column was 18 wide, and "  Esc ctrl+z ctrl+c" 19: it read "Esc ctrl+z ctrl…"."""
    console = Console(width=94, record=True, color_system=None)
    for part in _reference():
        console.print(part)
    text = console.export_text()
    assert "…" not in text
    for _, entries in sections():
        for keys, _ in entries:
            assert f"  {keys} " in text, keys


async def test_help_on_a_lab_opens_at_its_keys_and_on_the_workbench_at_the_start():
    # ? on the model screen opened at the workbench's keys; its own were at the very bottom,
    # under "MODEL SCREEN (--MODEL MINILM)", a flag that does not work in capitals
    app = make_app(lab="minilm")
    async with app.run_test(size=(80, 24)) as pilot:
        await app.workers.wait_for_complete()
        await pilot.press("question_mark")
        await pilot.pause()
        await pilot.pause()
        text = screen_text(app)
        assert "MODEL SCREEN (--model minilm)" in text and "WORKBENCH" not in text
        # at its top: last in the reference, it could not scroll there, and at 120×40 the
        # end of the heads lab's keys came first
        lines = [line.strip("│ ") for line in text.splitlines() if line.strip("│ ")]
        assert lines[1].startswith("MODEL SCREEN"), lines[:3]
        await pilot.resize_terminal(120, 40)
        await pilot.press("escape", "question_mark")
        await pilot.pause()
        await pilot.pause()
        inside = [line.split("│")[1].strip() for line in screen_text(app).splitlines()
                  if line.count("│") >= 2]
        assert inside[0].startswith("MODEL SCREEN"), inside[:3]
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("question_mark")
        await pilot.pause()
        await pilot.pause()
        assert "Edit a number in Q, K or V" in screen_text(app)


@pytest.mark.parametrize("lab", ["train", "scaling", "heads"])
async def test_help_on_a_lab_with_controls_shows_every_labs_keys_then_its_own(lab):
    # the train lab's help opened at its own five keys, under the model screen's u and U:
    # c and the lab's own undo were sections away
    app = make_app(lab=lab)
    async with app.run_test(size=(80, 40)) as pilot:
        await app.workers.wait_for_complete()
        await pilot.press("question_mark")
        await pilot.pause()
        await pilot.pause()
        lines = [line.strip("│ ") for line in screen_text(app).splitlines()]
        titles = [line for line in lines if line.isupper()]
        own = {"train": "TRAIN LAB", "scaling": "SCALING LAB", "heads": "HEADS LAB"}[lab]
        assert titles[:2] == ["IN ANY LAB", own], titles
        assert any(line.startswith("c ") for line in lines)
        assert not any("MODEL SCREEN" in line for line in lines[:lines.index(own)])
