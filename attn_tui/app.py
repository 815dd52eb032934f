"""AttnApp and make_app(): the one way the CLI, the tests and the screenshots build the app."""

from __future__ import annotations

from collections.abc import Iterable

from textual.app import App, SystemCommand
from textual.binding import Binding
from textual.screen import Screen

from attn_tui import state
from attn_tui.compute import MASKS
from attn_tui.state import Workspace


class AttnApp(App[int]):
    CSS_PATH = "app.tcss"
    TITLE = "attn-tui"
    ENABLE_COMMAND_PALETTE = True
    BINDINGS = [
        Binding("q,ctrl+q", "quit", "Quit"),
        Binding("question_mark,f1", "help", "Help"),
        Binding("ctrl+p", "command_palette", "Commands", show=False),
    ]

    def __init__(self, workspace: Workspace) -> None:
        super().__init__()
        self.initial_workspace = workspace

    def on_mount(self) -> None:
        from attn_tui.screens.workbench_screen import WorkbenchScreen

        self.push_screen(WorkbenchScreen(self.initial_workspace))

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
             seed: int = 0, workspace: Workspace | None = None) -> AttnApp:
    from dataclasses import replace

    ws = workspace or state.from_preset(preset, seed=seed)
    return AttnApp(replace(ws, backend=backend, dtype=dtype))
