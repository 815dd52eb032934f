"""Lesson files: every shipped one loads, and a broken one is refused with file, step and reason."""

from __future__ import annotations

import importlib
import os
import subprocess
import sys
from pathlib import Path

import pytest

from attn_tui.lessons import LessonError, catalog, load, names
from attn_tui.lessons.loader import load_file, parse_action
from attn_tui.tui.textual_compat import notifications

ORDER = ["one", "select", "scale", "mask", "params", "nanogpt", "real-heads", "learning"]


def test_catalog_lists_the_lessons_in_teaching_order():
    entries = catalog()
    assert [e.name for e in entries] == ORDER
    for e in entries:
        assert e.title and e.summary
        assert "\n" not in e.line() and e.line().startswith(e.name)
        assert len(e.line()) <= 80, e.line()  # one line in an 80-column terminal


@pytest.mark.parametrize("name", ORDER)
def test_every_lesson_loads_with_at_least_one_question(name):
    lesson = load(name)
    assert lesson.name == name and lesson.file == f"{name}.toml"
    assert lesson.steps
    assert any(step.question is not None for step in lesson.steps)
    for step in lesson.steps:
        assert step.title and step.text
        assert step.highlight, f"step '{step.title}' points at nothing"
        assert 1 <= len(step.keys) <= 2, f"step '{step.title}' names {len(step.keys)} keys"


def _screen_class(screen: str):
    if screen == "workbench":
        from attn_tui.tui.screens.workbench_screen import WorkbenchScreen

        return WorkbenchScreen
    from attn_tui.core.labs import LABS

    lab = LABS[screen[4:]]
    module, cls = lab.module, lab.screen_class
    return getattr(importlib.import_module(module), cls)


@pytest.mark.parametrize("name", ORDER)
def test_every_action_names_a_real_action_of_its_screen(name):
    for step in load(name).steps:
        actions = list(step.actions) + list(step.question.reveal if step.question else ())
        screen = _screen_class(step.screen)
        for action in actions:
            namespace, action_name, _ = parse_action(action)
            assert namespace == "screen", action
            assert hasattr(screen, f"action_{action_name}"), (name, step.title, action)


def test_parse_action_reads_what_textual_reads():
    assert parse_action("screen.set_mask('causal')") == ("screen", "set_mask", ("causal",))
    assert parse_action("screen.toggle_scale") == ("screen", "toggle_scale", ())
    assert parse_action("app.quit()") == ("app", "quit", ())
    assert parse_action("screen.set_dk(64)") == ("screen", "set_dk", (64,))


GOOD_STEP = '''
[[steps]]
title = "A step"
text = "Some words."
highlight = { pane = "steps", cells = [[0, 0]] }
'''
HEAD = 'title = "T"\nsummary = "S"\nworkspace = "one"\n'

BROKEN = {
    "unknown-step-key": (HEAD + GOOD_STEP + GOOD_STEP + 'titel = "typo"\n',
                         2, "unknown field 'titel'"),
    "missing-title": (HEAD + GOOD_STEP.replace('title = "A step"\n', ""), 1,
                      "missing field 'title'"),
    "missing-summary": ('title = "T"\n' + GOOD_STEP, None, "missing field 'summary'"),
    "no-steps": (HEAD, None, "needs at least one [[steps]]"),
    "bad-screen": (HEAD + GOOD_STEP + 'screen = "lab:kitchen"\n', 1, "unknown screen 'lab:kitchen'"),
    "bad-workspace": (HEAD + GOOD_STEP + 'workspace = "nope"\n', 1, "unknown workspace 'nope'"),
    "workspace-on-a-lab": (HEAD + GOOD_STEP + 'screen = "lab:model"\nworkspace = "one"\n', 1,
                           "only be loaded on the workbench"),
    "bad-action": (HEAD + GOOD_STEP + 'actions = ["screen.set_mask(causal"]\n', 1,
                   "is not of the form"),
    "action-args": (HEAD + GOOD_STEP + 'actions = ["screen.set_mask(nope)"]\n', 1,
                    "are not plain values"),
    "bad-placeholder": (HEAD + GOOD_STEP.replace("Some words.", "q is {nothing.q}"), 1,
                        "{nothing…}"),
    "broken-placeholder": (HEAD + GOOD_STEP.replace("Some words.", "q is {row.q"), 1,
                           "broken {placeholder}"),
    "bad-rect": (HEAD + GOOD_STEP.replace('cells = [[0, 0]]', 'rect = [2, 0, 1, 0]'), 1,
                 "rect is [first row"),
    "bad-cell": (HEAD + GOOD_STEP.replace('[[0, 0]]', '[[0, -1]]'), 1, "a cell is [row, column]"),
    "from-softmax-off-the-map": (HEAD + GOOD_STEP.replace('cells = [[0, 0]] }',
                                                          'cells = [[0, 0]], from_softmax = true }'),
                                 1, "from_softmax is true or false, and only for cells of the map"),
    "from-softmax-not-a-bool": (HEAD + GOOD_STEP.replace('pane = "steps", cells = [[0, 0]] }',
                                                         'pane = "heatmap", cells = [[0, 0]], '
                                                         'from_softmax = 1 }'),
                                1, "from_softmax is true or false"),
    "bad-answer": (HEAD + GOOD_STEP + '[steps.question]\nprompt = "?"\nchoices = ["x", "y"]\n'
                   'answer = "c"\nwhy = "w"\n', 1, "the answer must be one of the letters a, b"),
    "too-few-choices": (HEAD + GOOD_STEP + '[steps.question]\nprompt = "?"\nchoices = ["x"]\n'
                        'answer = "a"\nwhy = "w"\n', 1, "needs 2 to 4 choices"),
    "missing-why": (HEAD + GOOD_STEP + '[steps.question]\nprompt = "?"\nchoices = ["x", "y"]\n'
                    'answer = "a"\n', 1, "missing field 'why'"),
    "key-clash": (HEAD + GOOD_STEP + 'keys = { "a" = "add a token" }\n[steps.question]\n'
                  'prompt = "?"\nchoices = ["x", "y"]\nanswer = "a"\nwhy = "w"\n', 1,
                  "answers the question on this step"),
    "not-toml": ('title = "T\n', None, "not valid TOML"),
    "bad-needs": (HEAD.replace('\n', '\nneeds = ["jax"]\n', 1) + GOOD_STEP, None,
                  "'needs' must be a list of: torch"),
}


@pytest.mark.parametrize("case", list(BROKEN))
def test_a_broken_lesson_names_its_file_step_and_problem(tmp_path: Path, case: str):
    text, step, message = BROKEN[case]
    path = tmp_path / f"{case}.toml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(LessonError) as caught:
        load_file(path)
    err = caught.value
    assert err.file == f"{case}.toml"
    assert err.step == step
    assert message in err.message
    where = f"{case}.toml" + (f", step {step}" if step else "")
    assert str(err).startswith(where + ": ")


def test_a_good_file_beside_them_loads(tmp_path: Path):
    path = tmp_path / "extra.toml"
    path.write_text(HEAD + GOOD_STEP, encoding="utf-8")
    lesson = load_file(path)
    assert lesson.name == "extra" and lesson.steps[0].workspace == "one"


def test_an_unknown_lesson_name_lists_the_real_ones():
    with pytest.raises(LessonError, match="no such lesson; choose one of: learning, mask, nanogpt"):
        load("nope")
    assert sorted(names()) == sorted(ORDER)


def test_the_lessons_package_loads_neither_textual_nor_torch():
    code = ("import sys; from attn_tui.lessons import catalog, load; "
            "[load(e.name) for e in catalog()]; "
            "bad = [m for m in ('textual', 'torch', 'rich') if m in sys.modules]; "
            "print(bad)")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "[]"


def test_cli_lesson_list_prints_one_line_per_lesson_without_textual():
    code = ("import sys; from attn_tui.cli.main import main; rc = main(['--lesson', 'list']); "
            "print('textual' in sys.modules, rc)")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=120)
    lines = done.stdout.strip().splitlines()
    assert lines[-1] == "False 0"
    assert lines[-2].startswith("Next: one")  # then each lesson's progress under its line
    assert [line.split()[0] for line in lines[:-2:2]] == ORDER
    assert all(line.split()[1] == "tasks" for line in lines[1:-2:2])


def test_cli_lesson_list_marks_a_lesson_whose_progress_is_unreadable(tmp_path, capsys,
                                                                     monkeypatch):
    """A damaged scale.json was listed as "0/2 tasks", as if nothing had been done."""
    from attn_tui.cli.main import main

    (tmp_path / "progress").mkdir()
    (tmp_path / "progress" / "scale.json").write_text("{broken")
    monkeypatch.setenv("ATTN_TUI_DATA_DIR", str(tmp_path))
    assert main(["--lesson", "list"]) == 0
    lines = capsys.readouterr().out.splitlines()
    at = lines.index(next(x for x in lines if x.startswith("scale ")))
    assert lines[at + 1].split() == ["2", "tasks", "·", "1", "question", "·", "its",
                                     "progress", "could", "not", "be", "read", "(see", "below)"]
    assert sum("could not be read" in x for x in lines) == 1  # the others read fine
    assert any(x.startswith("Progress in lesson scale could not be used (not valid JSON)")
               for x in lines)
    assert (tmp_path / "progress" / "scale.json").read_text() == "{broken"  # a list moves nothing


def test_cli_unknown_lesson_is_a_usage_error():
    done = subprocess.run([sys.executable, "-m", "attn_tui", "--lesson", "nope"],
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 2
    assert "usage:" in done.stderr and "unknown lesson 'nope'" in done.stderr
    assert "Traceback" not in done.stderr


def test_cli_lesson_list_into_a_closed_pipe_is_quiet():
    # `attn-tui --lesson list | true` printed a BrokenPipeError traceback, exit 1
    read, write = os.pipe()
    os.close(read)  # nobody reads: the first write breaks the pipe
    done = subprocess.run([sys.executable, "-m", "attn_tui", "--lesson", "list"], stdout=write,
                          stderr=subprocess.PIPE, text=True, timeout=120)
    os.close(write)
    assert done.returncode == 0
    assert "Traceback" not in done.stderr and "BrokenPipe" not in done.stderr


# torch hidden, as on `pip install attn-tui` without the [torch] extra
NO_TORCH = ("import sys; sys.modules['torch'] = None; from attn_tui.cli.main import main; "
            "raise SystemExit(main({argv}))")


def test_without_torch_the_lecture_lesson_says_it_needs_torch_instead_of_misteaching():
    # its words are about the lecture's own torch draws, which numpy cannot reproduce
    done = subprocess.run([sys.executable, "-c", NO_TORCH.format(argv="['--lesson', 'nanogpt']")],
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 2
    assert done.stderr.strip() == ("attn-tui: lesson nanogpt replays the lecture's torch "
                                   "tensors, and torch is not installed; install it with: "
                                   "pip install 'attn-tui[torch]'")
    # the learning lesson trains a model: it had been said to replay the lecture's tensors
    done = subprocess.run([sys.executable, "-c", NO_TORCH.format(argv="['--lesson', 'learning']")],
                          capture_output=True, text=True, timeout=120)
    assert done.stderr.strip() == ("attn-tui: lesson learning trains a tiny transformer with "
                                   "torch, and torch is not installed; install it with: "
                                   "pip install 'attn-tui[torch]'")
    done = subprocess.run([sys.executable, "-c", NO_TORCH.format(argv="['--lesson', 'list']")],
                          capture_output=True, text=True, timeout=120)
    lines = dict(line.split(None, 1) for line in done.stdout.splitlines())
    assert lines["nanogpt"].endswith("(needs torch, not installed)")
    assert not lines["one"].endswith(")")


async def test_without_torch_the_app_refuses_the_lecture_lesson_in_words(monkeypatch):
    from attn_tui.compute import backend
    from attn_tui.tui.app import make_app

    monkeypatch.setattr(backend, "torch_available", lambda: False)
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        app.tutor.start("nanogpt")
        await pilot.pause()
        assert app.tutor.lesson is None
        said = [str(n.message) for n in notifications(app)]
        assert any(m.startswith("Lesson nanogpt replays the lecture's torch tensors") for m in said)
        app.tutor.start("one")
        await app.workers.wait_for_complete()
        assert app.tutor.lesson is not None and app.tutor.lesson.name == "one"
