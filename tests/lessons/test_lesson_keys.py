"""The lesson keys live only while a lesson runs, and never steal a key from what is focused."""

from __future__ import annotations

import pytest
from lesson_pilot import lesson_app, panel, press, settle, shown
from screen_text import screen_lines, screen_text

from attn_tui.tui.app import make_app
from attn_tui.tui.screens.workbench_screen import WorkbenchScreen
from attn_tui.tui.textual_compat import notifications, visible_region
from attn_tui.tui.tutor.panel import LessonPanel


async def _in_go_to(pilot, *keys: str) -> None:
    """g, then ``keys`` typed into Go to."""
    await pilot.press("g")
    await pilot.pause()
    await pilot.press(*keys)
    await pilot.pause()


async def test_escape_leaves_the_lesson_and_keeps_its_workspace():
    async with lesson_app("mask").run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await press(pilot, "n", "n", "n")  # step 4: softmax, then mask
        bench = pilot.app.screen
        assert isinstance(bench, WorkbenchScreen)
        assert bench.workspace.mask == "causal-after"
        await press(pilot, "escape")
        assert not bench.query(LessonPanel)
        assert pilot.app.tutor.lesson is None
        # g is the way back too: it said "g opens another lesson" only
        assert [n.message for n in notifications(pilot.app)] == [
            "Lesson closed. Everything stays as it is here: keep playing. g, lesson mask "
            "picks it up at step 4."]
        assert bench.workspace.mask == "causal-after"  # the learner keeps playing from here
        assert "0.4551" in shown(pilot.app)
        assert not any(grid.highlights for grid in bench.query("GridView"))
        await press(pilot, "p")  # p is the workbench's own key again: the presets
        assert type(pilot.app.screen).__name__ == "PresetModal"


async def test_p_on_the_first_step_stays_and_n_at_the_end_says_done():
    async with lesson_app("mask").run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await press(pilot, "p")
        assert "Step 1 of 5" in shown(pilot.app)
        await press(pilot, *["n"] * 5, "n")
        assert "Step 5 of 5 · done" in shown(pilot.app)
        assert "That is the whole lesson" in shown(pilot.app)
        tasks = [i + 1 for i, step in enumerate(pilot.app.tutor.lesson.steps) if step.task]
        assert len(tasks) == 2  # skipped, both: the end says so rather than only "done"
        assert (f"The tasks on steps {tasks[0]} and {tasks[1]} are not met yet. The question "
                "on step 3 is not answered yet. Esc leaves"
                in " ".join(panel(pilot.app).plain.split()))
        await press(pilot, "p")
        assert "Step 5 of 5 · Why" in shown(pilot.app)


async def test_the_end_of_a_lesson_names_only_the_tasks_still_open():
    async with lesson_app("mask", at=4).run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await press(pilot, "enter", "5", "enter")  # step 4's task, met
        assert "Done:" in panel(pilot.app).plain
        await press(pilot, "n", "n")
        said = " ".join(panel(pilot.app).plain.split())
        assert "That is the whole lesson. The task on step 5 is not met yet" in said


async def test_n_on_an_unanswered_question_moves_on_and_gives_the_answer():
    async with lesson_app("mask").run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await press(pilot, "n", "n", "n")  # past step 3's question without answering
        text = " ".join(panel(pilot.app).plain.split())
        assert "Step 4 of 5" in shown(pilot.app)
        assert "Step 3's answer: b) less than 1: the future's share is lost. " in text


async def test_letters_answer_on_a_question_step_and_edit_elsewhere():
    async with lesson_app("one").run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        bench = pilot.app.screen
        await press(pilot, "n", "n")  # step 3 asks; 'a' answers, it does not add a query
        await press(pilot, "a")
        assert bench.workspace.t_q == 1
        assert "✗ Not quite" in shown(pilot.app)
        await press(pilot, "b")  # answered: a second letter changes nothing
        assert "✗ Not quite" in shown(pilot.app) and bench.workspace.t_q == 1
        await press(pilot, "n")  # step 4 has no question: 'a' is the Q editor's 'add a query'
        await press(pilot, "a")
        assert bench.workspace.t_q == 2


async def test_typing_into_a_cell_is_never_taken_by_the_lesson():
    async with lesson_app("one").run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await press(pilot, "enter")  # typing into Q[who, d1]: Escape belongs to the editor
        await press(pilot, "escape")
        assert pilot.app.tutor.lesson is not None and "Step 1 of 7" in shown(pilot.app)
        assert pilot.app.screen.workspace.q == ((0.1, 0.2, 0.3),)


async def test_typing_into_a_lab_control_is_never_taken_by_the_lesson():
    async with lesson_app("scale").run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await press(pilot, "6", "escape")  # d_k: typing '6', then Escape cancels the typing
        assert pilot.app.tutor.lesson is not None and "Step 1 of 5" in shown(pilot.app)
        await press(pilot, "n")
        assert "Step 2 of 5" in shown(pilot.app)


async def test_lessons_are_in_the_go_to_menu_and_the_command_palette():
    async with make_app().run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        targets = [t for t, _ in pilot.app.goto_entries()]
        for name in ("one", "select", "scale", "mask", "params", "nanogpt"):
            assert f"lesson:{name}" in targets
        await press(pilot, "g")
        pilot.app.screen.dismiss("lesson:select")
        await settle(pilot)
        assert "lesson select · Step 1 of 6" in shown(pilot.app)
        commands = {c.title: c for c in pilot.app.get_system_commands(pilot.app.screen)}
        assert "Lesson: mask" in commands
        commands["Lesson: mask"].callback()
        await settle(pilot)
        assert "lesson mask · Step 1 of 5" in shown(pilot.app)
        assert len(pilot.app.screen.query(LessonPanel)) == 1


async def test_a_lab_lesson_opens_its_lab_and_escape_stays_there():
    async with lesson_app("params").run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        lab = pilot.app.screen
        assert type(lab).__name__ == "ModelLabScreen"
        await press(pilot, "escape")
        assert pilot.app.screen is lab and not lab.query(LessonPanel)
        await press(pilot, "escape")  # the lab's own Escape again: back to the workbench
        assert isinstance(pilot.app.screen, WorkbenchScreen)


def test_the_runner_answers_with_the_loaders_letters():
    from attn_tui.lessons.lesson import LETTERS as LOADER
    from attn_tui.tui.tutor.runner import LETTERS as RUNNER

    assert RUNNER == LOADER


def test_first_frame_imports_no_lesson_lab_or_torch_module():
    import subprocess
    import sys

    code = (
        "import asyncio, sys\n"
        "from attn_tui.tui.app import make_app\n"
        "async def main():\n"
        "    async with make_app().run_test(size=(80, 24)) as pilot:\n"
        "        await pilot.pause()\n"
        "asyncio.run(main())\n"
        "bad = [m for m in sys.modules if m == 'torch' or m.startswith('attn_tui.lessons')\n"
        "       or m.endswith('_lab_screen')]\n"
        "print(bad)\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert done.stdout.strip() == "[]", done.stdout + done.stderr


async def test_n_typed_with_q_leaves_no_warning_behind():
    """n is a priority key and q is not, so in one burst n's step starts before q's exit: that
    step's worker never runs. It used to leave "coroutine … was never awaited" on the terminal."""
    import gc
    import warnings

    from textual import events

    app = make_app(lesson="mask", confirm_quit=False)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        async with app.run_test(size=(80, 24)) as pilot:
            await app.workers.wait_for_complete()
            await pilot.pause()
            for key in ("q", "n", "n"):
                event = events.Key(key, key)
                event.set_sender(app)
                app.post_message(event)
            await pilot.pause()
            await pilot.pause()
        gc.collect()
    assert app.return_code == 0
    assert not [w for w in caught if "never awaited" in str(w.message)]


async def test_d_does_not_focus_the_dimensions_bar_a_lesson_hides():
    """The bar is hidden under the lesson panel; focused anyway, digits typed there would
    change T where nobody can see it."""
    app = make_app(lesson="mask", confirm_quit=False)
    async with app.run_test(size=(100, 30)) as pilot:
        await app.workers.wait_for_complete()
        await pilot.pause()
        bench = app.workbench()
        t = bench.workspace.t_k
        await pilot.press("D")
        await pilot.pause()
        assert app.focused.id == "grid-q"
        await pilot.press("escape")  # leave the lesson: the bar is back, and D reaches it
        await pilot.pause()
        await pilot.press("D", "9", "enter")
        await pilot.pause()
        assert app.focused.id == "dims" and bench.workspace.t_k == 9 != t


async def test_a_lesson_started_with_a_session_saved_in_a_lab_runs_on_its_own_screens():
    # `attn-tui --session lab_heads.json --lesson mask`: the lab the session names was popped
    # by the lesson half-way through mounting, and crashed (NoMatches '#split-box')
    from attn_tui.core.state import from_preset

    for lab in ("heads", "model", "scaling", "precision"):
        app = make_app(workspace=from_preset("select"), lab=lab, lesson="mask")
        async with app.run_test(size=(80, 24)) as pilot:
            await settle(pilot)
            assert isinstance(pilot.app.screen, WorkbenchScreen)
            assert pilot.app.tutor.lesson is not None and pilot.app.tutor.lesson.name == "mask"
            assert pilot.app.screen.query(LessonPanel)


async def test_a_lesson_left_and_opened_again_resumes_where_it_was():
    async with lesson_app("mask").run_test(size=(80, 24), notifications=True) as pilot:
        await settle(pilot)
        await press(pilot, "n", "n", "b")  # step 3, its question answered (b, the right one)
        await press(pilot, "escape")
        assert pilot.app.tutor.lesson is None
        pilot.app.tutor.start("mask")
        await settle(pilot)
        text = shown(pilot.app)
        assert "Step 3 of 5" in text and "✓ Right." in text
        edge = str(panel(pilot.app).border_title)
        assert edge.startswith("lesson mask · Step 3 of 5 · ")
        assert edge.startswith("lesson mask · Step 3 of 5 · resumed here · ")
        said = [str(n.message) for n in notifications(pilot.app)]
        assert said == []  # nothing over the panel: neither "Lesson closed" nor the way back
        await press(pilot, "p", "n")  # moving on: the step is no longer the one come back to
        assert "resumed" not in str(panel(pilot.app).border_title)
        await press(pilot, "n", "n", "n")  # to the end: done
        assert "· done" in shown(pilot.app)
        await press(pilot, "escape")
        pilot.app.tutor.start("mask")  # finished, its tasks open: back at the first of them
        await settle(pilot)
        first = next(i for i, step in enumerate(pilot.app.tutor.lesson.steps) if step.task)
        assert f"Step {first + 1} of 5" in shown(pilot.app) and first > 0
        assert f"Step {first + 1} of 5 · first open task · " in str(panel(pilot.app).border_title)


@pytest.mark.parametrize("met", ["done", "shown"])
async def test_a_finished_lesson_opens_at_its_first_open_task_or_from_the_top(met):
    """A finished lesson reopened at step 1 even with tasks left, which the learner then had to
    find again; one whose every task is met starts from the top, fresh. A task only "show me"
    met is open, as Go to counts it (it suggests the lesson as next)."""
    from attn_tui.lessons import load

    steps = [i for i, step in enumerate(load("mask").steps) if step.task is not None]
    assert len(steps) >= 2
    app = lesson_app("mask")
    assert app.progress.save("mask", step=None, finished=True, **{
        "task" if met == "done" else "shown": steps[0]}) is None
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        at = steps[1] if met == "done" else steps[0]
        assert f"Step {at + 1} of 5" in shown(pilot.app)
        assert f"Step {at + 1} of 5 · first open task · " in str(panel(pilot.app).border_title)
    app = lesson_app("mask")
    for i in steps:
        assert app.progress.save("mask", step=None, finished=True, task=i) is None
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        assert "Step 1 of 5" in shown(pilot.app)
        assert "Step 1 of 5 · again from the top · " in str(panel(pilot.app).border_title)


async def test_what_answers_a_question_is_hidden_until_it_is_answered():
    async with lesson_app("params").run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await press(pilot, "n", "n")  # step 3: more heads?
        shares = pilot.app.screen.query_one("#shares")
        assert not shares.display  # "Heads are free: … the same for any h"
        await press(pilot, "b")
        assert shares.display
        await press(pilot, "n", "n")  # step 5: four times n
        table = pilot.app.screen.query_one("#cost-table")
        # every row but n = 512's: n / 4 gives it away too (0.06× is 1/16)
        assert [table.render_line(y).text.split()[1] for y in (1, 3, 4, 5)] == ["?"] * 4
        assert table.render_line(2).text.split()[1] == "›262,144"  # the row the step marks
        assert "16.00×" not in shown(pilot.app)
        await press(pilot, "c")
        assert "16.00×" in shown(pilot.app) and not table.concealed
        await press(pilot, "escape")  # leaving the lesson hides nothing
        assert shares.display and not pilot.app.screen.query(".-concealed")


async def test_a_step_that_replaces_the_learners_edit_says_so():
    async with lesson_app("one").run_test(size=(80, 24), notifications=True) as pilot:
        await settle(pilot)
        await press(pilot, "n", "n")  # no edits: nothing to say
        assert "starts from its own numbers" not in panel(pilot.app).plain
        await press(pilot, "p")  # step 2 invites an edit of q
        await press(pilot, "enter", "5", "enter")
        assert pilot.app.screen.workspace.q[0][0] == 5.0
        await press(pilot, "n")
        # in the panel, where the learner reads (a notice covered the choices)
        # step 3 asks a question, which keeps the panes until it is answered: u too
        assert panel(pilot.app).plain.startswith(
            "Step 3 starts from its own numbers. Once you answer, u brings yours back")
        assert not any("starts from" in str(n.message) for n in notifications(pilot.app))
        assert pilot.app.screen.workspace.q[0][0] == 0.1  # the step's own q
        await press(pilot, "u")
        assert pilot.app.screen.workspace.q[0][0] == 0.1
        await press(pilot, "b")
        # answered: u brings them back now, which the panel's first words say
        assert panel(pilot.app).plain.startswith(
            "Step 3 starts from its own numbers. u brings yours back, one change at a time.")
        for _ in range(3):  # the answer's reveal is a change of its own: u takes it back first
            if pilot.app.screen.workspace.q[0][0] == 5.0:
                break
            await press(pilot, "u")
        assert pilot.app.screen.workspace.q[0][0] == 5.0


async def test_an_answers_feedback_stays_in_view_when_the_terminal_shrinks():
    # 120x40 -> 80x24 after answering: the panel kept its old height, the feedback was cut
    # off with no scrollbar
    async with lesson_app("mask").run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        await press(pilot, "n", "n", "b")
        await pilot.resize_terminal(80, 24)
        await settle(pilot)
        text = shown(pilot.app)
        assert "✓ Right." in text and "not 1." in text
        assert "Mask, then softmax" in text


async def test_go_to_picks_an_entry_by_its_typed_name():
    async with make_app().run_test(size=(80, 24)) as pilot:
        await _in_go_to(pilot, "m", "a", "s", "k")  # "m" alone is the model lab; "mask" the lesson
        options = pilot.app.screen.query_one("OptionList")
        assert options.get_option_at_index(options.highlighted).id == "lesson:mask"
        await pilot.press("s", "c", "a", "l", "e")  # a new start: "s…" is scaling, then scale
        await pilot.pause()
        assert options.get_option_at_index(options.highlighted).id == "lesson:scale"
        await pilot.press("enter")
        await settle(pilot)
        assert pilot.app.tutor.lesson is not None and pilot.app.tutor.lesson.name == "scale"


async def test_go_to_says_when_a_letter_matches_nothing():
    """"lab x" kept "lab", rang a bell few terminals sound over SSH, and showed nothing."""
    async with make_app().run_test(size=(80, 24)) as pilot:
        await _in_go_to(pilot, "l", "a", "b", "space", "x")
        header = str(pilot.app.screen.query_one("#goto-header").render())
        assert "Go to lab ▏" in header and "nothing starts with 'lab x'" in header
        await pilot.press("h")  # a letter that matches: the note goes
        await pilot.pause()
        header = str(pilot.app.screen.query_one("#goto-header").render())
        assert "lab h▏" in header and "nothing" not in header


async def test_go_to_opens_nothing_on_enter_after_a_name_that_matches_nothing():
    """"zzz" Enter opened the workbench, and "lesson zz" Enter lesson one: the first entries
    of the lists the refused letters had left."""
    from attn_tui.tui.screens.dialogs.goto_modal import GotoModal

    async with make_app().run_test(size=(80, 24)) as pilot:
        await _in_go_to(pilot, "l", "e", "s", "s", "o", "n", "space", "z", "z", "enter")
        modal = pilot.app.screen
        assert isinstance(modal, GotoModal) and pilot.app.tutor.lesson is None
        header = str(modal.query_one("#goto-header").render())
        assert "nothing starts with 'lesson z'" in header and "↑↓ picks one" in header
        await pilot.press("down", "enter")  # picked by hand: it opens
        await settle(pilot)
        assert pilot.app.tutor.lesson is not None and pilot.app.tutor.lesson.name == "select"
    # Backspace after a miss takes the miss back, not a letter that matched: "s z ⌫" had
    # emptied the filter, and Enter opened the workbench
    async with make_app().run_test(size=(80, 24)) as pilot:
        await _in_go_to(pilot, "l", "e", "s", "s", "o", "n", "space", "s", "z", "backspace")
        modal = pilot.app.screen
        assert modal.typed == "lesson s" and not modal.missed
        assert "Go to lesson s▏" in str(modal.query_one("#goto-header").render())
        await pilot.press("enter")
        await settle(pilot)
        assert pilot.app.tutor.lesson is not None and pilot.app.tutor.lesson.name == "select"


async def test_a_name_pasted_into_go_to_filters_as_if_typed_and_opens_nothing_by_itself():
    """A paste into Go to was ignored: the list stayed whole."""
    from textual import events

    async with make_app().run_test(size=(80, 24)) as pilot:
        app = pilot.app
        await _in_go_to(pilot, "m", "a")
        app.post_message(events.Paste("sK\n"))  # as the terminal's reader posts it
        await settle(pilot)
        modal = app.screen
        options = modal.query_one("OptionList")
        assert modal.typed == "mask" and app.tutor.lesson is None  # the newline opened nothing
        assert [options.get_option_at_index(i).id for i in range(options.option_count)] == [
            "lesson:mask"]
        app.post_message(events.Paste("zzz"))
        await settle(pilot)
        header = " ".join(str(modal.query_one("#goto-header").render()).split())
        assert modal.typed == "mask" and "nothing starts with 'maskzzz'" in header
        await pilot.press("backspace", "backspace", "backspace", "backspace", "backspace")
        app.post_message(events.Paste("  Lesson\tSCALE "))  # a new start, spaces as one
        await settle(pilot)
        assert modal.typed == "lesson scale"
        await pilot.press("enter")
        await settle(pilot)
        assert app.tutor.lesson is not None and app.tutor.lesson.name == "scale"


async def test_go_to_takes_a_list_line_pasted_back_and_quotes_a_long_miss_cut_short():
    """A list line copied and pasted back ("· 0/2 tasks") matched nothing, and a long paste
    that matched nothing was quoted whole: twenty lines of it pushed the list off the window."""
    from textual import events

    async with make_app().run_test(size=(80, 24)) as pilot:
        app = pilot.app
        await _in_go_to(pilot)
        modal = app.screen
        options = modal.query_one("OptionList")
        line = next(text for target, text in modal.entries if target == "lesson:mask")
        app.post_message(events.Paste(line))  # as shown: "lesson mask   The causal mask · …"
        await settle(pilot)
        assert [options.get_option_at_index(i).id for i in range(options.option_count)] == [
            "lesson:mask"] and not modal.missed
        header = modal.query_one("#goto-header")
        assert header.size.height == 1 and "Go to …" in str(header.render())  # its end shown
        app.post_message(events.Paste("!!! …"))  # nothing to look for: said, the list kept
        await settle(pilot)
        assert "the paste has no letter or digit to look for" in str(header.render())
        assert options.option_count == 1
        await pilot.press("escape")
        await settle(pilot)
        await _in_go_to(pilot)
        modal = app.screen
        app.post_message(events.Paste("mask " * 2000))
        await settle(pilot)
        header = modal.query_one("#goto-header")
        assert modal.missed and header.size.height == 1
        assert "nothing starts with 'mask mask mask mask mas…'" in str(header.render())
        assert modal.query_one("OptionList").option_count == len(modal.entries)  # in sight
        assert modal.query_one("OptionList").region.bottom <= 24


async def test_go_to_takes_digits_and_hyphens_step_3_opens_step_3():
    # "step 3" showed "step" and opened step 1: the 3 was dropped, and "real-" lost its "-"
    async with lesson_app("mask").run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await _in_go_to(pilot, "s", "t", "e", "p", "space", "3")
        assert pilot.app.screen.typed == "step 3"
        await pilot.press("enter")
        await settle(pilot)
        assert "Step 3 of 5" in shown(pilot.app)
        # a digit that matches nothing is no new start: "lab 3" opened step 3
        await _in_go_to(pilot, "l", "a", "b", "space", "3", "enter")
        header = str(pilot.app.screen.query_one("#goto-header").render())
        assert "nothing starts with 'lab 3'" in header
    async with make_app().run_test(size=(80, 24)) as pilot:
        await _in_go_to(pilot, "r", "e", "a", "l", "minus", "h")
        options = pilot.app.screen.query_one("OptionList")
        assert pilot.app.screen.typed == "real-h"
        assert options.get_option_at_index(options.highlighted).id == "lesson:real-heads"


async def test_a_letter_on_an_answered_question_says_it_answers_nothing_more():
    # b again on mask's step 3, answered: the backend stayed, and nothing was said
    async with lesson_app("mask", at=3).run_test(size=(80, 24), notifications=True) as pilot:
        await settle(pilot)
        await press(pilot, "b", "c")
        assert pilot.app.tutor.chosen == 1 and pilot.app.workbench().workspace.backend == "numpy"
        said = [str(n.message) for n in notifications(pilot.app)]
        assert "Step 3's question is answered (b); c answers nothing more here." in said


async def test_the_quit_question_is_not_covered_by_a_passing_note():
    """b on an answered question, then ctrl+q: "b answers nothing more here" lay over the
    quit dialog's words for its three seconds."""
    from attn_tui.tui.screens.dialogs.confirm_quit_modal import ConfirmQuitModal

    async with lesson_app("one").run_test(size=(80, 24), notifications=True) as pilot:
        await settle(pilot)
        await press(pilot, "n", "enter", "5", "enter")  # step 2 invites an edit of q
        await press(pilot, "n", "b", "b")  # step 3 starts from its own numbers; answered
        assert any("answers nothing more" in str(n.message) for n in notifications(pilot.app))
        await press(pilot, "ctrl+q")  # the edit step 3 replaced: quit asks
        assert isinstance(pilot.app.screen, ConfirmQuitModal)
        assert not any("answers nothing more" in str(n.message)
                       for n in notifications(pilot.app))


async def test_a_reveal_is_not_taken_for_the_learners_edit():
    # answering step 3 of 'one' turns the division off (its reveal); n then said "Step 4
    # starts from its own numbers" although the learner had edited nothing
    async with lesson_app("one").run_test(size=(80, 24), notifications=True) as pilot:
        await settle(pilot)
        await press(pilot, "n", "n", "a", "n")
        assert "starts from its own numbers" not in panel(pilot.app).plain


async def test_p_after_the_end_keeps_the_answers():
    async with lesson_app("mask").run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await press(pilot, "n", "n", "b", "n", "n", "n")  # step 3 answered, then to the end
        assert "· done" in shown(pilot.app)
        await press(pilot, "p", "p", "p")  # back to step 3
        assert "Step 3 of 5" in shown(pilot.app) and "✓ Right." in shown(pilot.app)


async def test_an_answered_step_seen_again_keeps_its_own_numbers_in_its_words():
    # n n b n p in 'mask': the step said 'the' keeps 0.4551 (the revealed, softmax-first sum)
    # where the first visit said 1.0000
    async with lesson_app("mask").run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await press(pilot, "n", "n")
        first = panel(pilot.app).plain.split("?")[0].rstrip()
        await press(pilot, "b", "n", "p")
        again = panel(pilot.app).plain.split("?")[0].split("\nTry")[0].rstrip()  # keys: answered
        assert "keeps 1.0000" in first and again == first
        assert "✓ Right." in shown(pilot.app) and "0.4551" in shown(pilot.app)


async def test_moving_the_query_is_not_an_edit_and_a_lesson_keeps_backend_and_precision():
    app = make_app(lesson="mask", dtype="float32")
    async with app.run_test(size=(80, 24), notifications=True) as pilot:
        await settle(pilot)
        assert pilot.app.screen.workspace.dtype == "float32"  # the lesson's example, in float32
        await press(pilot, "down", "n")  # the cursor moved to 'dog'
        assert "starts from its own numbers" not in panel(pilot.app).plain


async def test_the_params_lesson_hides_each_answer_until_its_question():
    async with lesson_app("params").run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        lab = pilot.app.screen
        for _ in range(2):  # steps 1 and 2: both answers hidden
            assert not lab.query_one("#shares").display
            row_2048 = lab.query_one("#cost-table").render_line(3).text  # line 0: the header
            assert "2048" in row_2048 and "16.00×" not in row_2048 and "?" in row_2048
            await press(pilot, "n")
        await press(pilot, "b")  # step 3 answered: its line shows, step 5's rows stay hidden
        assert lab.query_one("#shares").display and lab.query_one("#cost-table").concealed


async def test_go_to_also_matches_the_line_as_shown_and_backspace_takes_a_letter_back():
    async with make_app().run_test(size=(80, 24)) as pilot:
        await _in_go_to(pilot, "l", "e", "s", "s", "o", "n", "space", "m")
        options = pilot.app.screen.query_one("OptionList")
        assert options.get_option_at_index(options.highlighted).id == "lesson:mask"
        await pilot.press("backspace", "backspace")  # "lesson": the first lesson
        await pilot.pause()
        assert pilot.app.screen.typed == "lesson"
        assert options.get_option_at_index(options.highlighted).id == "lesson:one"


async def test_an_answer_pressed_while_the_step_sets_up_is_kept():
    # n then b at once: b arrived while step 3 was still loading and was dropped silently
    async with lesson_app("mask").run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await press(pilot, "n")
        from textual import events

        for key in ("n", "b"):  # as a terminal delivers them: together, no waiting between
            pilot.app.post_message(events.Key(key, key))
        await settle(pilot)
        assert "Step 3 of 5" in shown(pilot.app) and "✓ Right." in shown(pilot.app)


async def test_keys_typed_while_a_step_sets_up_wait_longer_than_a_slow_set_up_takes():
    # n n n c → → → → → ↓ ↓ ↓ Enter typed ahead in the learning lesson, over SSH on a loaded
    # machine: step 3 loads torch and trains for more than the 5 s keys used to wait, so the
    # lr keys landed on step 3 and step 4 then set lr back to 0.3
    async with lesson_app("mask").run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        tutor = pilot.app.tutor
        assert pilot.app.keys_on_hold() == 0
        tutor._busy = True  # as while a step sets up
        assert pilot.app.keys_on_hold() >= 30
        tutor._busy = False
        assert pilot.app.keys_on_hold() == 0


async def test_a_reveal_sets_the_state_its_words_describe_whatever_was_pressed_before():
    # 'one' step 3: s before answering, then the reveal toggled the division back on, and the
    # feedback called the scaled α (0.3369, …) the undivided one; 'nanogpt' step 5 did the
    # same with f and float64
    async with lesson_app("one").run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await press(pilot, "n", "n", "s", "b")
        assert pilot.app.screen.workspace.scale is False
        assert "α is now (0.3385, 0.2799, 0.3816)" in shown(pilot.app)
    async with lesson_app("nanogpt").run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        await press(pilot, "n", "n", "n", "f", "n")  # float64 before the step: it sets float32
        assert pilot.app.screen.workspace.dtype == "float32"
        await press(pilot, "f", "a")
        assert pilot.app.screen.workspace.dtype == "float64"
        assert "allclose prints True" in shown(pilot.app)


async def test_quitting_a_lesson_asks_only_about_the_learners_own_edits():
    # --lesson select, then q: "You have unsaved changes", though the learner had changed
    # nothing; the lesson's example was counted as an edit of the default workbench
    from attn_tui.tui.screens.dialogs.confirm_quit_modal import ConfirmQuitModal

    # on to a question, answered (its reveal changes the numbers too); nanogpt: two steps
    for name, keys in (("select", "nnb"), ("mask", "nnb"), ("nanogpt", "nn")):
        app = lesson_app(name)
        async with app.run_test(size=(80, 24)) as pilot:
            await settle(pilot)
            await press(pilot, *keys)
            await press(pilot, "q")
            assert not isinstance(app.screen, ConfirmQuitModal), name
            assert app.return_code == 0, name
    async with lesson_app("select").run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await press(pilot, "n", "7", "enter")  # the learner's own edit
        await press(pilot, "q")
        assert isinstance(pilot.app.screen, ConfirmQuitModal)
    # replaced by the next step, which says u brings it back: quitting still asks about it
    async with lesson_app("select").run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await press(pilot, "7", "enter", "n")
        assert pilot.app.screen.workspace.q[0][0] != 7.0
        await press(pilot, "q")
        assert isinstance(pilot.app.screen, ConfirmQuitModal)
        question = str(pilot.app.screen.query_one("#quit-question").render())
        assert "Edits of yours that a lesson step replaced were never saved" in question
        # a learner who met tasks reads that those are not what would be lost
        assert "Lesson progress (tasks met, answers) is saved apart and kept." in question


async def test_in_a_small_window_the_lessons_words_scroll_from_the_keyboard():
    # at 64x20 a question's choices sat below the panel's edge, out of reach: the panel
    # cannot take focus, and nothing said there was more
    async with lesson_app("one").run_test(size=(40, 12)) as pilot:
        await settle(pilot)
        await press(pilot, "n", "n")  # a question step
        lesson = panel(pilot.app)
        assert lesson.max_scroll_y > 0 and lesson.scroll_y == 0
        assert lesson.edge_text.startswith("⇧↑↓ more")  # tighter at 40 columns
        await press(pilot, "shift+down", "shift+down", "shift+down")
        assert lesson.scroll_y == 6
        await press(pilot, "shift+up")
        assert lesson.scroll_y == 4
    async with lesson_app("one").run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        assert not panel(pilot.app).edge_text.startswith("⇧")


async def test_edits_replaced_by_a_lesson_opened_from_the_workbench_make_quitting_ask(tmp_path):
    # 5 Enter on the workbench, g, lesson one, q: it quit at once, the 5 only in undo
    from attn_tui.core import session, state
    from attn_tui.tui.screens.dialogs.confirm_quit_modal import ConfirmQuitModal

    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await press(pilot, "5", "enter")
        app.tutor.start("one")
        await settle(pilot)
        assert app.screen.workspace.q[0][0] == 0.1
        assert "Step 1 starts from its own numbers" in panel(app).plain
        await press(pilot, "q")
        assert isinstance(app.screen, ConfirmQuitModal)
    # a session's file keeps its own record: opened, a lesson, Esc, u back to the file's
    # numbers, and quitting has nothing to ask
    path = tmp_path / "s.json"
    session.save(state.from_preset("select"), path)
    app = make_app(workspace=session.load(path)[0], session_path=str(path))
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        app.tutor.start("one")
        await settle(pilot)
        await press(pilot, "escape")
        while app.screen.workspace != session.load(path)[0]:
            await press(pilot, "u")
        await press(pilot, "q")
        assert app.return_code == 0 and not isinstance(app.screen, ConfirmQuitModal)
    # u brought the replaced edit back: it is asked about as an unsaved edit on screen
    async with lesson_app("one").run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await press(pilot, "5", "enter", "n", "u")
        await press(pilot, "q")
        text = " ".join(screen_text(pilot.app).split())
        assert "You have unsaved changes" in text and "were never saved" not in text


async def test_the_panel_edge_says_what_enter_and_escape_do_while_a_cell_is_typed_into():
    # n, p and Esc are not the lesson's while a cell takes text: the edge must not offer them
    async with lesson_app("one").run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        edge = panel(pilot.app).edge_text
        assert "n next" in str(edge)
        await press(pilot, "7")
        assert panel(pilot.app).edge_text == "typing: ⏎ Set · Esc Cancel"
        assert "typing: ⏎ Set · Esc Cancel" in screen_text(pilot.app)
        await press(pilot, "escape")
        assert panel(pilot.app).edge_text == edge
        await press(pilot, "8", "n")  # n is typed into the cell: "8n" is refused, kept
        assert panel(pilot.app).edge_text == "typing: ⏎ Set · Esc Cancel"
        await press(pilot, "backspace", "enter")
        # the step's own edge again, with the reset that an edit away from its start offers
        assert panel(pilot.app).edge_text == "ctrl+r reset · " + edge
        assert pilot.app.screen.workspace.q[0][0] == 8.0


async def test_in_a_narrow_window_the_step_brings_what_it_talks_about_into_view():
    # stacked under 70 columns, with the panel taking rows, the panes make one column that
    # scrolls to the step's marks: the map's three queries, not one row of Q
    async with lesson_app("select").run_test(size=(60, 20)) as pilot:
        await settle(pilot)
        await press(pilot, "n", "n")  # step 3: the scaled scores of all three queries
        text = screen_text(pilot.app)
        assert "all queries: scores" in text
        for row in ("│animal?", "│verb?", "│undecided"):
            assert row in text, row


async def test_a_resize_during_a_lesson_brings_the_marked_cells_back():
    async with lesson_app("mask").run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await press(pilot, "n", "n", "n")  # step 4: the four sums of softmax-then-mask
        await pilot.resize_terminal(60, 24)
        await settle(pilot)
        await settle(pilot)
        text = screen_text(pilot.app)
        for lost in ("▼0.5449", "▼0.3258", "▼0.1878"):  # the map's lost column, row by row
            assert lost in text, lost
        assert "›1.0000" in text  # loudly's sum, marked


async def test_a_resize_beside_a_lesson_keeps_the_pane_the_learner_moved_to():
    # side by side each pane keeps its own scroll: the learner went to V, and V stays
    async with lesson_app("nanogpt").run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await press(pilot, "n", "tab", "tab", "down")
        grid = pilot.app.focused
        assert grid is not None and grid.id == "grid-v"
        await pilot.resize_terminal(100, 30)
        await settle(pilot)
        await pilot.resize_terminal(80, 24)
        await settle(pilot)
        assert "V  values" in screen_text(pilot.app)
        shown = visible_region(grid)
        assert shown is not None and shown[1].height >= 3


async def test_in_a_narrow_lesson_enter_brings_the_cell_being_typed_into_into_view():
    async with lesson_app("one").run_test(size=(60, 20)) as pilot:
        await settle(pilot)
        await press(pilot, "n")  # the step's marks are in the step table, below Q
        await press(pilot, "enter")
        text = screen_text(pilot.app)
        assert "who·d1 = " in text  # the edit line, in Q's border
        assert "│who " in text  # and Q's row itself


async def test_where_not_every_mark_fits_the_steps_first_highlight_shows():
    # nanogpt step 8 marks rows 5-7 of the map and, second, its sum column: at 44×16 the map
    # scrolls to row 5's mark, not to the top-left corner of both (the sums of rows 0-4)
    import pytest

    pytest.importorskip("torch")
    async with lesson_app("nanogpt").run_test(size=(44, 16)) as pilot:
        await settle(pilot)
        await press(pilot, *"nnnnnnn")
        assert "Step 8 of 10" in shown(pilot.app)
        text = screen_text(pilot.app)
        assert "›0.0724" in text  # t5's weight on t5, the first highlight's first cell


async def test_a_resize_in_a_narrow_lesson_keeps_the_cell_being_typed_into():
    async with lesson_app("one").run_test(size=(60, 20)) as pilot:
        await settle(pilot)
        await press(pilot, "n", "enter", "5")
        await pilot.resize_terminal(62, 20)
        await settle(pilot)
        await settle(pilot)
        text = screen_text(pilot.app)
        assert "who·d1 = 5" in text
        assert "│who " in text


@pytest.mark.parametrize("size", [(80, 24), (120, 40)])
async def test_marked_numbers_side_by_side_keep_the_space_between_them(size):
    # nanogpt step 1 marks t2's row of V: a › before every number ate the gap ("›-0.36›-0.92")
    import re

    async with lesson_app("nanogpt").run_test(size=size) as pilot:
        await settle(pilot)
        text = screen_text(pilot.app)
        v_row = next(line for line in text.splitlines() if "│t2  ›-0.36" in line)
        assert "›-0.36 -0.92" in v_row
        assert not re.search(r"›[-+]?[\d.]+›", text)  # no mark glued to a marked number


async def test_a_notice_from_one_step_does_not_cover_the_next_steps_choices():
    # select at 80×24: a on step 2 (no question) adds a token and says so; n then showed step
    # 3's choices under that notice for the rest of its four seconds
    app = lesson_app("select", at=2)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        app.notify("kept: a warning is not the step's", severity="warning", timeout=30)
        await press(pilot, "a")
        assert any("asks no question" in n.message for n in notifications(app))
        await press(pilot, "n")
        messages = [n.message for n in notifications(app)]
        assert messages == ["kept: a warning is not the step's"]
        lines = screen_text(app).splitlines()
        assert any("a) yes, exactly as much" in line for line in lines)
        assert not any("asks no question" in line for line in lines)


async def test_a_notice_raised_while_a_question_shows_sits_above_the_panel():
    # select step 3 at 80×24: a notice (a preset loaded, a progress warning) sat over
    # "b) a little less   c) a little more" for seconds
    app = lesson_app("select", at=3)
    async with app.run_test(size=(80, 24), notifications=True) as pilot:
        await settle(pilot)
        app.notify("a notice raised while the question shows", timeout=30)
        await settle(pilot)
        lines = screen_lines(app)
        top = next(i for i, line in enumerate(lines) if "lesson select · Step 3" in line)
        said = [i for i, line in enumerate(lines) if "a notice raised" in line]
        assert said and max(said) < top
        # the status line above the panel stays in sight too
        assert lines[top - 1].startswith(" mask none") and "▌" not in lines[top - 1]
        assert any("a) yes, exactly as much   b) a little less   c) a little more" in line
                   for line in lines[top:])
        # the lesson closes: notices go back to just above the dimensions bar and status line
        await press(pilot, "escape")
        app.notify("after the lesson", timeout=30)
        await settle(pilot)
        lines = screen_lines(app)
        assert any("after the lesson" in line for line in lines[-7:-3])
        assert "seed ‹0›" in lines[-3] and lines[-2].startswith(" mask none")


async def test_a_panel_being_taken_down_ignores_its_late_refresh_callbacks():
    """Esc as real-heads' first step appeared: the panel's body went first, then the fitting
    it had asked for after a refresh ran, and the app ended in a NoMatches traceback."""
    from lesson_pilot import panel

    async with lesson_app("mask").run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        shown = panel(pilot.app)
        await shown.query_one("#lesson-body").remove()  # as a removal takes children first
        shown._fit_scrollbar()
        shown.show(shown.view)
        shown.on_resize()
        await settle(pilot)
        assert pilot.app.is_running


async def test_a_step_on_the_model_screen_says_it_replaced_the_head_not_numbers():
    """real-heads 4 said "starts from its own numbers" when the learner had only walked to
    another head."""
    async with lesson_app("real-heads", at=3).run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await press(pilot, "right", "n")
        said = " ".join(panel(pilot.app).plain.split())
        assert "Step 4 starts from its own sentence, head and query. u brings yours back" \
            in said, said


async def test_the_panel_edge_says_escape_leaves_the_sentence_box_not_cancels_it():
    """real-heads 7: the edge read "Esc Cancel" while a sentence was typed, and Esc kept it."""
    async with lesson_app("real-heads", at=7).run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await press(pilot, "slash", "a", "space", "d", "o", "g")
        assert panel(pilot.app).edge_text == "typing: ⏎ or Esc Done"
        await press(pilot, "escape")
        assert pilot.app.screen.text == "a dog"


async def test_the_last_page_names_only_the_keys_that_do_something():
    # its edge said "n next · p back", and n did nothing there
    from attn_tui.lessons import load

    steps = len(load("one").steps)
    async with lesson_app("one", at=steps).run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        await press(pilot, "n")
        edge = panel(pilot.app).edge_text
        assert pilot.app.tutor.done and edge.startswith("p back"), edge
        await press(pilot, "p")  # back to the last step: n moves on again
        assert panel(pilot.app).edge_text.startswith("n next · p back")


@pytest.mark.parametrize("width", [40, 48, 56, 58, 60, 62, 63, 70, 80])
async def test_a_narrow_panel_says_its_keys_in_fewer_words_rather_than_cut(width):
    # at 60 columns a task's edge read "… n next · p back · Esc keep pl… ─╯", and at 40 a
    # mouse had no Esc to click
    from rich.cells import cell_len

    async with lesson_app("one", at=5).run_test(size=(width, 20)) as pilot:
        await settle(pilot)
        lesson = panel(pilot.app)
        edge = lesson.edge_text
        assert cell_len(edge) <= lesson.outer_size.width - 6, edge  # ╰─ … ─╯
        assert "h hint" in edge and "n next" in edge and "p back" in edge and "Esc" in edge


async def test_a_steps_marks_on_the_map_show_only_in_the_view_they_were_made_for():
    """nanogpt step 2 marks the 8 × 2 outputs; v to the weights marked t1–t2's columns, numbers
    the step says nothing of."""
    from attn_tui.tui.widgets.heatmap import Heatmap

    async with lesson_app("nanogpt", at=2).run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        heatmap = pilot.app.screen.query_one(Heatmap)
        assert heatmap.view == "output" and len(heatmap.highlights) == 16
        seen = {}
        for _ in range(6):
            await press(pilot, "v")
            seen[heatmap.view] = len(heatmap.highlights)
        assert seen == {"weights": 0, "scores": 0, "masked": 0, "output": 16}


async def test_at_40_columns_a_questions_edge_keeps_its_clickable_words_whole():
    async with lesson_app("one", at=3).run_test(size=(40, 16)) as pilot:
        await settle(pilot)
        edge = panel(pilot.app).edge_text
        assert "answers" not in edge  # the choices are clicks themselves
        assert "n next" in edge and "p back" in edge and edge.endswith("Esc leave"), edge


async def test_tab_during_a_question_on_the_model_screen_passes_the_sentence_box_by():
    """With the step table kept back, Tab went straight into the sentence: the c typed next
    went into the sentence, and the question stayed open."""
    from textual.widgets import Input

    async with lesson_app("real-heads", at=6).run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        screen = pilot.app.screen
        box = screen.query_one("#sentence", Input)
        before = box.value
        assert pilot.app.tutor.asking(screen)
        await press(pilot, "tab")
        assert not box.has_focus and box.can_focus
        await press(pilot, "shift+tab")
        assert not box.has_focus
        await press(pilot, "c")
        assert box.value == before
        assert pilot.app.tutor.chosen == 2
        for _ in range(3):  # answered: the box takes its turn again
            await press(pilot, "tab")
            if box.has_focus:
                break
        assert box.has_focus


async def test_a_step_ready_at_once_goes_from_the_last_steps_words_to_its_own(monkeypatch):
    """Every step painted "getting ready…" first, then its words: a flash between two steps
    (and a layout of the panes) when the step was ready within the same frame. A step whose
    setting up takes long enough to be seen still says so (tests/lessons/test_learning.py)."""
    from attn_tui.tui.tutor import runner

    shown_views = []
    show = LessonPanel.show

    def recorded(self, view, at_end=False):
        shown_views.append(view)
        show(self, view, at_end=at_end)

    monkeypatch.setattr(LessonPanel, "show", recorded)
    monkeypatch.setattr(runner, "SETUP_SAID_AFTER", 60.0, raising=False)  # however slow
    async with lesson_app("mask").run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        assert shown_views[0].busy  # the panel's first words, while step 1 sets up
        shown_views.clear()
        for k in (2, 3, 4):
            await press(pilot, "n")
            await settle(pilot)
            assert f"Step {k} of" in panel(pilot.app).border_title
        await press(pilot, "p")
        await settle(pilot)
        assert "Step 3 of" in panel(pilot.app).border_title
    assert shown_views and not [v.k for v in shown_views if v.busy]


async def test_a_step_ready_at_once_lays_the_screen_out_at_most_twice(monkeypatch):
    """n on the mask lesson laid the workbench out four times: the busy panel, its words
    wrapped again at the same width, a wait for the (mounted) workbench to mount, then the
    panes fitted to the panel's height. Its words and the panes' fit are what is left."""
    from layout_count import count_layouts

    from attn_tui.tui.tutor import runner

    # a step that takes longer than this says "getting ready…" (a layout of its own): on a
    # machine busy with the rest of the suite, the mask lesson's steps sometimes did
    monkeypatch.setattr(runner, "SETUP_SAID_AFTER", 30.0)
    async with lesson_app("mask").run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        layouts = count_layouts(monkeypatch)
        per_step = []
        for key, k in (("n", 2), ("n", 3), ("p", 2), ("n", 3)):
            layouts.clear()
            await press(pilot, key)
            await settle(pilot)
            assert f"Step {k} of" in panel(pilot.app).border_title
            per_step.append(len(layouts))
        assert max(per_step) <= 2, per_step


async def test_a_step_that_picks_another_query_shows_its_table_from_the_first_key():
    # nanogpt 9 → 10: the step table kept step 9's scroll, down at t5, and t1's only key it
    # may see (t1, under the causal mask) was out of sight
    async with lesson_app("nanogpt", at=9).run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await press(pilot, "n")
        assert "Step 10 of" in panel(pilot.app).border_title
        lines = screen_text(pilot.app).splitlines()
        header = next(i for i, line in enumerate(lines) if "steps for query 't1'" in line)
        assert "│t1    -1.7629" in lines[header + 2], lines[header:header + 4]
