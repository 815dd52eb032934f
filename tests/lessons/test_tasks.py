"""Tasks as data: every shipped one loads, starts unmet and is solved by its solution; a bad task
table is a LessonError naming the file, the step and the problem; evaluation reads live state."""

from __future__ import annotations

import math
from dataclasses import asdict, replace

import pytest

from attn_tui.core import state
from attn_tui.lessons import LessonError, load, names
from attn_tui.lessons import tasks as t
from attn_tui.lessons.loader import load_file, parse_action
from attn_tui.lessons.workspaces import LECTURE_WORKSPACES, build

TASKS = [(name, k) for name in names() for k, step in enumerate(load(name).steps, start=1)
         if step.task is not None]


def _start(step):
    backend = "numpy"
    if step.workspace in LECTURE_WORKSPACES:  # the lecture's tasks hold on torch's draws
        pytest.importorskip("torch")
        backend = "torch"
    ws = build(step.workspace, backend=backend) if step.workspace else None
    return t.simulate_start(step.screen, ws, tuple(parse_action(a)[1:] for a in step.actions))


def test_every_lesson_has_two_tasks_and_there_are_twelve():
    for name in names():
        assert load(name).tasks >= 2, name
    assert len(TASKS) >= 12
    assert any(load(n).steps[k - 1].screen != "workbench" for n, k in TASKS)  # labs too


@pytest.mark.parametrize(("name", "k"), TASKS, ids=[f"{n}-{k}" for n, k in TASKS])
def test_each_task_starts_unmet_and_its_solution_meets_it_breaking_no_rule(name, k):
    step = load(name).steps[k - 1]
    task = step.task
    start = _start(step)
    assert not t.evaluate(task, start, start).met
    end = t.evaluate(task, t.solved(task, start), start)
    assert end.done, end
    assert len(task.hints) == 2 and task.why and task.goal


def test_the_readme_counts_the_tasks_there_are():
    import re
    from pathlib import Path

    readme = (Path(__file__).resolve().parents[2] / "README.md").read_text(encoding="utf-8")
    said = re.search(r"Every lesson also has tasks \((\d+) in all", readme)
    assert said is not None and int(said.group(1)) == len(TASKS)


def test_the_lab_defaults_are_the_lab_screens_own():
    from attn_tui.tui.screens.labs.model_lab_screen import ModelSettings
    from attn_tui.tui.screens.labs.scaling_lab_screen import ScalingSettings

    assert t.LAB_DEFAULTS["lab:scaling"] == asdict(ScalingSettings())
    assert t.LAB_DEFAULTS["lab:model"] == asdict(ModelSettings())
    from attn_tui.train.config import default_config
    from attn_tui.tui.screens import model_screen
    from attn_tui.tui.screens.labs.train_lab_screen import TrainLabScreen

    assert t.LAB_DEFAULTS["lab:train"] == asdict(default_config("sort"))  # as the lab opens
    assert TrainLabScreen.default_settings  # (R: the defaults of the task on the bar)
    assert t.LAB_DEFAULTS["lab:minilm"] == dict(text=model_screen.FIRST_SENTENCE, layer=0,
                                                head=0, query=0)


def _task(**over):
    raw = dict(goal="g", stage="weights", cell=[1, 2], op=">=", value=0.9, change=["K"],
               max_cells=1, keep=["mask", "scale"], hints=["one", "two"], why="w",
               solution=[{"cell": ["K", 2, 2], "value": 2.0}])
    raw.update(over)
    return t.parse({k: v for k, v in raw.items() if v is not None}, "workbench")


def test_a_verdict_names_the_cell_and_says_value_and_target():
    start = t.bench_live(state.from_preset("select"))
    v = t.evaluate(_task(), start, start)
    assert v.line() == "α(verb? → barked) 0.83 · goal ≥ 0.90"
    assert not v.met and v.broken is None


def test_a_forbidden_change_reaching_the_goal_names_the_rule_it_broke():
    ws = state.from_preset("select")
    start = t.bench_live(ws)
    task = _task()
    via_q = t.evaluate(task, t.bench_live(state.set_cell(ws, "Q", 1, 2, 10.0)), start)
    assert via_q.met and not via_q.done and via_q.broken == "only K may change, and Q did"
    two = state.set_cell(state.set_cell(ws, "K", 2, 2, 2.0), "K", 0, 2, 0.0)
    # each named, to find the one changed by mistake (nanogpt 9: t5's query for t6's)
    assert t.evaluate(task, t.bench_live(two), start).broken == (
        "change at most one cell; 2 changed (K dog·d3, K barked·d3: u undoes one at a time)")
    # a key added: "12 changed" said nothing of what had happened
    wider = state.resize(ws, t=4)
    assert t.evaluate(_task(change=["Q", "K", "V"]), t.bench_live(wider), start).broken == \
        "change at most one cell, not the size: K is 4×3 now, not 3×3"
    off = t.evaluate(task, t.bench_live(replace(ws, scale=False)), start)
    assert off.met and off.broken == "÷√d_k must stay on"
    assert t.evaluate(task, t.bench_live(state.set_cell(ws, "K", 2, 2, 2.0)), start).done


def test_near_compares_with_another_stage_and_reduce_reads_a_row():
    ws = state.from_preset("select")
    task = _task(stage="entropy", cell=None, row=0, op="near", value="max_entropy", tol=0.01,
                 change=["Q"], solution=[{"cell": ["Q", 0, 0], "value": 0.0}])
    start = t.bench_live(ws)
    v = t.evaluate(task, start, start)
    assert v.line() == "H(animal?) 0.75 · goal log₂3 = 1.58 ± 0.01"
    assert t.evaluate(task, t.solved(task, start), start).done
    top = _task(cell=None, row=2, reduce="max")
    assert t.evaluate(top, start, None).value == pytest.approx(1 / 3)


def test_a_miss_too_close_for_two_decimals_is_shown_to_four():
    """H 1.57 beside "goal 1.58 ± 0.01" read as met when H was 1.5748, 0.0102 from log2 3."""
    ws = state.from_preset("select")
    task = _task(stage="entropy", cell=None, row=0, op="near", value="max_entropy", tol=0.01,
                 change=["Q"], solution=[{"cell": ["Q", 0, 0], "value": 0.0}])
    start = t.bench_live(ws)
    close = t.evaluate(task, t.bench_live(state.set_cell(ws, "Q", 0, 0, 0.5)), start)
    assert not close.met
    assert close.line() == "H(animal?) 1.5748 · goal log₂3 = 1.5850 ± 0.01"
    near_miss = t.evaluate(_task(value=0.835), start, start)  # 0.8343: "0.83 · goal ≥ 0.83"
    assert near_miss.line() == "α(verb? → barked) 0.8343 · goal ≥ 0.8350"
    met = t.evaluate(_task(value=0.83), start, start)
    # met by a little: the value to four, as the panes write it ("1.00" for a met 0.9982)
    assert met.met and met.line() == "α(verb? → barked) 0.8343 · goal ≥ 0.83"
    # met by a little against a figure of the panes: that figure as they write it too
    # ("1.5850 · goal log₂3 = 1.58" read as two different numbers)
    done = t.evaluate(task, t.solved(task, start), start)
    assert done.done and done.line() == "H(animal?) 1.5850 · goal log₂3 = 1.5850 ± 0.01"


def test_a_miss_that_four_decimals_write_as_the_goal_is_shown_with_more():
    """ζ 0.549983 against ≥ 0.55 read "Not yet: ζ(who, d1) 0.5500 · goal ≥ 0.5500"."""
    start = t.bench_live(state.from_preset("select"))
    value = t.evaluate(_task(value=0.5), start, start).value
    goal = round(value, 4) + 0.00002  # four decimals write both as the same number
    miss = t.evaluate(_task(value=goal), start, start)
    assert not miss.met and t.fmt(value, 4) == t.fmt(goal, 4)
    shown, wanted = miss.line().split(" · goal ≥ ")
    assert shown.split()[-1] != wanted
    assert float(shown.split()[-1]) < float(wanted) == pytest.approx(goal)
    assert miss.digits in (5, 6)
    # a near goal is missed at its edge, goal ± tol: 1.574958 read "1.5750" beside 1.5850 ± 0.01
    ws = state.from_preset("select")
    near = _task(stage="entropy", cell=None, row=0, op="near", value="max_entropy", tol=0.01,
                 change=["Q"], solution=[{"cell": ["Q", 0, 0], "value": 0.0}])
    live = t.bench_live(state.set_cell(ws, "Q", 0, 0, 0.4951))
    v = t.evaluate(near, live, start)
    assert not v.met and v.value < 1.575 and v.digits >= 5
    assert v.line().split(" · ")[0].split()[-1] != "1.5750"
    exact = t.evaluate(_task(value=value, op=">"), start, start)  # the goal itself, strict
    assert not exact.met and exact.digits == 4


def test_a_weight_too_small_for_two_decimals_is_written_as_the_tables_write_it():
    # the panel said 2.7e-05 beside the map's 2.7e-5
    assert t.fmt(2.732e-5) == "2.7e-5" and t.fmt(-4.1e-12, 3) == "-4.1e-12"
    assert t.fmt(0.005) == "0.005" and t.fmt(0.25) == "0.25" and t.fmt(12_345.0) == "12,345"


def test_a_lab_figure_waits_while_the_lab_computes_or_refuses():
    task = t.parse(dict(goal="g", stage="layer", op="between", value=[7e6, 8e6],
                        hints=["h"], why="w", solution=[{"setting": "D", "value": 960}]),
                   "lab:model")
    settings = dict(t.LAB_DEFAULTS["lab:model"], h=7)
    v = t.evaluate(task, t.lab_live("lab:model", settings, None), None)
    assert not v.met and v.value is None
    assert v.line() == ("one layer's parameters: the current settings are refused · "
                        "goal between 7,000,000 and 8,000,000")


def test_a_task_whose_row_was_removed_is_unmet_not_an_error():
    ws = state.from_preset("select")
    start = t.bench_live(ws)
    fewer = t.bench_live(state.remove_row(ws, "K", 2))
    v = t.evaluate(_task(), fewer, start)
    assert not v.met and v.waiting == "not on the panes now"


LESSON = '''
title = "T"
summary = "s"
workspace = "select"

[[steps]]
title = "one"
text = "x"
highlight = {{ pane = "heatmap" }}

[[steps]]
title = "two"
text = "y"
highlight = {{ pane = "heatmap" }}
{screen}
[steps.task]
goal = "g"
hints = ["h1", "h2"]
why = "w"
{task}
'''
GOOD = '''stage = "weights"
cell = [1, 2]
op = ">="
value = 0.9
change = ["K"]
solution = [{ cell = ["K", 2, 2], value = 2.0 }]'''


def _load(task: str, screen: str = ""):
    return load_file("bad.toml", text=LESSON.format(task=task, screen=screen))


def test_a_good_task_loads():
    step = _load(GOOD).steps[1]
    assert step.task is not None and step.task.change == ("K",)


@pytest.mark.parametrize(("task", "screen", "problem"), [
    (GOOD.replace('"weights"', '"attention"'), "",
     "unknown stage 'attention' on workbench; choose one of: scores"),
    (GOOD.replace("[1, 2]", "[1, 5]"), "",
     "cell [1, 5] is outside the workspace 'select' (3 queries × 3 columns)"),
    (GOOD.replace("0.9", "0.5"), "",
     "the goal already holds at the step's start (α(verb? → barked) 0.83 · goal ≥ 0.50)"),
    (GOOD.replace('["K"]', '["W"]'), "", "'change' names an unknown matrix 'W'"),
    (GOOD + '\nkeep = ["colour"]', "", "'keep' names an unknown setting 'colour'"),
    (GOOD.replace('value = 2.0', 'value = 0.9'), "", "its solution does not reach the goal"),
    (GOOD.replace('["K", 2, 2]', '["Q", 1, 2]').replace('value = 2.0', 'value = 9.0'), "",
     "its solution breaks its own rule: only K may change, and Q did"),
    (GOOD.replace('op = ">="', 'op = "=>"'), "", "'op' must be one of"),
    (GOOD + '\nrun = "os.system()"', "", "unknown field 'run' in the task"),
    ('stage = "total"\nop = ">"\nvalue = 1\nsolution = [{ setting = "D", value = 1 }]',
     'screen = "lab:model"', "the goal already holds at the step's start"),
    ('stage = "entropy_raw"\nop = ">"\nvalue = 1\nchange = ["Q"]\n'
     'solution = [{ setting = "temperature", value = 9 }]', 'screen = "lab:scaling"',
     "'change' names matrices, which only the workbench has"),
])
def test_a_bad_task_is_a_lesson_error_naming_file_step_and_problem(task, screen, problem):
    with pytest.raises(LessonError) as err:
        _load(task, screen)
    assert err.value.file == "bad.toml" and err.value.step == 2
    assert str(err.value).startswith("bad.toml, step 2: task: ")
    assert problem in err.value.message, err.value.message


def test_the_future_task_is_met_by_no_mask_and_not_by_the_wrong_order():
    """nanogpt's "let t0 see the future" checked α(t0 → t0) ≤ 0.2, which softmax-then-mask
    also reaches (1/8, the rest thrown away) while t0 still sees nothing after itself."""
    step = next(s for s in load("nanogpt").steps if s.task and "see the future" in s.task.goal)
    start = _start(step)
    ws = t.workspace_of(start)
    for mask, met in (("none", True), ("causal-after", False), ("causal", False)):
        verdict = t.evaluate(step.task, t.bench_live(replace(ws, mask=mask)), start)
        assert verdict.done is met, (mask, verdict)


def test_whether_a_run_diverged_is_said_in_words():
    """Learning step 6 read "diverged (1 yes, 0 no) 0.00 · goal ≥ 1.00"."""
    from attn_tui.train.patterns import RunFigures

    task = t.parse(dict(goal="g", stage="diverged", op=">=", value=1.0, hints=["h"], why="w",
                        solution=[{"setting": "lr", "value": 1000.0}]), "lab:train")
    settings = t.LAB_DEFAULTS["lab:train"]
    calm = t.evaluate(task, t.lab_live("lab:train", settings, RunFigures(0.9, 0.8, 0.0)), None)
    assert not calm.met and calm.line() == "diverged: no · goal: yes"
    gone = t.evaluate(task, t.lab_live("lab:train", settings, RunFigures(0.1, None, 1.0)), None)
    assert gone.met and gone.line() == "diverged: yes · goal: yes"
    waiting = t.evaluate(task, t.lab_live("lab:train", settings, None, waiting="training…"),
                         None)
    assert waiting.line() == "diverged: training… · goal: yes"


def test_a_goal_met_by_a_little_shows_the_value_as_the_lab_writes_it():
    """Learning step 4: "Done: held-out accuracy 1.00" beside the lab's "acc 0.9982"."""
    from attn_tui.train.patterns import RunFigures

    task = t.parse(dict(goal="g", stage="accuracy", op=">=", value=0.99, hints=["h"], why="w",
                        solution=[{"setting": "lr", "value": 0.01}]), "lab:train")
    live = t.lab_live("lab:train", t.LAB_DEFAULTS["lab:train"], RunFigures(0.9982, 0.9, 0.0))
    v = t.evaluate(task, live, None)
    assert v.met and v.line() == "held-out accuracy: 0.9982 · goal ≥ 0.99"


def test_a_verdict_rounds_half_up_as_a_learner_reads_the_panes():
    """nanogpt 2 met with 1/8 read "α(t1 → t8) 0.12" beside the panes' 0.1250: half to even."""
    assert [t.fmt(x) for x in (0.125, 0.375, -0.125, math.log2(3), 0.8343)] == \
        ["0.13", "0.38", "-0.13", "1.58", "0.83"]


def test_a_rule_broken_is_said_while_there_is_nothing_yet_to_read():
    """Learning step 4 with steps 2000 read "Not yet: … not trained yet" until a whole run
    of settings that could never count had trained."""
    task = t.parse(dict(goal="g", stage="accuracy", op=">=", value=0.99, hints=["h"], why="w",
                        keep=["steps"], solution=[{"setting": "lr", "value": 0.01}]),
                   "lab:train")
    start = t.lab_live("lab:train", dict(t.LAB_DEFAULTS["lab:train"], steps=20), None,
                       waiting="not trained")
    changed = dict(t.LAB_DEFAULTS["lab:train"], steps=2000)
    v = t.evaluate(task, t.lab_live("lab:train", changed, None, waiting="not trained"), start)
    assert v.value is None and v.broken is not None and "steps" in v.broken and not v.done
    same = t.evaluate(task, start, start)
    assert same.broken is None and same.line() == "held-out accuracy: not trained · goal ≥ 0.99"
