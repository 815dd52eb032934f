"""The train lab under Pilot: a run from Enter to done, pause and resume, frames, a head to the
workbench, a loaded run, bad settings, divergence, and leaving mid-run."""

from __future__ import annotations

import threading
from dataclasses import replace

import numpy as np
import pytest
from key_burst import burst
from lab_pilot import lab_app, run_action, settle
from pilot_wait import until
from screen_text import screen_lines, screen_text
from textual import events
from train_pilot import enter_now, esc_and_back, hold_after, paused_where_held, small_run, trained

from attn_tui.train import default_config
from attn_tui.tui.textual_compat import app_exception, notifications
from attn_tui.tui.widgets.alpha_maps import AlphaMaps

torch = pytest.importorskip("torch")
from attn_tui.train.trainer import Run  # noqa: E402


async def test_enter_trains_to_done_and_frames_can_be_walked() -> None:
    async with lab_app("train").run_test(size=(80, 24)) as pilot:
        await small_run(pilot)
        screen = pilot.app.screen
        await pilot.press("enter")
        await settle(pilot)
        assert screen.state == "done" and screen.step == 60
        assert screen.evals[-1][1] >= 0.99
        expected = Run(default_config("previous", d_model=16, steps=60))
        expected.advance()
        assert screen.losses == expected.losses  # the lab's run is the plain run, bit for bit
        assert len(screen.frames) == 61
        assert screen.query_one("#train-progress").progress == 60
        maps = screen.query_one(AlphaMaps)
        # Enter was pressed on the controls: they keep the keys, and the maps say how to walk
        assert screen.focused is screen.query_one("#controls")
        assert maps.caption.endswith("frame 61 of 61, step 60 · f: ←→ frame, ↑↓ head")
        await pilot.press("f")
        await pilot.pause()
        assert screen.focused is maps
        assert maps.caption.endswith("frame 61 of 61, step 60 · ←→ frame ↑↓ head w: to workbench")
        await pilot.press("home")
        await pilot.pause()
        assert screen.frame == 0 and "frame 1 of 61, step 0" in maps.caption
        await pilot.press("right", "right")
        await pilot.pause()
        assert screen.frame == 2
        np.testing.assert_array_equal(maps.alpha, screen.frames[2][1])
        text = "\n".join(line for block in maps.blocks() for line in block)
        assert "▶L1 H1" in text


async def test_a_run_started_on_the_controls_leaves_them_the_keys(tmp_path, monkeypatch) -> None:
    """When a run stopped, the maps took the keys: a learning rate typed next lost its 1, its e
    saved the run into the working directory, and in a lesson an n turned the page."""
    monkeypatch.chdir(tmp_path)
    async with lab_app("train").run_test(size=(80, 24)) as pilot:
        await small_run(pilot, 10)
        await run_action(pilot, "pick_control('lr')")
        screen = pilot.app.screen
        await pilot.press("enter")
        await settle(pilot)
        assert screen.state == "done"
        assert screen.focused is screen.query_one("#controls")
        await pilot.press("1", "e", "-", "2", "enter")
        await pilot.pause()
        assert screen.settings.lr == 0.01
        assert list(tmp_path.iterdir()) == []  # nothing saved
        await pilot.press("up")  # ↑ steps the learning rate, not the head
        await pilot.pause()
        assert screen.settings.lr > 0.01 and screen.head == 0


async def test_the_bar_taken_while_a_run_trains_keeps_a_half_typed_value(monkeypatch) -> None:
    # Enter on the maps, then c and "0.0" typed on lr while it trained: the run's end took the
    # bar away, applied the half-typed 0.0 (refused) and the next 5 and Enter started a run
    reached, release = hold_after(20, monkeypatch)
    async with lab_app("train").run_test(size=(80, 24)) as pilot:
        await small_run(pilot, 40, "set_width(8)")
        screen = pilot.app.screen
        await pilot.press("f")
        await pilot.press("enter")
        await until(pilot, reached.is_set, "the worker at step 20")
        await pilot.app.run_action("screen.pick_control('lr')")  # not settle: the run is held
        await pilot.press("0", ".")
        bar = screen.query_one("#controls")
        assert bar.editing is not None
        release.set()
        await until(pilot, lambda: screen.state == "done", "the run's end")
        await settle(pilot)
        assert screen.focused is bar and bar.editing is not None  # still typing there
        await pilot.press("0", "5", "enter")
        await pilot.pause()
        assert screen.settings.lr == 0.05 and screen.state == "done"


async def test_a_finished_run_beside_new_settings_says_they_are_not_its_own() -> None:
    """acc 1.0000 · done sat under steps ‹20› lr ‹0.3›, the last run's result read as theirs."""
    async with lab_app("train").run_test(size=(80, 24)) as pilot:
        await small_run(pilot)
        screen = pilot.app.screen
        await pilot.press("enter")
        await settle(pilot)
        status = screen.query_one("#train-status").render()
        assert str(status).endswith("· done")
        await run_action(pilot, "set_steps(20)")
        status = str(screen.query_one("#train-status").render())
        assert status.startswith("step 60/60 · loss ")
        # Enter asks first (the run is in no file): "Enter trains the new ones" was not so
        assert status.endswith("· done · settings changed: Enter twice trains them (e saves "
                               "this run)")
        assert "Enter twice trains them" in screen_text(pilot.app)  # wrapped, not cut
        # the maps' title named the last run's pattern as if it answered the bar's task
        box = screen.query_one("#maps-box")
        assert box.border_title == "the last run's α at step 60 (previous; settings changed)"
        await run_action(pilot, "set_steps(60)")  # its own settings again
        assert str(screen.query_one("#train-status").render()).endswith("· done")
        assert box.border_title.startswith("α per head at step 60 (previous: ")


async def test_enter_on_new_settings_asks_once_before_it_replaces_an_unsaved_run() -> None:
    """With new settings on the bar, Enter trained them in the place of a run no file held,
    without a word; now the first Enter says so (e saves it), the second trains."""
    async with lab_app("train").run_test(size=(80, 24)) as pilot:
        await trained(pilot)
        screen = pilot.app.screen
        assert screen.state == "done" and screen.step == 60
        old = screen.losses
        await run_action(pilot, "set_seed(1)")
        await pilot.press("enter")
        await settle(pilot)
        assert screen.state == "done" and screen.losses == old  # the run is still there
        assert screen.message == ("The previous run (step 60) is not saved: e saves it. "
                                  "Enter again trains the new settings in its place.")
        assert str(screen.query_one("#train-status").render()).endswith(
            "· settings changed: Enter trains them")  # not "Enter twice" still
        await pilot.press("enter")
        await settle(pilot)
        assert screen.state == "done" and screen.losses != old  # seed 1's run
        assert screen.message == ""
        await run_action(pilot, "set_seed(0)")  # this run is unsaved too: asked again
        await pilot.press("enter")
        await settle(pilot)
        assert "is not saved: e saves it" in screen.message
        screen._saved_at(screen.step)  # as e's dialog does once the file is written
        assert screen.message == ""  # not "is not saved" over "done, saved"
        assert str(screen.query_one("#train-status").render()).endswith(
            ", saved · settings changed: Enter trains them")


async def test_settings_changed_while_a_run_trains_are_said_to_wait_for_it(monkeypatch) -> None:
    """steps ‹100› on the bar above "step 443/2000 · training", and the run went on to 2000
    with no word that the bar was not what it trained."""
    reached, release = hold_after(20, monkeypatch)
    async with lab_app("train").run_test(size=(80, 24)) as pilot:
        await small_run(pilot, 200, "set_width(8)")
        screen = pilot.app.screen
        await pilot.press("enter")
        await until(pilot, reached.is_set, "the worker at step 20")
        status = screen.query_one("#train-status")
        assert str(status.render()).endswith("· training")
        screen.action_set_steps(100)  # (run_action settles: it would wait out the held worker)
        await pilot.pause()
        assert str(status.render()).endswith(
            "· training · settings changed: Enter pauses, Enter again trains them")
        assert "/200 · " in str(status.render())  # the run's own steps, not the bar's
        screen.action_set_steps(200)  # its own settings again
        await pilot.pause()
        assert str(status.render()).endswith("· training")
        release.set()
        await settle(pilot)
        assert screen.state == "done" and screen.step == 200


async def test_enter_pauses_and_resumes_the_same_run(monkeypatch) -> None:
    """Enter pauses at the step it lands on and Enter again trains on to the same losses as a
    run never paused. The worker is held after step 80 until the pause has been asked, so the
    pause lands there on a loaded machine too (it used to train 1,500 steps twice to leave
    room for it, half a minute of CPU)."""
    reached, release = hold_after(80, monkeypatch)
    async with lab_app("train").run_test(size=(80, 24)) as pilot:
        await small_run(pilot, 200, "set_width(8)")  # D 8: a cheaper step (D is not what is tested)
        screen = pilot.app.screen
        await pilot.press("enter")
        await until(pilot, reached.is_set, "the worker at step 80")
        assert screen.state == "running"
        enter_now(pilot)
        await until(pilot, lambda: screen._pause_asked, "the pause asked")
        release.set()
        await until(pilot, lambda: screen.state != "running", "the pause")
        await settle(pilot)
        assert screen.state == "paused" and screen.step == 80
        await pilot.press("f")  # Enter paused it from the controls: they kept the keys
        await pilot.press("left")
        await pilot.pause()
        assert screen.frame == len(screen.frames) - 2
        await pilot.press("enter")
        await settle(pilot)
        assert screen.state == "done" and screen.step == 200
        expected = Run(default_config("previous", d_model=8, steps=200))
        expected.advance()
        assert screen.losses == expected.losses


async def test_settings_that_cannot_train_promise_nothing_and_ask_nothing() -> None:
    # the line said "Enter trains them", Enter asked about the unsaved run they would replace,
    # and only a third Enter said that D did not split into the heads
    async with lab_app("train").run_test(size=(80, 24)) as pilot:
        await trained(pilot, 30, "set_heads(2)")
        screen = pilot.app.screen
        assert screen.state == "done" and screen.held_run().unsaved
        await run_action(pilot, "set_width(15)")
        status = str(screen.query_one("#train-status").render())
        assert status.endswith("settings changed: they cannot train as they are"), status
        problem = screen.standing_problem()
        assert problem.startswith("d_model 15 does not split into 2 heads")
        for _ in range(2):
            await pilot.press("enter")
            await settle(pilot)
            assert screen.message == problem and screen.state == "done" and screen.step == 30


async def test_a_paused_run_left_comes_back_on_the_frame_walked_back_to(monkeypatch) -> None:
    # the head came back, the frame not: frame 38 of 41 picked, back on 41 of 41
    reached, release = hold_after(40, monkeypatch)
    async with lab_app("train").run_test(size=(80, 24)) as pilot:
        await small_run(pilot, 120)
        screen = pilot.app.screen
        await paused_where_held(pilot, reached, release)
        assert screen.state == "paused" and len(screen.frames) > 3
        screen.scrub(-2)
        picked = screen.frame
        assert picked == len(screen.frames) - 3
        back = await esc_and_back(pilot)
        assert back is not screen and back.state == "paused" and back.frame == picked


async def test_esc_mid_run_keeps_the_run_paused_and_enter_trains_it_on(monkeypatch) -> None:
    # Esc at step 329 of 2,000, then g, lab train: "0% step 0/2000", the run thrown away.
    # The worker is held after step 40 until the lab has been left, so Esc lands mid-run.
    reached, release = hold_after(40, monkeypatch)
    async with lab_app("train").run_test(size=(80, 24)) as pilot:
        await small_run(pilot, 120, "set_width(8)", "set_heads(2)")
        screen = pilot.app.screen
        await pilot.press("enter")
        await until(pilot, reached.is_set, "the worker at step 40")
        screen.pick_head(1)  # not run_action: its settle would wait for the held worker
        pilot.app.pop_screen()  # Esc
        await pilot.pause()
        release.set()
        await until(pilot, lambda: not screen.run.stepping.locked(), "the worker to stop")
        pilot.app.reopen_lab("train")
        await settle(pilot)
        back = pilot.app.screen
        assert back is not screen and back.state == "paused" and back.step == 40
        assert back.head == 1 and back.frames and back.losses == screen.run.losses
        status = str(back.query_one("#train-status").render())
        assert status.startswith("step 40/120 ·") and status.endswith("· paused")
        assert back.message == "Paused at step 40, where you left it: Enter trains on."
        # Esc again, paused: it was kept as a record, and Enter restarted
        back = await esc_and_back(pilot)
        assert back.state == "paused" and back.step == 40
        await pilot.press("enter")
        await settle(pilot)
        assert back.state == "done" and back.step == 120
        assert "Paused at step" not in back.message  # said while it trained on, it was stale
        expected = Run(default_config("previous", d_model=8, heads=2, steps=120))
        expected.advance()
        assert back.losses == expected.losses  # the same run, trained on, not a new one


@pytest.mark.slow
async def test_keys_are_answered_while_it_trains() -> None:
    async with lab_app("train").run_test(size=(80, 24)) as pilot:
        await small_run(pilot, steps=100_000)
        screen = pilot.app.screen
        await pilot.press("enter")
        await until(pilot, lambda: screen.state == "running" and screen.step > 0)
        # the bar, while the worker steps: sent as _enter_now sends Enter (Pilot's press
        # waited its full second twice a key, the worker training all the while)
        for key in ("c", "right", "up"):
            pilot.app.post_message(events.Key(key, key if len(key) == 1 else None))
        await until(pilot, lambda: screen.settings.layers == 2, "c → ↑ to reach the layers")
        assert screen.state == "running"
        await pilot.press("left")
        await pilot.pause()
        assert screen.frame is None  # the newest frame still follows the run
        await pilot.press("escape")
        await settle(pilot)


async def _leave_mid_run(pilot):
    """A long run started, then Esc while it trains: the lab's screen, closed."""
    await small_run(pilot, steps=100_000)
    screen = pilot.app.screen
    await pilot.press("enter")
    await until(pilot, lambda: screen.state == "running" and screen.step > 0)
    await pilot.press("escape")
    await settle(pilot)
    assert pilot.app.screen is not screen
    return screen


@pytest.mark.slow
async def test_leaving_mid_run_stops_the_worker_and_leaks_no_thread() -> None:
    before = threading.active_count()
    async with lab_app("train").run_test(size=(80, 24)) as pilot:
        screen = await _leave_mid_run(pilot)
        assert screen.run.step < 100_000
        stopped_at = screen.run.step
        await pilot.pause(0.3)
        assert screen.run.step == stopped_at
        assert threading.active_count() <= before + 1  # Textual's own input thread at most


async def test_a_report_that_lands_after_the_lab_has_closed_is_dropped() -> None:
    """The worker's last report can be on its way when Esc closes the lab: landing on a screen
    whose widgets were gone, it crashed the app (NoMatches for AlphaMaps)."""
    async with lab_app("train").run_test(size=(80, 24)) as pilot:
        screen = await _leave_mid_run(pilot)
        step, ticket = screen.step, screen._ticket
        snap = screen._snapshot(screen.run)
        screen._report(ticket, snap)
        screen._stopped(ticket, snap, False)
        await pilot.pause()
        assert screen.step == step and screen.state == "running"
        assert app_exception(pilot.app) is None


async def test_settings_that_cannot_train_say_why() -> None:
    async with lab_app("train").run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        screen = pilot.app.screen
        await run_action(pilot, "set_heads(5)")
        assert "d_model 48 does not split into 5 heads" in screen.message
        await pilot.press("enter")
        await settle(pilot)
        assert screen.state == "idle" and screen.run is None
        assert "d_model 48 does not split into 5 heads" in screen.message


async def test_a_value_typed_in_a_burst_is_set_by_its_enter_not_trained() -> None:
    """`1 0 0 Enter` typed fast sets the value, as typed slowly: the lab's Enter (a priority
    key) was read ahead of the digits, and trained at the old lr with 100 on the bar."""
    app = lab_app("train")
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        screen = app.screen
        burst(app, "Right Right Right Right 8 0 Enter Right 1 0 0 Enter")
        await settle(pilot)
        assert screen.state == "idle" and screen.run is None
        assert (screen.settings.steps, screen.settings.lr) == (80, 100)
        assert screen.query_one("#controls").editing is None


async def test_a_refused_value_typed_in_a_burst_stays_to_mend_as_typed_slowly() -> None:
    """`0 Enter` in one burst dropped the 0 and closed the field, so the Esc meant to cancel
    the edit left the lab; typed slowly, the 0 stays to mend."""
    app = lab_app("train")
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        screen = app.screen
        burst(app, "Right Right Right Right 0 Enter")
        await settle(pilot)
        bar = screen.query_one("#controls")
        assert bar.editing == "0" and screen.settings.steps == 2000
        assert "steps must be between 1 and 1,000,000; 0 is outside" in screen.message
        await pilot.press("escape")
        await settle(pilot)
        assert app.screen is screen and bar.editing is None and screen.state == "idle"


async def test_with_ten_heads_at_80x24_the_progress_and_the_picked_head_stay_in_view() -> None:
    """Before, the run's progress line scrolled away with the heads, and ↓ picked heads below
    the window without the view following."""
    app = lab_app("train")
    async with app.run_test(size=(80, 24)) as pilot:
        await small_run(pilot, 5, "set_layers(2)", "set_heads(5)", "set_width(20)")
        screen = app.screen
        await pilot.press("enter")
        await settle(pilot)
        assert screen.state == "done"
        await pilot.press("f")  # to the maps: ↑↓ pick a head there
        assert screen.focused is screen.query_one(AlphaMaps)
        for n in range(2, 11):
            await pilot.press("down")
            await pilot.pause()
            text = screen_text(app)
            assert "step 5/5 · loss" in text
            picked = f"▶L{(n - 1) // 5 + 1} H{(n - 1) % 5 + 1}"
            assert picked in text, (n, text)
            rows = text.splitlines()
            title = next(i for i, row in enumerate(rows) if picked in row)
            assert title + 8 <= 22  # its title, tokens and 6 rows of α above the key bar


async def test_d_steps_to_widths_its_heads_split() -> None:
    """↑ on D stepped by 8 whatever the heads: 48 → 56 with 5 heads, refused."""
    app = lab_app("train")
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        screen = app.screen
        await pilot.press("right", "right", "right", "up")  # task, L, h, D: 2 heads
        await settle(pilot)
        assert screen.settings.d_model == 56
        await run_action(pilot, "set_heads(5)")
        assert "does not split into 5 heads" in screen.message
        widths = []
        for key in ("up", "up", "down", "down", "down"):
            await pilot.press(key)
            await settle(pilot)
            widths.append(screen.settings.d_model)
        assert widths == [60, 70, 60, 50, 40]
        assert "does not split" not in screen.message


async def test_a_task_brings_its_defaults() -> None:
    async with lab_app("train").run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        screen = pilot.app.screen
        await run_action(pilot, "set_seed(7)")
        await run_action(pilot, "set_task('induction')")
        assert screen.settings == default_config("induction", seed=7)


async def test_a_diverging_rate_stops_and_keeps_the_frames() -> None:
    async with lab_app("train").run_test(size=(80, 24)) as pilot:
        await small_run(pilot, 60, "set_lr(1000)")
        screen = pilot.app.screen
        await pilot.press("enter")
        await settle(pilot)
        assert screen.state == "diverged" and screen.step == 5
        assert screen.message.startswith("The loss became nan at step 5: the learning rate "
                                         "1000 is too large.")
        # Enter was pressed on the controls, which keep the keys: ←→ alone moves a field
        assert screen.message.endswith("are kept (f, then ←→).")
        assert screen.focused is screen.query_one("#controls")
        assert len(screen.frames) == 5
        peak = max(x / screen.losses[0] for x in screen.losses if np.isfinite(x))
        assert peak > 1  # the plot's top is 1: its subtitle says the line is cut there
        assert screen.query_one("#plot-box").border_subtitle == \
            f"steps 0 … 60 · l cut at 1, peak {peak:.2g}×"
        await pilot.press("w")
        await pilot.pause()
        assert "diverged" in screen.message and pilot.app.screen is screen
        await pilot.press("enter")  # the same rate again: said first, then trained on Enter
        await settle(pilot)
        assert screen.message == ("The same settings diverge again, step for step: lower the "
                                  "learning rate first, or Enter again to watch it once more.")
        await pilot.press("enter")
        await settle(pilot)
        assert screen.state == "diverged" and screen.step == 5
        assert screen.message.startswith("The loss became nan at step 5")


async def test_w_opens_the_picked_head_in_the_workbench() -> None:
    async with lab_app("train").run_test(size=(80, 24)) as pilot:
        await small_run(pilot, 10, "set_heads(2)")
        screen = pilot.app.screen
        await pilot.press("enter")
        await settle(pilot)
        await pilot.press("f", "down")  # the maps, then head 2
        await pilot.pause()
        assert screen.head == 1
        await pilot.press("w")
        await settle(pilot)
        bench = pilot.app.workbench()
        assert pilot.app.screen is bench
        ws = bench.workspace
        from attn_tui.train.replay import forward

        r = screen.record
        head = forward(r.config, r.weights, r.example)[0][1]
        assert ws.mask == "causal" and ws.t_q == 12 and ws.d_k == 8
        assert ws.query_tokens[:2] == (f"1:{r.tokens[0]}", f"2:{r.tokens[1]}")  # from 1
        np.testing.assert_array_equal(np.asarray(ws.q), head.q.astype(np.float64))
        np.testing.assert_array_equal(np.asarray(ws.v), head.v.astype(np.float64))
        # in the run's own float32: 8 digits a number, so the edge keeps the row's name
        assert ws.dtype == "float32"
        q = bench.query_one("#editor-q")
        assert str(q.border_subtitle).startswith(f"12:{r.tokens[11]}·d1 = ")


@pytest.mark.parametrize("keys, head, frame", [("Down w", 1, None), ("Down Down w", 0, None),
                                                ("Left Left Down w", 1, 8)])
async def test_keys_typed_in_one_burst_before_w_pick_the_head_and_frame_it_opens(
        keys, head, frame) -> None:
    """`↓ w` in one read (a fast typist, one SSH packet) opened the head before ↓: the move
    was still a message on its way when w's binding read the head."""
    async with lab_app("train").run_test(size=(80, 24)) as pilot:
        await small_run(pilot, 10, "set_heads(2)")
        screen = pilot.app.screen
        await pilot.press("enter")
        await settle(pilot)
        await pilot.press("f")  # the maps
        await pilot.pause()
        assert (screen.head, screen.frame) == (0, None)
        maps = screen.query_one(AlphaMaps)
        burst(pilot.app, keys)
        await settle(pilot)
        assert (screen.head, screen.frame) == (head, frame)
        said = [n.message for n in notifications(pilot.app)]
        assert any(m.startswith(f"Layer 1, head {head + 1} of the previous run") for m in said)
        assert maps.in_flight == []


async def test_back_from_w_the_lab_shows_the_head_and_frame_picked() -> None:
    # g, lab train after w opened the run on head 1 and its last frame
    async with lab_app("train").run_test(size=(80, 24)) as pilot:
        await small_run(pilot, 10, "set_heads(2)")
        await pilot.press("enter")
        await settle(pilot)
        await pilot.press("f", "down", "left", "left")  # the maps: head 2, frame 9 of 11
        await pilot.pause()
        await pilot.press("w")
        await settle(pilot)
        pilot.app.reopen_lab("train")
        await settle(pilot)
        screen = pilot.app.screen
        assert screen.state == "loaded" and (screen.head, screen.frame) == (1, 8)
        maps = screen.query_one(AlphaMaps)
        assert "frame 9 of 11, step 8 ·" in maps.caption
        text = "\n".join(line for block in maps.blocks() for line in block)
        assert "▶L1 H2" in text


async def test_w_on_an_earlier_frame_says_it_opens_the_latest_weights() -> None:
    async with lab_app("train").run_test(size=(80, 24)) as pilot:
        await small_run(pilot, 10)
        await pilot.press("enter")
        await settle(pilot)
        await pilot.press("f", "home")  # the maps: frame 1, step 0
        await pilot.pause()
        await pilot.press("w")
        await settle(pilot)
        said = [n.message for n in notifications(pilot.app)]
        assert said == ["Layer 1, head 1 of the previous run at step 10, its latest weights: the "
                        "frame shown was step 0, and frames keep α only. u undoes; g, lab "
                        "train: back to the run."]


async def test_a_loaded_run_opens_on_its_frames() -> None:
    run = Run(default_config("previous", d_model=16, steps=6))
    run.advance()
    record = run.record()
    app = lab_app("train", lab_options={"record": record})
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        screen = pilot.app.screen
        assert screen.state == "loaded" and screen.settings == record.config
        assert screen.focused is screen.query_one(AlphaMaps)
        await pilot.press("home")
        await pilot.pause()
        assert screen.frame == 0


@pytest.mark.parametrize("steps", [1, 6])
async def test_a_loaded_runs_progress_bar_is_full(steps: int) -> None:
    """A 1-step run loaded showed 0 %: the bar starts at a total of 1, so it was never set."""
    from textual.widgets import ProgressBar

    run = Run(default_config("previous", d_model=16, steps=steps))
    run.advance()
    app = lab_app("train", lab_options={"record": run.record()})
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        bar = pilot.app.screen.query_one(ProgressBar)
        assert (bar.total, bar.progress) == (steps, steps)
        assert "100%" in screen_text(pilot.app)


async def test_a_loaded_run_beside_a_sessions_settings_says_its_own_are_on_the_bar() -> None:
    """--load run.npz with a session saved at seed 1: the run's seed 0 stood on the bar and
    nothing said the session's settings had been set aside."""
    run = Run(default_config("previous", d_model=16, steps=6))
    run.advance()
    app = lab_app("train", lab_options={"record": run.record(), "saved": {"seed": 1}})
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        screen = pilot.app.screen
        assert screen.settings == run.config and screen.state == "loaded"
        assert screen.message == ("From the session, not taken: its settings, as the loaded "
                                  "run's are on the bar.")


async def test_without_torch_the_lab_says_what_to_install(monkeypatch) -> None:
    import attn_tui.tui.screens.labs.train_lab_screen as lab

    monkeypatch.setattr(lab, "torch_available", lambda: False)
    async with lab_app("train").run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        screen = pilot.app.screen
        assert "training needs torch" in screen.message
        await pilot.press("enter")
        await settle(pilot)
        assert screen.state == "idle" and "pip install 'attn-tui[torch]'" in screen.message


async def test_the_maps_top_edge_says_which_step_is_shown_as_frames_are_walked() -> None:
    # at 80×24 a lesson's panel covers the caption under the maps: ←→ changed nothing in sight
    async with lab_app("train").run_test(size=(80, 24)) as pilot:
        await small_run(pilot, 10)
        screen = pilot.app.screen
        await pilot.press("enter")
        await settle(pilot)
        box = screen.query_one("#maps-box")
        last = screen.frames[-1][0]
        assert box.border_title.startswith(f"α per head at step {last} (")
        await pilot.press("f", "home")
        await pilot.pause()
        assert box.border_title.startswith("α per head at step 0 (")
        # the plot's ◆ marks that step: its edge says what the ◆ is
        assert screen.query_one("#plot-box").border_subtitle.endswith(
            " · ◆ step 0, the frame shown")


async def test_a_diverged_run_left_with_esc_comes_back_with_go_to() -> None:
    """Esc after a run diverged, then Go to: the lab came back fresh, lr 0.003, no frames,
    though a diverged run's frames up to the break are what it has to show."""
    app = lab_app("train")
    async with app.run_test(size=(80, 24)) as pilot:
        await trained(pilot, 60, "set_lr(1000)")
        screen = app.screen
        assert screen.state == "diverged"
        frames, losses = len(screen.frames), list(screen.losses)
        await pilot.press("escape")
        await settle(pilot)
        app.reopen_lab("train")
        await settle(pilot)
        back = app.screen
        assert back is not screen and back.settings.lr == 1000
        assert len(back.frames) == frames
        np.testing.assert_array_equal(back.losses, losses)  # the last one nan in both
        assert back.message == ("The loss became nan at step 5: the learning rate 1000 is too "
                                "large. The frames up to step 4 are kept (←→).")
        assert "diverged" in str(back.query_one("#train-status").render())


async def test_a_loaded_diverged_run_says_so_on_one_line_at_80x24() -> None:
    # "… loss 268184666112.0000 · acc 0.0000 · loaded · it diverged": wrapped, the last words
    # alone on a line of their own
    from attn_tui.train import default_config
    from attn_tui.train.trainer import Run

    run = Run(default_config("sort", steps=50, lr=1000.0))
    run.advance()
    record = run.record()
    assert record.diverged
    async with lab_app("train", lab_options={"record": record}).run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        status = str(pilot.app.screen.query_one("#train-status").render())
        # its last held-out check came before the loss blew up, and says so
        assert status.endswith("· acc 0.0000 at step 2 · diverged") and "e11" in status
        assert pilot.app.screen.query_one("#train-status").size.height == 1


async def test_tab_from_the_controls_stops_on_the_lab_body_only_when_it_scrolls() -> None:
    # Tab went to the body, an invisible stop that did nothing, then to the maps
    async with lab_app("train").run_test(size=(120, 40)) as pilot:
        await small_run(pilot, 5)
        screen = pilot.app.screen
        assert screen.query_one("#lab-body").max_scroll_y == 0
        await pilot.press("tab")
        assert screen.focused is screen.query_one(AlphaMaps)
    async with lab_app("train").run_test(size=(80, 24)) as pilot:
        # sort's four heads, trained a little: the plot is below them
        await trained(pilot, 5, "set_task('sort')", "set_steps(5)", "pick_control('task')")
        screen = pilot.app.screen
        body = screen.query_one("#lab-body")
        assert body.max_scroll_y > 0  # ↓ scrolls to the plot from here
        assert screen.focused is screen.query_one("#controls")
        await pilot.press("tab")
        assert screen.focused is body
        await pilot.press("down")
        await pilot.pause()
        assert body.scroll_y > 0


async def test_R_puts_back_the_defaults_of_the_task_on_the_bar() -> None:
    """R on previous (or reverse) brought back sort, with sort's settings."""
    async with lab_app("train").run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        screen = pilot.app.screen
        assert screen.settings == default_config("sort")
        await run_action(pilot, "set_task('reverse')")
        await run_action(pilot, "set_steps(700)")
        await pilot.press("R")
        await settle(pilot)
        assert screen.settings == default_config("reverse")


async def test_up_and_down_on_h_step_through_the_counts_that_split_d() -> None:
    """With D 48, ↑ on h went 3 → 4 → 5 → 6 → 7, and 5 and 7 were refused."""
    async with lab_app("train").run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        screen = pilot.app.screen
        bar = screen.query_one("#controls")
        bar.field = [f.key for f in bar.fields].index("heads")
        seen = []
        for _ in range(6):
            await pilot.press("up")
            await settle(pilot)
            seen.append(screen.settings.heads)
        assert seen == [3, 4, 6, 8, 12, 16] and screen.message == ""
        for _ in range(3):
            await pilot.press("down")
            await settle(pilot)
        assert screen.settings.heads == 6


@pytest.mark.parametrize(("field", "says"), [
    (1, "L: layers · ←→ field  ↑↓ step"),
    (2, "h: heads in each layer · ←→ field  ↑↓ step"),
    (3, "D: numbers per token (d_model) · ←→ ↑↓ PgUp/PgDn, or type"),  # the short form fits
])
async def test_at_80x24_a_picked_control_says_what_its_one_letter_stands_for(field, says):
    """L, h and D were never explained in the lab: its hint line gave only the keys."""
    async with lab_app("train").run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await pilot.press("c", *["right"] * field)
        await settle(pilot)
        lines = screen_text(pilot.app).splitlines()
        hint = next(line for line in lines if line.strip().startswith(says[:3]))
        assert hint.strip().startswith(says) and len(hint.rstrip()) <= 80


async def test_the_plots_edge_names_the_frame_shown_in_what_room_it_has() -> None:
    """Beside "l cut at 1, peak 73×" the ◆'s words were cut to "◆ ste…"; and a diverged run's
    maps offered "w: to workbench", which w then refused."""
    async with lab_app("train").run_test(size=(120, 40)) as pilot:
        await small_run(pilot, 60, "set_lr(1000)")
        screen = pilot.app.screen
        await pilot.press("enter")
        await settle(pilot)
        assert screen.state == "diverged"
        await pilot.press("f", "home")
        await settle(pilot)
        box = screen.query_one("#plot-box")
        edge = box.border_subtitle
        assert "◆ step 0" in edge and "l cut at 1" in edge and len(edge) <= box.size.width - 4
        assert "w: to workbench" not in screen_text(pilot.app)


@pytest.mark.parametrize("refused", ["scrub", "to_workbench"])
async def test_walk_frames_when_paused_is_not_said_on_once_the_run_pauses(monkeypatch,
                                                                          refused) -> None:
    """← while training says "Frames can be walked through when paused or done: Enter
    pauses."; once paused, the line still said it beside "paused". So did w's "Pause first",
    after the run was done."""
    reached, release = hold_after(20, monkeypatch)
    async with lab_app("train").run_test(size=(80, 24)) as pilot:
        await small_run(pilot, 200, "set_width(8)")
        screen = pilot.app.screen
        await pilot.press("f", "enter")
        await until(pilot, reached.is_set, "the worker at step 20")
        if refused == "scrub":
            screen.scrub(-1)
            assert screen.message.startswith("Frames can be walked through when paused")
        else:
            screen.action_to_workbench()
            assert screen.message.startswith("Pause first (Enter)")
        screen.action_pause()
        release.set()
        await until(pilot, lambda: screen.state == "paused", "the pause")
        await settle(pilot)
        assert screen.message == ""
        await pilot.press("left")  # and now they can
        assert screen.frame is not None and screen.message == ""


async def test_w_is_dimmed_while_a_run_trains_and_pressed_anyway_says_pause_first(
        monkeypatch) -> None:
    """The key bar offered w (Head → workbench) while a run trained, as if it could act, and
    w only answered "Pause first"; before any run it answered "Train first"; a click on the
    dimmed key only rang the bell."""
    from textual.command import CommandList

    from attn_tui.tui.widgets.control_bar import ControlBar
    from attn_tui.tui.widgets.key_bar import KeyBar

    reached, release = hold_after(20, monkeypatch)
    async with lab_app("train").run_test(size=(100, 24)) as pilot:
        await small_run(pilot, 200, "set_width(8)")
        screen = pilot.app.screen
        bar = screen.query_one(KeyBar)

        def w_drawn_dim(label: str = "w Head → workbench") -> bool:
            line = bar.render()
            x = line.plain.index(label)
            return any(s.start <= x < s.end and s.style.dim for s in line.spans)

        await pilot.press("f")
        assert screen.state == "idle" and w_drawn_dim()  # no run yet: no head to open
        await pilot.press("w")
        assert screen.message.startswith("Train first (Enter)")
        assert w_drawn_dim("e Save run")  # nor a run to save
        await pilot.press("e")
        assert screen.message == "Train first (Enter): there is no run to save yet."
        screen.say("")
        await pilot.press("enter")
        await until(pilot, reached.is_set, "the worker at step 20")
        await pilot.pause()  # not settle: the run is held
        assert screen.state == "running" and w_drawn_dim()
        assert not w_drawn_dim("e Save run")  # e pauses the run, then saves it
        screen.say("")  # clicked, the dimmed key says why too (it rang the bell)
        await pilot.click(KeyBar, offset=(bar.render().plain.index("w Head → workbench"), 0))
        await pilot.pause()
        assert screen.message.startswith("Pause first (Enter)")
        for key, keys_at in (("f", AlphaMaps), ("c", ControlBar)):  # w read by each
            await pilot.press(key)
            assert isinstance(screen.focused, keys_at)
            screen.say("")
            await pilot.press("w")
            assert pilot.app.screen is screen
            assert screen.message.startswith("Pause first (Enter)")
        screen.say("")
        await pilot.press("ctrl+p")  # the palette's entry says so too
        await until(pilot, lambda: pilot.app.screen.query(CommandList), "the palette")
        await pilot.press(*"Head → workbench")
        await until(pilot, lambda: pilot.app.screen.query_one(CommandList).option_count > 0,
                    "the palette's hits")
        await pilot.press("enter")
        await until(pilot, lambda: pilot.app.screen is screen, "the palette closed")
        await pilot.pause()
        assert screen.message.startswith("Pause first (Enter)")
        screen.action_pause()
        release.set()
        await until(pilot, lambda: screen.state == "paused", "the pause")
        await settle(pilot)
        assert not w_drawn_dim()  # paused: w opens the head
        await pilot.press("w")
        await settle(pilot)
        assert pilot.app.screen is pilot.app.workbench()


async def test_a_finished_run_left_and_back_asks_before_enter_trains_it_again() -> None:
    """Done, unsaved, Esc and Go to lab train: Enter trained it again at once, the unsaved run
    gone without the word the open lab says."""
    async with lab_app("train").run_test(size=(80, 24)) as pilot:
        await trained(pilot)
        back = await esc_and_back(pilot)
        assert back.state == "loaded" and back.step == 60
        await pilot.press("enter")
        await settle(pilot)
        assert back.state == "loaded"  # nothing trained yet
        assert back.message.startswith("This run is done; the same settings train it again")
        assert "It is not saved: e saves it." in back.message


async def test_enter_on_a_finished_run_says_the_same_settings_train_it_again() -> None:
    """Enter on a done run, its settings unchanged, trained it again from step 0 without a
    word, and dropped the unsaved run; now the first Enter says so, the second trains."""
    async with lab_app("train").run_test(size=(80, 24)) as pilot:
        await trained(pilot)
        screen = pilot.app.screen
        assert screen.state == "done" and screen.step == 60
        await pilot.press("enter")
        await settle(pilot)
        assert screen.state == "done" and screen.step == 60  # nothing trained yet
        assert screen.message == ("This run is done; the same settings train it again, step "
                                  "for step. It is not saved: e saves it. Enter again trains "
                                  "it from step 0; or change a setting first.")
        old = screen.losses
        await pilot.press("enter")
        await settle(pilot)
        assert screen.state == "done" and screen.losses == old  # the same run, step for step
        assert screen.message == ""


async def _two_heads_trained(pilot) -> tuple[object, AlphaMaps, int]:
    """A run of two heads, its maps in view: (the lab, the maps, a column of head 2's picture
    on the maps' third content row)."""
    await small_run(pilot, 10, "set_heads(2)")
    screen = pilot.app.screen
    await pilot.press("enter")
    await settle(pilot)
    maps = screen.query_one(AlphaMaps)
    maps.scroll_visible(animate=False)
    await settle(pilot)
    second = next(x for x in range(maps.content_size.width) if maps.head_at(x, 2) == 1)
    return screen, maps, second


async def test_a_click_on_a_heads_map_picks_it() -> None:
    """The maps' heads could be picked with ↑↓ alone: a click on one left ▶ where it was, and
    w opened that head."""
    async with lab_app("train").run_test(size=(80, 24)) as pilot:
        screen, maps, second = await _two_heads_trained(pilot)
        assert maps.head_at(second - 1, 2) != 1 and maps.blocks()[1][0].startswith(" L1 H2")
        await pilot.click(maps, offset=(second + maps.gutter.left, 2 + maps.gutter.top))
        await settle(pilot)
        assert screen.head == 1 and maps.picked == 1
        await pilot.click(maps, offset=(second + maps.gutter.left, 2 + maps.gutter.top))
        await settle(pilot)
        assert screen.head == 1  # the picked one again: nothing moves


async def test_two_clicks_on_a_head_in_one_read_pick_it_once() -> None:
    """A click counted from the head last drawn: two clicks on head 2 in one read (or ↓ and a
    click) each stepped the whole way, and the pick wrapped round past it."""
    async with lab_app("train").run_test(size=(80, 24)) as pilot:
        screen, maps, second = await _two_heads_trained(pilot)
        at = (maps.content_region.x + second, maps.content_region.y + 2)
        for _ in range(2):
            for cls in (events.MouseDown, events.MouseUp):
                pilot.app.post_message(cls(None, *at, 0, 0, 1, False, False, False,
                                           screen_x=at[0], screen_y=at[1]))
        await settle(pilot)
        assert screen.head == 1 and maps.picked == 1


async def test_pgdn_on_the_task_field_scrolls_and_leaves_every_setting():
    """The bar opens on the task: PgDn, which the learning lesson names for scrolling to the
    plot, switched sort to reverse and every setting with it."""
    async with lab_app("train").run_test(size=(80, 16)) as pilot:
        await settle(pilot)
        screen = pilot.app.screen
        bar, body = screen.query_one("#controls"), screen.query_one("#lab-body")
        assert pilot.app.focused is bar and bar.current.key == "task"
        assert body.max_scroll_y > 0 and body.scroll_y == 0
        before = screen.settings
        await pilot.press("pagedown")
        await settle(pilot)
        assert screen.settings == before and body.scroll_y > 0
        await pilot.press("pageup")
        await settle(pilot)
        assert body.scroll_y == 0
        await pilot.press("right", "pagedown")  # L, a number: ÷2 as the bar says
        await settle(pilot)
        assert screen.settings.layers == max(1, before.layers // 2)


async def test_new_settings_on_a_finished_run_kept_on_leaving_ask_before_replacing_it() -> None:
    """A done run, unsaved, left with Esc comes back through Go to as kept; one Enter on new
    settings then trained them in its place without the question a done run gets."""
    async with lab_app("train").run_test(size=(80, 24)) as pilot:
        await trained(pilot)
        back = await esc_and_back(pilot)
        assert back.state == "loaded" and back.kept
        old = back.record
        await run_action(pilot, "set_seed(1)")
        assert str(back.query_one("#train-status").render()).endswith(
            "· settings changed: Enter twice trains them (e saves this run)")
        await pilot.press("enter")
        await settle(pilot)
        assert back.state == "loaded" and back.record is old
        assert back.message.endswith("is not saved: e saves it. Enter again trains the new "
                                     "settings in its place.")


async def test_a_letter_typed_first_into_a_number_is_refused_with_a_reason() -> None:
    """x on L did nothing and said nothing, while 5x was refused in words; keys of the lab
    (e saves, w hands a head over) keep their meaning."""
    app = lab_app("train")
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        screen = app.screen
        bar = screen.query_one("#controls")
        await pilot.press("right", "x")  # L
        assert bar.editing == "x"
        await pilot.press("enter")
        await settle(pilot)
        assert bar.editing == "x" and screen.settings.layers == 2
        assert "'x' is not a whole number" in screen.message
        await pilot.press("escape")
        await settle(pilot)
        assert bar.editing is None and app.screen is screen


async def test_an_accuracy_checked_steps_ago_says_at_which_step(monkeypatch) -> None:
    """Checked 20 times a run, the accuracy at step 756 of 20,000 was step 0's, shown as if
    it were now's beside a loss near 0: a newcomer read it as no learning."""
    reached, release = hold_after(13, monkeypatch)
    app = lab_app("train")
    async with app.run_test(size=(120, 40)) as pilot:
        await small_run(pilot, 200)  # checks every 10 steps
        screen = app.screen
        await paused_where_held(pilot, reached, release)
        status = str(screen.query_one("#train-status").render())
        assert screen.step == 13 and screen.evals[-1][0] == 10
        acc = screen.evals[-1][1]
        assert f"· acc {acc:.4f} at step 10 · paused" in status
        await pilot.press("enter")  # on to the end: the last check is the last step's
        await settle(pilot)
        assert screen.state == "done"
        assert " at step" not in str(screen.query_one("#train-status").render())


async def test_a_loaded_run_opens_with_its_maps_title_in_sight_and_keeps_it_after_a_resize(
        ) -> None:
    """The maps, focused at the opening, scrolled their pane's title (the step and the
    task's pattern) out of sight at 80×24; a resize put it out of sight too."""
    run = Run(default_config("induction", steps=4))
    run.advance()
    app = lab_app("train", lab_options={"record": run.record()})
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        assert app.focused is app.screen.query_one(AlphaMaps)

        def title_shown() -> bool:
            return any("α per head at step 4" in line for line in screen_lines(app))

        assert title_shown()
        for size in ((60, 20), (80, 24)):
            await pilot.resize_terminal(*size)
            await settle(pilot)
        assert title_shown()
        await pilot.press("down", "up")  # another head, then the first again
        await settle(pilot)
        assert title_shown()


def test_a_run_that_broke_before_its_second_frame_keeps_the_frame_not_the_frames() -> None:
    """'Stopped; the frames up to step 0 are kept': there was one."""
    from attn_tui.report.train import frames_kept_words

    assert frames_kept_words([0]) == "the frame at step 0 is kept"
    assert frames_kept_words([0, 4]) == "the frames up to step 4 are kept"


async def test_a_run_that_broke_before_its_second_frame_offers_no_frames_to_walk() -> None:
    """'the frame at step 0 is kept (f, then ←→)': ←→ had nothing to walk."""
    async with lab_app("train").run_test(size=(80, 24)) as pilot:
        await small_run(pilot, 6000, "set_lr(1000)")
        screen = pilot.app.screen
        await pilot.press("enter")
        await settle(pilot)
        assert screen.state == "diverged" and len(screen.frames) == 1
        assert screen.message.endswith("Stopped; the frame at step 0 is kept."), screen.message


async def test_settings_changed_beside_a_paused_run_are_on_the_bar_when_it_is_back(
        monkeypatch) -> None:
    # paused at 252, lr 0.003 → 0.03, Esc, Go to lab train: "Paused at step 252, where you
    # left it" with lr back at 0.003 and no word of the change
    reached, release = hold_after(20, monkeypatch)
    async with lab_app("train").run_test(size=(80, 24)) as pilot:
        await small_run(pilot, 60, "set_width(8)")
        screen = pilot.app.screen
        await pilot.press("enter")
        await until(pilot, reached.is_set, "the worker at step 20")
        pilot.app.pop_screen()  # Esc mid-run: kept, paused
        await pilot.pause()
        release.set()
        await until(pilot, lambda: not screen.run.stepping.locked(), "the worker to stop")
        pilot.app.reopen_lab("train")
        await settle(pilot)
        run_config = pilot.app.screen.settings
        await run_action(pilot, "set_lr(0.03)")
        back = await esc_and_back(pilot)
        assert back.state == "paused" and back.step == 20 and back.run.config == run_config
        assert back.settings == replace(run_config, lr=0.03)
        assert back.message == ("Paused at step 20, where you left it, with the settings you "
                                "changed on the bar: u puts back the run's own.")
        status = " ".join(str(back.query_one("#train-status").render()).split())
        assert status.endswith("settings changed: Enter twice trains them (e saves this run)")
        await pilot.press("u")  # the run's own, and Enter trains it on
        await settle(pilot)
        assert back.settings == run_config
        await pilot.press("enter")
        await settle(pilot)
        assert back.state == "done" and back.step == 60


async def test_the_loss_on_the_status_line_and_the_charts_ratio_name_the_same_first_loss() -> None:
    """"loss 2.5388" sat above a chart of loss ÷ first loss, and nothing gave the first: a
    learner read the figure as the chart's 2.5×."""
    from attn_tui.report.fmt import fit

    async with lab_app("train").run_test(size=(120, 40)) as pilot:
        await small_run(pilot)
        screen = pilot.app.screen
        await pilot.press("enter")
        await settle(pilot)
        first, last = fit(screen.losses[0], 9), fit(screen.losses[-1], 9)
        assert first != last
        status = str(screen.query_one("#train-status").render())
        assert f"· loss {last} (first {first}) · acc " in status and status.endswith("· done")
        box = screen.query_one("#plot-box")
        assert box.border_title == f"l = loss ÷ first {first}  a = held-out accuracy"  # its room
        await pilot.resize_terminal(80, 24)  # the chart under the maps, the window's width
        await settle(pilot)
        assert box.border_title == f"l = loss ÷ first loss {first}   a = held-out accuracy"
        await pilot.resize_terminal(48, 40)  # shorter words, the number kept
        await settle(pilot)
        assert box.border_title == f"l = loss ÷ {first}  a = held-out accuracy"
        await pilot.resize_terminal(120, 40)
        await settle(pilot)
        assert box.border_title == f"l = loss ÷ first {first}  a = held-out accuracy"


async def test_a_run_left_while_it_trains_comes_back_with_a_frame_at_its_step(monkeypatch):
    # Esc at step 66 and back: the map's last frame was step 40's, w opened step 66's weights
    reached, release = hold_after(13, monkeypatch)
    app = lab_app("train")
    async with app.run_test(size=(80, 24)) as pilot:
        await small_run(pilot, 200, "set_width(8)")  # a frame every 4 steps
        screen = app.screen
        await pilot.press("enter")
        await until(pilot, reached.is_set, "the worker at the held step")
        await until(pilot, lambda: screen.run is not None, "the run started")
        run = screen.run
        app.pop_screen()
        await pilot.pause()
        release.set()
        await until(pilot, lambda: not run.stepping.locked(), "the left worker's end")
        app.reopen_lab("train")
        await settle(pilot)
        back = app.screen
        assert back.state == "paused" and back.step == 13
        assert back.frames[-1][0] == 13


def test_a_trained_heads_source_names_its_run_by_its_settings() -> None:
    """Two runs of one task at one step had one name: R put back the other run's head."""
    from attn_tui.core import state
    from attn_tui.train.trainer import Run
    from attn_tui.tui.screens.labs.train_workspace import head_workspace

    sources = []
    for lr in (0.01, 0.03):
        run = Run(default_config("previous", steps=4, d_model=8, lr=lr))
        run.advance()
        sources.append(head_workspace(run.record(), 0, 0, state.from_preset("one")).source)
    assert sources[0] == ("the train lab's previous run (L 1, h 1, D 8, lr 0.01, seed 0) at "
                          "step 4, layer 1 head 1")
    assert sources[1] == sources[0].replace("lr 0.01", "lr 0.03")


@pytest.mark.parametrize(("width", "line"), [
    (80, "step 1733/2000 · loss 0.0172 (first 2.5388) · acc 0.9805 at step 1700 · training"),
    (65, "step 1733/2000 · loss 0.0172 · acc 0.9805 at step 1700 · training"),
    # the width beside the bar at 80×24: "step" stays where the line starts, where "1733/2000"
    # alone said nothing of what it counts
    (60, "step 1733/2000 · loss 0.0172 · acc 0.9805 at 1700 · training"),
])
def test_a_narrow_status_line_keeps_step_where_it_starts(width, line) -> None:
    from attn_tui.tui.screens.labs.train_lab_screen import status_forms
    from attn_tui.tui.widgets.fitted_line import FittedLine

    status = FittedLine()
    status.forms = status_forms(1733, 2000, "0.0172", "2.5388", "0.9805", 1700, "training", "")
    assert status._choice(width) == line


def test_a_status_line_checked_at_its_own_step_drops_its_first_step_last() -> None:
    from attn_tui.tui.screens.labs.train_lab_screen import status_forms

    forms = status_forms(2000, 2000, "0.0083", "", "0.9900", 2000, "done", "")
    assert forms[2] == "step 2000/2000 · loss 0.0083 · acc 0.9900 · done"
    assert forms[-1] == "2000/2000 · loss 0.0083 · acc 0.9900 · done"
    # the forms shorten one by one: none is as long as the one before (a form as long as
    # the one before it is never shown)
    forms = status_forms(312, 2000, "0.5123", "", "0.91", 300, "training",
                         " · settings changed: Enter pauses, Enter again trains them")
    assert all(len(a) > len(b) for a, b in zip(forms, forms[1:], strict=False) if a != b)
    assert forms[-1] == ("312/2000 · loss 0.5123 · acc 0.91 at 300 · training · settings "
                         "changed: ⏎ pauses, ⏎ again trains them")
    assert forms[3] == ("312/2000 · loss 0.5123 · acc 0.91 at 300 · training · settings "
                        "changed: Enter pauses, Enter again trains them")


async def test_each_frame_of_a_run_is_repainted_in_place_not_laid_out_again(monkeypatch):
    """A run's frames changed the maps, the status line and the note's words, never their
    size, and each asked for a layout of the whole lab: some 70 for the default run, at 30
    learners to a server. The screen still shows each frame as it comes."""
    from layout_count import count_layouts

    drawn = []
    layouts = count_layouts(monkeypatch, lambda screen: (screen.app.screen.state, len(drawn)))
    async with lab_app("train").run_test(size=(80, 24)) as pilot:
        await small_run(pilot, 600)
        screen = pilot.app.screen
        maps = screen.query_one(AlphaMaps)
        show = AlphaMaps.show

        def seen(self, alpha, *rest, **kwargs):
            show(self, alpha, *rest, **kwargs)
            drawn.append((screen.step, alpha is not None and alpha is screen.frames[-1][1]))

        monkeypatch.setattr(AlphaMaps, "show", seen)
        layouts.clear()
        await pilot.press("enter")
        await settle(pilot)
        assert screen.state == "done" and len(screen.frames) == 51
        # frames came in one after another, each shown as the newest
        frames_shown = len({step for step, newest in drawn if newest})
        assert frames_shown >= 4, drawn
        # between the run's second frame on screen and its end: frames only
        first = next(i for i, (_, newest) in enumerate(drawn) if newest) + 1
        between = [n for state, n in layouts if state == "running" and n > first]
        assert between == [], (layouts, drawn)
        assert "frame 51 of 51, step 600" in maps.caption
        assert "step 600" in screen_text(pilot.app)
