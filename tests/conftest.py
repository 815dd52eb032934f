"""Fixtures shared by the whole suite.

``backend`` / ``xp`` run a test once per array library, like scipy's ``xp`` fixture: numpy and
array-api-strict always, torch when it is installed (skipped otherwise). ``tolerance`` gives
rtol/atol for a dtype name.
"""

from __future__ import annotations

import gc
import sys
from pathlib import Path
from typing import Any

import pytest
from css_cache import share_parsed_css
from pilot_wait import STALLED_LINES, STALLED_STATES, quicker_idle_wait

from attn_tui.cli.blas_threads import one_blas_thread

# before numpy loads (nothing above imports it), as attn-tui's command does: with a BLAS worker
# per core, each spinning after every call, typing a sentence on the model screen took 146 ms
# of CPU a key instead of 28 ms, and four test workers shared two cores with eight of them
NUMPY_BEFORE_ONE_BLAS_THREAD = "numpy" in sys.modules
one_blas_thread()
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "scripts"))
from same_kernels import same_kernels  # noqa: E402

same_kernels()  # snapshots of MiniLM's float32 maps match on every x86-64 machine

BACKEND_NAMES = ("numpy", "array_api_strict", "torch")

# rtol / atol for comparing the same computation across backends, per dtype
TOLERANCES: dict[str, dict[str, float]] = {
    "float64": {"rtol": 1e-12, "atol": 1e-12},
    "float32": {"rtol": 1e-5, "atol": 1e-5},
}


@pytest.fixture(autouse=True)
def progress_dir(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch):
    """Lesson progress goes to a fresh folder per test, never to the user's data directory."""
    where = tmp_path_factory.mktemp("data")
    monkeypatch.setenv("ATTN_TUI_DATA_DIR", str(where))
    monkeypatch.delenv("ATTN_TUI_NO_PROGRESS", raising=False)
    return where / "progress"


@pytest.fixture(params=BACKEND_NAMES, scope="session")
def backend(request: pytest.FixtureRequest) -> str:
    """A backend name accepted by ``attn_tui.compute`` (torch skipped when not installed)."""
    name = request.param
    if name == "torch":
        pytest.importorskip("torch")
    elif name == "array_api_strict":
        pytest.importorskip("array_api_strict")
    return name


@pytest.fixture(scope="session")
def xp(backend: str) -> Any:
    """The Array API namespace for ``backend``."""
    from attn_tui.compute import namespace

    return namespace(backend)


@pytest.fixture(params=tuple(TOLERANCES), scope="session")
def dtype(request: pytest.FixtureRequest) -> str:
    return request.param


@pytest.fixture(scope="session")
def tolerance(dtype: str) -> dict[str, float]:
    """``rtol``/``atol`` keyword arguments for ``numpy.testing.assert_allclose`` at ``dtype``."""
    return TOLERANCES[dtype]


quicker_idle_wait()
share_parsed_css()

# A Pilot test makes some 100,000 objects, and at Python's default threshold (700 new objects)
# the young generation was collected about 9,000 times in tests/tui/test_workbench.py and
# test_lesson_keys.py alone (8 s of 70 s of CPU), mostly to find little: the test's garbage is
# collected whole at its teardown (below). At 50,000 they are collected about 20 times:
# 64.5-67.6 s of CPU against 69.1-71.3 s, peak memory the same (284 and 287 MiB).
gc.set_threshold(50_000, 20, 20)


@pytest.fixture(autouse=True)
def _no_keys_left_stuck():
    """Keys the App held and never handed on (see pilot_wait) fail the test that left them,
    with what the App and its line held then. (It was a warning while one such line, about
    once in ten runs of the suite, went unexplained: Textual's set_timer had dropped the line's
    5 ms timer; see
    textual_compat.one_shot_timers_fire_however_late.)"""
    STALLED_LINES.clear()
    STALLED_STATES.clear()
    yield
    if STALLED_LINES:
        pytest.fail(f"keys left waiting in the App's line with nothing to hand them on: "
                    f"{STALLED_LINES[0]} ({STALLED_STATES[0]})", pytrace=False)


@pytest.hookimpl(wrapper=True)
def pytest_runtest_teardown(item: pytest.Item, nextitem: pytest.Item | None):
    """After each test, its garbage is collected and what is left (modules, torch, caches) is
    frozen out of later collections. A Pilot test makes some 100,000 objects, so full
    collections came every second test, and each walked everything earlier tests and imports
    had left (300,000 objects once torch was in): a third of tests/tui/test_workbench.py's CPU
    time (18 of 56 s)."""
    try:
        return (yield)
    finally:
        gc.collect()
        gc.freeze()


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Tests marked slow first: on every core at once, a long one picked up last would run on
    alone after the rest (with -m "not slow" they are left out, for a quick loop)."""
    items.sort(key=lambda item: item.get_closest_marker("slow") is None)

_VOLATILE_ENV = ("NO_COLOR", "COLORTERM", "TERM_PROGRAM", "FORCE_COLOR")


@pytest.fixture(autouse=True)
def _steady_terminal_env(monkeypatch: pytest.MonkeyPatch) -> None:
    """Screens and snapshots must not depend on the terminal the tests happen to run in."""
    import os

    for name in list(os.environ):
        if name in _VOLATILE_ENV or (
            name.startswith("TEXTUAL_") and not name.startswith("TEXTUAL_SNAPSHOT")
        ):
            monkeypatch.delenv(name, raising=False)


@pytest.fixture(scope="session")
def minilm() -> Any:
    """The MiniLM model, loaded once per test process (a missing package fails, never skips:
    `make test` installs it)."""
    from attn_tui.models import load_model

    return load_model("minilm")


@pytest.fixture(autouse=True)
def _answers_read_at_once(monkeypatch: pytest.MonkeyPatch) -> None:
    """Pilot answers a question a few ms after it comes up, faster than anyone reads; the
    guard against answers typed before a question could be read is tested on its own
    (tests/lessons/test_read_first.py)."""
    from attn_tui.tui.tutor import runner

    monkeypatch.setattr(runner, "ANSWER_GUARD", 0.0)
