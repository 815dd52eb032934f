"""The nanoGPT lecture's tensors as examples: in the picker, on --preset, reloaded by R, saved."""

from __future__ import annotations

from dataclasses import replace

import pytest
from screen_text import screen_text

from attn_tui.core import session
from attn_tui.core.state import set_cell
from attn_tui.lessons.workspaces import build
from attn_tui.tui.app import make_app
from attn_tui.tui.screens.dialogs.preset_modal import PresetModal


@pytest.mark.parametrize("name", ["lecture-bow", "lecture-head"])
def test_a_lecture_workspace_is_named_after_its_example(name: str):
    ws = build(name)
    assert ws.preset == name and ws.t_q == ws.t_k == 8


async def test_reload_after_an_edit_brings_back_the_lecture_tensors_not_random_ones():
    lecture = build("lecture-head")
    async with make_app(workspace=lecture).run_test(size=(120, 40)) as pilot:
        app = pilot.app
        await pilot.pause()
        bench = app.screen
        bench.apply(set_cell(bench.workspace, "Q", 0, 0, 9.0))
        await pilot.pause()
        edited = bench.workspace
        assert edited.q[0][0] == 9.0
        await pilot.press("R")
        await app.workers.wait_for_complete()
        await pilot.pause()
        ws = bench.workspace
        assert (ws.q, ws.k, ws.v) == (lecture.q, lecture.k, lecture.v)
        assert ws.preset == "lecture-head" and ws.mask == "causal"
        assert (ws.backend, ws.dtype) == (edited.backend, edited.dtype)  # kept, as presets do


async def test_the_picker_offers_the_lecture_examples_and_loads_one():
    async with make_app().run_test(size=(120, 40)) as pilot:
        app = pilot.app
        await pilot.press("p")
        await pilot.pause()
        assert isinstance(app.screen, PresetModal)
        text = screen_text(app)
        assert "lecture-bow" in text and "lecture-head" in text
        await pilot.press("end", "enter")  # the last entry: lecture-head
        await pilot.pause()
        await app.workers.wait_for_complete()
        await pilot.pause()
        ws = app.screen.workspace
        assert ws.preset == "lecture-head" and ws.q == build("lecture-head").q
        assert (ws.backend, ws.dtype) == ("numpy", "float64")  # the backend in use stays


def test_make_app_opens_on_a_lecture_example():
    app = make_app(preset="lecture-bow")
    ws = app.initial_workspace
    assert ws.preset == "lecture-bow" and ws.v == build("lecture-bow").v
    assert (ws.backend, ws.dtype) == ("numpy", "float64")


def test_a_session_on_a_lecture_example_round_trips(tmp_path):
    ws = replace(build("lecture-bow"), backend="numpy")
    path = tmp_path / "s.json"
    session.save(ws, path, "workbench")
    assert session.load(path) == (ws, "workbench")
