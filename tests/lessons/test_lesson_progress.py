"""A lesson resumes at its step across runs, keeps its tasks and answers, and a bad progress file
is a notice, never a crash; --no-progress keeps nothing."""

from __future__ import annotations

import json

import pytest
from lesson_pilot import lesson_app, panel, press, settle, shown
from progress_faults import read_only
from screen_text import screen_text

from attn_tui.core.progress import Progress
from attn_tui.lessons import standing, suggestion
from attn_tui.tui.app import make_app
from attn_tui.tui.textual_compat import notifications


async def test_a_lesson_resumes_at_its_step_in_the_next_run(progress_dir):
    async with lesson_app("select").run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await press(pilot, "n", "n", "b", "n", "enter", "0", "enter")  # step 2's task, met
    assert Progress.from_env().load("select").step == 3
    async with lesson_app("select").run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        assert "Step 4 of 6" in panel(pilot.app).border_title
        words, nxt = pilot.app.tutor.standing()
        assert words["select"] == "0/3 tasks · 1/2 answered · at step 4"
        assert nxt == "one"
        # Go to and `--lesson list` say it in the same words, and suggest the same lesson
        listed = {lesson.name: w for lesson, w, _ in standing(Progress.from_env())}
        assert listed == words
        assert suggestion(standing(Progress.from_env())).startswith("Next: one ")
        await press(pilot, "p")
        assert "✓ Right." in panel(pilot.app).plain  # the answer came back too


async def test_a_met_task_is_kept_and_counted(progress_dir):
    async with lesson_app("mask").run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await press(pilot, "n", "n", "n", "enter", "5", "enter")
        assert "Done:" in panel(pilot.app).plain
    assert Progress.from_env().load("mask").tasks == {3}
    async with lesson_app("mask").run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        assert pilot.app.tutor.standing()[0]["mask"].startswith("1/2 tasks")
        # the step starts afresh: unmet again, and says it was done before
        said = " ".join(panel(pilot.app).plain.split())  # not "○ … Not yet: (done before…)"
        assert "Task ○ " in said and "Met before; on these panes now:" in said and "Not yet" not in said


async def test_a_corrupt_progress_file_is_a_notice_and_the_lesson_starts_fresh(progress_dir):
    Progress.from_env().save("one", step=4, task=4)
    progress_dir.mkdir(parents=True, exist_ok=True)
    (progress_dir / "select.json").write_text('{"version": 1, "step": "x"}')
    async with lesson_app("select").run_test(size=(100, 30)) as pilot:
        await settle(pilot)
        assert "Step 1 of 6" in panel(pilot.app).border_title
        notices = [n.message for n in notifications(pilot.app)]
        assert any(m.startswith("Progress in lesson select could not be used") for m in notices)
    assert Progress.from_env().load("one").step == 4  # another lesson keeps its record
    assert json.loads((progress_dir / "select.json").read_text())["step"] == 0


async def test_no_progress_keeps_nothing_and_says_so_once(progress_dir):
    """The panel and Go to counted 0/2 tasks with no word that nothing would be kept: a
    learner on a shared account took their work for saved."""
    from attn_tui.tui.textual_compat import notifications

    app = make_app(lesson="select", no_progress=True)
    app.animation_level = "none"
    async with app.run_test(size=(80, 24), notifications=True) as pilot:
        await settle(pilot)
        said = [n.title for n in notifications(app)]
        assert said == ["Progress is not kept in this run"]
        await press(pilot, "n", "n", "escape")
        app.tutor.start("one")  # another lesson in the same run: said once is enough
        await settle(pilot)
        assert "Progress is not kept in this run" not in [n.title for n in notifications(app)]
    assert not progress_dir.exists()
    kept = make_app(lesson="select")  # where progress is kept, no such word
    async with kept.run_test(size=(80, 24), notifications=True) as pilot:
        await settle(pilot)
        assert "Progress is not kept in this run" not in [n.title for n in notifications(kept)]


async def test_a_goal_met_by_show_me_is_kept_apart_from_one_the_learner_met(progress_dir,
                                                                             capsys):
    # y's state counted as a task done: --lesson list said "tasks 1/2" for a shown solution
    from attn_tui.lessons import lesson_cli

    async with lesson_app("one", at=5).run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        await press(pilot, "h", "h", "h", "y")
        assert "Done:" in panel(pilot.app).plain
        assert pilot.app.tutor.standing()[0]["one"].startswith("0/2 tasks, 1 more shown")
    record = Progress.from_env().load("one")
    assert record.tasks == frozenset() and record.shown == {4}
    assert lesson_cli("list", None, False) == 0  # type: ignore[arg-type]
    assert "0/2 tasks, 1 more shown" in capsys.readouterr().out.split("select")[0]
    async with lesson_app("one", at=5).run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        # the learner's own: α(who → best) ≥ 0.6 by a larger q along best
        await press(pilot, "enter", "3", "enter", "right", "3", "enter", "right", "3", "enter")
        assert "Done:" in panel(pilot.app).plain
        assert pilot.app.tutor.standing()[0]["one"].startswith("1/2 tasks ·")
    assert Progress.from_env().load("one").tasks == {4}


@pytest.mark.parametrize("after_y", [["u"], []], ids=["undone", "moved-on-from"])
async def test_the_learners_own_state_after_show_me_is_theirs(progress_dir, after_y):
    # the shown state stayed "shown" for the whole step: the hint's own 10 typed after y, u
    # was credited to show me, and so was 20 typed over the shown solution
    async with lesson_app("one", at=5).run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        await press(pilot, "h", "h", "h", "y", *after_y)
        await press(pilot, "right", "right", "enter", "2", "0", "enter")  # q d3 = 20
        assert "Done:" in panel(pilot.app).plain
        assert pilot.app.tutor.standing()[0]["one"].startswith("1/2 tasks ·")
    assert Progress.from_env().load("one").tasks == {4}


async def test_show_me_undone_and_redone_is_still_show_mes(progress_dir):
    # u then U put the shown state back, and it was credited to the learner
    async with lesson_app("one", at=5).run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        await press(pilot, "h", "h", "h", "y", "u", "U")
        assert "Done:" in panel(pilot.app).plain
        # and the panel says so, as the list does: it read as the learner's own Done
        assert "Shown: a state that meets the goal." in panel(pilot.app).plain
    record = Progress.from_env().load("one")
    assert record.tasks == frozenset() and record.shown == {4}


async def test_go_to_says_finished_and_unreadable_as_the_list_does(progress_dir):
    """Go to left out "finished" and, for a file it could not read, said a plain 0/2 done."""
    Progress.from_env().save("one", step=None, finished=True, task=4)
    progress_dir.mkdir(parents=True, exist_ok=True)
    (progress_dir / "params.json").write_text('{"version": 1, "step": 2, "finished": "yes"}')
    app = make_app()
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot)
        words, _ = app.tutor.standing()
        entries = dict(app.goto_entries())
    assert words["one"].endswith(" · finished")
    # how much was done is not known: the lesson's size, not "0/1 tasks"
    assert words["params"] == "2 tasks · 2 questions · its progress could not be read"
    listed = {lesson.name: w for lesson, w, _ in standing(Progress.from_env())}
    assert listed["one"] == words["one"]
    assert listed["params"] == words["params"] + " (see below)"
    assert entries["lesson:one"].endswith(words["one"])


async def test_progress_a_folder_refused_is_asked_about_on_quit_and_written_once_it_can(
        progress_dir, monkeypatch):
    # an answer given while the folder was read-only went: said once at the start, then quit
    # asked nothing, and a later save that worked wrote only its own change
    app = lesson_app("select", at=3)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        writable = read_only(monkeypatch)
        await press(pilot, "b")
        assert "✓ Right." in panel(app).plain
        said = [n.message for n in notifications(app) if n.title == "Progress"]
        assert len(said) == 1 and said[0].startswith("Progress not saved: read-only file system")
        assert said[0].endswith("Tasks met and answers wait to be saved (the step reached "
                                "does not), and quitting first asks (ATTN_TUI_DATA_DIR, set "
                                "before starting, names another folder).")
        await press(pilot, "ctrl+q")
        assert type(app.screen).__name__ == "ConfirmQuitModal"
        question = str(app.screen.query_one("#quit-question").render())
        assert question == (
            "Your progress in lesson select could not be saved: read-only file system "
            f"({progress_dir / 'select.json'}). It is lost when attn-tui quits. "
            "Quit anyway (y) / Cancel (Esc)")
        # the notice said it too, and would cover the question's words
        assert not [n for n in notifications(app) if n.title == "Progress"]
        await press(pilot, "escape")
        writable()
        await press(pilot, "n")  # a step saved: what waited goes with it, and that is said
        said = [n.message for n in notifications(app) if n.title == "Progress"]
        assert said[-1] == "Progress saved again, with what could not be saved before."
        await press(pilot, "ctrl+q")
        assert not app.is_running
    record = Progress.from_env().load("select")
    assert record.answers == {2: 1} and record.step == 3


async def test_with_progress_refused_save_on_quit_says_it_keeps_the_session_not_the_progress(
        progress_dir, monkeypatch):
    """Save (s) under "your progress could not be saved" read as saving the progress; it
    writes the session, which holds none."""
    app = lesson_app("select", at=2)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        read_only(monkeypatch)
        await press(pilot, "home", "0", "enter")  # the step's task, met: its record refused
        assert pilot.app.workbench().dirty
        await press(pilot, "ctrl+q")
        assert type(app.screen).__name__ == "ConfirmQuitModal"
        question = str(app.screen.query_one("#quit-question").render())
        assert question.startswith("Your progress in lesson select could not be saved")
        assert question.endswith("You have unsaved changes. s saves the session; lesson "
                                 "progress is not part of a session. Save (s) / Quit anyway "
                                 "(y) / Cancel (Esc)")


async def _answered_while_read_only(pilot, monkeypatch) -> None:
    """The open question answered (b) while the folder refused progress, which then takes it
    again: the answer waits, unwritten."""
    await settle(pilot)
    writable = read_only(monkeypatch)
    await press(pilot, "b")
    writable()


async def test_what_waited_in_one_lesson_is_written_by_a_save_in_another(progress_dir,
                                                                           monkeypatch):
    # the answer in select waited; saves in mask then worked, and select's stayed unwritten,
    # "saved again" never said, and a kill or a dropped connection lost it
    app = lesson_app("select", at=3)
    async with app.run_test(size=(80, 24), notifications=True) as pilot:
        await _answered_while_read_only(pilot, monkeypatch)
        app.tutor.start("mask")
        await settle(pilot)
        said = [n.message for n in notifications(app) if n.title == "Progress"]
        assert said[-1] == "Progress saved again, with what could not be saved before."
        assert Progress.from_env().load("select").answers == {2: 1}


async def test_a_rescue_tries_once_more_to_write_what_waited(progress_dir, monkeypatch):
    from textual import messages

    app = lesson_app("select", at=3)
    async with app.run_test(size=(80, 24)) as pilot:
        await _answered_while_read_only(pilot, monkeypatch)
        app.post_message(messages.ExitApp())  # the tab closed, the connection dropped
        await pilot.pause()
    assert Progress.from_env().load("select").answers == {2: 1}


async def test_quit_writes_what_waited_if_the_folder_takes_it_now(progress_dir, monkeypatch):
    app = lesson_app("select", at=3)
    async with app.run_test(size=(80, 24)) as pilot:
        await _answered_while_read_only(pilot, monkeypatch)
        await press(pilot, "ctrl+q")  # asks nothing: the one more try wrote it
        assert not app.is_running
    assert Progress.from_env().load("select").answers == {2: 1}


async def test_quit_without_asking_still_tries_once_more_to_write_what_waited(
        progress_dir, monkeypatch):
    app = make_app(lesson="select", confirm_quit=False)
    app.progress.save("select", step=2)
    async with app.run_test(size=(80, 24)) as pilot:
        await _answered_while_read_only(pilot, monkeypatch)
        await press(pilot, "ctrl+q")
        assert not app.is_running
    assert Progress.from_env().load("select").answers == {2: 1}


@pytest.mark.parametrize("answer", ["escape", "y"])
async def test_a_value_stored_only_to_ask_about_quitting_meets_no_task_until_kept(
        progress_dir, answer):
    """10 typed in q (no Enter), ctrl+q: the question stores it as Enter would, and the task
    was met and kept; Cancel typed it again and put the panes back, but the file said done."""
    app = lesson_app("one", at=5)  # make who give at least 0.6 of its weight to best
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        bench = app.workbench()
        await press(pilot, "right", "right", "enter", "backspace", "backspace", "backspace",
                    "1", "0")
        assert bench.query_one("#editor-q").editing == (0, 2)
        await press(pilot, "ctrl+q")
        assert type(app.screen).__name__ == "ConfirmQuitModal"
        assert Progress.from_env().load("one").tasks == set()
        await press(pilot, answer)
        if answer == "escape":  # typing again, the panes as they were: not met
            assert bench.query_one("#editor-q").buffer.text == "10"
            assert "Not yet: α(who → best) 0.36" in shown(app)
            await press(pilot, "escape")
            assert bench.workspace.q[0][2] == 0.3
            assert Progress.from_env().load("one").tasks == set()
            await press(pilot, "right", "enter", "1", "0", "enter")  # and typed for real
            assert "Task ✓" in shown(app)
            assert Progress.from_env().load("one").tasks == {4}
        else:  # quit anyway: the value never entered is dropped, and meets nothing
            assert not app.is_running
            assert Progress.from_env().load("one").tasks == set()


async def test_step_opens_a_lesson_there_whatever_was_kept(progress_dir):
    # a teacher's "everyone open mask at step 4": the lesson resumed where each learner was
    Progress.from_env().save("mask", step=1, answer=(2, 1))  # step 3's question, answered b
    app = make_app(lesson="mask", lesson_step=4)
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot)
        title = panel(app).border_title
        assert "Step 4 of 5" in title and "opened here (--step)" in title
        await press(pilot, "p")  # the answer kept on step 3 is still there
        assert "✓ Right." in panel(app).plain
    # where the learner now is is kept, as any move is
    assert Progress.from_env().load("mask").step == 2


def test_step_needs_a_lesson_and_a_step_it_has(capsys):
    import pytest as _pytest

    from attn_tui.cli.main import main, parse_args

    assert parse_args(["--lesson", "mask", "--step", "4"]).step == 4
    for argv, said in ((["--step", "2"], "argument --step: it goes with --lesson NAME"),
                       (["--lesson", "list", "--step", "2"],
                        "argument --step: not allowed with --lesson list, which prints"),
                       (["--lesson", "mask", "--step", "0"], "0 is not a step: steps count from 1")):
        with _pytest.raises(SystemExit):
            parse_args(argv)
        assert said in capsys.readouterr().err
    with _pytest.raises(SystemExit) as done:
        main(["--lesson", "mask", "--step", "9"])
    assert done.value.code == 2
    assert "argument --step: lesson mask has 5 steps; 9 is past its last" in capsys.readouterr().err


async def test_go_to_lists_the_open_lessons_steps_and_opens_one(progress_dir):
    # a learner going back to step 2 pressed p, one step at a time; only --step jumped
    app = lesson_app("mask", at=3)
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot)
        entries = dict(app.goto_entries())
        steps = [t for t in entries if t.startswith("step:")]
        assert steps == [f"step:mask:{k}" for k in range(1, 6)]
        assert entries["step:mask:3"].split(None, 2)[2] == "of mask, here: Mask, then softmax"
        assert entries["step:mask:2"].split(None, 2)[2] == "of mask: No looking ahead"
        await press(pilot, "g")
        pilot.app.screen.dismiss("step:mask:2")
        await settle(pilot)
        title = panel(app).border_title
        assert "Step 2 of 5" in title and "opened here (picked in Go to)" in title
    no_lesson = make_app(no_progress=True)
    async with no_lesson.run_test(size=(100, 30)) as pilot:
        await settle(pilot)
        assert not [t for t, _ in no_lesson.goto_entries() if t.startswith("step:")]


async def test_the_end_of_a_lesson_names_a_task_met_only_as_shown_apart(progress_dir):
    """After y, the end said the task "is not met yet" just after the panel showed it ✓ Done
    (Shown): a learner who typed the shown numbers could not tell why."""
    async with lesson_app("one", at=5).run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        await press(pilot, "h", "h", "h", "y")
        assert "Shown: a state that meets the goal." in panel(pilot.app).plain
        await press(pilot, "n", "n", "n")
        said = " ".join(panel(pilot.app).plain.split())
        assert ("That is the whole lesson. The task on step 6 is not met yet. The task on step "
                "5 was met only as show me (y) set it up: to count, meet it with other numbers "
                "of your own.") in said


async def test_go_to_uses_a_wide_window_to_keep_each_lesson_on_one_line(progress_dir):
    # at 120 columns the dialog stayed 80 wide, and "… · 0/1 answered · at step 2" wrapped
    # under its own line, read as cut off
    async with lesson_app("mask", at=2).run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        await press(pilot, "g")
        text = screen_text(pilot.app)
        assert "lesson mask       open now: The causal mask · 0/2 tasks · 0/1 answered · at " \
               "step 2" in text
