"""Every lab opens from inside the app (the Go to menu, the command palette) and goes back."""

from __future__ import annotations

import pytest
from lab_pilot import settle
from screen_text import screen_text
from textual.widgets import OptionList

from attn_tui.core.labs import LABS
from attn_tui.tui.app import make_app

NAMES = list(LABS)


@pytest.mark.parametrize("name", NAMES)
async def test_go_to_menu_opens_the_lab(name: str) -> None:
    async with make_app().run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await pilot.press("g")
        await pilot.pause()
        options = pilot.app.screen.query_one(OptionList)
        options.highlighted = options.get_option_index(f"lab:{name}")
        await pilot.press("enter")
        await settle(pilot)
        assert type(pilot.app.screen).__name__ == LABS[name].screen_class
        await pilot.press("escape")
        await pilot.pause()
        assert type(pilot.app.screen).__name__ == "WorkbenchScreen"


@pytest.mark.parametrize("name", NAMES)
async def test_command_palette_opens_the_lab(name: str) -> None:
    async with make_app().run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await pilot.press("ctrl+p")
        await pilot.pause()
        await pilot.press(*f"Lab: {name}")
        await settle(pilot)
        await pilot.press("enter")
        await settle(pilot)
        assert type(pilot.app.screen).__name__ == LABS[name].screen_class


@pytest.mark.parametrize("name", NAMES)
async def test_labs_take_the_backend_and_dtype(name: str) -> None:
    async with make_app(lab=name, dtype="float32").run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        screen = pilot.app.screen
        assert (screen.backend, screen.dtype) == ("numpy", "float32")
        assert screen.message == ""


async def _go_to(pilot, target: str) -> None:
    await pilot.press("g")
    await pilot.pause()
    options = pilot.app.screen.query_one(OptionList)
    options.highlighted = options.get_option_index(target)
    await pilot.press("enter")
    await settle(pilot)


async def test_the_train_lab_reopens_on_the_run_w_left_for_the_workbench() -> None:
    pytest.importorskip("torch")
    app = make_app(lab="train", confirm_quit=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        for action in ("set_task('previous')", "set_width(16)", "set_steps(10)"):
            await app.run_action(f"screen.{action}")
        await pilot.press("enter")
        await settle(pilot)
        lab = app.screen
        frames, losses = len(lab.frames), list(lab.losses)
        assert lab.state == "done" and frames == 11
        await pilot.press("w")
        await settle(pilot)
        assert type(app.screen).__name__ == "WorkbenchScreen"
        await _go_to(pilot, "lab:train")
        again = app.screen
        assert type(again).__name__ == "TrainLabScreen" and again is not lab
        assert len(again.frames) == frames and again.settings.steps == 10
        assert again.record.losses.tolist() == losses
        assert str(again.query_one("#train-status").render()).startswith("10/10 · loss")
        assert str(again.query_one("#train-status").render()).endswith(" · kept (Enter trains anew)")


async def test_the_model_screen_reopens_on_its_sentence_and_head() -> None:
    app = make_app(lab="minilm", confirm_quit=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await app.run_action("screen.set_text('The dog ran home.')")
        await app.run_action("screen.pick(2, 1)")
        await app.run_action("screen.set_query(3)")
        await settle(pilot)
        await pilot.press("escape")
        await settle(pilot)
        await _go_to(pilot, "lab:minilm")
        await settle(pilot)
        screen = app.screen
        assert screen.run_text == "The dog ran home."
        assert (screen.layer_index, screen.head_index, screen.query_index) == (2, 1, 3)


async def test_go_to_lists_every_entry_on_one_line_in_one_column_at_80x24() -> None:
    """Before, `lesson real-heads` and `lesson learning` pushed their titles out of the column,
    and the first lesson's line (with "next:") wrapped, its "answered" alone below it."""
    app = make_app(confirm_quit=False, no_progress=True)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        entries = app.goto_entries()
        column = len("lesson real-heads ")
        for _, line in entries:
            assert line[column - 1] == " " and line[column] != " ", line
        await pilot.press("g")
        await settle(pilot)
        shown = screen_text(app)
        for _, line in entries:
            assert line in shown, line


async def test_a_go_to_line_too_long_wraps_under_its_own_words(progress_dir) -> None:
    """A goal met by show me adds "1 more shown": the first lesson's "· 0/1 answered" wrapped
    to the names' column, where it read as an entry of its own."""
    from attn_tui.core.progress import Progress

    assert Progress.from_env().save("one", shown=4) is None
    app = make_app(confirm_quit=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await pilot.press("g")
        await settle(pilot)
        lines = screen_text(app).splitlines()
        at = next(i for i, x in enumerate(lines) if "lesson one" in x)
        column = lines[at].index("next: One query")
        after = lines[at + 1]
        assert after[column - 1] == " " and after[column:].startswith("· 0/1 answered"), after
        assert after[: column].strip("│▊ ") == ""


async def test_go_to_from_a_lesson_says_it_is_open_now_and_suggests_another(
        progress_dir) -> None:
    # inside lesson one, Go to offered lesson one as "next"
    app = make_app(lesson="one", confirm_quit=False)
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot)
        await pilot.press("g")
        await settle(pilot)
        lines = screen_text(app).splitlines()
        one = next(x for x in lines if "lesson one" in x and "▊" in x)
        select = next(x for x in lines if "lesson select" in x and "▊" in x)
        assert "open now: One query" in one and "next:" not in one
        assert "next: When attention selects" in select


async def test_go_to_the_lab_already_open_keeps_it_as_it_is() -> None:
    # it popped the lab and opened a new one before the old one wrote what it left: a
    # heads lab's settings (here) or a training run in progress came back at their defaults
    from attn_tui.tui.textual_compat import notifications

    async with make_app(lab="heads").run_test(size=(80, 24), notifications=True) as pilot:
        await settle(pilot)
        lab = pilot.app.screen
        default = lab.lesson_state()
        await pilot.press("up")
        await settle(pilot)
        changed = lab.lesson_state()
        assert changed != default
        await _go_to(pilot, "lab:heads")
        assert pilot.app.screen is lab and lab.lesson_state() == changed
        assert any("You are in lab heads already" in str(n.message)
                   for n in notifications(pilot.app))


async def test_a_lab_left_with_esc_comes_back_with_go_to_on_its_settings() -> None:
    """top d_k 4096, Esc, then Go to: the scaling lab came back on 1024; the train lab's lr,
    set but not trained, came back as 0.003."""
    app = make_app(lab="scaling")
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        lab = app.screen
        # one at a time: a newer setting cancels the experiment of the one before, and a
        # cancelled worker ends the wait for every worker with WorkerCancelled
        assert lab.offer("d_k", 4096)
        await settle(pilot)
        assert lab.offer("temperature", 2.5)
        await settle(pilot)
        await pilot.press("escape")
        app.reopen_lab("scaling")
        await settle(pilot)
        back = app.screen
        assert back is not lab and (back.settings.d_k, back.settings.temperature) == (4096, 2.5)
        assert not back.message.startswith("From the session")  # nothing refused, nothing said
        app.open_lab("train")
        await settle(pilot)
        assert app.screen.offer("lr", 0.01)
        await pilot.press("escape")
        app.reopen_lab("train")
        await settle(pilot)
        assert app.screen.settings.lr == 0.01 and app.screen.state == "idle"


async def test_a_lessons_lab_settings_are_not_what_go_to_reopens() -> None:
    from attn_tui.tui.screens.labs.lab_screen import LabScreen

    app = make_app(lesson="scale")
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        lab = app.screen
        assert isinstance(lab, LabScreen) and app.tutor.host is lab
        app.pop_screen()  # the lab leaves with the lesson on it (as Go to, w)
        await settle(pilot)
        assert app.screen is not lab and app.tutor.host is None
        assert "saved" not in app.left_labs.get("scaling", {})


@pytest.mark.parametrize(("typed", "kept", "said"), [
    ("16", 16, None),
    # refused: the value before stays, and the notice says why the typed one went
    ("0", 1024, "top d_k must be between"),
])
async def test_a_value_typed_on_a_labs_bar_is_kept_when_the_palette_leaves_it(typed, kept, said):
    """Typed on the bar, not yet taken, and the lab left through the palette: the field was
    back at 1024 on return, with nothing to undo, where the workbench keeps a typed cell."""
    from attn_tui.tui.textual_compat import notifications
    from attn_tui.tui.widgets.control_bar import ControlBar

    app = make_app(lab="scaling")
    async with app.run_test(size=(80, 24), notifications=True) as pilot:
        await settle(pilot)
        await pilot.press("enter", "ctrl+u", *typed)
        assert app.screen.query_one(ControlBar).editing == typed
        await pilot.press("ctrl+p")  # g would be typed
        await settle(pilot)
        await pilot.press(*"Lab: heads")
        await settle(pilot)
        await pilot.press("enter")
        await settle(pilot)
        assert type(app.screen).__name__ == "HeadsLabScreen"
        notes = [n.message for n in notifications(app) if n.title == "Typed value"]
        assert (notes == []) if said is None else (len(notes) == 1 and said in notes[0])
        app.reopen_lab("scaling")
        await settle(pilot)
        assert app.screen.settings.d_k == kept
