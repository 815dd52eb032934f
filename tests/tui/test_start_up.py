"""Start-up: the cycle collector the launcher paused is running again after the first frame,
numpy is loaded with one BLAS thread, and each screen's widgets are styled once, with the
breakpoint classes of the window's size."""

from __future__ import annotations

import gc
import os
import subprocess
import sys
from pathlib import Path

import pytest
from textual.dom import DOMNode

from attn_tui.cli.blas_threads import VARIABLES, one_blas_thread
from attn_tui.tui.app import make_app


async def test_collection_resumes_after_the_first_frame():
    gc.disable()  # as the launcher does
    gc.unfreeze()  # the suite freezes what each test leaves (conftest): start from nothing frozen
    try:
        async with make_app().run_test(size=(120, 40)) as pilot:
            await pilot.pause()
            await pilot.pause()
            assert gc.isenabled()
            assert gc.get_freeze_count() > 0  # start-up's objects left out of later collections
    finally:
        gc.unfreeze()
        gc.enable()


async def test_an_app_started_with_collection_on_leaves_it_alone():
    assert gc.isenabled()
    # the suite freezes what earlier tests left (conftest); some of it may be freed meanwhile
    frozen = gc.get_freeze_count()
    async with make_app().run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        assert gc.isenabled() and gc.get_freeze_count() <= frozen  # nothing more frozen


def test_one_blas_thread_fills_in_only_what_the_user_left_unset():
    env = {"MKL_NUM_THREADS": "4"}
    one_blas_thread(env)
    assert env == {"OPENBLAS_NUM_THREADS": "1", "MKL_NUM_THREADS": "4"}


def test_the_command_line_loads_numpy_with_one_blas_thread():
    """No OpenBLAS worker thread: the process has just its main thread after numpy loads."""
    env = {k: v for k, v in os.environ.items() if k not in VARIABLES}
    code = ("import os, sys; from attn_tui.cli.main import main; main(['print', 'one']); "
            "assert 'numpy' in sys.modules; "
            "print(os.environ['OPENBLAS_NUM_THREADS'], len(os.listdir('/proc/self/task')))")
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True,
                         check=True).stdout.split()
    assert out[-2:] == ["1", "1"]


def test_the_suite_computes_with_one_blas_thread_as_the_command_does(pytestconfig):
    """tests/conftest.py sets it before numpy loads: a worker per core, spinning after each
    call, made the suite's processes use several times the CPU that attn-tui's own do."""
    root = Path(__file__).parents[1] / "conftest.py"
    conftest = next(m for m in pytestconfig.pluginmanager.get_plugins()
                    if Path(getattr(m, "__file__", None) or "/") == root)
    assert conftest.NUMPY_BEFORE_ONE_BLAS_THREAD is False
    assert os.environ["OPENBLAS_NUM_THREADS"]  # 1, or what the one running the suite set


@pytest.mark.parametrize(("kwargs", "size", "want"), [
    ({}, (80, 24), {"-side-by-side", "-tall"}),
    ({}, (60, 20), {"-stacked", "-tall"}),
    ({}, (120, 40), {"-side-by-side", "-roomy"}),
    ({"lab": "heads"}, (120, 40), {"-wide"}),
    ({"lab": "model"}, (80, 24), {"-narrow"}),
], ids=["workbench-80x24", "workbench-60x20", "workbench-120x40", "lab-120x40", "model-80x24"])
async def test_a_screen_starts_with_its_breakpoint_classes_and_the_first_resize_restyles_nothing(
        monkeypatch, kwargs, size, want):
    changed: list[object] = []
    update_classes = DOMNode.update_classes

    def watched(self, classes, update=True, animate=True):
        before = set(self.classes)
        result = update_classes(self, classes, update=update, animate=animate)
        if update and set(self.classes) != before:  # a change that restyles every widget
            changed.append((type(self).__name__, before, set(self.classes)))
        return result

    monkeypatch.setattr(DOMNode, "update_classes", watched)
    app = make_app(**kwargs)
    async with app.run_test(size=size) as pilot:
        await app.workers.wait_for_complete()
        await pilot.pause()
        breakpoints = {c for c in app.screen.classes if c.startswith("-") and c != "-active"}
        assert breakpoints >= want
        assert changed == []
