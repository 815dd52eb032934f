"""Every key attn-tui answers, gathered from the bindings themselves (``bindings``: data, so
neither the app nor a screen is imported to list them).

The help screen and the README's keyboard reference are both made from this, so neither can
drift from what the keys really do.
"""

from __future__ import annotations

from collections.abc import Iterable

from textual.binding import Binding

from attn_tui.core.labs import LABS, lab_available
from attn_tui.tui import bindings

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


def rows(bindings: Iterable[Binding]) -> list[tuple[str, str]]:
    """(keys, what they do): one row per action, all its keys; unnamed bindings left out."""
    seen: dict[tuple[str, str], list[str]] = {}
    for b in bindings:
        if b.description:
            keys = seen.setdefault((b.action, b.tooltip or b.description), [])
            if (label := key_label(b.key)) not in keys:
                keys.append(label)
    return [(" ".join(keys), does) for (_, does), keys in seen.items()]


BAR_CLICK = ("click", "a field's name or value picks it; its ‹ or › steps it down or up")


def sections() -> list[tuple[str, list[tuple[str, str]]]]:
    """(section title, [(keys, what they do)]) for every place keys are bound."""
    grid = rows(bindings.GRID)
    grid = [("↑↓←→ (h j k l)", "move the cursor"),
            ("click", "a cell: the cursor goes there (a row's label: that row)")] + [
        r for r in grid if r[0] not in ("↑ k", "↓ j", "← h", "→ l")]
    editor = rows(bindings.EDITOR) + [("0-9 - .", "start typing a new value"),
                                      ("Backspace Delete", "open the cell empty, to type its "
                                       "new value (Esc keeps the old)"),
                                      ("double click", "open the cell to type a new value"),
                                      ("paste", "several numbers (rows on lines) fill the "
                                       "cells from the cursor; one number is typed in")]
    lesson = [r for r in rows(bindings.LESSON) if not r[1].startswith("answer ")]
    out = [
        ("Everywhere", rows(bindings.APP) + [("Tab / shift+Tab", "next / previous pane"),
                                             ("click", "beside a dialog: close it, as Esc does")]),
        ("Workbench", rows(bindings.WORKBENCH)),
        ("In Q, K or V", editor),
        ("In any table", grid),
        ("In the dimensions bar", rows(bindings.DIMS_BAR) + [
            ("0-9", "type a new value: Enter sets it, Esc cancels; one out of range is refused "
                    "and stays, to mend"),
            ("Esc", "not typing: back to the pane the keys came from"), BAR_CLICK]),
        # a screen's p (Presets, Next preset) is the lesson's Previous step while one runs
        ("In a lesson (before a screen's own keys: p goes back a step)",
         lesson + [("a b c d", "answer the question"),
                   ("click", "a key's words on the panel's edge, or a choice: as the key")]),
    ]
    base = rows(bindings.LAB)
    labs = [name for name in LABS if lab_available(name)]
    if labs:
        out.append(("In any lab", base + [("← → (h l)", "choose a control"),
                                           ("↑ ↓ (k j)", "step it"),
                                           ("PgUp PgDn", "×2 ÷2 where that fits; a rung on a "
                                                         "ladder (scores ×, lr), as ↑ ↓"),
                                           ("Enter", "type a value (the train lab: train or pause)"),
                                           BAR_CLICK]
                    + [r for r in rows(bindings.CONTROL_BAR) if r[0] not in (
                        "← h", "→ l", "↑ k", "↓ j", "PgUp", "PgDn", "Enter space")]))
    for name in labs:
        # "In any lab" names the keys a lab screen shares; the model screen is none (no
        # controls), so its own Esc is listed with it, not left to a section it is not in
        shared = base if LABS[name].module.startswith("attn_tui.tui.screens.labs.") else []
        own = [r for r in rows(bindings.LABS.get(name, ())) if r not in shared]
        own = list(bindings.HELP_EXTRAS.get(name, ())) + own
        if name in bindings.HELP_WIDGETS:
            where, keys = bindings.HELP_WIDGETS[name]
            own += [(k, f"{where}: {does[:1].lower()}{does[1:]}") for k, does in rows(keys)]
        if own:
            out.append((bindings.HELP_TITLES.get(name, f"{name.capitalize()} lab"), own))
    return out


def as_markdown() -> str:
    out = []
    for title, entries in sections():
        out += [f"**{title}**", "", "| key | does |", "| --- | --- |"]
        out += [f"| `{k}` | {d} |" for k, d in entries]
        out.append("")
    return "\n".join(out)
