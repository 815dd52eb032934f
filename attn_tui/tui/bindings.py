"""Every key binding of attn-tui, as data: the classes take their BINDINGS from here.

Each binding has an id, ``owner.what``, so ``App.set_keymap({"workbench.mask": "M"})`` can move
a key, and the keyboard reference (``help_keys``) is made from these lists without importing
the app, its screens or its labs.
"""

from __future__ import annotations

from textual.binding import Binding

LETTERS = "abcd"  # the answer keys; the loader checks lesson files against the same letters

# the app's own, everywhere
APP = [
    Binding("q", "quit", "Quit", show=False, id="app.quit"),
    # priority: dialogs stop the app's keys below them, and ctrl+q must quit from there too
    Binding("ctrl+q", "quit", "Quit", priority=True, id="app.quit_anywhere"),
    Binding("question_mark,f1", "help", "Help", id="app.help"),
    Binding("g", "goto", "Go to", id="app.goto"),
    Binding("ctrl+s", "save", "Save", show=False, tooltip="save the session (JSON); once named, to that file",
            id="app.save"),
    Binding("ctrl+o", "open", "Open", show=False, tooltip="open a saved session or training run",
            id="app.open"),
    Binding("ctrl+p", "command_palette", "Commands", show=False,
            tooltip="every command by name, this screen's and an open lesson's keys too",
            id="app.commands"),
    # priority: in a dialog or a box being typed in too
    Binding("ctrl+l", "redraw", "Redraw", show=False, priority=True,
            tooltip="draw the whole screen again, after something else wrote over it",
            id="app.redraw"),
]

# the app's too, run by its lesson runner: priority keys, switched off when no lesson shows
LESSON = [
    # the panel's lower edge names these; the footer keeps room for the screen's own keys
    Binding("n", "lesson('next')", "Next step", show=False, priority=True, id="lesson.next"),
    Binding("p", "lesson('prev')", "Previous step", show=False, priority=True,
            id="lesson.prev"),
    Binding("escape", "lesson('leave')", "Leave lesson", show=False, priority=True,
            id="lesson.leave"),
    *(Binding(c, f"lesson('answer', '{c}')", f"answer {c}", show=False, priority=True,
              id=f"lesson.answer_{c}") for c in LETTERS),
    # a step with a task: hints, then "show me" (asks: y), and the step's start again
    Binding("h", "lesson('hint')", "Hint", show=False, priority=True, id="lesson.hint",
            tooltip="a lesson task's hint; after two, h offers to show a solution"),
    Binding("y", "lesson('show')", "Show me", show=False, priority=True, id="lesson.show",
            tooltip="after h offers it: put a state that meets the task's goal on the panes"),
    Binding("ctrl+r", "lesson('reset')", "Reset step", show=False, priority=True,
            id="lesson.reset", tooltip="a lesson step back to its start: a task's, or changed panes (u undoes)"),
    # the panel cannot take focus (the panes keep it): in a small window its words scroll
    Binding("shift+down", "lesson('scroll', 1)", "Lesson text down", show=False,
            tooltip="scroll the lesson's words down (a small window)", id="lesson.scroll_down"),
    Binding("shift+up", "lesson('scroll', -1)", "Lesson text up", show=False,
            tooltip="scroll the lesson's words up", id="lesson.scroll_up"),
]

WORKBENCH = [
    Binding("m", "cycle_mask", "Mask", tooltip="mask order: none → causal → causal-after",
            id="workbench.mask"),
    Binding("s", "toggle_scale", "Scale", tooltip="divide the scores by √d_k, or not",
            id="workbench.scale"),
    Binding("b", "toggle_backend", "Backend", tooltip="compute with numpy or torch",
            id="workbench.backend"),
    Binding("f", "toggle_dtype", "float64/32", show=False,
            tooltip="precision: float64 or float32", id="workbench.dtype"),
    Binding("v", "cycle_view", "Map view", show=False,
            tooltip="map view: weights → scores → softmax input → outputs → α as a picture",
            id="workbench.view"),
    Binding("p", "pick_preset", "Presets", tooltip="load an example from the course",
            id="workbench.presets"),
    Binding("r", "random_fill", "Random", show=False,
            tooltip="fill Q, K, V with seeded random values (same seed, same values)",
            id="workbench.random"),
    Binding("R", "reset", "Reset", show=False, tooltip="reload the current example (a head opened with w: its own numbers)",
            id="workbench.reset"),
    Binding("u,ctrl+z", "undo", "Undo", show=False, tooltip="undo the last change",
            id="workbench.undo"),
    Binding("U,ctrl+y", "redo", "Redo", show=False, tooltip="redo", id="workbench.redo"),
    Binding("right_square_bracket", "tokens(1)", "T+1", show=False, tooltip="one more token",
            id="workbench.more_tokens"),
    Binding("left_square_bracket", "tokens(-1)", "T−1", show=False,
            tooltip="one token fewer", id="workbench.fewer_tokens"),
    Binding("greater_than_sign", "width(1)", "d_k+1", show=False,
            tooltip="widen Q and K by one dimension", id="workbench.wider"),
    Binding("less_than_sign", "width(-1)", "d_k−1", show=False,
            tooltip="narrow Q and K by one dimension", id="workbench.narrower"),
    Binding("D", "focus_dims", "Dimensions", show=False,
            tooltip="go to the dimensions bar (T, d_k, d_v, seed)", id="workbench.dims"),
    Binding("e", "export", "Export", show=False,
            tooltip="export the tables (md, csv, tex), every stage (.npz) or a script",
            id="workbench.export"),
    Binding("c", "copy", "Copy", show=False,
            tooltip="copy the step table and weights to the clipboard (works over SSH)",
            id="workbench.copy"),
]

# While a value is typed, the typing widget reads Enter and Escape itself; these bindings only
# name them in the key bar (and a click on one there presses it). Each widget answers
# action_typed and lets them through its check_action only while it is typing.
TYPING = [
    Binding("enter", "typed('set')", "Set", tooltip="while typing: store the value",
            id="typing.set"),
    # ctrl+c too: what terminals teach for "stop"
    Binding("escape,ctrl+z,ctrl+c", "typed('cancel')", "Cancel",
            tooltip="while typing: cancel, keep the old value", id="typing.cancel"),
]

GRID = [
    Binding("up,k", "move(-1, 0)", "Up", show=False, id="grid.up"),
    Binding("down,j", "move(1, 0)", "Down", show=False, id="grid.down"),
    Binding("left,h", "move(0, -1)", "Left", show=False, id="grid.left"),
    Binding("right,l", "move(0, 1)", "Right", show=False, id="grid.right"),
    Binding("home", "jump(0)", "First column", show=False, id="grid.first_column"),
    Binding("end", "jump(-1)", "Last column", show=False, id="grid.last_column"),
    Binding("pageup", "page(-1)", "Page up", show=False, id="grid.page_up"),
    Binding("pagedown", "page(1)", "Page down", show=False, id="grid.page_down"),
]

EDITOR = [
    Binding("enter", "edit", "Edit", tooltip="open the cell, its value selected",
            id="editor.edit"),
    *TYPING,
    # where each goes, said: the palette said "at the cursor" of a token added last
    Binding("a", "structure('add_row')", "Add token", show=False, id="editor.add_token",
            tooltip="add a token after the last"),
    Binding("x", "structure('remove_row')", "Remove token", show=False,
            id="editor.remove_token", tooltip="remove the cursor's token"),
    Binding("A", "structure('add_col')", "Add dim", show=False, id="editor.add_dim",
            tooltip="add a dimension after the last (Q and K share d_k)"),
    Binding("X", "structure('remove_col')", "Remove dim", show=False, id="editor.remove_dim",
            tooltip="remove the cursor's dimension"),
]

CONTROL_BAR = [
    Binding("left,h", "pick(-1)", "Field", show=False, id="controls.previous"),
    Binding("right,l", "pick(1)", "Field", show=False, id="controls.next"),
    Binding("up,k", "step(1)", "Step up", show=False, id="controls.up"),
    Binding("down,j", "step(-1)", "Step down", show=False, id="controls.down"),
    Binding("pageup", "scale(1)", "×2", show=False, id="controls.double"),
    Binding("pagedown", "scale(0)", "÷2", show=False, id="controls.halve"),
    Binding("enter,space", "activate", "Set", show=False, id="controls.activate"),
    *TYPING,
]

DIMS_BAR = [
    Binding("left,h", "pick(-1)", "Field", show=False,
            tooltip="the field before: T, d_k, d_v or seed", id="dims.previous"),
    Binding("right,l", "pick(1)", "Field", show=False, tooltip="the field after",
            id="dims.next"),
    Binding("up,k,plus,equals_sign", "step(1)", "+1", id="dims.up"),
    Binding("down,j,minus", "step(-1)", "−1", id="dims.down"),
    Binding("pageup,asterisk", "scale(1)", "×2", id="dims.double"),
    Binding("pagedown,slash", "scale(0)", "÷2", id="dims.halve"),
    Binding("enter,space", "activate", "Type", tooltip="edit the chosen value, the old one selected",
            id="dims.activate"),
    *TYPING,  # a key named here replaces the bar's own list for it
]

LAB = [
    Binding("escape", "back", "Back", id="lab.back"),
    Binding("c", "focus_controls", "Controls", show=False, id="lab.controls"),
    Binding("u,ctrl+z", "undo", "Undo", show=False,
            tooltip="undo the last change of the settings (a control, R, a lesson's y or ctrl+r)",
            id="lab.undo"),
    Binding("U,ctrl+y", "redo", "Redo", show=False, tooltip="redo", id="lab.redo"),
    # reached when the focused widget has no use for them (the bar on a task, not a number)
    Binding("pagedown", "page(1)", "Page down", show=False, id="lab.page_down",
            tooltip="scroll the panes below the controls (on a number the bar takes it, "
                    "but not while a lesson's question holds the settings)"),
    Binding("pageup", "page(-1)", "Page up", show=False, id="lab.page_up",
            tooltip="scroll back up (on a number the bar takes it, as PgDn)"),
]

# the pictures of heads: the model screen's grid of 72, the train lab's maps and frames
HEAD_GRID = [
    Binding("up,k", "step(-1, 0)", "Layer up", show=False, id="head_grid.up"),
    Binding("down,j", "step(1, 0)", "Layer down", show=False, id="head_grid.down"),
    Binding("left,h", "step(0, -1)", "Head left", show=False, id="head_grid.left"),
    Binding("right,l", "step(0, 1)", "Head right", show=False, id="head_grid.right"),
]
ALPHA_MAPS = [
    Binding("left", "scrub(-1)", "Earlier frame", show=False, id="alpha_maps.earlier"),
    Binding("right", "scrub(1)", "Later frame", show=False, id="alpha_maps.later"),
    Binding("home", "scrub(-1000000)", "First frame", show=False, id="alpha_maps.first"),
    Binding("end", "scrub(1000000)", "Last frame", show=False, id="alpha_maps.last"),
    Binding("up", "head(-1)", "Previous head", show=False, id="alpha_maps.previous_head"),
    Binding("down", "head(1)", "Next head", show=False, id="alpha_maps.next_head"),
]

# each lab's own, by its name in attn_tui.core.labs
LABS = {
    "scaling": [
        Binding("s", "toggle_scale", "÷√d_k on/off", id="scaling.scale"),
        Binding("R", "reset", "Defaults", id="scaling.reset"),
    ],
    "precision": [
        Binding("plus,equals_sign", "step_multiplier(1)", "Scores ×↑", id="precision.up"),
        Binding("minus", "step_multiplier(-1)", "Scores ×↓", id="precision.down"),
        Binding("R", "reset", "Defaults", id="precision.reset"),
    ],
    "heads": [
        Binding("right_square_bracket", "next_head", "Next head", id="heads.next"),
        Binding("left_square_bracket", "previous_head", "Prev head", id="heads.previous"),
        Binding("m", "toggle_causal", "Causal", id="heads.causal"),
        Binding("R", "reset", "Defaults", id="heads.reset"),
    ],
    "model": [
        Binding("p", "next_preset", "Next preset", id="model.next_preset"),
        Binding("R", "reset", "Defaults", id="model.reset"),
    ],
    "minilm": [
        Binding("escape", "back", "Back", id="minilm.back",
                tooltip="back to the workbench; Go to reopens this sentence and head"),
        Binding("slash,i", "focus_sentence", "Sentence", tooltip="type a new sentence", id="minilm.sentence"),
        Binding("right_square_bracket", "query(1)", "Next token",
                tooltip="the next query token's steps", id="minilm.next_token"),
        Binding("left_square_bracket", "query(-1)", "Prev token", show=False,
                tooltip="the previous query token's steps", id="minilm.previous_token"),
        Binding("w", "open_in_workbench", "To workbench",
                tooltip="open this head's real Q, K, V in the workbench, to edit", id="minilm.workbench"),
        Binding("e", "export", "Export", show=False,
                tooltip="export this head's steps and weights to a file (.md .csv .tex .npz "
                ".py), as e does on the workbench", id="minilm.export"),
        Binding("u,ctrl+z", "undo", "Undo", show=False,
                tooltip="undo the last change: a head, a query token, the sentence typed",
                id="minilm.undo"),
        Binding("U,ctrl+y", "redo", "Redo", show=False,
                tooltip="redo: the head, token or sentence u took back", id="minilm.redo"),
    ],
    "train": [
        # priority: the bar would read Enter as "type a value"; it still does while typing
        Binding("enter", "start", "Train / pause", priority=True, id="train.start"),
        Binding("f", "focus_maps", "Frames", show=False,
                tooltip="the maps take the keys: ←→ walk the frames, ↑↓ pick a head",
                id="train.frames"),
        Binding("w", "to_workbench", "Head → workbench",
                tooltip="open the chosen head's real Q, K, V (causal) in the workbench, to edit", id="train.workbench"),
        Binding("e", "save_run", "Save run",
                tooltip="save the run (losses, frames, weights) as .npz: ctrl+o reopens it", id="train.save_run"),
        Binding("R", "reset", "Defaults", tooltip="this task's default settings",
                id="train.reset"),
    ],
}

# keys a screen's own widgets read, for the keyboard reference (they have no binding to list)
HELP_EXTRAS = {
    "minilm": (("↑↓←→ (h j k l)", "in the grid of heads: pick a layer and a head"),
              ("Enter", "in the sentence: back to the heads (the maps follow as you type; an "
                        "empty one stays)"),
              ("Tab / shift+Tab", "to the step table, then into the sentence (its cursor at "
                                  "the end: what is typed adds to it), and back; in a short "
                                  "window the table is below the pictures, and Tab brings it "
                                  "into sight"),
              ("PgDn / PgUp", "scroll the screen"),
              ("click", "a head's picture picks it; a row of the large picture, its query")),
    "train": (("click", "in the maps: a head's picture picks it"),),
}

# a widget's own keys, listed under its lab in the keyboard reference: (where, bindings)
HELP_WIDGETS = {"train": ("in the maps, once trained or paused", ALPHA_MAPS)}

# a section title in the keyboard reference, where "<Name> lab" would not say what it is
HELP_TITLES = {"minilm": "Model screen (--model minilm)"}
