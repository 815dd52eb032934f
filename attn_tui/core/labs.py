"""The one list of labs: each lab's name, the screen that shows it and one line that says what it
is for. The command line, the lesson loader, session files, help and Go to all read it."""

from __future__ import annotations

from typing import NamedTuple


class Lab(NamedTuple):
    name: str
    module: str  # the screen's module, imported only when the lab is opened
    screen_class: str
    line: str  # what the lab is for, in the go-to list, the palette and help
    # the precision its numbers come in whatever the workbench's: a trained model computes in
    # its weights' own (as `attn-tui print heads`), unless --dtype asks for another
    dtype: str | None = None

    @property
    def screen(self) -> str:
        """The lab as a session or a lesson step names the screen it is on: ``lab:NAME``."""
        return f"lab:{self.name}"


_SCREENS = "attn_tui.tui.screens.labs"

LABS: dict[str, Lab] = {lab.name: lab for lab in (
    Lab("scaling", f"{_SCREENS}.scaling_lab_screen", "ScalingLabScreen",
        "why ÷√d_k: entropy against d_k, raw and scaled"),
    Lab("model", f"{_SCREENS}.model_lab_screen", "ModelLabScreen",
        "count a transformer's parameters; what n² costs"),
    Lab("precision", f"{_SCREENS}.precision_lab_screen", "PrecisionLabScreen",
        "float64 to bfloat16; a naive softmax overflowing"),
    Lab("heads", f"{_SCREENS}.heads_lab_screen", "HeadsLabScreen",
        "split D into h heads, with no extra parameters"),
    # a trained model's heads (attn_tui.models); the screen says how to install the model
    Lab("minilm", "attn_tui.tui.screens.model_screen", "ModelScreen",
        "a trained model's 72 heads on a sentence you type", dtype="float32"),
    Lab("train", f"{_SCREENS}.train_lab_screen", "TrainLabScreen",
        "train a tiny transformer; watch its heads learn"),
)}

LAB_NAMES: tuple[str, ...] = tuple(LABS)

# every screen a session can record, or a lesson step can stand on
SCREENS: tuple[str, ...] = ("workbench", *(lab.screen for lab in LABS.values()))


def lab_available(name: str) -> bool:
    """True if this install has the lab's screen (a trimmed install may leave one out)."""
    import importlib.util  # when help or Go to first asks, not at every launch

    lab = LABS.get(name)
    return lab is not None and importlib.util.find_spec(lab.module) is not None


def lab_of_module(module: str) -> str | None:
    """The name of the lab whose screen class is defined in ``module``, or None."""
    return next((lab.name for lab in LABS.values() if lab.module == module), None)
