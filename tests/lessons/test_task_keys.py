"""Every lesson task solved through the keys a learner presses, ending in ✓; a goal reached by a
forbidden route says the rule it broke; hints, "show me" (asks, then one change u undoes) and
ctrl+r (the step's start, undoable)."""

from __future__ import annotations

import pytest
from lesson_pilot import lesson_app, panel, press, settle

from attn_tui.lessons import load, names
from attn_tui.tui.textual_compat import notifications

E = ["enter"]


def typed(text: str) -> list[str]:
    return [{".": "full_stop", "-": "minus", " ": "space"}.get(c, c) for c in text]


def cell(value: str, *moves: str) -> list[str]:
    return [*moves, *E, *typed(value), *E]


# (lesson, step): the keys that solve its task from the step's start
SOLVE = {
    ("one", 5): cell("10", "right", "right"),
    ("one", 6): cell("1", "down"),  # the step gives the keys to V, the one it lets change
    ("select", 2): cell("0"),
    ("select", 4): cell("2", "down", "down", "right", "right"),  # in K
    ("select", 6): cell("10"),
    ("scale", 3): ["right"] * 5 + typed("0.25") + E,
    ("scale", 5): ["right"] * 5 + typed("16") + E,
    ("mask", 4): cell("5"),
    ("mask", 5): cell("3", "down", "down", "down"),
    ("params", 2): ["down"] * 5,
    ("params", 6): ["up"] * 7,
    ("nanogpt", 2): ["m", "m"],  # causal → causal-after (t0 still sees no future) → none
    # the step puts Q's cursor on t5: its d8 (K's d8 is where t4's key stands out)
    ("nanogpt", 9): cell("5", "home", *["right"] * 7),
    ("real-heads", 3): ["right"],
    ("real-heads", 5): ["right"] * 5,
    # the step puts the bar's cursor on lr (hint 2 said ↓ while the bar had no focus, and
    # c then ↓ changed the task); then Enter trains
    ("learning", 4): [*["down"] * 3, "enter"],
    ("learning", 6): [*["up"] * 9, "enter"],  # 3e-3 to 100 on lr's 1-3-10 ladder
}
# (lesson, step): keys that reach the goal by a route the task forbids, and the rule said
FORBIDDEN = {
    ("one", 5): (["tab", *cell("30", "down", "down")], "only Q may change, and K did"),
    ("one", 6): ([*cell("0.7"), *cell("0.5", "down")],
                 "change at most one cell; 2 changed (V is·d1, V the·d1: u undoes one at a "
                 "time)"),
    ("select", 4): (["s"], "÷√d_k must stay on"),
    ("scale", 3): (["right", *typed("2"), *E], "keys must stay 8"),
    ("mask", 4): (["m"], "mask must stay causal-after"),
    ("mask", 5): (["tab", *cell("3")], "only Q may change, and K did"),
    ("params", 2): (["left"] * 3 + ["up"] * 9, "D must stay 512"),
    ("nanogpt", 9): (["s"], "÷√d_k must stay on"),  # unscaled, t4 already has 0.68
    ("learning", 6): ([*["up"] * 9, "right", "up", "enter"], "seed must stay 0"),
}
TASKS = [(n, k) for n in names() for k, s in enumerate(load(n).steps, start=1) if s.task]


def test_every_task_has_its_keys():
    assert sorted(SOLVE) == sorted(TASKS)


async def _at(pilot, k: int) -> None:
    """The lesson opened at step k (lesson_app(name, at=k)), as kept progress reopens it."""
    await settle(pilot)
    assert f"Step {k} of" in panel(pilot.app).border_title


def _said(app) -> str:
    return " ".join(panel(app).plain.split())


@pytest.mark.parametrize(("name", "k"), TASKS, ids=[f"{n}-{k}" for n, k in TASKS])
async def test_each_task_starts_unmet_and_its_keys_solve_it(name, k):
    task = load(name).steps[k - 1].task
    async with lesson_app(name, at=k).run_test(size=(80, 24)) as pilot:
        await _at(pilot, k)
        said = _said(pilot.app)
        assert task.goal in said and "Not yet:" in said and "Done:" not in said
        assert "Task ○" in said  # the mark, not colour alone
        await press(pilot, *SOLVE[(name, k)])
        said = _said(pilot.app)
        assert "Done:" in said and "Task ✓" in said, said
        assert task.why in said
        assert f"Step {k} of" in panel(pilot.app).border_title  # no automatic advance


@pytest.mark.parametrize(("name", "k"), sorted(FORBIDDEN), ids=[f"{n}-{k}" for n, k in
                                                                 sorted(FORBIDDEN)])
async def test_a_forbidden_route_is_refused_with_its_rule(name, k):
    keys, rule = FORBIDDEN[(name, k)]
    async with lesson_app(name, at=k).run_test(size=(80, 24)) as pilot:
        await _at(pilot, k)
        await press(pilot, *keys)
        said = _said(pilot.app)
        assert f"Rule broken: {rule}." in said and "Task ✗" in said, said
        assert "Done:" not in said
        await press(pilot, "ctrl+r")  # the step's start again: unmet, no rule broken
        said = _said(pilot.app)
        assert "Not yet:" in said and "Rule broken" not in said


async def test_a_head_found_in_another_layer_is_named_and_not_counted():
    """real-heads 5 asks for a head in layer 5: layer 3 head 8 gives [CLS] more than the goal,
    yet is not the task's. Looking there is no rule broken (it said "Rule broken: layer must
    stay 5", with ctrl+r), and not done either."""
    async with lesson_app("real-heads", at=5).run_test(size=(80, 24)) as pilot:
        await _at(pilot, 5)
        await press(pilot, "up", "up", *["right"] * 7)
        said = _said(pilot.app)
        assert "share on [CLS] of layer 3 head 8: counts only in layer 5" in said, said
        assert "Done:" not in said and "Rule broken" not in said and "Task ○" in said


async def test_two_hints_then_show_me_asks_and_u_undoes_it():
    task = load("select").steps[3].task
    async with lesson_app("select", at=4).run_test(size=(120, 40)) as pilot:
        await _at(pilot, 4)
        await press(pilot, "h")
        assert f"Hint 1: {task.hints[0]}" in _said(pilot.app)
        assert "Hint 2" not in _said(pilot.app)
        await press(pilot, "h")
        assert f"Hint 2: {task.hints[1]}" in _said(pilot.app)
        assert "Show a state" not in _said(pilot.app)
        await press(pilot, "h")
        assert "Show a state that meets the goal? y shows it" in _said(pilot.app)
        assert "y show me" in panel(pilot.app).edge_text
        bench = pilot.app.workbench()
        before = bench.workspace
        await press(pilot, "y")
        assert "Done:" in _said(pilot.app)
        assert bench.workspace.k[2][2] == 2.0 and bench.workspace.q == before.q
        await press(pilot, "u")  # one change: one u brings the start back
        assert bench.workspace == before
        assert "Not yet:" in _said(pilot.app)


async def test_a_shown_state_brought_back_by_u_after_leaving_the_step_stays_show_mes(
        progress_dir):
    """h h h y, n, p, u: the step's start had been put back on coming back, u brought the shown
    state again, and it was credited as the learner's own solve ("tasks": [4]). Now u stops
    at the step's start, as the state it would bring back is the lesson's, not the
    learner's."""
    import json

    async with lesson_app("one", at=5).run_test(size=(80, 24), notifications=True) as pilot:
        await _at(pilot, 5)
        await press(pilot, "h", "h", "h", "y")
        assert "Shown:" in _said(pilot.app)
        await press(pilot, "n")
        await press(pilot, "p")
        await _at(pilot, 5)
        start = pilot.app.workbench().workspace
        await press(pilot, "u")
        assert pilot.app.workbench().workspace == start and "Not yet:" in _said(pilot.app)
        assert any(str(n.message) == "Nothing to undo: these numbers are as the lesson step "
                   "set them up." for n in notifications(pilot.app))
    kept = json.loads((progress_dir / "one.json").read_text())
    assert kept["shown"] == [4] and kept["tasks"] == []


async def test_y_does_nothing_before_it_is_offered():
    async with lesson_app("select", at=4).run_test(size=(80, 24)) as pilot:
        await _at(pilot, 4)
        bench = pilot.app.workbench()
        before = bench.workspace
        await press(pilot, "y")
        assert bench.workspace == before and "Not yet:" in _said(pilot.app)


async def test_ctrl_r_puts_the_start_back_and_u_undoes_the_reset():
    async with lesson_app("mask", at=4).run_test(size=(80, 24)) as pilot:
        await _at(pilot, 4)
        bench = pilot.app.workbench()
        start = bench.workspace
        await press(pilot, *SOLVE[("mask", 4)])
        solved = bench.workspace
        assert "Done:" in _said(pilot.app)
        await press(pilot, "ctrl+r")
        # met, and kept as met: the start back on the panes says so, not "Not yet"
        assert bench.workspace.q == start.q and "Met before; on these panes now:" in _said(
            pilot.app)
        await press(pilot, "u")
        assert bench.workspace.q == solved.q and "Done:" in _said(pilot.app)


async def test_show_me_in_a_lab_meets_the_goal_and_ctrl_r_undoes_it():
    async with lesson_app("params", at=6).run_test(size=(120, 40)) as pilot:
        await _at(pilot, 6)
        await press(pilot, "h", "h", "h", "y")
        assert "Done:" in _said(pilot.app)
        await press(pilot, "ctrl+r")
        assert "Not yet:" in _said(pilot.app)
        assert pilot.app.screen.settings.D == 512


async def test_a_refused_lab_setting_leaves_the_task_unmet_saying_why():
    async with lesson_app("params", at=6).run_test(size=(120, 40)) as pilot:
        await _at(pilot, 6)
        await press(pilot, "right", "right", *typed("7"), *E)  # D, L, h: h = 7
        said = _said(pilot.app)
        assert "Not yet:" in said and "–" not in said  # a dash said nothing of why
        assert "one layer's parameters: not counted while h = 7 does not divide D = 512" in said


async def test_a_task_met_then_walked_past_says_it_was_met_not_not_yet():
    """real-heads step 5: → five times met it (layer 5 head 6), a sixth said "Task ○ … Not yet"
    as if it never had been; coming back to the step said "Met before"."""
    async with lesson_app("real-heads", at=5).run_test(size=(80, 24)) as pilot:
        await _at(pilot, 5)
        await press(pilot, *SOLVE[("real-heads", 5)])
        assert "Task ✓" in _said(pilot.app)
        await press(pilot, "right")
        said = _said(pilot.app)
        assert "Task ○" in said and "Not yet" not in said
        assert "Met before; on these panes now: share on [CLS] of layer 5 head 7" in said


async def test_the_m_a_met_tasks_try_line_invites_leaves_it_met_not_broken():
    """mask step 5: once met, its Try line offers m to compare the orders, and pressing it
    turned the ✓ into "Rule broken", as if the learner had done wrong."""
    async with lesson_app("mask", at=5).run_test(size=(80, 24)) as pilot:
        await _at(pilot, 5)
        await press(pilot, *SOLVE[("mask", 5)])
        said = _said(pilot.app)
        assert "Task ✓" in said and "m compare the orders" in said
        await press(pilot, "m")
        said = _said(pilot.app)
        assert "Met before; on these panes a rule does not hold: mask must stay causal." \
            in said and "Rule broken" not in said, said
        # marked as a goal not held now, with no ctrl+r (it would take the answer away), and
        # the Try line still in sight: m again goes round the masks
        assert "Task ○" in said and "ctrl+r" not in said and "m compare the orders" in said
        await press(pilot, "h")  # hints as on any goal not held now (h said nothing)
        assert "Hint 1: K is the identity here" in _said(pilot.app)
        await press(pilot, "m", "m")  # round to the causal mask again
        assert "Task ✓" in _said(pilot.app)


async def test_a_rule_that_quotes_a_sentence_ends_with_one_full_stop():
    async with lesson_app("real-heads", at=3).run_test(size=(80, 24)) as pilot:
        await _at(pilot, 3)
        await press(pilot, "slash", "end", "x", "enter")
        said = _said(pilot.app)
        assert "Rule broken: the sentence must stay 'The cat sat on the mat because it was " \
               "tired.' " in said.replace("\n", " "), said
        assert "tired.'." not in said
        # the reading after it starts its own sentence: it ran on as "tired.' entropy (bits)"
        assert "tired.' Entropy (bits) of layer " in " ".join(said.split()), said


async def test_ctrl_r_gives_the_keys_back_to_the_field_the_step_picked():
    """params step 6 puts the bar on D; → → to h, ctrl+r: the settings came back but ↑ then
    changed h, not the D the step's hints name."""
    async with lesson_app("params", at=6).run_test(size=(120, 40)) as pilot:
        await _at(pilot, 6)
        screen = pilot.app.screen
        await press(pilot, "right", "right", "up")  # D, L, h: h 8 → the next that divides
        assert screen.settings.h != 8
        await press(pilot, "ctrl+r")
        assert screen.settings.h == 8 and screen.settings.D == 512
        await press(pilot, "up")
        assert screen.settings.D > 512 and screen.settings.h == 8


async def test_ctrl_r_gives_the_keys_back_to_the_one_matrix_the_task_lets_change():
    """select step 4 lets only K change: Tab to V, ctrl+r, and the next edit went into V and
    broke the task's rule."""
    from attn_tui.tui.widgets.matrix_editor import MatrixEditor

    async with lesson_app("select", at=4).run_test(size=(120, 40)) as pilot:
        await _at(pilot, 4)
        app = pilot.app

        def matrix() -> str | None:
            editor = next((w for w in app.focused.ancestors_with_self
                           if isinstance(w, MatrixEditor)), None) if app.focused else None
            return editor.id if editor is not None else None

        start = matrix()
        await press(pilot, "tab")
        assert matrix() != start
        await press(pilot, "ctrl+r")
        assert matrix() == start
        await press(pilot, *cell("2", "down", "down", "right", "right"))
        assert "Rule broken" not in _said(app) and "✓" in _said(app)


async def test_ctrl_r_puts_back_the_query_the_step_is_about():
    # select's step 4 starts on the verb query; after ↓ to 'undecided', ctrl+r said it was
    # back at the start with the step table still on 'undecided'
    async with lesson_app("select", at=4).run_test(size=(80, 24)) as pilot:
        await _at(pilot, 4)
        bench = pilot.app.workbench()
        assert bench.workspace.selected == 1
        await press(pilot, "shift+tab", "down")  # from K, where the task's edits go, to Q
        assert bench.workspace.selected == 2
        await press(pilot, "ctrl+r")
        assert bench.workspace.selected == 1


async def test_show_me_on_the_workbench_is_no_unsaved_work_of_the_learners():
    # h h h y, then ctrl+q asked "You have unsaved changes. Save (s) / …" about the lesson's
    # own solution; u back to the step's start is the lesson's too, and an edit is the learner's
    async with lesson_app("one", at=6).run_test(size=(120, 40)) as pilot:
        await _at(pilot, 6)
        bench = pilot.app.workbench()
        assert not bench.dirty
        await press(pilot, "h", "h", "h", "y")
        assert "Done:" in _said(pilot.app) and not bench.dirty
        await press(pilot, "u")
        assert not bench.dirty
        await press(pilot, *cell("3"))
        assert bench.dirty



@pytest.mark.parametrize(("name", "k", "query"), [("select", 2, 0), ("mask", 4, 0)])
async def test_ctrl_r_puts_back_the_query_a_step_began_on_without_naming_it(name, k, query):
    # steps that start on the first query by default have no select_query action, and ctrl+r
    # left the query the learner had moved to
    async with lesson_app(name, at=k).run_test(size=(80, 24)) as pilot:
        await _at(pilot, k)
        bench = pilot.app.workbench()
        assert bench.workspace.selected == query
        await press(pilot, "down")
        assert bench.workspace.selected == query + 1
        await press(pilot, "ctrl+r")
        assert bench.workspace.selected == query
        from attn_tui.tui.textual_compat import notifications

        assert "Back at the step's start." in [str(n.message) for n in notifications(pilot.app)]


async def test_a_task_met_at_80x24_keeps_its_figure_in_the_step_table() -> None:
    # the task's words took two rows from the table, which then showed is and the, not best
    from screen_text import screen_text

    async with lesson_app("one", at=5).run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await press(pilot, *cell("10"))
        assert "Task ✓" in panel(pilot.app).plain
        table = [line for line in screen_text(pilot.app).splitlines()[:12] if "│best " in line]
        assert table and "›0.7234" in table[0], screen_text(pilot.app)


async def test_a_task_step_gives_the_keys_to_the_matrix_it_lets_change():
    """select step 5 says Tab to K to add up each key's entries; n to step 6 ("change one
    cell of Q") left the cursor in K, and the learner's first edit broke the rule."""
    async with lesson_app("select", at=5).run_test(size=(80, 24)) as pilot:
        await _at(pilot, 5)
        bench = pilot.app.workbench()
        await press(pilot, "c", "tab")
        assert pilot.app.focused is bench.query_one("#grid-k")
        await press(pilot, "n")
        await _at(pilot, 6)
        assert pilot.app.focused is bench.query_one("#grid-q")
        await press(pilot, *SOLVE[("select", 6)])
        said = " ".join(panel(pilot.app).plain.split())
        assert "Task ✓" in said and "Rule broken" not in said
        await press(pilot, "p", "p")  # step 4 asks for K: its keys go there
        await _at(pilot, 4)
        assert pilot.app.focused is bench.query_one("#grid-k")


async def test_a_lesson_starts_with_the_keys_in_q_whatever_the_last_left():
    """The cursor left in V by lesson one's step 6 (its task asks for V), then Go to select and
    its step 2 ("change one cell of Q"): 0 Enter changed V, and the task said only Q may
    change."""
    async with lesson_app("one", at=6).run_test(size=(80, 24)) as pilot:
        await _at(pilot, 6)
        bench = pilot.app.workbench()
        assert pilot.app.focused is bench.query_one("#grid-v")  # where its task's edits go
        await press(pilot, "g", *typed("lesson select"), "enter")
        await _at(pilot, 1)
        assert pilot.app.focused is bench.query_one("#grid-q")
        await press(pilot, "n")
        await _at(pilot, 2)
        before = bench.workspace.v
        await press(pilot, *cell("0"))
        assert bench.workspace.v == before and bench.workspace.q[0][0] == 0.0


async def test_removing_the_query_the_goal_names_meets_nothing(progress_dir):
    """a, ↓, 10 Enter, ↑, x: who removed, t2 took its row, and t2's α was credited as who's
    ("Done: α(t2 → best) 0.63", kept as solved)."""
    import json

    async with lesson_app("one", at=5).run_test(size=(80, 24)) as pilot:
        await _at(pilot, 5)
        await press(pilot, "a", "down", *cell("10"), "up", "x")
        bench = pilot.app.workbench()
        assert bench.workspace.query_tokens == ("t2",)
        said = _said(pilot.app)
        assert "Done:" not in said and "'who' is not where the task began (u brings it back)" in said
    kept = json.loads((progress_dir / "one.json").read_text())
    assert kept["tasks"] == []


async def test_the_cell_just_typed_stays_in_sight_when_the_met_task_grows_the_panel():
    """Lesson one, step 6 at 80×24: best's d1 in V typed to 1, the task met, and its words
    grew the panel by three lines, which hid V's last row, the cell just typed."""
    from screen_text import screen_text

    async with lesson_app("one", at=6).run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await press(pilot, "down", "down")  # in V: the step gives it the keys
        assert "│best    0.6   0.7   0.8        │" in screen_text(pilot.app).split("V  values")[1]
        await press(pilot, "1", "enter")
        await settle(pilot)
        text = screen_text(pilot.app)
        assert "Task ✓" in text
        assert "│best      1   0.7   0.8        │" in text.split("V  values")[1]


async def test_the_step_tables_row_a_task_is_about_stays_in_sight_as_hints_grow_the_panel():
    """select step 4 at 80x24: two hints grew the panel, the step table kept only its first
    row (dog), and barked, the key the task and the hints are about, was out of sight."""
    from screen_text import screen_lines

    from attn_tui.tui.widgets.step_table import StepTable

    async with lesson_app("select", at=4).run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await press(pilot, "h", "h")
        assert "Hint 2:" in panel(pilot.app).plain
        table = pilot.app.screen.query_one(StepTable)
        shown = table.scrollable_content_region.height - 1  # under its header
        assert shown < 3  # squeezed: not every key fits
        lines = screen_lines(pilot.app)
        top = next(y for y, line in enumerate(lines) if "steps for query 'verb?'" in line)
        assert any("│barked " in line for line in lines[top + 2:top + 2 + shown])


async def test_an_answers_key_stays_in_the_step_tables_sight():
    """select step 3 at 80x24, answered: the words say what barked gets, the map marks the
    verb query's barked, and the squeezed step table showed only dog."""
    from screen_text import screen_lines

    from attn_tui.tui.widgets.step_table import StepTable

    async with lesson_app("select", at=3).run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await press(pilot, "b")
        assert "barked gets" in " ".join(panel(pilot.app).plain.split())
        table = pilot.app.screen.query_one(StepTable)
        shown = table.scrollable_content_region.height - 1  # under its header
        assert shown < 3  # squeezed: not every key fits
        lines = screen_lines(pilot.app)
        top = next(y for y, line in enumerate(lines) if "steps for query 'verb?'" in line)
        assert any("│barked " in line for line in lines[top + 2:top + 2 + shown]), lines
