"""A lesson task in a lab or on the model screen: "show me" (y) and the step's reset (ctrl+r)
are each one change that u undoes, putting the learner's own settings back on the bar and
under the task's check; in the train lab y trains what it shows, to ✓."""

from __future__ import annotations

import re

import pytest
from lesson_pilot import lesson_app, panel, press, settle
from pilot_wait import until
from screen_text import screen_text

from attn_tui.tui.textual_compat import notifications


def _said(app) -> str:
    return " ".join(panel(app).plain.split())


def _verdict(app) -> str:
    """The task's check as the panel says it: "Not yet: <value> · goal <target>"."""
    found = re.search(r"(Not yet|Done): (.+?· goal [^ ]+ [^ .]+)", _said(app))
    assert found is not None, _said(app)
    return found.group(0)


def _bar(app) -> str:
    """What the host draws for its settings: a lab's control bar, the model screen's summary
    of the chosen head."""
    lines = screen_text(app).splitlines()
    return next(x for x in lines if "‹" in x or "bits of at most" in x).strip()


async def _at(pilot, k: int) -> None:
    """The lesson opened at step k (lesson_app(name, at=k)), as kept progress reopens it:
    walking there by n is test_replay's (and to learning's tasks it trained step 3's run)."""
    await settle(pilot)
    assert f"Step {k} of" in panel(pilot.app).border_title


# (lesson, step, keys that make the learner's own change, what the goal reads on it)
LABS = [
    ("scale", 3, ["right"] * 5 + ["2", "enter"], "H scaled at d_k = 1024: 2.85"),
    ("params", 6, ["down"], "one layer's parameters"),
    ("real-heads", 3, ["down"], "entropy (bits) of layer 2 head 3: 2.45"),
]
IDS = [f"{n}-{k}" for n, k, _, _ in LABS]


@pytest.mark.parametrize(("name", "k", "mine", "reads"), LABS, ids=IDS)
async def test_show_me_then_u_puts_the_learners_settings_back(name, k, mine, reads):
    async with lesson_app(name, at=k).run_test(size=(120, 40), notifications=True) as pilot:
        await _at(pilot, k)
        host = pilot.app.screen
        await press(pilot, *mine)
        own, drawn, check = host.lesson_state(), _bar(pilot.app), _verdict(pilot.app)
        assert check.startswith("Not yet:") and reads in check, check
        await press(pilot, "h", "h", "h", "y")
        assert "Done:" in _said(pilot.app) and host.lesson_state() != own
        assert _bar(pilot.app) != drawn
        # said in the panel beside the ✓, not in a notice that would cover it
        assert re.search(r"Done: .*Shown: .* u undoes it\.", _said(pilot.app)), _said(pilot.app)
        assert not any("Shown" in str(n.message) for n in notifications(pilot.app))
        await press(pilot, "u")  # one change: one u
        assert host.lesson_state() == own and _bar(pilot.app) == drawn
        assert _verdict(pilot.app) == check  # the task checked again, on the learner's own
        assert "Shown:" not in _said(pilot.app)  # no longer what is on the panes
        await press(pilot, "U")
        assert "Done:" in _said(pilot.app)


@pytest.mark.parametrize(("name", "k", "mine", "reads"), LABS, ids=IDS)
async def test_ctrl_r_then_u_puts_the_learners_settings_back(name, k, mine, reads):
    async with lesson_app(name, at=k).run_test(size=(120, 40)) as pilot:
        await _at(pilot, k)
        host = pilot.app.screen
        start, start_drawn = host.lesson_state(), _bar(pilot.app)
        await press(pilot, *mine)
        own, drawn, check = host.lesson_state(), _bar(pilot.app), _verdict(pilot.app)
        await press(pilot, "ctrl+r")
        assert host.lesson_state() == start and _bar(pilot.app) == start_drawn
        await press(pilot, "u")
        assert host.lesson_state() == own and _bar(pilot.app) == drawn
        assert _verdict(pilot.app) == check and reads in check




# the learning lesson's tasks, each short: a learning rate that learns in 20 steps, one that
# diverges; the learner first takes lr one rung up the ladder, untrained
TRAIN = [(4, 1.0), (6, 0.03)]


@pytest.mark.parametrize(("k", "lr"), TRAIN, ids=[f"learning-{k}" for k, _ in TRAIN])
async def test_show_me_in_the_train_lab_trains_to_a_tick_and_u_puts_yours_back(k, lr):
    pytest.importorskip("torch")
    async with lesson_app("learning", at=k).run_test(size=(80, 24), notifications=True) as pilot:
        await _at(pilot, k)
        lab = pilot.app.screen
        await press(pilot, "up")  # the step put the bar's cursor on lr
        own = lab.settings
        assert own.lr == lr and lab.state not in ("loading", "running")
        assert "Not yet:" in _said(pilot.app) and "Enter trains these settings" in _said(pilot.app)
        await press(pilot, "h", "h", "h")
        await pilot.press("y")  # no settle: it would wait for the run
        await until(pilot, lambda: "Done:" in _said(pilot.app), "the shown run to reach ✓")
        assert lab.state in ("done", "diverged") and lab.run.config == lab.settings != own
        await settle(pilot)
        said = _said(pilot.app)
        # the run has ended: the note said it had only started, and that u stops it
        assert "Shown: settings that meet the goal, and their run. u puts yours back." in said
        assert "has started" not in said
        assert not any("Shown" in str(n.message) for n in notifications(pilot.app))
        await press(pilot, "u")
        assert lab.settings == own and f"lr ‹{lr:g}›" in _bar(pilot.app)
        assert "Not yet:" in _said(pilot.app) and "Shown:" not in _said(pilot.app)
        assert ": not trained yet (Enter trains these settings) · goal" in _said(pilot.app)
