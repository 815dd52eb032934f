"""The workbench: Q, K, V on the left; the stages for one query and all queries on the right."""

from __future__ import annotations

import os
import sys
from dataclasses import replace
from functools import partial
from typing import TYPE_CHECKING

import numpy as np
from rich.cells import cell_len
from textual import on, work
from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.events import ScreenResume
from textual.reactive import reactive
from textual.screen import Screen
from textual.widget import Widget
from textual.worker import get_current_worker

from attn_tui.compute import BackendUnavailable, Steps, attend
from attn_tui.compute.backend import INSTALL_TORCH
from attn_tui.core import state
from attn_tui.core.presets import LECTURE_EXAMPLES
from attn_tui.core.state import Workspace
from attn_tui.core.state import set_cell as state_cell
from attn_tui.report.fmt import num, num_nonzero
from attn_tui.tui import bindings, textual_compat
from attn_tui.tui.keys import take_once
from attn_tui.tui.screens import say_put_back
from attn_tui.tui.screens.session_file import SessionFile
from attn_tui.tui.widgets.dims_bar import DimsBar
from attn_tui.tui.widgets.grid_view import GridView
from attn_tui.tui.widgets.heatmap import VIEWS, Heatmap, view_title
from attn_tui.tui.widgets.key_bar import KeyBar
from attn_tui.tui.widgets.matrix_editor import MatrixEditor
from attn_tui.tui.widgets.results_column import ResultsColumn
from attn_tui.tui.widgets.status_line import StatusLine
from attn_tui.tui.widgets.step_table import StepTable
from attn_tui.tui.widgets.summary import Summary, vector_forms
from attn_tui.tui.widgets.title_bar import TitleBar
from attn_tui.tui.widgets.titles import set_border_text

if TYPE_CHECKING:
    from attn_tui.tui.widgets.alpha_picture import HeadPicture

HISTORY = 200


class InputsColumn(VerticalScroll, can_focus=False):
    """Q, K and V, one above the other. Made shorter with no resize of the window (a lesson's
    panel grew: a task met at 80x24 hid the cell just typed), the cell under the cursor stays
    in sight if it was: the window's own resizes are kept in view by the app (keep_in_view)."""

    _height = 0

    def on_resize(self) -> None:
        before, self._height = self._height, self.size.height
        grid = self.screen.focused
        if not 0 < self.size.height < before or not isinstance(grid, GridView):
            return
        if self not in grid.ancestors:
            return
        y = grid.cursor_screen_y() - self.region.y
        if self.size.height <= y < before:  # in sight until now
            grid.reveal_cursor()


def _removal_words(ws: Workspace, new: Workspace, event: MatrixEditor.StructureRequested) -> str:
    """What x or X took away, and from how many: the token's or dimension's numbers go with it,
    so it is said, with how to get them back."""
    m = event.editor.matrix
    if event.op == "remove_row":
        label = ws.labels(m)[event.row]
        name, a, b = (("queries", ws.t_q, new.t_q) if m == "Q" and not ws.self_attention
                      else ("T", ws.t_k, new.t_k))
        return f"Removed token {event.row + 1}, {label!r} ({name} {a} → {b}); u undoes."
    name, a, b, where = (("d_k", ws.d_k, new.d_k, "Q and K") if m in ("Q", "K")
                         else ("d_v", ws.d_v, new.d_v, "V"))
    return f"Removed d{event.col + 1} of {where} ({name} {a} → {b}); u undoes."


def _removed(old: Workspace, new: Workspace) -> str | None:
    """What a smaller T, d_k or d_v took away, with its values: ↓ on the dimensions bar and [
    dropped the last tokens without a word, where x in a pane says it."""
    if new.t_k < old.t_k:
        gone = old.key_tokens[new.t_k:]
        which = (f"token {old.t_k}, {gone[0]!r}" if len(gone) == 1
                 else f"tokens {new.t_k + 1} to {old.t_k}")
        return f"Removed {which} (T {old.t_k} → {new.t_k}); u undoes."
    for name, a, b, where in (("d_k", old.d_k, new.d_k, "Q and K"),
                              ("d_v", old.d_v, new.d_v, "V")):
        if b < a:
            cols = f"column d{a}" if a - b == 1 else f"columns d{b + 1} to d{a}"
            return f"Removed {cols} of {where} ({name} {a} → {b}); u undoes."
    return None


class WorkbenchScreen(Screen):
    BINDINGS = bindings.WORKBENCH

    # the layout for the window's width and height: see app.tcss
    HORIZONTAL_BREAKPOINTS = [(0, "-stacked"), (70, "-snug"), (76, "-side-by-side")]
    VERTICAL_BREAKPOINTS = [(0, "-short"), (14, "-tall"), (32, "-roomy")]

    # repaint=False: the watchers update the widgets that change; repainting the whole
    # screen on every edit would cost a full frame at T = 256
    workspace: reactive[Workspace] = reactive(state.from_preset("one"), init=False,
                                              repaint=False)
    view: reactive[str] = reactive("weights", init=False, repaint=False)

    shown_note = "Shown: a state that meets the goal. u undoes it."  # as a LessonHost
    state_words = "numbers"

    def __init__(self, workspace: Workspace, session_path: str | None = None,
                 saved: Workspace | None = None, **kwargs) -> None:
        super().__init__(**kwargs)
        textual_compat.start_at_breakpoints(self)
        self.set_reactive(WorkbenchScreen.workspace, workspace)
        # ``saved``: what counts as unchanged, where that is not ``workspace`` (a rescue)
        self.file = SessionFile(session_path, workspace if saved is None else saved)
        # a lesson's: the workspace as its last step set it up, and the learner's unsaved
        # workspaces that steps replaced
        # a lesson's own states (a step's start, the solution "show me" put there): quitting
        # does not ask about them
        self._lesson_states: tuple[Workspace, ...] = ()
        self._lesson_replaced: tuple[tuple[Workspace, str], ...] = ()  # (work, what replaced it)
        self._head_replaced: tuple[Workspace, ...] = ()  # ... and those a head (w) replaced
        self._heads_opened: dict[str, Workspace] = {}  # by source: what R puts back
        self.steps: Steps | None = None
        # each entry also holds the file its workspace belonged to: undoing an open goes back
        # to the earlier file (so ctrl+s never writes the undone workspace over the other one)
        self._undo: list[tuple[Workspace, SessionFile]] = []
        self._undo_floor = 0  # entries below: a lesson's set-up (lesson_undo_stops_here)
        self._redo: list[tuple[Workspace, SessionFile]] = []
        self._map_picture: HeadPicture | None = None  # see _picture
        self._kept_in_steps: frozenset[tuple[int, int]] = frozenset()  # see _show_steps

    def compose(self) -> ComposeResult:
        yield TitleBar(icon="α", hint="g lessons")  # the first screen's pointer to them
        with Horizontal(id="main"):
            with InputsColumn(id="inputs"):  # Tab goes to the tables
                yield MatrixEditor("Q", "Q  queries", id="editor-q")
                yield MatrixEditor("K", "K  keys", id="editor-k")
                yield MatrixEditor("V", "V  values", id="editor-v")
            with ResultsColumn(id="results"):
                with Vertical(id="steps-box", classes="pane"):
                    yield StepTable(id="steps")
                    yield Summary(id="summary")
                yield Heatmap(id="heatmap", classes="pane")
                # the picture view (#map-picture) is mounted after the map when v first reaches it
        yield DimsBar(id="dims")
        yield StatusLine(id="status")
        yield KeyBar()

    _kept_for: object = None  # the window size keep_in_view last ran for

    def on_resize(self) -> None:
        # the steps box's width is known only once laid out at this size
        self.call_after_refresh(self._title_steps)
        # not the first layout (nothing to keep yet: a lesson's first step may be scrolling
        # to its marks); under help or a dialog, on_screen_resume does it
        if self.app.screen is self and self._kept_for != self.app.size:
            self._keep_in_view()

    def on_screen_resume(self, event: ScreenResume) -> None:
        textual_compat.styled_once_on_first_show(self, event)
        if self._kept_for != self.app.size:  # resized while help or a dialog was open
            self._keep_in_view()

    def lesson_panel_room(self, panel_rows: int) -> int | None:  # as a LessonHost
        # side by side, the column of results keeps its panes' least rows: an answer's words
        # quote their numbers. Stacked, the panes and the panel share one scrolling column.
        if self.has_class("-stacked"):
            return None
        results = self.query_one(ResultsColumn)
        spare = self.query_one("#main").outer_size.height - results.least_rows()
        return panel_rows + spare

    def _keep_in_view(self) -> None:
        self._kept_for = self.app.size
        self.call_after_refresh(self.app.keep_in_view)  # once the panes have their new sizes

    def on_mount(self) -> None:
        self._kept_for = self.app.size
        self.title = "attn-tui"
        self.sub_title = "workbench"
        self._refresh_all()
        self._q_cursor_on(self.workspace.selected)  # a session may open at any query
        self.query_one("#grid-q").focus()

    # ---- state flows down
    def watch_workspace(self, old: Workspace, new: Workspace) -> None:
        self._refresh_all()
        self.app.tutor.host_changed(self)  # a lesson's task is checked after every change
        if new.selected != old.selected:
            self._q_cursor_on(new.selected)

    def _q_cursor_on(self, row: int) -> None:
        """↑↓ in Q picks the query: when something else picks it (R, undo, a session), the
        cursor follows, so that the next ↑ moves from the query shown."""
        editor = self.query_one("#editor-q", MatrixEditor)
        if editor.grid.cursor_row != row:
            editor.grid.move_cursor(row, editor.grid.cursor_col, quiet=True)
            editor.cursor_followed()

    def watch_view(self) -> None:
        if self.view == "picture" and self.query_one(Heatmap).has_focus:
            # the picture takes no keys: Q's rows pick the query as the map's did (a hidden
            # map left the keys with nothing, ↑↓ dead until Tab or a click)
            self.query_one("#editor-q", MatrixEditor).grid.focus()
        if self.steps is not None:
            self._show_map(self.workspace, self.steps)

    def _compute(self, ws: Workspace) -> Steps:
        return attend(ws.q, ws.k, ws.v, mask=ws.mask, scale=ws.scale, backend=ws.backend,
                      dtype=ws.dtype)

    def _refresh_all(self) -> None:
        ws = self.workspace
        try:
            steps = self._compute(ws)
        except (ValueError, BackendUnavailable) as exc:  # 70000 in float16, from a file
            self.notify(str(exc), title="Not computed", severity="error", markup=False)
            # the numbers stay in sight to be mended: opened, the panes were empty
            self._show_editors(ws)
            self.query_one(DimsBar).show(T=ws.t_k, d_k=ws.d_k, d_v=ws.d_v, seed=ws.seed)
            self.query_one(StatusLine).show(ws)
            return
        self.steps = steps
        self._show_editors(ws)
        self._show_steps(ws, steps)
        self._show_map(ws, steps)
        self.query_one(DimsBar).show(T=ws.t_k, d_k=ws.d_k, d_v=ws.d_v, seed=ws.seed)
        self.query_one(StatusLine).show(ws)

    def _show_editors(self, ws: Workspace) -> None:
        d_labels = [f"d{j + 1}" for j in range(ws.d_k)]
        v_labels = [f"d{j + 1}" for j in range(ws.d_v)]
        self.query_one("#editor-q", MatrixEditor).show(ws.q, ws.query_tokens, d_labels, ws.dtype)
        self.query_one("#editor-k", MatrixEditor).show(ws.k, ws.key_tokens, d_labels, ws.dtype)
        self.query_one("#editor-v", MatrixEditor).show(ws.v, ws.key_tokens, v_labels, ws.dtype)

    _steps_title: tuple[str, str | None] = ("", None)  # the query, and its exp's range

    def _title_steps(self) -> None:
        """The step table's title, in full where the box's width allows."""
        where, out_of_range = self._steps_title
        if not where:
            return
        title = f"steps for query {where}"
        if out_of_range:
            forms = (f"{title} · exp {out_of_range}", f"{where} · exp {out_of_range}")
            room = self.query_one("#steps-box").size.width - 6  # corners, rules, spaces
            title = next((f for f in forms if cell_len(f) <= room), forms[-1])
        set_border_text(self.query_one("#steps-box"), title)

    def _show_steps(self, ws: Workspace, steps: Steps) -> None:
        i = ws.selected
        # a query whose weights a lesson keeps back on the map is kept back here too, from exp
        # on: exp over its sum is α
        kept = any(r == i for r, _ in self.query_one(Heatmap).concealed_in("weights"))
        # an exp out of range is said where the inf or the 0s are: the summary that explains
        # it sits under the table, out of sight at 80×24 once T passes 12
        self._steps_title = (f"'{ws.query_tokens[i]}' ({i + 1} of {ws.t_q})",
                             None if kept else steps.exp_out_of_range(i))
        self._title_steps()
        table = self.query_one(StepTable)
        table.edge = "↑↓ in Q picks the query"
        table.show(steps, i, ws.key_tokens)
        if kept or self._kept_in_steps:  # (no set of cells built on an edit outside a lesson)
            lesson_own = table.concealed - self._kept_in_steps
            self._kept_in_steps = frozenset(
                (r, c) for r in range(table.n_rows) for c in range(2, table.n_cols)
            ) if kept else frozenset()
            table.set_concealed(lesson_own | self._kept_in_steps)
        if kept:
            until = ("until you answer" if self.app.tutor.asking(self)
                     else "for a question to come")
            self.query_one(Summary).show(("output ζ = ?", "ζ = ?"),
                                         (f"entropy ?: kept back {until}", "entropy ?"))
            return
        out = [num_nonzero(float(x)) for x in steps.output[i][:16]]  # as the table's column sums
        zeta = vector_forms("output ζ", "ζ", out)
        if len(steps.output[i]) > 16:
            zeta = tuple(f[:-1] + ", …)" if not f.endswith("…)") else f for f in zeta)
        lost = float(steps.lost[i])
        seen = int((~steps.blocked[i]).sum())  # the keys this query may see
        h, top = num_nonzero(float(steps.entropy[i])), num(float(steps.max_entropy[i]))
        entropy = (f"entropy {h} bits, max log₂ {seen} = {top}", f"entropy {h} bits, max {top}",
                   f"H {h} bits, max {top}")
        # no entropy beside weight lost to the mask order: of weights that no longer sum to 1
        # it would mean nothing
        lost_weight = ws.mask == "causal-after" and lost > 5e-5
        note: tuple[str, ...] = ()
        out_of_range = steps.exp_out_of_range(i)
        if out_of_range == "overflows":  # the exp column reads inf, α beside it does not
            note = (f"exp overflows {ws.dtype}; α uses e^(x − max)",
                    "exp overflows; α uses e^(x − max)")
        elif lost_weight:  # the point of that mode
            total, gone = num(float(steps.row_sums[i])), num(lost)
            note = (f"α sums to {total}; {gone} lost (softmax came first)",
                    f"α sums to {total}; {gone} lost (softmax 1st)",
                    f"α sums to {total}; {gone} lost", f"Σα {total}; {gone} lost")
        elif out_of_range == "underflows":  # exp 0, α not
            note = ("exp underflows to 0; α uses e^(x − max)", "exp underflows; α uses e^(x−max)")
        # the note first; the entropy beside it where the pane is wide enough for both
        beside = () if lost_weight else entropy[1:]
        said = (*(f"{n} · {e}" for n in note[:1] for e in beside), *note) or entropy
        self.query_one(Summary).show(zeta, said)

    def _show_map(self, ws: Workspace, steps: Steps) -> None:
        box = self.query_one(Heatmap)
        title = view_title(self.view, steps.mask, steps.scale)
        box.display = self.view != "picture"
        if self.view == "picture":
            picture = self._picture()
            picture.display = True
            # every query in sight: at T = 64 or 256 the rows are averaged in bands that fit
            fits = max(6, self.app.size.height - 10)
            # the picture numbers its rows: the model's tokens opened with w are numbered too
            from attn_tui.models.names import unlabelled  # with the picture, not the first frame

            picture.show(np.asarray(steps.weights, dtype=np.float64),
                         list(unlabelled(ws.query_tokens)),
                         ws.selected, max_rows=fits, hidden=box.concealed_in("picture"))
            # said: the train lab's maps shade by fixed levels (█ ≥ .75), this by row
            from attn_tui.tui.widgets.alpha_picture import ROW_SCALE  # loaded by _picture

            set_border_text(picture, subtitle=f"{ROW_SCALE} · v: change view")
            set_border_text(picture, f"all queries: {title}")
            return
        if self._map_picture is not None:
            self._map_picture.display = False
        box.edge = "v: change view"
        box.show(steps, ws.query_tokens, ws.key_tokens, self.view)
        box.show_edge()
        set_border_text(box, f"all queries: {title}")

    def on_heatmap_concealed(self) -> None:
        if self.steps is not None:  # the picture and the step table keep back the same
            if self.view == "picture":
                self._show_map(self.workspace, self.steps)
            self._show_steps(self.workspace, self.steps)

    def _picture(self) -> HeadPicture:
        """The picture view, mounted the first time v reaches it: most sessions never do, and
        every widget composed adds to the first screen's time."""
        if self._map_picture is None:
            from attn_tui.tui.widgets.alpha_picture import HeadPicture

            self._map_picture = HeadPicture(id="map-picture", classes="pane")
            self.query_one("#results").mount(self._map_picture, after=self.query_one(Heatmap))
        return self._map_picture

    # ---- changes: every one goes through here, so undo sees them all
    def apply(self, new: Workspace, note: str | None = None) -> None:
        new = state.with_source_kept(self.workspace, new)
        if new == self.workspace:
            return
        if replace(new, selected=self.workspace.selected) != self.workspace and self.held():
            return  # another query is only a look; anything else waits for the answer
        self._record()
        self.workspace = new
        if note:  # long enough to read: about 25 characters a second
            self.notify(note, timeout=max(3.0, len(note) / 25), markup=False)

    def open_as(self, ws: Workspace, file: SessionFile) -> None:
        """``ws`` as ``file``'s, one change for undo; also when the numbers are the same (the
        session just saved, opened again), so that the file left is recorded as it was left."""
        same = state.with_source_kept(self.workspace, ws) == self.workspace
        self.apply(ws)
        if same and file is not self.file:
            self._record()
        self.file = file

    def _record(self) -> None:
        """The workspace and file as they are, for undo, before a change."""
        self._undo.append((self.workspace, self.file))
        dropped = max(0, len(self._undo) - HISTORY)
        del self._undo[:dropped]
        self._undo_floor = max(0, self._undo_floor - dropped)
        self._redo.clear()

    @on(MatrixEditor.CellChanged)
    def _cell_changed(self, event: MatrixEditor.CellChanged) -> None:
        if take_once(event, event.editor):
            self._store_cell(event.editor, event.row, event.col, event.value)

    def _store_cell(self, editor: MatrixEditor, row: int, col: int, value: float) -> None:
        try:
            ws = state.set_cell(self.workspace, editor.matrix, row, col, value)
        except IndexError as exc:  # the cell was removed before its value arrived
            self.notify(f"Not entered: {exc}.", severity="warning", timeout=4, markup=False)
            editor.unanswered()
            return
        if ws == self.workspace:
            self._show_editors(ws)  # the same value again: the editor still waits for an answer
        else:
            self.apply(ws)

    def settle_edits(self) -> bool:
        """Store what is being typed into a cell or the dimensions bar, as Enter would, before
        a save or a quit reads the workspace (the message Enter posts would land after them).
        False if the text is refused: it stays open, saying why."""
        # first what earlier keys have sent on its way (Enter, a dimension), in that order
        for editor in self._editors():
            for sent in list(editor.in_flight):
                if take_once(sent, editor):
                    self._take_sent(sent)
        bar = self.query_one(DimsBar)
        if not bar.take_typed(keep_refused=True):  # a T or d_k being typed counts too
            return False
        if (change := bar.in_flight) is not None and not change.stale and take_once(change, bar):
            self._resize(change.key, change.value)
        for editor in self._editors():
            if editor.editing is not None:
                taken = editor.take_edit()
                if taken is None:
                    return False
                self._store_cell(editor, *taken)
        return True

    def typed_now(self) -> list[tuple[MatrixEditor, tuple[int, int], str, int]]:
        """Each cell being typed into: (editor, cell, text, caret), for ``retype``."""
        return [(e, e.editing, e.buffer.text, e.buffer.caret) for e in self._editors()
                if e.editing is not None]

    def undo_mark(self) -> object:
        """The newest undo entry, to tell later whether a change was made since."""
        return self._undo[-1] if self._undo else None

    def retype(self, typed: list[tuple[MatrixEditor, tuple[int, int], str, int]],
               undo_top: object) -> None:
        """A question that stored a typed value as Enter would (quit), cancelled: the value
        goes back to being typed, in its cell, and the numbers to what they were."""
        if self._undo and self._undo[-1] is not undo_top:
            self.workspace = self._undo.pop()[0]
        for editor, (row, col), text, caret in typed:
            editor.grid.move_cursor(row, col, quiet=True)
            editor.begin_edit(text, caret)

    def _editors(self) -> tuple[MatrixEditor, ...]:
        # by id, not a query of the DOM: this runs before every key with a binding (0.2 ms)
        return tuple(self.query_one(f"#editor-{m}", MatrixEditor) for m in "qkv")

    @on(MatrixEditor.BlockPasted)
    @on(MatrixEditor.StructureRequested)
    def _sent(self, event: MatrixEditor.BlockPasted | MatrixEditor.StructureRequested) -> None:
        if take_once(event, event.editor):
            self._take_sent(event)

    def _take_sent(self, event) -> None:
        if isinstance(event, MatrixEditor.CellChanged):
            self._store_cell(event.editor, event.row, event.col, event.value)
        elif isinstance(event, MatrixEditor.BlockPasted):
            self._block_pasted(event)
        else:
            self._structure(event)

    def _block_pasted(self, event: MatrixEditor.BlockPasted) -> None:
        ws, m = self.workspace, event.editor.matrix
        rows, cols = len(event.block), len(event.block[0])
        try:
            new = state.set_block(ws, m, event.row, event.col, event.block)
        except (ValueError, IndexError) as exc:
            self.notify(f"Nothing pasted: {exc}.", title=f"Paste into {m}", severity="warning",
                        timeout=6, markup=False)
            return
        where = f"{ws.labels(m)[event.row]}·d{event.col + 1}"
        self.apply(new, note=f"Pasted {rows}×{cols} numbers into {m} from {where} (u undoes).")
        if new == ws:
            self.notify("Pasted: those cells already held these numbers.", timeout=3)

    def _structure(self, event: MatrixEditor.StructureRequested) -> None:
        ws, m = self.workspace, event.editor.matrix
        ops = {
            "add_row": lambda: state.add_row(ws, m),
            "remove_row": lambda: state.remove_row(ws, m, event.row),
            "add_col": lambda: state.add_column(ws, m),
            "remove_col": lambda: state.remove_column(ws, m, event.col),
        }
        new = ops[event.op]()
        if new == ws:  # at a limit: say which
            rows = event.op.endswith("row")
            n = len(ws.matrix(m)) if rows else len(ws.matrix(m)[0])
            most = "fewest" if event.op.startswith("remove") else "most"
            self.notify(f"{m} already has the {most} {'rows' if rows else 'columns'} it can "
                        f"have ({n}).", severity="warning", timeout=3)
        removed = event.op.startswith("remove") and new != ws
        self.apply(new, note=_removal_words(ws, new, event) if removed else None)

    @on(MatrixEditor.RowSelected, "#editor-q")
    def _query_picked(self, event: MatrixEditor.RowSelected) -> None:
        if event.row == event.editor.grid.cursor_row:  # ↓ held: only where the cursor is now
            self.select_query(event.row)

    @on(GridView.CursorMoved, "#heatmap")
    def _map_row_picked(self, event: GridView.CursorMoved) -> None:
        self.select_query(event.row)

    def select_query(self, row: int) -> None:
        if 0 <= row < self.workspace.t_q and row != self.workspace.selected:
            # choosing what to look at is not an edit: no undo entry
            self.workspace = replace(self.workspace, selected=row)

    # by name, not @on: the picture's module is imported only once v first shows it
    def on_head_picture_query_clicked(self, event: HeadPicture.QueryClicked) -> None:
        # a value being typed is stored first, as ↑↓ store it: the cursor, and the edit line
        # on its row, must not be left behind on another query
        if self.settle_edits():
            self.select_query(event.query)  # as ↑↓ in Q: the step table explains that query

    @on(DimsBar.Changed)
    def _dims(self, event: DimsBar.Changed) -> None:
        if not event.stale and take_once(event, event.bar):
            self._resize(event.key, event.value)

    def _resize(self, key: str, value: int) -> None:
        ws = self.workspace
        if key == "seed":
            # nothing on the panes changes with it: said, or the bar's new seed looked ignored
            self.apply(replace(ws, seed=value), note=f"Seed {value}: r fills Q, K and V from "
                       "it, and cells a larger T, d_k or d_v adds take their values from it.")
            return
        new = state.resize(ws, **{"t" if key == "T" else key: value})
        self.apply(new, note=_removed(ws, new))

    @on(DimsBar.Rejected)
    def _dims_refused(self, event: DimsBar.Rejected) -> None:
        self.notify(event.reason.rstrip(".") + ".", title="Not changed", severity="warning",
                    timeout=4, markup=False)

    # ---- actions (the keys, the command palette and lessons all come here)
    def action_cycle_mask(self) -> None:
        self.apply(replace(self.workspace, mask=state.next_mask(self.workspace.mask)))

    def action_set_mask(self, mask: str) -> None:
        self.apply(replace(self.workspace, mask=mask))

    def action_toggle_scale(self) -> None:
        self.apply(replace(self.workspace, scale=not self.workspace.scale))

    def action_set_scale(self, on: bool) -> None:
        self.apply(replace(self.workspace, scale=bool(on)))

    def action_toggle_dtype(self) -> None:
        self.action_set_dtype("float32" if self.workspace.dtype == "float64" else "float64")

    def action_set_dtype(self, dtype: str) -> None:
        self.apply(replace(self.workspace, dtype=dtype))

    def action_cycle_view(self) -> None:
        self.action_set_view(VIEWS[(VIEWS.index(self.view) + 1) % len(VIEWS)])

    def held(self) -> bool:
        """True, and said, while a lesson's open question keeps the panes as they are."""
        if (why := self.app.tutor.holds_back(self)) is None:
            return False
        self.notify(why, timeout=4, markup=False)
        return True

    def action_set_view(self, view: str) -> None:
        if view != self.view and self.held():
            return
        if view in VIEWS:
            self.view = view
            self._view_into_sight()

    def _view_into_sight(self) -> None:
        if self.view == "picture":  # below a long step table too: the picture is the point
            picture = self._picture()
            scroll = partial(self.call_after_refresh, picture.scroll_visible, animate=False,
                             top=True)
            if picture.region:
                scroll()
            else:  # mounted just now (from the palette, not yet laid out when this runs)
                picture.when_laid_out = scroll
        else:
            self._map_into_view()

    def _map_into_view(self) -> None:
        """The map may be below the fold (stacked in a narrow window, or side by side under a
        step table that fills the column, T = 16 at 80 x 24), and v would seem to do nothing:
        bring its title and first rows up. A map already in sight stays put, and so does a
        column side by side whose step table has the keys (its cursor stays in sight): a
        notice then says what the map below it shows now."""
        heatmap = self.query_one(Heatmap)
        if heatmap.shown_region().height >= min(3, heatmap.outer_size.height):
            return
        results = self.query_one("#results")
        if (not self.has_class("-stacked") and self.focused is not None
                and results in self.focused.ancestors):
            if self.steps is not None:
                title = view_title(self.view, self.steps.mask, self.steps.scale)
                self.notify(f"The map, below the step table, now shows {title}.", timeout=3)
            return
        heatmap.scroll_visible(animate=False, top=True)

    def action_select_query(self, row: int) -> None:
        self.select_query(row)

    def action_toggle_backend(self) -> None:
        if self.workspace.backend == "torch":
            self._to_backend("numpy")
        elif self._loading_torch():  # b again while torch loads: the learner changed their mind
            self.workers.cancel_group(self, "backend")
            self.notify("Staying on numpy.", timeout=2)
        else:
            if "torch" not in sys.modules:  # the first time only: later it is at once
                self.notify("Loading torch…", timeout=2)
            self._load_torch()

    def _loading_torch(self) -> bool:
        return any(w.group == "backend" and w.node is self and not w.is_finished
                   for w in self.app.workers)

    def action_set_backend(self, backend: str) -> None:
        if backend == "numpy":
            # chosen while torch loads (b, then the palette's Backend: numpy): torch must not
            # land after it
            self.workers.cancel_group(self, "backend")
            self._to_backend("numpy")
        elif self.workspace.backend != "torch":
            self._load_torch()

    def _to_backend(self, backend: str) -> None:
        ws, note = state.on_backend(self.workspace, backend)
        self.apply(ws, note=note)

    @work(thread=True, exclusive=True, group="backend")
    def _load_torch(self) -> None:
        from attn_tui.compute import namespace

        try:
            namespace("torch")
        except BackendUnavailable:
            self.app.call_from_thread(
                self.notify, f"{INSTALL_TORCH}. Staying on numpy.", title="No torch",
                severity="warning", timeout=8, markup=False,  # [torch] is not a style
            )
            return
        if not get_current_worker().is_cancelled:  # b pressed again meanwhile: stay
            self.app.call_from_thread(self._to_backend, "torch")

    def action_pick_preset(self) -> None:
        from attn_tui.tui.screens.dialogs.preset_modal import PresetModal

        def chosen(name: str | None) -> None:
            if name:
                self.load_preset(name)

        self.app.push_screen(PresetModal(), chosen)

    def load_preset(self, name: str) -> None:
        """Load an example, keeping the backend and precision in use (R reloads this one)."""
        if name in LECTURE_EXAMPLES:
            self.notify("Loading the lecture's tensors…", timeout=2)
            self._load_lecture(name)
            return
        ws = self.workspace
        new = state.from_preset(name, seed=ws.seed)
        self.apply(replace(new, backend=ws.backend, dtype=ws.dtype),
                   note=f"Preset '{name}' loaded (u undoes)")

    @work(thread=True, exclusive=True, group="example")
    def _load_lecture(self, name: str) -> None:
        # torch's draws when torch is installed: importing it takes a moment, so not here
        from attn_tui.lessons.workspaces import build

        new = build(name)
        self.app.call_from_thread(self._apply_example, name, new)

    def _apply_example(self, name: str, new: Workspace) -> None:
        ws = self.workspace
        self.apply(replace(new, backend=ws.backend, dtype=ws.dtype),
                   note=f"Example '{name}' loaded (u undoes)")

    def action_random_fill(self) -> None:
        ws = self.workspace
        self.apply(state.random_values(ws), note=f"Random values, seed {ws.seed} (u undoes, "
                                                 "R reloads the example)")

    def action_reset(self) -> None:
        ws = self.workspace
        if not ws.source:
            self.load_preset(ws.preset)
            return
        # a head's numbers (w): filed under the random example, which R must not put in their place
        head = self._heads_opened.get(ws.source.removesuffix(state.EDITED))

        def short(source: str) -> str:  # its sentence may run to 2,000 characters
            return source if len(source) <= 140 else source[:139] + "…"

        if head is None:
            self.notify(f"R reloads an example; these numbers are {short(ws.source)}. Open "
                        "that head again with w for its own numbers.", severity="warning",
                        timeout=8, markup=False)
            return
        head = replace(head, backend=ws.backend, dtype=ws.dtype, selected=ws.selected)
        if head == ws:  # the query looked at is the learner's, not a change R undoes
            self.notify("These are the head's own numbers already.", timeout=3)
            return
        self.apply(head, note=f"The head's own Q, K, V back: {short(head.source)} (u undoes)")

    def action_undo(self) -> None:
        if self.held():
            return
        if self._loading_torch():  # b's switch, still on its way, is the last change
            self.workers.cancel_group(self, "backend")
            say_put_back(self.app, True, "the switch to torch, still loading")
            return
        # an entry the panes have come back to since (a query picked again, a step's own
        # set-up) would undo nothing: "Undid: nothing seen"
        while (len(self._undo) > self._undo_floor and self._undo[-1][0] == self.workspace
               and self._undo[-1][1] is self.file):
            self._undo.pop()
        if len(self._undo) <= self._undo_floor:
            self.notify(f"Nothing to undo: these {self.state_words} are as the lesson step set "
                        "them up." if self._undo else "Nothing to undo.", timeout=3)
            return
        before, opened = self.workspace, self.file
        self._redo.append((self.workspace, self.file))
        self._restore(*self._undo.pop())
        say_put_back(self.app, True, self._put_back_words(before, opened, undo=True))

    def action_redo(self) -> None:
        if self.held():
            return
        if not self._redo:
            self.notify("Nothing to redo.", timeout=2)
            return
        before, left = self.workspace, self.file
        self._undo.append((self.workspace, self.file))
        self._restore(*self._redo.pop())
        # with several kinds of change on the stack, the panes alone did not tell which went
        say_put_back(self.app, False, self._put_back_words(before, left, undo=False))

    def _put_back_words(self, before: Workspace, was: SessionFile, undo: bool) -> str:
        """What u or U took back: the cells, and, across an open, the open and the file now
        (an undone open had read "Undid: Q dog d1 0.5 → 3", as if a cell had been typed)."""
        words = state.change_words(before, self.workspace)
        if self.file is was:
            return words
        opened = (was if undo else self.file).path  # the file the open read
        name = os.path.basename(opened) if opened else "a file"
        where = self.session_path or "no file yet (ctrl+s asks for one)"
        return f"opening {name} ({words}); now {where}"

    def unsaved_before_open(self) -> bool:
        from attn_tui.core import session  # json and files: not loaded before the first frame

        last: dict[int, tuple[Workspace, SessionFile]] = {}
        for ws, file in self._undo:  # oldest first: each earlier file's last state wins
            if file is not self.file:
                last[id(file)] = (ws, file)
        return any(file.saved is not None and session.is_dirty(ws, file.saved)
                   for ws, file in last.values())

    def other_files(self) -> list[SessionFile]:
        files = {id(f): f for _, f in (*self._undo, *self._redo) if f is not self.file}
        return list(files.values())

    def _restore(self, ws: Workspace, file: SessionFile) -> None:
        if file is not self.file:  # across an open: that file, with any save made to it since
            self.file = file  # (the undo's own notice says so)
        self.workspace = ws

    def action_tokens(self, step: int) -> None:
        new = state.resize(self.workspace, t=self.workspace.t_k + step)
        if new == self.workspace:  # [ at one token said nothing
            self._at_limit("T", self.workspace.t_k, step)
        self.apply(new, note=_removed(self.workspace, new))

    def action_width(self, step: int) -> None:
        new = state.resize(self.workspace, d_k=self.workspace.d_k + step)
        if new == self.workspace:
            self._at_limit("d_k", self.workspace.d_k, step)
        self.apply(new, note=_removed(self.workspace, new))

    def _at_limit(self, name: str, value: int, step: int) -> None:
        end = "largest" if step > 0 else "smallest"
        self.notify(f"{name} is already the {end} it can be ({value}).", timeout=3,
                    markup=False)

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "focus_dims":
            # a lesson hides the bar: focused anyway, it would take keys and digits unseen
            return self.query_one(DimsBar).display
        return super().check_action(action, parameters)

    def action_pick_matrix(self, name: str) -> None:
        """The keys to Q, K or V's grid, its cursor where it was (a lesson task that lets
        only that matrix change gives them there)."""
        self.set_focus(self.query_one(f"#editor-{name.lower()}", MatrixEditor).grid)

    def action_focus_dims(self) -> None:
        # at once, not on the next turn of the loop as Widget.focus does: "D 6 Enter" typed
        # fast sets T, rather than typing 6 into Q
        self._before_dims = self.focused
        self.set_focus(self.query_one(DimsBar))

    _before_dims: Widget | None = None  # what had the keys when D gave them to the bar

    def action_leave_dims(self) -> None:
        """Esc on the dimensions bar: the keys back to the pane they came from (Q's, if the
        bar was reached by Tab or a click)."""
        back = self._before_dims
        if back is None or not back.is_attached or isinstance(back, DimsBar):
            back = self.query_one("#editor-q", MatrixEditor).grid
        self._before_dims = None
        self.set_focus(back)

    # ---- the file (the app's SessionController saves and opens it)
    @property
    def session_path(self) -> str | None:
        return self.file.path

    @session_path.setter
    def session_path(self, path: str | None) -> None:
        self.file.path = path

    @property
    def saved_workspace(self) -> Workspace | None:
        """The workspace as last saved (or opened, or started): "unsaved" means edited since."""
        return self.file.saved

    @saved_workspace.setter
    def saved_workspace(self, ws: Workspace | None) -> None:
        self.file.saved = ws

    @property
    def dirty(self) -> bool:
        """Edited since the file was saved (or opened, or started), and not a lesson's own
        numbers as a step set them up."""
        from attn_tui.core import session  # json and files: not loaded before the first frame

        saved, ws = self.saved_workspace, self.workspace
        return (saved is not None and session.is_dirty(ws, saved)
                and all(session.is_dirty(ws, own) for own in self._lesson_states))

    def explained_query(self) -> int:
        """The query the step table explains (roles.ExplainsQuery)."""
        return self.workspace.selected

    def map_keys(self) -> int:
        """How many of the map's first columns are keys, as the step table's rows are: none
        where they are the output's dimensions; after the keys, the sum of each row."""
        return 0 if self.view == "output" else self.workspace.t_k

    def replaced_by_lesson(self) -> tuple[str, ...]:
        """What replaced edits of the learner's (unsaved then) that are still not what the
        file holds, in order ("ctrl+r"): only undo brings them back, and quitting loses them."""
        return tuple(dict.fromkeys(by for ws, by in self._lesson_replaced
                                   if self._still_unsaved((ws,))))

    def replaced_by_head(self) -> bool:
        """The same, for edits a head opened with w replaced."""
        return self._still_unsaved(self._head_replaced)

    def _still_unsaved(self, replaced: tuple[Workspace, ...]) -> bool:
        from attn_tui.core import session  # json and files: not loaded before the first frame

        saved, now = self.saved_workspace, self.workspace
        # one that u has brought back is on screen: unsaved edits, asked about as such
        return saved is not None and any(session.is_dirty(ws, saved) and session.is_dirty(ws, now)
                                         for ws in replaced)

    def action_save(self, ask: bool = False, then_quit: bool = False) -> None:
        """ctrl+s: to the session's file when there is one, else ask for a path."""
        self.app.session.save(self, ask=ask, then_quit=then_quit)

    def action_open(self) -> None:
        self.app.session.open(self)

    def action_export(self, fmt: str = "", backend: str = "") -> None:
        self.app.session.export(self, fmt, backend)

    def action_copy(self, fmt: str = "md") -> None:
        self.app.session.copy(self, fmt)

    # ---- as a LessonHost (see attn_tui.tui.tutor.host)
    def lesson_state(self) -> object:
        return replace(self.workspace, selected=0)  # moving the cursor is not an edit

    def lesson_work(self) -> object:
        return self.workspace

    def lesson_live(self) -> object:
        from attn_tui.lessons.tasks import bench_live

        return bench_live(self.workspace, self.steps)

    def lesson_restore(self, state: object, edits: tuple = ()) -> None:
        assert isinstance(state, Workspace)
        ws = replace(state, selected=min(self.workspace.selected, state.t_q - 1))
        for e in edits:
            ws = (state_cell(ws, e.target, *e.cell, float(e.value)) if e.cell is not None
                  else replace(ws, **{e.target: e.value}))
        self.apply(ws)

    def has_unsaved_work(self) -> bool:
        return self.dirty

    def lesson_look_as(self, work: object) -> None:
        if isinstance(work, Workspace) and work.selected != self.workspace.selected:
            self.select_query(min(work.selected, self.workspace.t_q - 1))

    def lesson_owns_state(self, also: bool = False) -> None:
        self._lesson_states = (*self._lesson_states, self.workspace) if also else (self.workspace,)

    def open_head(self, ws: Workspace, note: str) -> None:
        """A head from the model screen or the train lab (w) in the place of the workspace.
        Its numbers are the model's, not the learner's work: quitting asks about them only
        once edited, and about unsaved edits of the learner's they replaced (u brings those
        back), as for a lesson step's."""
        replaced, was_dirty = self.workspace, self.dirty
        # opened again: the newest, and the last to go
        self._heads_opened = {**{k: v for k, v in self._heads_opened.items() if k != ws.source},
                              ws.source: ws}
        if len(self._heads_opened) > 20:  # the oldest head goes: R then says how to reopen it
            del self._heads_opened[next(iter(self._heads_opened))]
        self.apply(ws, note=note)
        if was_dirty:
            self._head_replaced = (*self._head_replaced, replaced)[-20:]
        self.lesson_owns_state()

    def lesson_undo_stops_here(self, stops: bool = True) -> None:
        if not stops:
            self._undo_floor = 0
        elif not self.replaced_by_lesson() and not self.replaced_by_head():
            self._undo_floor = len(self._undo)

    def lesson_replaced_work(self, work: object, by: str) -> None:
        assert isinstance(work, Workspace)
        self._lesson_replaced = (*self._lesson_replaced, (work, by))[-20:]
