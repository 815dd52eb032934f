"""The key bar: the focused pane's keys on one line, clickable, never wider than the screen."""

from __future__ import annotations

import pytest
from screen_text import screen_lines

from attn_tui.tui.app import make_app
from attn_tui.tui.widgets.key_bar import KeyBar


def _descriptions(bar: KeyBar) -> list[str]:
    left, _ = bar.items()
    return [item.description for item in left]


async def test_the_bar_follows_the_focused_pane():
    async with make_app().run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        bar = pilot.app.screen.query_one(KeyBar)
        assert {"Edit", "Mask", "Quit", "Help"} <= set(_descriptions(bar))
        await pilot.press("D")  # the dimensions bar: its own keys
        await pilot.pause()
        assert "+1" in _descriptions(bar) and "Edit" not in _descriptions(bar)
        assert "+1" in screen_lines(pilot.app)[-1]


async def test_tab_between_matrices_repaints_nothing():
    async with make_app().run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        bar = pilot.app.screen.query_one(KeyBar)
        repaints: list[int] = []
        original = bar.refresh
        bar.refresh = lambda *a, **k: (repaints.append(1), original(*a, **k))[1]
        await pilot.press("tab")  # Q -> K: the same keys
        await pilot.pause()
        assert pilot.app.focused.id == "grid-k"
        assert repaints == []


@pytest.mark.parametrize("width", [80, 120])
async def test_the_line_fits_and_ends_with_the_palette_key(width: int):
    async with make_app().run_test(size=(width, 24)) as pilot:
        await pilot.press("D")
        await pilot.pause()
        last = screen_lines(pilot.app)[-1]
        assert len(last) == width
        assert last.endswith("▏^p Commands")


async def test_clicking_a_key_presses_it():
    async with make_app().run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        bar = pilot.app.screen.query_one(KeyBar)
        x = screen_lines(pilot.app)[-1].index("m Mask")
        await pilot.click(KeyBar, offset=(x, 0))
        await pilot.pause()
        assert pilot.app.screen.workspace.mask == "causal"
        assert bar._item_at(x).description == "Mask"


async def test_the_bar_follows_a_lesson_key_that_stands_aside_while_a_cell_is_typed():
    """In a lesson p means "previous step" and hides Presets; while a cell is being typed
    into, every letter is a character: the bar shows how to set or cancel the value, and no
    letter key (it showed p Presets, and m, s, b, all typed as text)."""
    app = make_app(lesson="mask")
    async with app.run_test(size=(120, 40)) as pilot:
        await app.workers.wait_for_complete()
        await pilot.pause()
        bar = app.screen.query_one(KeyBar)
        assert "Presets" not in _descriptions(bar)
        await pilot.press("1")  # opens the Q cell under the cursor
        await pilot.pause()
        assert app.screen.query_one("#editor-q").editing is not None
        assert _descriptions(bar)[:2] == ["Set", "Cancel"]
        assert not {"Presets", "Mask", "Scale", "Edit"} & set(_descriptions(bar))
        assert "⏎ Set esc Cancel" in screen_lines(app)[-1]
        await pilot.press("enter")
        await pilot.pause()
        assert "Presets" not in screen_lines(app)[-1] and "Mask" in _descriptions(bar)


def test_every_key_that_types_a_character_is_known_as_one():
    # + and - stayed in the precision lab's key bar while they typed into its field
    from attn_tui.tui.keys import types_a_character

    for key in ("plus", "minus", "slash", "equals_sign", "question_mark", "asterisk",
                "left_square_bracket", "greater_than_sign", "space", "m", "A"):
        assert types_a_character(key), key
    for key in ("enter", "tab", "escape", "up", "pagedown", "ctrl+s", "f1", "backspace"):
        assert not types_a_character(key), key


async def test_keys_shown_before_are_drawn_again_from_memory():
    """Typing into a cell and Enter swap the same two sets of keys: each is drawn once."""
    async with make_app().run_test(size=(80, 24)) as pilot:
        app = pilot.app
        bar = app.screen.query_one(KeyBar)
        shown = []
        for value in ("4", "5"):
            if value == "5":  # both sets drawn once already
                drawn: list[int] = []
                original = bar.render
                bar.render = lambda drawn=drawn, original=original: drawn.append(1) or original()
            await pilot.press(value)
            await pilot.pause()
            typing = screen_lines(app)[-1]
            await pilot.press("enter")
            await pilot.pause()
            shown.append((typing, screen_lines(app)[-1]))
        assert drawn == []
        assert shown[0] == shown[1] and shown[0][0] != shown[0][1]


async def test_under_a_dialog_the_bar_shows_the_dialogs_keys_then_the_lessons_again():
    # the screen's keys do not act under a dialog, so they are not offered there; and the
    # lesson's bar, read while covered, showed p Presets where p turns the lesson's page
    app = make_app(lesson="one", no_progress=True)
    async with app.run_test(size=(80, 24)) as pilot:
        await app.workers.wait_for_complete()
        await pilot.pause()
        before = screen_lines(app)[-1]
        assert "Presets" not in before and "Mask" in before
        await pilot.press("g")
        await pilot.pause()
        assert type(app.screen).__name__ == "GotoModal"
        assert screen_lines(app)[-1].split() == ["⏎", "Open", "esc", "Cancel"]
        await pilot.press("escape")
        await pilot.pause()
        assert screen_lines(app)[-1] == before


@pytest.mark.parametrize(("keys", "dialog", "shown"), [
    (["ctrl+s"], "FileModal", "⏎ Accept esc Cancel"),
    (["p"], "PresetModal", "⏎ Load esc Cancel"),
    (["right_square_bracket", "ctrl+q"], "ConfirmQuitModal", "s Save y Quit anyway esc Cancel"),
    (["ctrl+p"], "Palette", "esc Close"),
])
async def test_each_dialog_names_its_own_keys_on_the_bottom_line(keys, dialog, shown):
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        for key in keys:
            await pilot.press(key)
        await pilot.pause()
        assert type(app.screen).__name__ == dialog
        assert " ".join(screen_lines(app)[-1].split()) == shown


async def test_a_click_on_a_dialogs_bar_presses_its_key():
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await pilot.press("p", "down")  # the second example, select
        await pilot.pause()
        line = screen_lines(app)[-1]
        assert (await pilot.click(offset=(line.index("Load"), 23)))
        await pilot.pause()
        assert type(app.screen).__name__ == "WorkbenchScreen"
        assert app.screen.workspace.key_tokens == ("dog", "truck", "barked")
        await pilot.press("p")
        await pilot.pause()
        assert (await pilot.click(offset=(line.index("Cancel"), 23)))
        await pilot.pause()
        assert type(app.screen).__name__ == "WorkbenchScreen"


async def test_back_from_a_lab_the_workbenchs_bar_shows_its_own_keys():
    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        before = screen_lines(app)[-1]
        app.open_lab("scaling")
        await pilot.pause()
        assert screen_lines(app)[-1] != before
        await pilot.press("escape")
        await pilot.pause()
        assert screen_lines(app)[-1] == before



@pytest.mark.parametrize(("lab", "size"), [("train", (80, 24)), (None, (40, 12))])
async def test_a_short_line_keeps_help_after_the_keys_that_fit(lab, size):
    # the train lab at 80 columns, and the workbench at 40, showed no way to the help
    app = make_app(lab=lab) if lab else make_app()
    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        bar = app.screen.query_one(KeyBar)
        left, _ = bar.items()
        line = screen_lines(app)[-1]
        assert "? Help" in line
        shown = [item.description for item in left if f"{item.shown} {item.description}" in line]
        assert shown[-1] == "Help" and len(shown) < len(left)  # some did not fit: Help did
        assert shown[:-1] == [item.description for item in left[:len(shown) - 1]]
        x = line.index("? Help")
        await pilot.click(KeyBar, offset=(x, 0))
        await pilot.pause()
        assert type(app.screen).__name__ == "HelpScreen"


def test_a_kept_key_keeps_its_place_when_it_fits_there():
    from attn_tui.tui.widgets.key_bar import Item, _fitting

    def item(words: str, kept: bool = False) -> Item:
        return Item(words[0], words[0], words[2:], True, "", kept)

    a, help_, b, c = item("a Alpha"), item("? Help", kept=True), item("b Beta"), item("c Gamma")
    assert _fitting((a, help_, b, c), 22) == [a, help_, b]  # 7 + 1 + 6 + 1 + 6 = 21
    assert _fitting((a, b, c, help_), 14) == [a, help_]  # Help in the place of b
    assert _fitting((a, b), 5) == []


async def test_a_double_click_on_a_dialogs_cancel_presses_nothing_on_the_screen_under_it():
    # the second click pressed m Mask, which the workbench's bar has where "esc Cancel" was
    from key_burst import from_the_terminal, settle

    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await pilot.press("p")
        await pilot.pause()
        x = screen_lines(app)[-1].index("Cancel") + 1  # 1-based, as a terminal reports it
        assert app.workbench().query_one(KeyBar)._item_at(x - 1).description == "Mask"
        click = f"\x1b[<0;{x};24M\x1b[<0;{x};24m"
        from_the_terminal(app, click)
        await settle(pilot)
        from_the_terminal(app, click)  # at once, at the same place: the chain's second
        await settle(pilot)
        assert type(app.screen).__name__ == "WorkbenchScreen"
        assert app.workbench().workspace.mask == "none"
