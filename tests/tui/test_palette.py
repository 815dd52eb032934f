"""The command palette (ctrl+p) reaches what the keys do: undo and redo on the screen it opened
over, the map's views, copy and reset on the workbench."""

from __future__ import annotations

import pytest
from pilot_wait import until

from attn_tui.tui.app import make_app


async def settle(pilot) -> None:
    await pilot.pause()
    await pilot.app.workers.wait_for_complete()
    await pilot.pause()


def lab_app(name: str):
    app = make_app(lab=name)
    app.animation_level = "none"
    return app


def commands_of(app) -> dict[str, str]:
    """The palette's commands over the screen now shown: title → help."""
    return {c.title: c.help for c in app.get_system_commands(app.screen)}


async def _run(pilot, command: str) -> None:
    await pilot.press("ctrl+p")
    await settle(pilot)
    await pilot.press(*command)
    await settle(pilot)
    await pilot.press("enter")
    await settle(pilot)


async def test_undo_and_redo_from_the_palette_take_back_and_put_back_a_mask() -> None:
    async with make_app(preset="mask").run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        bench = pilot.app.screen
        assert bench.workspace.mask == "causal"
        await pilot.press("m")
        await settle(pilot)
        assert bench.workspace.mask == "causal-after"
        await _run(pilot, "Undo")
        assert pilot.app.screen is bench and bench.workspace.mask == "causal"
        await _run(pilot, "Redo")
        assert bench.workspace.mask == "causal-after"


async def test_a_view_from_the_palette_shows_in_the_map() -> None:
    async with make_app().run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        bench = pilot.app.screen
        await _run(pilot, "View: output")
        assert bench.view == "output"
        await _run(pilot, "View: weights")
        assert bench.view == "weights"


async def test_reset_from_the_palette_reloads_the_example() -> None:
    async with make_app(preset="mask").run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        bench = pilot.app.screen
        before = bench.workspace
        await pilot.press("r")  # seeded random values
        await settle(pilot)
        assert bench.workspace.q != before.q
        await _run(pilot, "Reset the example")
        assert bench.workspace.q == before.q


async def test_undo_from_the_palette_over_a_lab_is_the_labs_own() -> None:
    async with lab_app("scaling").run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        lab = pilot.app.screen
        bench = pilot.app.workbench()
        before, bench_before = lab.settings, bench.workspace
        await pilot.press("s")  # ÷√d_k on
        await settle(pilot)
        assert lab.settings != before
        await _run(pilot, "Undo")
        assert pilot.app.screen is lab and lab.settings == before
        assert bench.workspace == bench_before


async def test_the_workbenchs_own_commands_are_not_offered_over_a_lab() -> None:
    app = lab_app("scaling")
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        titles = [c.title for c in app.get_system_commands(app.screen)]
        assert "Undo" in titles and "Redo" in titles
        assert not [t for t in titles if t.startswith("View: ")]
        assert "Reset the example" not in titles
        # nor those that change, export or copy the workbench's numbers out of sight: Fill
        # said "u undoes", and u in the lab had nothing to undo
        assert not [t for t in titles if t.startswith(
            ("Fill", "Export: ", "Copy: ", "Preset: ", "Mask: ", "Scaling: ", "Backend: ",
             "Precision: "))]
        assert {"Session: save", "Session: open…", "Lab: train", "Help: every key"} <= set(titles)


async def test_the_workbench_keeps_its_commands() -> None:
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        titles = [c.title for c in app.get_system_commands(app.screen)]
        for start in ("Fill", "Export: ", "Copy: ", "Preset: ", "Mask: ", "Scaling: ",
                      "Backend: ", "Precision: ", "View: "):
            assert [t for t in titles if t.startswith(start)], start


async def test_a_commands_help_is_shown_as_written_not_read_as_markup() -> None:
    # "Real heads: previous-token heads, a [CLS] sink, …" showed "a  sink"
    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        await pilot.press("ctrl+p")
        await settle(pilot)
        await pilot.press(*"real-heads")
        await settle(pilot)
        from screen_text import screen_text

        assert "a [CLS] sink" in screen_text(app)


async def test_view_picture_from_the_palette_brings_the_picture_into_sight() -> None:
    """Below a 12-row step table at 80×24, v brought the picture up and the palette's
    "View: picture" left it below the fold: the picture was not laid out yet."""
    from attn_tui.core import state

    app = make_app(workspace=state.resize(state.from_preset("mask"), t=12))
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await _run(pilot, "View: picture")
        bench = app.screen
        assert bench.view == "picture"
        picture = bench.query_one("#map-picture")
        await until(pilot, lambda: picture.region and picture.region.bottom <= 24 - 3,
                    "the picture in sight, above the bars", seconds=5)
        assert bench.query_one("#results").scroll_y > 0


async def test_undo_from_the_palette_while_a_value_is_typed_drops_the_typing_first() -> None:
    """c 7, then the palette's Undo: ÷√d_k was put back with ‹7▏› still typed on the bar."""
    async with lab_app("scaling").run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        lab = pilot.app.screen
        before = lab.settings
        await pilot.press("s")
        await settle(pilot)
        toggled = lab.settings
        await pilot.press("c", "7")
        await settle(pilot)
        bar = lab.query_one("#controls")
        assert bar.editing == "7"
        await _run(pilot, "Undo")
        assert bar.editing is None and lab.settings == toggled
        await _run(pilot, "Undo")
        assert lab.settings == before
        await pilot.press("c", "7")
        await settle(pilot)
        await _run(pilot, "Redo")
        assert bar.editing is None and lab.settings == toggled
        assert "‹7" not in str(bar.render())


async def test_the_workbenchs_own_keys_are_found_by_name_in_the_palette() -> None:
    """README and help say ctrl+p lists "this screen's keys too"; on the workbench "T+1",
    "Dimensions" or "Add token" found nothing, and Go to and Redraw were nowhere."""
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        bench = app.screen
        commands = commands_of(app)
        assert commands["T+1"] == "One more token (])"
        assert commands["Dimensions"] == "Go to the dimensions bar (T, d_k, d_v, seed) (D)"
        assert commands["Go to"] == "A lesson, a lab or the workbench (g)"
        assert "Redraw" in commands
        # once each: these have commands of their own
        assert "Copy" not in commands and "Scale" not in commands and "Export" not in commands
        assert "float64/32" not in commands and "Random" not in commands
        actions = [c.callback for c in app.get_system_commands(bench)]
        assert len(commands) == len(actions)  # no title twice
        before = bench.workspace.t_k
        await _run(pilot, "T+1")
        assert app.screen is bench and bench.workspace.t_k == before + 1


async def test_the_model_screens_own_keys_are_found_by_name_in_the_palette() -> None:
    """ctrl+p found nothing for "sentence" or "token" on the model screen."""
    pytest.importorskip("tokenizers")
    app = lab_app("minilm")
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        screen = app.screen
        commands = commands_of(app)
        assert commands["Next token"] == "The next query token's steps (])"
        assert commands["Sentence"] == "Type a new sentence (/)"
        assert "To workbench" in commands and "Back" not in commands
        before = screen.query_index
        await _run(pilot, "next token")
        assert app.screen is screen and screen.query_index == before + 1


async def test_a_labs_keys_from_the_palette_act_as_the_keys_or_say_why_not() -> None:
    """Train / pause from the palette while lr was being typed did nothing and said nothing;
    and c, which every lab binds, was not offered."""
    from attn_tui.tui.textual_compat import notifications

    app = lab_app("train")
    async with app.run_test(size=(80, 24), notifications=True) as pilot:
        await settle(pilot)
        screen = app.screen
        titles = [c.title for c in app.get_system_commands(screen)]
        assert {"Train / pause", "Frames", "Head → workbench", "Defaults", "Controls"} <= set(
            titles)
        await pilot.app.run_action("screen.pick_control('lr')")
        await pilot.press("3")
        assert screen.query_one("#controls").editing is not None
        await _run(pilot, "train / pause")
        assert screen.state == "idle"
        assert any(n.message == "Train / pause (⏎) does nothing now: Enter sets the value "
                   "being typed, Escape drops it." for n in notifications(app))


async def test_a_panes_token_and_dimension_keys_are_in_the_palette_too() -> None:
    """a, x, A and X had no entry: the palette lists "this screen's keys too"."""
    from attn_tui.tui.textual_compat import notifications

    app = make_app()
    async with app.run_test(size=(80, 24), notifications=True) as pilot:
        await settle(pilot)
        bench = app.screen
        commands = commands_of(app)
        # a token goes after the last, not at the cursor, as the palette said
        assert commands["Add token"] == "In Q, K or V: add a token after the last (a)"
        assert commands["Remove dim"] == "In Q, K or V: remove the cursor's dimension (X)"
        rows = len(bench.workspace.query_tokens)
        await _run(pilot, "Add token")
        assert len(bench.workspace.query_tokens) == rows + 1  # the cursor is in Q
        bench.query_one("#heatmap").focus()
        await settle(pilot)
        await _run(pilot, "Add dim")
        said = [str(n.message) for n in notifications(app)]
        assert "Add dim (A) works in Q, K or V: Tab to one first." in said


@pytest.mark.parametrize("size", [(60, 20), (70, 22), (80, 24)])
async def test_the_palettes_hits_end_above_its_key_bar_in_a_small_window(size) -> None:
    """At 60×20 the hits ran to the last line: their box's lower edge and esc Close gone."""
    from screen_text import screen_lines
    from textual.command import CommandList

    from attn_tui.tui.widgets.key_bar import KeyBar

    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.press("ctrl+p")
        await until(pilot, lambda: app.screen.query(CommandList)
                    and app.screen.query_one(CommandList).option_count > 0)
        await pilot.resize_terminal(*size)  # a window made smaller with the palette open
        await pilot.pause()
        hits, bar = app.screen.query_one(CommandList), app.screen.query_one(KeyBar)
        assert hits.region.bottom <= bar.region.y < size[1]
        assert screen_lines(app)[-1].startswith("esc Close")


async def test_the_palette_offers_one_help_and_names_textuals_keys_panel_for_what_it_is() -> None:
    """Textual's "Keys" (show help for the focused widget) sat beside "Help: every key": two
    help entries for a newcomer to choose between."""
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        bench = app.screen
        commands = commands_of(app)
        assert "Keys" not in commands
        assert [t for t in commands if "help" in t.lower()] == ["Help: every key"]
        assert commands["Keys panel: show"] == "The focused pane's keys, in a panel at the right"
        await _run(pilot, "Keys panel: show")
        assert app.screen is bench and bench.query("HelpPanel")
        assert "Keys panel: hide" in commands_of(app) and "Keys panel: show" not in commands_of(app)
        await _run(pilot, "Keys panel: hide")
        assert not bench.query("HelpPanel")


async def test_over_a_lab_the_palette_goes_back_to_the_workbench() -> None:
    """Esc's Back was in no command, and no entry led to the workbench but Go to."""
    app = lab_app("heads")
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        assert "Workbench" in commands_of(app)
        await _run(pilot, "Workbench")
        assert app.screen is app.workbench()
        assert "Workbench" not in commands_of(app)  # it is the workbench


async def test_a_lesson_s_keys_are_in_the_palette_and_a_key_it_takes_is_not_named_for_the_lab(
        ) -> None:
    """In the params lesson the palette offered "Next preset (p)" where p is the lesson's
    previous step, and nothing for n, p, h, ctrl+r or Esc."""
    app = make_app(lesson="params", no_progress=True)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        commands = commands_of(app)
        assert {"Lesson: next step", "Lesson: previous step", "Lesson: close"} <= set(commands)
        preset = next(h for t, h in commands.items() if t == "Next preset")
        assert "(p)" not in preset
        await _run(pilot, "Lesson: next step")
        assert app.tutor.index == 1
        await _run(pilot, "Lesson: close")
        assert app.tutor.lesson is None
        assert not [t for t in commands_of(app) if t.startswith("Lesson: next")]
        assert "(p)" in commands_of(app)["Next preset"]  # the lab's own key again


async def test_a_lesson_command_by_name_is_no_key_typed_into_a_value_being_typed() -> None:
    """"Lesson: next step" over a bar holding "128" made it "128n", the step unchanged; a
    lab key's name is hidden only where the lesson takes that key now."""
    from attn_tui.tui.widgets.control_bar import ControlBar

    app = make_app(lesson="scale", no_progress=True)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        for _ in range(2):
            await pilot.press("n")
            await settle(pilot)
        assert app.tutor.index == 2  # step 3: a task, no question
        await pilot.press("enter", "ctrl+u", "1", "2", "8")
        bar = app.screen.query_one(ControlBar)
        assert bar.editing == "128"
        await _run(pilot, "Lesson: next step")
        assert app.tutor.index == 3 and bar.editing != "128n"
        # step 4 has neither question nor task: the lab's c is its own there
        assert "(c)" in commands_of(app)["Controls"]


async def test_the_screenshot_command_saves_where_it_can_and_says_where(tmp_path, monkeypatch):
    # Textual's saved to ~/Downloads, missing on a server: "Failed to save screenshot"
    import platformdirs

    from attn_tui.tui.textual_compat import notifications

    monkeypatch.setattr(platformdirs, "user_downloads_path", lambda: tmp_path / "no-such")
    monkeypatch.chdir(tmp_path)
    async with make_app().run_test(size=(80, 24), notifications=True) as pilot:
        await pilot.pause()
        [command] = [c for c in pilot.app.get_system_commands(pilot.app.screen)
                     if c.title == "Screenshot"]
        command.callback()
        await pilot.pause(0.3)
        [saved] = list(tmp_path.glob("*.svg"))
        assert "α" in saved.read_text()
        said = [str(n.message) for n in notifications(pilot.app)]
        assert f"Saved the screen as {saved}" in said
