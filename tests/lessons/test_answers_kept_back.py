"""A question's answer is not on screen before it is asked, nor after the keys the step names."""

from __future__ import annotations

import re

import pytest
from lesson_pilot import lesson_app, panel, press, settle
from screen_text import screen_text

from attn_tui.tui.tutor.panel import LessonPanel


async def test_select_the_third_querys_entropy_stays_hidden_through_the_keys_of_its_step():
    async with lesson_app("select").run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await press(pilot, "n", "n", "b", "n", "n")  # step 5, the third query's question
        assert "Step 5 of" in screen_text(pilot.app)
        for keys in ((), ("down",), ("down",), ("up", "up", "up")):  # ↑↓ in Q: any query
            await press(pilot, *keys)
            text = screen_text(pilot.app)
            assert "1.5850" not in text and "0.3333" not in text, keys
        await press(pilot, "c")  # answered: now it shows
        assert "entropy 1.5850 bits" in screen_text(pilot.app)


async def test_a_summary_kept_back_for_a_later_question_does_not_ask_for_an_answer():
    # step 4 (a task) keeps back the undecided query's entropy for step 5's question, and
    # said "kept back until you answer" with no question on screen
    from attn_tui.tui.widgets.summary import Summary

    async with lesson_app("select").run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        await press(pilot, "n", "n", "b", "n", "shift+tab", "down")  # step 4 is in K: to Q
        summary = pilot.app.screen.query_one(Summary)
        assert "entropy ?: kept back for a question to come" in str(summary.render_line(1).text)


async def test_select_keeps_back_the_weights_its_questions_ask_about_until_their_steps():
    # steps 1 and 2 showed the whole map of α: the verb query's 0.8343 beside the animal's
    # 0.8520 answered step 3, and the undecided query's three 0.3333s step 5
    async with lesson_app("select").run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        for keys in ((), ("n",), ("v",), ("v",)):  # step 1, step 2, both of the map's views
            await press(pilot, *keys)
            text = screen_text(pilot.app)
            assert "0.8520" in text or "2.5981" in text, keys  # the animal query's row shows
            assert "0.8343" not in text and "0.3333" not in text, keys
        await press(pilot, "n", "b", "n")  # step 3 answered, step 4: the verb query's
        text = screen_text(pilot.app)
        assert "Step 4 of" in text and "0.8343" in text and "0.3333" not in text


@pytest.mark.parametrize("size", [(80, 24), (120, 40)])
async def test_select_step_3_answered_still_keeps_back_the_third_querys_weights(size):
    """Answering step 3 lifted everything it kept back, the undecided query's row with it: its
    three 0.3333s and entropy 1.5850, step 5's answer, showed on the map and, with ↓↓ in Q,
    in the step table."""
    async with lesson_app("select").run_test(size=size) as pilot:
        await settle(pilot)
        await press(pilot, "n", "n", "b")  # step 3 answered
        assert "Step 3 of" in screen_text(pilot.app)
        assert "0.8343" in screen_text(pilot.app)  # what step 3 asked is shown now
        for keys in ((), ("shift+tab", "down"), ("down",), ("v",), ("v",)):
            await press(pilot, *keys)
            text = screen_text(pilot.app)
            assert "0.3333" not in text and "entropy 1.5850" not in text, keys


async def test_select_keeps_back_the_verb_querys_weights_not_the_scores_its_step_table_shows():
    """Steps 1 and 2 drew the verb query's scores as "?" on the map while the step table beside
    it printed them (0.2887, 0.2887, 2.5981): only what the softmax makes is kept back."""
    async with lesson_app("select").run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await press(pilot, "down", "v")  # the verb query, the map's scores
        screen = pilot.app.screen
        assert screen.view == "scores"
        text = screen_text(pilot.app)
        assert re.search(r"│verb\?\s+0\.2887\s+0\.2887\s+2\.5981\s+│", text)  # the map's
        assert re.search(r"│barked\s+4\.5000\s+2\.5981\s", text)             # the table's
        assert re.search(r"│undecided\s+1\.1547\s+1\.1547\s+1\.1547\s+│", text)
        await press(pilot, "v")  # its weights stay kept back
        assert "0.8343" not in screen_text(pilot.app)


async def test_a_kept_back_cell_shows_neither_its_shade_nor_its_picture():
    # the "?" kept the heat colour (barked's bright cell for the verb query), and the map's
    # picture view drew the hidden rows' shades
    async with lesson_app("select").run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        screen = pilot.app.screen
        heatmap = screen.query_one("#heatmap")
        plain = heatmap.style_of("base") + heatmap.style_of("muted")
        for row in (1, 2):
            hidden = [seg for seg in heatmap.render_line(1 + row) if seg.text.strip() == "?"]
            assert len(hidden) == 3 and {seg.style for seg in hidden} == {plain}, row
        shaded = [seg for seg in heatmap.render_line(1) if seg.text.strip() == "0.8520"]
        assert shaded and shaded[0].style != plain  # the animal query's keeps its shade
        for _ in range(6):
            if screen.view == "picture":
                break
            await press(pilot, "v")
        assert screen.view == "picture"
        drawn = screen.query_one("#map-picture").render()
        rows = str(drawn).splitlines()[1:]
        glyphs = [row.rstrip()[-9:] for row in rows]  # three keys, three columns each
        assert "?" not in glyphs[0] and glyphs[1:] == ["?" * 9, "?" * 9], rows
        kept = [span for span in drawn.spans if drawn.plain[span.start:span.end].strip("?") == ""]
        assert kept and all(span.style.dim for span in kept)  # muted, as the map's


async def test_nanogpt_step_3s_map_keeps_back_row_t3_which_step_4_asks_about():
    pytest.importorskip("torch")
    async with lesson_app("nanogpt").run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        await press(pilot, "n", "n")
        text = screen_text(pilot.app)
        assert "Step 3 of" in text and "0.3333" in text and "0.2000" in text
        assert "0.2500" not in text  # ¼: the next step's answer
        await press(pilot, "n", "tab", "a")
        assert "0.2500" in screen_text(pilot.app)


async def test_nanogpt_step_6s_step_table_keeps_back_t1s_exp_row_of_one_survivor():
    """Row t1's exp column showed its one e^s beside a 0 for every blocked key: α = 1 read off
    before the question about it was answered."""
    pytest.importorskip("torch")
    async with lesson_app("nanogpt", at=6).run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        steps = pilot.app.screen.query_one("#steps")
        text = screen_text(pilot.app)
        assert "Step 6 of" in text and "0.6436" not in text
        assert "exp" in str(steps.render_line(0).text)  # the column is there, its cells not
        await press(pilot, "a")
        assert "0.6436" in screen_text(pilot.app)


async def test_learning_step_1_keeps_back_the_pattern_step_2_asks_for():
    """The maps' title names the task's pattern ("a sub-diagonal: each token looks one back"):
    step 2 hid it until answered, but step 1, just before, showed it."""
    pytest.importorskip("torch")
    async with lesson_app("learning").run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        for step in (1, 2):
            if step == 2:
                await press(pilot, "n")  # (not on to step 3: it trains)
            text = screen_text(pilot.app)
            assert f"Step {step} of" in text
            assert "sub-diagonal" not in text and "one back)" not in text, step


# a key a question step names that would show its answer: (lesson, step) -> the key
ANSWERING_KEYS = {("one", 3): "s", ("select", 3): "v", ("scale", 2): "s", ("mask", 3): "m",
                  ("nanogpt", 5): "f", ("real-heads", 2): "[ ]", ("real-heads", 4): "[ ]",
                  ("learning", 2): "← →", ("learning", 5): "← →"}


def test_a_question_offers_the_keys_that_would_answer_it_only_once_answered():
    """select's step 3 offered v (the weights: barked's share), scale's s, mask's m, one's s
    and nanogpt's f, each showing the answer of the question on the same step: the panel says
    them with the answer, not while it asks."""
    from attn_tui.lessons import load
    from attn_tui.tui.tutor.panel import PanelView, render

    for (name, k), key in ANSWERING_KEYS.items():
        step = load(name).steps[k - 1]
        q = step.question
        assert q is not None, (name, k)
        assert key in dict(step.keys), (name, k, key)
        asking = PanelView(lesson=name, k=k, n=9, title=step.title, text="…", keys=step.keys,
                           prompt=q.prompt, choices=tuple(q.choices), answer=q.answer)
        words = render(asking, 76).plain
        assert "Try" not in words and f" {key} " not in words, (name, k, words)
        answered = render(PanelView(**{**asking.__dict__, "chosen": q.answer}), 76).plain
        assert f"Try  {key} " in answered, (name, k, answered)


async def test_a_question_on_the_scores_keeps_the_weights_back_in_every_view_and_query():
    # select 3 asks about the verb query's α on a map of scores: v showed its weights (and the
    # undecided query's, step 5's answer) in the weights, outputs and picture views, and ↓ in
    # Q its α, ζ and entropy in the step table. The view now stays until the answer.
    from attn_tui.tui.textual_compat import notifications

    async with lesson_app("select", at=3).run_test(size=(120, 40), notifications=True) as pilot:
        await settle(pilot)
        screen = pilot.app.screen
        assert "0.2887" in screen_text(pilot.app)  # the verb query's scores are in sight
        for _ in range(5):
            await press(pilot, "v")
            assert screen.view == "scores"
            text = screen_text(pilot.app)
            assert "0.8343" not in text and "0.3333" not in text
        assert any(n.message.startswith("Answer first (a, b or c): the panes stay")
                   for n in notifications(pilot.app))
        await press(pilot, "down")  # another query is a look, not a change: it moves
        text = screen_text(pilot.app)
        assert "steps for query 'verb?'" in text and "ζ = ?" in text
        assert "0.0829" not in text and "0.8135" not in text
        assert "13.4379" not in text and "16.1072" not in text  # exp over its sum is α
        await press(pilot, "b")  # answered: all of it shows, and v turns the map again
        text = screen_text(pilot.app)
        assert "0.8343" in text and "entropy 0.8135 bits" in text
        shown = screen.view
        await press(pilot, "v")
        assert screen.view != shown


@pytest.mark.parametrize("lesson, at, keys", [
    ("one", 3, ("s",)),  # "take the division away"
    ("one", 3, ("5",)),  # a digit would open the cell: not now
    ("one", 3, ("u",)),
    ("mask", 3, ("m",)),  # "the other order"
    ("scale", 2, ("s",)),  # the lab: "divide by √d_k first"
    ("params", 3, ("up",)),  # 16 heads' total
    # typing into a lab's bar opened a value no Enter could set, and R u U went into it
    ("scale", 2, ("right", "5", "enter", "R", "u")),
    ("scale", 2, ("right", "enter", "5", "enter")),
])
async def test_an_open_question_holds_the_keys_that_would_show_its_answer(lesson, at, keys):
    """s on "Take the division away. What happens to α?" showed α change before the answer;
    m on mask's "the other order" showed the row's sum, the question's answer."""
    async with lesson_app(lesson, at=at).run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        host = pilot.app.tutor.host
        before = host.lesson_state()
        await press(pilot, *keys)
        assert host.lesson_state() == before, keys
        assert not any(e.editing for e in host.query("MatrixEditor"))
        assert not any(bar.editing for bar in host.query("ControlBar"))
        held = ("Answer first (a, b or c): the panes stay as the question shows them until "
                "then.")
        said = (str(host.query_one("#lab-message").render()) if hasattr(host, "settings")
                else "\n".join(n.message for n in pilot.app._notifications))
        assert held.rstrip(".") in said, said


async def test_nanogpt_step_4s_row_t3_stays_back_in_every_view_until_answered():
    pytest.importorskip("torch")
    async with lesson_app("nanogpt", at=4).run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        screen = pilot.app.screen
        for _ in range(5):
            await press(pilot, "v")
            assert "0.2500" not in screen_text(pilot.app), screen.view
        await press(pilot, "a")
        assert "0.2500" in screen_text(pilot.app)


async def test_real_heads_w_is_refused_while_a_question_keeps_the_head_back():
    """w opened the head in the workbench, whose step table showed 'sat' → 'cat' 0.9998 before
    the learner had answered, and the lesson's panel went without a word."""
    from attn_tui.tui.textual_compat import notifications

    async with lesson_app("real-heads", at=2).run_test(size=(120, 40),
                                                       notifications=True) as pilot:
        await settle(pilot)
        screen = pilot.app.screen
        assert "Step 2 of 7" in panel(pilot.app).border_title
        await press(pilot, "w")
        assert pilot.app.screen is screen
        assert screen.message == ("Answer first (a, b, c or d): the workbench would show the "
                                  "numbers this question keeps back.")
        assert "0.9998" not in screen_text(pilot.app)
        await press(pilot, "b", "w")  # answered: w opens it, and the lesson says where it is
        app = pilot.app
        assert app.screen is app.workbench() and app.tutor.lesson is None
        assert "0.9998" in screen_text(app)
        said = [n.message for n in notifications(app)]
        assert ("Lesson real-heads left at step 2, with its screen: g, lesson real-heads picks "
                "it up there.") in said
        app.tutor.start("real-heads")  # and it does, answered
        await settle(pilot)
        assert "Step 2 of 7" in panel(app).border_title and "✓ Right." in panel(app).plain


async def test_real_heads_refusal_of_w_goes_once_the_question_is_answered():
    """"✗ Answer first … keeps back" stayed under the sentence after b, and on through to
    step 7, whose own words say w opens the head."""
    async with lesson_app("real-heads", at=2).run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        screen = pilot.app.screen
        await press(pilot, "w")
        assert screen.message.startswith("Answer first")
        await press(pilot, "b")
        assert screen.message == "" and "Answer first" not in screen_text(pilot.app)
    async with lesson_app("real-heads", at=2).run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        screen = pilot.app.screen
        await press(pilot, "w", "escape")  # the lesson closed: the refusal goes with it
        assert pilot.app.tutor.lesson is None and screen.message == ""


async def test_go_to_the_workbench_from_a_labs_lesson_closes_it_and_says_so():
    from attn_tui.tui.textual_compat import notifications

    async with lesson_app("real-heads").run_test(size=(120, 40), notifications=True) as pilot:
        await settle(pilot)
        await press(pilot, "g", *"workbench", "enter")
        app = pilot.app
        assert app.screen is app.workbench() and app.tutor.lesson is None
        assert not app.screen.query(LessonPanel)
        assert any(n.message.startswith("Lesson real-heads left at step 1")
                   for n in notifications(app))
        await press(pilot, "n")  # no lesson's key is left to act on a screen gone
        assert app.screen is app.workbench()


async def test_learning_w_is_refused_while_step_2_keeps_the_pattern_back():
    """w put the trained head's α in the workbench: the token one back at 1.0000, the answer
    to the question still open."""
    pytest.importorskip("torch")
    async with lesson_app("learning", at=2).run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        screen = pilot.app.screen
        await press(pilot, "w")
        assert pilot.app.screen is screen
        assert screen.message.startswith("Answer first (a, b, c or d): the workbench would "
                                         "show the numbers this question keeps back.")


async def test_learning_step_2_trains_only_once_answered_as_its_words_say():
    """"Answer, and the lab trains": Enter on the question trained a run before the answer."""
    pytest.importorskip("torch")
    async with lesson_app("learning", at=2).run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        screen = pilot.app.screen
        await press(pilot, "enter")
        await settle(pilot)
        assert screen.state not in ("loading", "running") and screen.step == 0
        assert screen.message.startswith("Answer first (a, b, c or d): the panes stay")


async def test_real_heads_last_step_w_as_it_invites_finishes_the_lesson():
    """Step 7 says "w opens the chosen head in the workbench"; pressing it left the lesson
    unfinished ("left at step 7")."""
    from attn_tui.tui.textual_compat import notifications

    app = lesson_app("real-heads", at=7)
    async with app.run_test(size=(120, 40), notifications=True) as pilot:
        await settle(pilot)
        assert "Step 7 of 7" in panel(app).border_title
        await press(pilot, "w")
        assert app.screen is app.workbench() and app.tutor.lesson is None
        assert "Lesson real-heads finished: g opens another." in [
            n.message for n in notifications(app)]
        assert app.progress.load("real-heads").finished


async def test_enter_then_w_in_a_burst_on_a_question_keeps_the_refusal_in_sight(monkeypatch):
    """The refusal was said, then wiped by the new sentence's maps landing a moment later."""
    import threading
    import time

    from attn_tui.models.model import Model

    run = Model.run

    def late_off_the_main_thread(self, text, **kwargs):  # the worker's maps land after w
        if threading.current_thread() is not threading.main_thread():
            time.sleep(0.3)
        return run(self, text, **kwargs)

    async with lesson_app("real-heads", at=2).run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        screen = pilot.app.screen
        monkeypatch.setattr(Model, "run", late_off_the_main_thread)
        await pilot.press("slash", "ctrl+u", *"the quick brown fox", "enter", "w")
        await settle(pilot)
        assert pilot.app.screen is screen and screen.run_text == "the quick brown fox"
        assert screen.message.startswith("Answer first (a, b, c or d)")


async def test_real_heads_answer_at_80x24_brings_the_row_it_quotes_into_view():
    """The answer quotes 'sat' → 'cat' 0.9998; at 80×24 only the first two rows of the picture were
    in sight."""
    async with lesson_app("real-heads", at=2).run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await press(pilot, "b")
        text = screen_text(pilot.app)
        assert "✓ Right." in text and "▶4 sat" in text


async def test_quitting_on_real_heads_last_step_does_not_count_it_finished():
    """Leaving by w finishes the last step; quitting there must not: it reopens at step 7."""
    app = lesson_app("real-heads", at=7)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        assert "Step 7 of 7" in panel(app).border_title
        await press(pilot, "ctrl+q")
    record = app.progress.load("real-heads")
    assert not record.finished and record.step == 6



async def test_pgdn_on_a_number_field_under_an_open_question_scrolls_the_lab():
    """Lesson scale, step 2, at 80×24: the summary cut off by the panel could not be reached,
    for PgDn was the field's ÷2 and said only "Answer first"."""
    from attn_tui.tui.widgets.control_bar import ControlBar

    async with lesson_app("scale", at=2).run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        lab = pilot.app.screen
        assert isinstance(pilot.app.focused, ControlBar) and pilot.app.tutor.asking(lab)
        before = lab.settings
        body = lab.query_one("#lab-body")
        assert body.scroll_y == 0
        await press(pilot, "pagedown")
        assert body.scroll_y > 0 and lab.settings == before
        assert "Answer first" not in lab.message
        await press(pilot, "b", "pagedown")  # answered: PgDn is the field's ÷2 again
        assert lab.settings.d_k == before.d_k // 2


async def test_real_heads_keeps_the_large_picture_drawn_with_its_weights_as_question_marks():
    """Hidden whole, the picture left its title over an empty space; the README says what a
    question keeps back is drawn ?."""
    from attn_tui.tui.widgets.alpha_picture import HeadPicture

    async with lesson_app("real-heads", at=2).run_test(size=(100, 30)) as pilot:
        await settle(pilot)
        picture = pilot.app.screen.query_one(HeadPicture)

        def sat_row() -> str:  # the picture's row for the query 'sat', as on screen
            r = picture.region
            lines = screen_text(pilot.app).splitlines()[r.y:r.bottom]
            return next(line[r.x:r.right] for line in lines if " sat " in line[r.x:r.right])

        assert picture.kept_back and picture.display
        assert sat_row().rstrip().endswith("?" * 13)  # 13 tokens, each key's weight kept back
        await press(pilot, "b")
        assert not picture.kept_back and "?" not in sat_row()


@pytest.mark.parametrize("size", [(80, 24), (120, 40)], ids=["80x24", "120x40"])
@pytest.mark.parametrize(("at", "layer", "head", "answer"), [(4, 2, 7, "b"), (6, 1, 8, "c")],
                         ids=["step-4", "step-6"])
async def test_real_heads_questions_keep_the_heads_small_picture_back_too(size, at, layer, head,
                                                                          answer):
    """Step 4 asks where layer 3, head 8 parks its weight: its small picture in the grid, a
    dark first column, gave the answer away while the large one showed ?. Step 6 asks which
    head a causal mask hurts: layer 2, head 9's looked ahead in plain sight."""
    from attn_tui.tui.widgets.alpha_picture import HeadGrid

    async with lesson_app("real-heads", at=at).run_test(size=size) as pilot:
        await settle(pilot)
        grid = pilot.app.screen.query_one(HeadGrid)
        assert (grid.at_layer, grid.at_head) == (layer, head)
        assert grid.kept_back == {(layer, head)}
        w, h = grid.cell_size(grid.size.width)
        rows = grid.render().plain.splitlines()[1 + layer * h:1 + (layer + 1) * h]
        x = 3 + head * (w + 1) + 1  # the head's picture, after its bracket
        assert [row[x:x + w] for row in rows] == ["?" * w] * h
        assert all("?" not in row[:x - 1] + row[x + w + 1:] for row in rows)  # only it
        await press(pilot, answer)
        assert not grid.kept_back
        rows = grid.render().plain.splitlines()[1 + layer * h:1 + (layer + 1) * h]
        assert not any("?" in row for row in rows)
        if at == 4:
            assert rows[0][x] in "▓█"  # [CLS], the first key: dark
