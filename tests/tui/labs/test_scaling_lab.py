"""The scaling lab under Pilot: the chapter's table by default, every control, the worker."""

from __future__ import annotations

import pytest
from lab_pilot import lab_app, run_action, settle

from attn_tui.compute import scaling_experiment
from attn_tui.report.fmt import num
from attn_tui.tui.screens.labs.scaling_lab_screen import ScalingLabScreen
from attn_tui.tui.widgets.control_bar import ControlBar
from attn_tui.tui.widgets.series_plot import SeriesPlot
from attn_tui.tui.widgets.text_table import TextTable

# the chapter's table (shared/seeds/reference/attention.txt, STEP 3)
CHAPTER = {
    "d_k": ["4", "16", "64", "256", "1024"],
    "sd": ["1.756", "3.568", "7.202", "14.483", "28.591"],
    "raw": ["1.7771", "0.9743", "0.5058", "0.2512", "0.1333"],
    "scaled": ["2.4764", "2.4970", "2.4844", "2.4555", "2.4894"],
    "top": ["0.5492", "0.7488", "0.8577", "0.9282", "0.9611"],
}


def _table(app) -> TextTable:
    return app.screen.query_one("#scaling-table", TextTable)


def _expected(**kwargs) -> list[str]:
    r = scaling_experiment(**kwargs)
    return [num(row.entropy_raw) for row in r.rows]


async def test_defaults_reproduce_the_chapter() -> None:
    async with lab_app("scaling").run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        screen = pilot.app.screen
        assert isinstance(screen, ScalingLabScreen)
        t = _table(pilot.app)
        assert list(t.row_labels) == CHAPTER["d_k"]
        assert t.column(0) == CHAPTER["sd"]
        assert t.column(1) == CHAPTER["raw"]
        assert t.column(2) == CHAPTER["scaled"]
        assert t.column(3) == CHAPTER["top"]
        assert "log₂ 8 = 3.0000" in str(screen.query_one("#caption").render())
        plot = screen.query_one("#entropy-plot", SeriesPlot)
        assert [m for m, _ in plot.series] == ["r", "s"]
        assert plot.ceiling == 3.0
        assert screen.message == ""


@pytest.mark.parametrize(
    ("action", "kwargs"),
    [
        ("set_dk(64)", dict(dims=(1, 4, 16, 64))),
        ("set_keys(16)", dict(n_keys=16)),
        ("set_trials(50)", dict(trials=50)),
        ("set_seed(7)", dict(seed=7)),
        ("set_temperature(2.0)", dict(temperature=2.0)),
    ],
)
async def test_each_control_recomputes(action: str, kwargs: dict) -> None:
    async with lab_app("scaling").run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await run_action(pilot, action)
        t = _table(pilot.app)
        assert t.column(1) == _expected(**kwargs)
        assert pilot.app.screen.message == ""


async def test_scale_off_hides_the_scaled_columns_without_rerunning() -> None:
    async with lab_app("scaling").run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        screen = pilot.app.screen
        result = screen.result
        await pilot.press("s")
        await settle(pilot)
        t = _table(pilot.app)
        assert t.column(2) == ["off"] * 5 and t.column(1) == CHAPTER["raw"]
        assert [m for m, _ in screen.query_one("#entropy-plot", SeriesPlot).series] == ["r"]
        assert screen.result is result  # both columns were already computed: no new run
        await run_action(pilot, "toggle_scale()")
        assert _table(pilot.app).column(2) == CHAPTER["scaled"]


async def test_keys_and_typing_in_the_control_bar() -> None:
    async with lab_app("scaling").run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        bar = pilot.app.screen.query_one(ControlBar)
        assert bar.has_focus
        await pilot.press("pagedown")  # d_k 1024 -> 512
        await settle(pilot)
        assert list(_table(pilot.app).row_labels) == ["2", "8", "32", "128", "512"]
        await pilot.press("right", "up", "up")  # keys 8 -> 10
        await settle(pilot)
        assert pilot.app.screen.settings.keys == 10
        await pilot.press("left", "2", "0", "4", "8", "enter")  # type d_k = 2048
        await settle(pilot)
        assert list(_table(pilot.app).row_labels)[-1] == "2048"


@pytest.mark.parametrize(
    ("action", "words"),
    [
        ("set_dk(100)", "power of two"),
        ("set_dk(8192)", "between 1 and 4096"),
        ("set_keys(1)", "between 2 and 64"),
        ("set_trials(0)", "between 1 and 500"),
        ("set_temperature(0)", "between 0.05 and 20"),
    ],
)
async def test_bad_values_are_refused_and_the_numbers_stay(action: str, words: str) -> None:
    async with lab_app("scaling").run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await run_action(pilot, action)
        screen = pilot.app.screen
        assert words in screen.message
        assert _table(pilot.app).column(1) == CHAPTER["raw"]
        assert screen.settings == type(screen.settings)()


async def test_typed_nonsense_is_refused_with_a_message() -> None:
    async with lab_app("scaling").run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await pilot.press("1", "x", "enter")
        await settle(pilot)
        assert "not a whole number" in pilot.app.screen.message
        assert pilot.app.screen.query_one(ControlBar).values["d_k"] == 1024


async def test_two_quick_changes_show_only_the_last() -> None:
    async with lab_app("scaling").run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        screen = pilot.app.screen
        shown: list[int] = []
        original = screen._show_table
        screen._show_table = lambda s, r: (shown.append(s.d_k), original(s, r))
        await pilot.app.run_action("screen.set_dk(4096)")  # slow: 4096 x 8 keys x 200 trials
        await pilot.app.run_action("screen.set_dk(16)")  # fast, and asked for last
        await settle(pilot)
        assert shown == [16]
        assert list(_table(pilot.app).row_labels) == ["1", "4", "16"]
        assert screen.shown.d_k == 16


async def test_the_screen_answers_keys_while_a_long_run_works(monkeypatch) -> None:
    import threading

    from attn_tui.tui.screens.labs import scaling_lab_screen

    # the run is held until the key has been answered: Pilot's press waits for the process to
    # go idle, up to seconds, and an unheld run for d_k 4096 can finish within that
    done = threading.Event()
    real = scaling_lab_screen.scaling_experiment

    def held(*args, **kwargs):
        if args[0][-1] == 4096:
            done.wait(timeout=30)
        return real(*args, **kwargs)

    monkeypatch.setattr(scaling_lab_screen, "scaling_experiment", held)
    async with lab_app("scaling").run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        screen = pilot.app.screen
        await pilot.app.run_action("screen.set_trials(500)")
        await pilot.app.run_action("screen.set_keys(64)")
        await pilot.app.run_action("screen.set_dk(4096)")
        await pilot.press("right")  # handled while the experiment runs in its thread
        running = any(w.is_running for w in pilot.app.workers)
        assert screen.query_one(ControlBar).field == 1
        assert "computing" in str(screen.query_one("#status").render())
        done.set()
        await settle(pilot)
        assert running
        assert list(_table(pilot.app).row_labels)[-1] == "4096"


async def test_escape_goes_back_to_the_workbench() -> None:
    async with lab_app("scaling").run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await pilot.press("escape")
        await pilot.pause()
        assert type(pilot.app.screen).__name__ == "WorkbenchScreen"


async def test_defaults_win_over_a_step_read_in_the_same_burst() -> None:
    """PageUp and R in one read (as over SSH): the step's message arrived after R had put the
    defaults back, so the lab ended on d_k 2048."""
    from textual import events

    async with lab_app("scaling").run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        for key, char in (("pageup", None), ("R", "R")):  # posted together, as a driver does
            pilot.app.post_message(events.Key(key, char))
        await settle(pilot)
        screen = pilot.app.screen
        assert screen.settings == type(screen.settings)()
        assert screen.query_one(ControlBar).values["d_k"] == 1024
        assert list(_table(pilot.app).row_labels)[-1] == "1024"


async def test_defaults_while_a_run_is_going_are_not_overwritten_by_it() -> None:
    """R while a slow run for d_k 4096 worked: the defaults' table came back at once, then the
    old run landed on top of it and stayed, under a bar that said 1024."""
    async with lab_app("scaling").run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        screen = pilot.app.screen
        await pilot.app.run_action("screen.set_dk(4096)")
        await pilot.app.run_action("screen.reset")
        await settle(pilot)
        assert screen.shown.d_k == 1024 and screen.settings.d_k == 1024
        assert list(_table(pilot.app).row_labels)[-1] == "1024"
        assert _table(pilot.app).column(1) == CHAPTER["raw"]


async def test_one_trial_and_one_head_are_singular() -> None:
    # "1 trials of one query", "split into h = 1 heads", "concat of 1 heads"
    async with lab_app("scaling").run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        assert pilot.app.screen.offer("trials", 1)
        await pilot.app.workers.wait_for_complete()
        await settle(pilot)
        box = pilot.app.screen.query_one("#table-box")
        assert box.border_title.startswith("1 trial of one query against 8 keys")
    async with lab_app("heads").run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        assert pilot.app.screen.offer("h", 1)
        await settle(pilot)
        screen = pilot.app.screen
        assert screen.query_one("#split-box").border_title == (
            "D = 512 split into h = 1 head of d_k = 512")
        assert "concat of 1 head " in str(screen.query_one("#shapes").render())


@pytest.mark.parametrize("action", ["set_temperature(2.0)", "toggle_scale()"])
async def test_a_change_that_needs_no_new_draws_is_answered_at_once(action: str) -> None:
    async with lab_app("scaling").run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        screen = pilot.app.screen
        await pilot.app.run_action(f"screen.{action}")  # no waiting for any worker
        assert screen.shown == screen.settings
        assert not any(w.is_running for w in pilot.app.workers)
        expected = scaling_experiment(temperature=screen.settings.temperature, reuse=False)
        assert _table(pilot.app).column(1) == [num(r.entropy_raw) for r in expected.rows]


async def test_a_slow_run_says_so_in_the_tables_title_and_marks_the_old_table_stale(
        monkeypatch) -> None:
    """top d_k 4096, 64 keys, 500 trials took seconds while the old table stayed captioned as
    current, and the 'computing…' line sat below the fold at 80x24."""
    import threading

    from screen_text import screen_lines

    from attn_tui.tui.screens.labs import scaling_lab_screen

    go = threading.Event()
    real = scaling_lab_screen.scaling_experiment

    def held(*args, **kwargs):
        go.wait(timeout=30)
        return real(*args, **kwargs)

    monkeypatch.setattr(scaling_lab_screen, "scaling_experiment", held)
    async with lab_app("scaling").run_test(size=(80, 24)) as pilot:
        go.set()
        await settle(pilot)
        go.clear()
        await pilot.app.run_action("screen.set_dk(4096)")
        await pilot.pause()
        top = "\n".join(screen_lines(pilot.app)[:16])  # what shows above the fold, unscrolled
        assert "computing 200 trials × 8 keys, d_k up to 4096" in top
        assert "stale" in top
        go.set()
        await settle(pilot)
        top = "\n".join(screen_lines(pilot.app)[:16])
        assert "computing" not in top and "stale" not in top
        assert "200 trials of one query against 8 keys" in top
        assert list(_table(pilot.app).row_labels)[-1] == "4096"


@pytest.mark.parametrize("change", ["toggle_scale()", "set_temperature(2.0)"])
async def test_a_change_that_needs_no_new_draws_during_a_run_does_not_start_it_again(
        monkeypatch, change: str) -> None:
    import threading

    from attn_tui.tui.screens.labs import scaling_lab_screen

    go, runs = threading.Event(), []
    real = scaling_lab_screen.scaling_experiment

    def held(*args, **kwargs):
        runs.append(args[0])
        go.wait(timeout=30)
        return real(*args, **kwargs)

    monkeypatch.setattr(scaling_lab_screen, "scaling_experiment", held)
    async with lab_app("scaling").run_test(size=(80, 24)) as pilot:
        go.set()
        await settle(pilot)
        go.clear()
        screen = pilot.app.screen
        await pilot.app.run_action("screen.set_dk(64)")
        await pilot.app.run_action(f"screen.{change}")
        go.set()
        await settle(pilot)
        assert len(runs) == 2  # the defaults, then d_k 64 once
        assert screen.shown == screen.settings
        s = screen.settings
        expected = scaling_experiment(s.dims, s.keys, s.trials, s.seed,
                                      temperature=s.temperature, reuse=False)
        assert _table(pilot.app).column(1) == [num(r.entropy_raw) for r in expected.rows]
        assert _table(pilot.app).column(2)[0] == ("off" if not s.scale
                                                  else num(expected.rows[0].entropy_scaled))


async def test_a_result_that_lands_after_the_lab_has_closed_is_dropped() -> None:
    """An experiment finishing just after Esc must not draw on the closed lab's widgets."""
    async with lab_app("scaling").run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        screen = pilot.app.screen
        assert isinstance(screen, ScalingLabScreen)
        await pilot.press("escape")
        await settle(pilot)
        assert pilot.app.screen is not screen
        landed = []
        screen.runs.land(screen.runs.generation, landed.append, "late")
        assert landed == []


async def test_the_explanation_claims_only_what_its_numbers_show() -> None:
    """At a top d_k of 8 it said one key took "nearly all the weight" beside a max α of 0.63;
    at temp 0.05, that the scaled spread "stays near 1"."""
    from lab_pilot import lab_app, run_action, settle

    async with lab_app("scaling").run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        screen = pilot.app.screen
        await run_action(pilot, "set_dk(8)")
        said = " ".join(str(screen.query_one("#explain").render()).split())
        top = screen.result.rows[-1]
        assert top.max_alpha_raw < 0.9 and "nearly all" not in said
        assert f"the largest weight grows to {top.max_alpha_raw:.4f}" in said
        await run_action(pilot, "set_temperature(0.05)")
        said = " ".join(str(screen.query_one("#explain").render()).split())
        assert "near 1" not in said and "the spread stays level" in said


async def test_panes_cut_by_a_lessons_panel_say_more_is_below_until_scrolled_there():
    """Under the scale lesson's panel at 80×24 the lab's summary ended mid-sentence ("…and
    raw") at the window's edge, and a one-cell scrollbar was the only sign of the rest."""
    from screen_text import screen_lines, screen_text

    from attn_tui.tui.app import make_app

    async with make_app(lesson="scale", no_progress=True).run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await pilot.press("n")  # step 2: the table, its summary under it, the plots below
        await settle(pilot)
        edge = [line for line in screen_lines(pilot.app) if "↓ more below" in line]
        assert len(edge) == 1 and edge[0].rstrip().endswith("↓ more below · Tab, then PgDn▁")
        await pilot.press("tab")  # the panes take the keys: PgDn is theirs now
        await settle(pilot)
        assert "↓ more below · PgDn▁" in screen_text(pilot.app)
        await pilot.press("pagedown")
        await settle(pilot)
        assert "Press s to compare." in screen_text(pilot.app)  # the summary's last words
        assert "↓ more below · PgDn▁" in screen_text(pilot.app)  # and the plots still below
        body = pilot.app.screen.query_one("#lab-body")
        for _ in range(10):
            await pilot.press("pagedown")
            await settle(pilot)
        assert body.scroll_y == body.max_scroll_y > 0
        assert "↓ more below" not in screen_text(pilot.app)


async def test_the_more_below_edge_follows_the_panes_own_size_and_names_a_key_that_scrolls():
    """The edge was checked on a resize or a scroll only: a lab whose results came after its
    first layout (scaling, precision at 80×24) had none though its plots were cut, and the
    heads lab kept it once T = 2 fitted everything. With a table inside the panes focused it
    said PgDn, which paged the table instead."""
    from screen_text import screen_text

    async with lab_app("scaling").run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        assert "↓ more below · Tab, then PgDn▁" in screen_text(pilot.app)
    async with lab_app("heads").run_test(size=(80, 38)) as pilot:
        await settle(pilot)
        assert "↓ more below" in screen_text(pilot.app)
        await run_action(pilot, "set_tokens(2)")
        await settle(pilot)
        assert "↓ more below" not in screen_text(pilot.app)
    async with lab_app("heads").run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        pilot.app.screen.query_one("#head-map").focus()
        await settle(pilot)
        edge = [line for line in screen_text(pilot.app).splitlines() if "↓ more below" in line]
        assert edge and edge[0].endswith("↓ more below▁")


@pytest.mark.parametrize("changes", [
    # the spread halved and raw entropy rose beside "grows ×0.5" and "falls 0.0235 → 0.2295"
    ("set_dk(4)", "set_keys(2)", "set_trials(1)", "set_seed(3)"),
    # scaled entropy 2.9332, 1.4952, 1.9173, 2.5624, 2.2982 beside "stays level"
    ("set_trials(1)",),
])
async def test_one_trials_words_follow_its_numbers_and_say_they_are_noisy(changes) -> None:
    from lab_pilot import lab_app, run_action, settle

    async with lab_app("scaling").run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        screen = pilot.app.screen
        for change in changes:
            await run_action(pilot, change)
        await settle(pilot)
        r = screen.result
        said = " ".join(str(screen.query_one("#explain").render()).split())
        first, top = r.rows[0], r.rows[-1]
        assert f"d_k {first.d_k} → {top.d_k} (1 trial: noisy):" in said
        spread = "grows" if top.sd > first.sd else "shrinks"
        raw = "rises" if top.entropy_raw > first.entropy_raw else "falls"
        if len(changes) > 1:  # against the trend every other run shows
            assert (spread, raw) == ("shrinks", "rises")
        assert f"the spread of q·k {spread} ×{top.sd / first.sd:.1f}" in said
        assert (f"raw entropy {raw} {first.entropy_raw:.4f} → {top.entropy_raw:.4f} bits"
                in said)
        scaled = [row.entropy_scaled for row in r.rows]
        assert max(scaled) - min(scaled) > 0.1 * r.max_entropy
        assert "stays level across d_k" not in said
        assert f"entropy runs {min(scaled):.4f} to {max(scaled):.4f}" in said


async def test_a_spread_that_runs_far_below_1_is_not_rounded_to_0() -> None:
    """At temp 20 and one trial the words read "the spread runs 0.00 to 0.02"."""
    from lab_pilot import lab_app, run_action, settle

    async with lab_app("scaling").run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        screen = pilot.app.screen
        for change in ("set_trials(1)", "set_temperature(20)"):
            await run_action(pilot, change)
        await settle(pilot)
        said = " ".join(str(screen.query_one("#explain").render()).split())
        r = screen.result
        spreads = [row.sd / row.d_k ** 0.5 / 20 for row in r.rows]
        assert f"the spread runs {min(spreads):.3g} to {max(spreads):.3g}" in said
        assert "0.00" not in said.split("the spread runs")[1].split(" and ")[0]
