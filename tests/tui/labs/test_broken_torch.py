"""A torch that is installed but fails to import: every lab carries on as without torch."""

from __future__ import annotations

import importlib.abc
import importlib.util
import sys

import pytest
from lab_pilot import lab_app, settle

from attn_tui.compute import backend


class _Broken(importlib.abc.MetaPathFinder, importlib.abc.Loader):
    """Finds torch (it is installed) and fails inside it, as a missing shared library does."""

    def find_spec(self, name, path=None, target=None):
        if name == "torch" or name.startswith("torch."):
            return importlib.util.spec_from_loader(name, self)
        return None

    def create_module(self, spec):
        return None

    def exec_module(self, module):
        raise ImportError("libtorch_cpu.so: cannot open shared object file")


@pytest.fixture
def broken_torch(monkeypatch):
    for name in [m for m in sys.modules if m == "torch" or m.startswith("torch.")]:
        monkeypatch.delitem(sys.modules, name)
    monkeypatch.setattr(sys, "meta_path", [_Broken(), *sys.meta_path])
    monkeypatch.setattr(backend, "_torch_failure", None, raising=False)


def test_the_check_says_installed_and_then_broken(broken_torch) -> None:
    assert backend.torch_available() is True  # installed, not yet tried: the cheap answer
    assert backend.torch_usable() is False
    problem = backend.torch_problem()
    assert "torch is installed but does not import" in problem and "libtorch_cpu" in problem
    assert backend.torch_available() is False  # once tried, lists say so too
    with pytest.raises(backend.BackendUnavailable, match="does not import"):
        backend.namespace("torch")


async def test_the_precision_lab_opens_on_numpy_and_says_why(broken_torch) -> None:
    from screen_text import screen_text

    from attn_tui.tui.widgets.text_table import TextTable

    async with lab_app("precision").run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        screen = pilot.app.screen
        dtypes = screen.query_one("#dtype-table", TextTable)
        assert list(dtypes.row_labels) == ["float64 (ref)", "float32"]
        assert "float32: allclose True" in str(screen.query_one("#lecture-text").render())
        text = " ".join(screen_text(pilot.app).split())
        assert "torch is installed but does not import" in text


@pytest.mark.parametrize("lab", ["scaling", "heads", "precision", "model"])
async def test_a_lab_asked_for_torch_computes_on_numpy_and_says_so(broken_torch, lab) -> None:
    import importlib

    from attn_tui.core.labs import LABS

    screen_cls = getattr(importlib.import_module(LABS[lab].module), LABS[lab].screen_class)
    async with lab_app("scaling").run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        pilot.app.push_screen(screen_cls(backend="torch", dtype="float32"))
        await settle(pilot)
        screen = pilot.app.screen
        assert screen.backend == "numpy" and screen.dtype == "float32"
        assert "does not import" in screen.message
