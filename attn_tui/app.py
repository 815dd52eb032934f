"""AttnApp and make_app(): the one way the CLI, the tests and the screenshots build the app."""

from __future__ import annotations

import importlib
import importlib.util
from collections.abc import Iterable

from textual.app import App, SystemCommand
from textual.binding import Binding
from textual.screen import Screen

from attn_tui import state
from attn_tui.compute import MASKS
from attn_tui.state import Workspace

# name -> (module, class, one line); a lab's module is imported only when it is opened
LABS: dict[str, tuple[str, str, str]] = {
    "scaling": ("attn_tui.screens.scaling_lab_screen", "ScalingLabScreen",
                "why divide by √d_k: entropy against d_k, raw and scaled"),
    "model": ("attn_tui.screens.model_lab_screen", "ModelLabScreen",
              "count a transformer's parameters; what n² costs"),
    "precision": ("attn_tui.screens.precision_lab_screen", "PrecisionLabScreen",
                  "float64, float32, float16; the naive softmax overflowing"),
    "heads": ("attn_tui.screens.heads_lab_screen", "HeadsLabScreen",
              "split D into h heads: each head's weights, and no extra parameters"),
}


def lab_available(name: str) -> bool:
    return importlib.util.find_spec(LABS[name][0]) is not None


class AttnApp(App[int]):
    CSS_PATH = "app.tcss"
    TITLE = "attn-tui"
    ENABLE_COMMAND_PALETTE = True
    BINDINGS = [
        Binding("q,ctrl+q", "quit", "Quit"),
        Binding("question_mark,f1", "help", "Help"),
        Binding("g", "goto", "Go to"),
        Binding("ctrl+p", "command_palette", "Commands", show=False),
    ]

    def __init__(self, workspace: Workspace, lab: str | None = None) -> None:
        super().__init__()
        self.initial_workspace = workspace
        self.initial_lab = lab

    def on_mount(self) -> None:
        from attn_tui.screens.workbench_screen import WorkbenchScreen

        self.push_screen(WorkbenchScreen(self.initial_workspace))
        if self.initial_lab:
            self.open_lab(self.initial_lab)

    def open_lab(self, name: str) -> None:
        """Open a lab over the workbench; Escape in the lab comes back."""
        module, cls, _ = LABS[name]
        screen_cls = getattr(importlib.import_module(module), cls)
        bench = self.workbench()
        while self.screen is not bench and len(self.screen_stack) > 2:
            self.pop_screen()
        ws = bench.workspace if bench is not None else self.initial_workspace
        self.push_screen(screen_cls(backend=ws.backend, dtype=ws.dtype))

    def goto_entries(self) -> list[tuple[str, str]]:
        entries = [("workbench", "workbench   edit Q, K, V and watch every stage")]
        entries += [(f"lab:{n}", f"lab {n:<10} {line}") for n, (_, _, line) in LABS.items()
                    if lab_available(n)]
        return entries

    def action_goto(self) -> None:
        from attn_tui.screens.goto_modal import GotoModal

        def chosen(target: str | None) -> None:
            if target is None:
                return
            if target == "workbench":
                bench = self.workbench()
                while self.screen is not bench and len(self.screen_stack) > 2:
                    self.pop_screen()
            elif target.startswith("lab:"):
                self.open_lab(target[4:])

        self.push_screen(GotoModal(self.goto_entries()), chosen)

    def action_help(self) -> None:
        from attn_tui.screens.help_screen import HelpScreen

        if not isinstance(self.screen, HelpScreen):
            self.push_screen(HelpScreen())

    def workbench(self):
        from attn_tui.screens.workbench_screen import WorkbenchScreen

        for screen in reversed(self.screen_stack):
            if isinstance(screen, WorkbenchScreen):
                return screen
        return None

    def get_system_commands(self, screen: Screen) -> Iterable[SystemCommand]:
        yield from super().get_system_commands(screen)
        bench = self.workbench()
        if bench is None:
            return
        yield SystemCommand("Help: every key", "Show the keyboard reference", self.action_help)
        for name, (_, _, line) in LABS.items():
            if lab_available(name):
                yield SystemCommand(f"Lab: {name}", line, lambda n=name: self.open_lab(n))
        for name in ("one", "select", "mask", "random"):
            yield SystemCommand(f"Preset: {name}", "Load this example into the workbench (u undoes)",
                                lambda n=name: bench.load_preset(n))
        for mask in MASKS:
            yield SystemCommand(f"Mask: {mask}", "Set the causal-mask order",
                                lambda m=mask: bench.action_set_mask(m))
        yield SystemCommand("Scaling: toggle ÷√d_k", "Turn the scaling on or off",
                            bench.action_toggle_scale)
        yield SystemCommand("Backend: numpy", "Compute with numpy",
                            lambda: bench.action_set_backend("numpy"))
        yield SystemCommand("Backend: torch", "Compute with torch (loads it)",
                            lambda: bench.action_set_backend("torch"))
        yield SystemCommand("Precision: toggle float64/float32", "Change the dtype",
                            bench.action_toggle_dtype)
        yield SystemCommand("Fill with seeded random values", "Same seed, same values",
                            bench.action_random_fill)


def make_app(preset: str = "one", backend: str = "numpy", dtype: str = "float64",
             seed: int = 0, workspace: Workspace | None = None,
             lab: str | None = None) -> AttnApp:
    from dataclasses import replace

    ws = workspace or state.from_preset(preset, seed=seed)
    app = AttnApp(replace(ws, backend=backend, dtype=dtype), lab=lab)
    return app
