"""Every key attn-tui answers, gathered from the bindings themselves.

The help screen and the README's keyboard reference are both made from this, so neither can
drift from what the keys really do.
"""

from __future__ import annotations

from textual.binding import Binding

KEY_NAMES = {
    "left_square_bracket": "[", "right_square_bracket": "]", "less_than_sign": "<",
    "greater_than_sign": ">", "question_mark": "?", "plus": "+", "minus": "-",
    "equals_sign": "=", "asterisk": "*", "slash": "/", "escape": "Esc", "enter": "Enter",
    "pageup": "PgUp", "pagedown": "PgDn", "up": "↑", "down": "↓", "left": "←", "right": "→",
    "home": "Home", "end": "End", "tab": "Tab",
}


def key_label(keys: str) -> str:
    out = []
    for key in keys.split(","):
        key = key.strip()
        if key.startswith("ctrl+"):
            out.append("ctrl+" + KEY_NAMES.get(key[5:], key[5:]))
        else:
            out.append(KEY_NAMES.get(key, key))
    return " ".join(out)


def sections() -> list[tuple[str, list[tuple[str, str]]]]:
    """(section title, [(keys, what they do)]) for every place keys are bound."""
    from attn_tui.tui.app import AttnApp
    from attn_tui.tui.screens.workbench_screen import WorkbenchScreen
    from attn_tui.tui.widgets.dims_bar import DimsBar
    from attn_tui.tui.widgets.grid_view import GridView
    from attn_tui.tui.widgets.matrix_editor import MatrixEditor

    def rows(bindings) -> list[tuple[str, str]]:
        seen: dict[tuple[str, str], list[str]] = {}  # one row per action, all its keys
        for b in bindings:
            if isinstance(b, Binding) and b.description:
                keys = seen.setdefault((b.action, b.tooltip or b.description), [])
                if (label := key_label(b.key)) not in keys:
                    keys.append(label)
        return [(" ".join(keys), does) for (_, does), keys in seen.items()]

    grid = rows(GridView.BINDINGS)
    grid = [("↑↓←→ (h j k l)", "move the cursor")] + [r for r in grid if r[0] not in (
        "↑ k", "↓ j", "← h", "→ l")]
    editor = rows(MatrixEditor.BINDINGS) + [("0-9 - .", "start typing a new value"),
                                            ("paste", "several numbers (rows on lines) fill the "
                                             "cells from the cursor; one number is typed in")]
    out = [
        ("Everywhere", rows(b for b in AttnApp.BINDINGS if not str(b.action).startswith("lesson"))
                       + [("Tab / shift+Tab", "next / previous pane")]),
        ("Workbench", rows(WorkbenchScreen.BINDINGS)),
        ("In Q, K or V", editor),
        ("In any table", grid),
        ("In the dimensions bar", rows(DimsBar.BINDINGS) + [
            ("0-9", "type a new value: Enter sets it, Esc cancels; one out of range is refused")]),
    ]
    return out + _lesson_and_lab_sections(rows)


def _lesson_and_lab_sections(rows) -> list[tuple[str, list[tuple[str, str]]]]:
    import importlib

    from attn_tui.core.labs import LABS, lab_available

    out = []
    from attn_tui.tui.tutor import runner

    lesson = [r for r in rows(runner.BINDINGS) if not r[1].startswith("answer ")]
    out.append(("In a lesson", lesson + [("a b c d", "answer the question")]))
    base = None
    for name, lab in LABS.items():
        if not lab_available(name):
            continue
        screen = getattr(importlib.import_module(lab.module), lab.screen_class)
        if base is None:
            from attn_tui.tui.screens.labs.lab_screen import LabScreen
            from attn_tui.tui.widgets.control_bar import ControlBar

            base = rows(LabScreen.BINDINGS)
            out.append(("In any lab", base + [("← → (h l)", "choose a control"),
                                               ("↑ ↓ (k j)", "step it"),
                                               ("PgUp PgDn", "×2 ÷2 where that fits"),
                                               ("Enter", "type a value")]
                        + [r for r in rows(ControlBar.BINDINGS) if r[0] not in (
                            "← h", "→ l", "↑ k", "↓ j", "PgUp", "PgDn", "Enter space")]))
        own = [r for r in rows(screen.BINDINGS) if r not in base]
        if own:
            out.append((f"{name.capitalize()} lab", own))
    return out


def as_markdown() -> str:
    out = []
    for title, entries in sections():
        out += [f"**{title}**", "", "| key | does |", "| --- | --- |"]
        out += [f"| `{k}` | {d} |" for k, d in entries]
        out.append("")
    return "\n".join(out)
