"""A trained model's heads on a sentence you type: all 72 at once, one large, and the
workbench's step table for one query token on that head's real q and k.

Actions (for keys, the command palette and lessons, as ``screen.<action>``):
``set_text("…")``; ``pick(layer, head)``; ``set_query(i)``; ``query(±1)``;
``open_in_workbench()``; ``undo()``, ``redo()`` (each pick of a head or a query token, and each
run of typing in the sentence, is one change).
State to read: ``run`` (attn_tui.models.Run or None), ``layer_index``, ``head_index``,
``query_index``, ``message``, ``summary`` (the chosen head's HeadSummary), ``value_norms`` (|v| of
each token on the chosen head), ``token_count``, ``cls_heads`` (how many heads the summary calls "mostly: [CLS]").
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterator
from dataclasses import asdict, dataclass, replace
from typing import Any

from rich.cells import cell_len
from rich.text import Text
from textual import events, on, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.screen import Screen
from textual.widget import Widget
from textual.widgets import Input, Static
from textual.worker import get_current_worker

from attn_tui.lessons.tasks import MODEL_SENTENCE
from attn_tui.models import (
    MODELS,
    EmptySentence,
    ModelDamaged,
    ModelUnavailable,
    Run,
    head_name,
    shared_model,
    short_head_name,
    summarise,
    summarise_all,
    token_label,
    token_labels,
)
from attn_tui.models.text import clean
from attn_tui.report.fmt import num
from attn_tui.tui import bindings, textual_compat
from attn_tui.tui.keys import forward_if_unfocused, run_binding_now, take_once
from attn_tui.tui.screens import say_put_back
from attn_tui.tui.undo_stack import UndoStack
from attn_tui.tui.widgets.alpha_picture import ROW_SCALE, HeadGrid, HeadPicture
from attn_tui.tui.widgets.grid_view import cut_ends, cut_label
from attn_tui.tui.widgets.key_bar import KeyBar
from attn_tui.tui.widgets.step_table import StepTable
from attn_tui.tui.widgets.title_bar import TitleBar
from attn_tui.tui.widgets.words_in_place import put_words

# what a sentence's run may meet and say in a line: an empty sentence (ValueError), a backend
# or model file that will not load and torch's own refusals (RuntimeError), no memory. Anything
# else is a fault of attn-tui's and is raised, not worded as if it were the learner's.
RUN_FAILS = (ValueError, RuntimeError, MemoryError)


@dataclass(frozen=True)
class ModelChoice:
    """What the learner picks here, in a lesson's terms (its task's settings)."""

    text: str
    layer: int
    head: int
    query: int


MODEL = "minilm"
FIRST_SENTENCE = MODEL_SENTENCE  # the real-heads lesson's tasks are checked on it too
SENTENCE_MAX = 2000  # characters in the sentence box (a session keeps as many)
MODEL_SHAPES = {"minilm": (6, 12)}  # (layers, heads), for the grid before the model has loaded

TOKEN_LINES = 2  # a longer list would push the heads off an 80×24 screen


def _quoted(value: Any) -> str:
    """A refused value from a session file, short: a name, a list, a 300-digit number."""
    if isinstance(value, int) and not isinstance(value, bool) and abs(value) >= 10**15:
        return f"a {len(str(abs(value)))}-digit number"
    text = repr(value)
    return text if len(text) <= 40 else text[:39] + "…"


def token_line(tokens: tuple[str, ...] | list[str], width: int) -> str:
    """The tokens numbered from 1, in at most TOKEN_LINES lines of ``width``: of a long
    sentence as many of the first as fit, how many are left out, and the last (the chosen
    head's rows name every one)."""
    listed = [token_label(i, t) for i, t in enumerate(tokens)]
    head = f"{len(tokens)} tokens: "
    line = head + "  ".join(listed)
    if _lines(line, width) <= TOKEN_LINES:
        return line

    def cut(shown: int) -> str:
        return head + "  ".join(
            [*listed[:shown], f"… {len(listed) - shown - 1} more …", listed[-1]])

    # the most first tokens that fit, found by halving (fewer shown never takes more lines):
    # it runs for every sentence typed, and trying 128 one by one took 3.4 ms
    low, high = 1, max(1, len(listed) - 2)
    while low < high:
        mid = (low + high + 1) // 2
        low, high = (mid, high) if _lines(cut(mid), width) <= TOKEN_LINES else (low, mid - 1)
    return cut(low)


def cut_middle(text: str, width: int) -> str:
    """``text`` in at most ``width`` cells, its middle given up for "…" (as cut_label, with
    as much of its end as of its start)."""
    if cell_len(text) <= width:
        return text
    if width < 3:
        return cut_label(text, max(1, width))
    head, tail = cut_ends(text, width, width)
    # whole words where a space is near: "the … because", not "the ma…ecause"
    if " " in head[len(head) // 2:]:
        head = head[:head.rfind(" ") + 1]
    if " " in tail[:len(tail) // 2]:
        tail = tail[tail.find(" "):]
    return head + "…" + tail


def _lines(text: str, width: int) -> int:
    """How many lines ``text`` takes wrapped at its spaces into ``width`` cells."""
    count, used = 1, 0
    for word in text.split(" "):
        need = cell_len(word) + (1 if used else 0)
        if used and used + need > width:
            count, used = count + 1, cell_len(word)
        else:
            used += need
    return count


class TokenLine(Static):
    """The sentence's tokens, listed to fit two lines of whatever width the screen gives."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.tokens: tuple[str, ...] = ()

    def show(self, tokens: tuple[str, ...] | list[str]) -> None:
        self.tokens = tuple(tokens)
        self._relist()

    def on_resize(self) -> None:
        self._relist()

    def _relist(self) -> None:
        width = self.content_size.width or self.app.size.width - 2
        put_words(self, Text(token_line(self.tokens, max(20, width))) if self.tokens else "")


class HeadTitle(Static):
    """The large picture's title, with the key to its shades where the column has room."""

    def __init__(self, *, id: str | None = None, classes: str | None = None) -> None:
        super().__init__(id=id, classes=classes)
        self.named = self.short = ""  # "layer 1 head 1", "L1 H1"

    def show(self, named: str, short: str) -> None:
        self.named, self.short = named, short
        self.refresh()

    def render(self) -> str:
        if not self.named:
            return ""
        # the shades' scale before the long name: at 80x24 a █ of 0.32, the row's largest,
        # read as nearly all the weight
        forms = (f"{self.named} α  q↓ k→ · {ROW_SCALE}", f"{self.named} α  q↓ k→ · █ = row's max",
                 f"{self.short} α  q↓ k→ · █ = row's max", f"{self.short} α q↓ k→ █=row max")
        return next((f for f in forms if cell_len(f) <= self.size.width),
                    f"{self.short} α q↓ k→")


GRID_TITLE = "every head: layers ↓, heads →"
# too narrow for pictures: one cell a head, from 1/T (every key alike) to 1 (one key only)
GRID_TITLE_ONE_CELL = "each head: how peaked (mean max α)"
TABLE_HINTS = (" · Tab: the table ↓", " · Tab ↓")


def steps_title(token: str, index: int, count: int, width: int, hint: bool,
                note: str = "") -> str:
    """The step table's title in ``width`` cells; with ``hint``, how to bring the table into
    view. The hint is what a short screen needs most, so the title's words give way to it;
    a ``note`` on the numbers (an exp that overflows) comes before the title's other words."""
    where = f"'{token}' ({index + 1} of {count})"
    forms = (f"steps for query {where} on the head's real q, k ([ ] picks)",
             f"steps for query {where} · real q, k · [ ] picks",
             f"steps for {where} · [ ] picks", f"steps for {where}", where)
    groups: tuple[tuple[str, ...], ...] = (forms,)
    if note:  # "exp overflows; α uses e^(x − max)", or its first words where that is too long
        short = note.split(";")[0]
        groups = ((f"steps for query {where} · {note}", f"steps for {where} · {note}",
                   f"{where} · {note}", f"{where} · {short}"), forms)
    tails = TABLE_HINTS if hint else ("",)
    for group in groups:
        # the note's words before the hint's (Tab ↓ says as much); the title's own after it
        pairs = ([(text, tail) for text in group for tail in tails] if group is not forms
                 else [(text, tail) for tail in tails for text in group])
        for text, tail in pairs:
            if cell_len(text + tail) <= width:
                return text + tail
    return where + (TABLE_HINTS[-1] if hint else "")  # a long token: the line cuts it


def summary_line(s: Any, width: int, label: str | None = None) -> str:
    """The chosen head summed up from its weights; under 60 columns in short words, so the
    pictures keep their rows (in full it took five lines of a 40×15 window). ``label``: the
    summary's own, with its key's token (``HeadSummary.named``)."""
    label = s.label if label is None else label
    if width >= 60:
        return (f"{head_name(s.layer, s.head)}, mean over queries: entropy {num(s.entropy)} "
                f"bits of at most {num(s.max_entropy)} · share on the previous token "
                f"{num(s.previous)} · next {num(s.next)} · itself {num(s.itself)} · [CLS] "
                f"{num(s.cls)} · [SEP] {num(s.sep)} (each share its own mean) · "
                f"mostly: {label}")
    # every share the full line has (a lesson asks after "next"), in shorter words; the
    # entropy's bound goes first where three lines would not hold them
    shares = (f"prev {num(s.previous)} · next {num(s.next)} · self {num(s.itself)} · "
              f"[CLS] {num(s.cls)} · [SEP] {num(s.sep)}")
    name = short_head_name(s.layer, s.head)
    bound, alone = (f"{name}: entropy {num(s.entropy)}/{num(s.max_entropy)} · {shares}",
                    f"{name}: entropy {num(s.entropy)} · {shares}")
    # "mostly" says what the last word is, where three lines hold it
    forms = (f"{bound} · mostly {label}", f"{alone} · mostly {label}", f"{alone} · {label}")
    return next((f for f in forms if _lines(f, width) <= 3), forms[-1])


class ModelBody(VerticalScroll, can_focus=False):
    """The pictures and the step table, scrolling; a new height keeps the chosen one in view,
    and ``moved`` hears of every scroll and new height."""

    def __init__(self, *, keep_in_view: Callable[[], None], moved: Callable[[], None],
                 **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.keep_in_view, self.moved = keep_in_view, moved

    def on_resize(self) -> None:
        self.call_after_refresh(self.keep_in_view)
        self.call_after_refresh(self.moved)

    def watch_scroll_y(self, old_value: float, new_value: float) -> None:
        super().watch_scroll_y(old_value, new_value)
        self.call_after_refresh(self._moved_twice)

    def _moved_twice(self) -> None:
        # ``moved`` reads where the compositor drew the title and the table: the refresh
        # after a scroll can come before they are laid out at the new offset (PgUp and Tab
        # pressed together, on a loaded machine), and the header's corner kept naming the
        # query beside its own title. A second look, one refresh on, reads them placed.
        self.moved()
        self.call_after_refresh(self.moved)


class HeadSummaryLine(Static):
    """The chosen head's summary, worded to the width the screen gives it."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.summary: Any = None
        self.label: str | None = None
        self._words: str | None = None  # as shown

    def show(self, summary: Any, label: str | None = None) -> None:
        self.summary, self.label = summary, label
        self._reword()

    def on_resize(self) -> None:
        self._reword()

    def _reword(self) -> None:
        width = self.content_size.width or self.app.size.width - 2
        words = summary_line(self.summary, width, self.label) if self.summary else ""
        if words != self._words:  # another head's, at the same height: repainted in place
            self._words = words
            put_words(self, Text(words))


def say_cleaned(widget: Widget, notices: list[str]) -> None:
    """What cleaning a pasted text removed, long enough to read as the maps reflow under it."""
    if notices:
        said = f"From the pasted text: {'; '.join(notices)}."
        widget.notify(said, timeout=max(6.0, len(said) / 20), markup=False)


class SentenceInput(Input):
    """The sentence box. It reads typed text itself, so a key that leaves it (Enter, Escape)
    leaves it here, before the keys typed after it are read as more sentence: `Enter ]` picks
    the next token instead of typing a ]. A paste of several lines is one sentence."""

    # on the key bar while typing: the screen's "esc Back" would not go back from here
    BINDINGS = [Binding("enter", "submit", "Done"),
                Binding("escape", "leave", "Done", show=False)]

    async def on_key(self, event: events.Key) -> None:
        if forward_if_unfocused(self, event):  # Enter or Escape has left the box
            return
        if not event.is_printable:
            await run_binding_now(self, event)

    TYPING = "type a sentence; the maps follow as you type"
    AWAY = "/ types a sentence (the maps show the last one read)"
    AWAY_FROM = "/ types a sentence; the maps show: "  # and the sentence they show
    AWAY_CUT = "/ types a sentence; the maps show (cut at {n} tokens): "
    AWAY_SHORT = "/ types a sentence"  # where no more fits

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.cursor_blink = False  # a blink is a repaint twice a second, sent to every SSH client

    async def action_submit(self) -> None:
        if not clean(self.value)[0].strip():  # Enter would leave it, and letters act as keys
            self.screen.say("type a sentence: there is nothing to read in it (Esc keeps the "
                            "last maps)", error=True)
            return
        await super().action_submit()
        self.screen.leave_sentence()

    def action_leave(self) -> None:
        self.screen.leave_sentence()  # the sentence stays: the maps already follow it

    def on_focus(self, event: events.Focus) -> None:
        if not event.from_app_focus and isinstance(self.screen, ModelScreen):
            # another sentence: u takes it alone (not the terminal's window coming back)
            self.screen.history.seal()
        self.placeholder = self.TYPING
        # back in the box, the view goes back to the cursor (its selection scrolls to it)
        self.selection = self.selection

    def on_blur(self) -> None:
        # empty and left: the keys are the heads' again, and the box names what the maps read
        self.placeholder = self._away()
        self.scroll_to(x=0, animate=False, force=True)  # left, it reads from its first word

    def on_resize(self) -> None:
        if not self.has_focus:
            self.placeholder = self._away()

    def _away(self) -> str:
        """The words of a box left: the sentence the maps read, its middle cut (…) to fit, so
        that its last words, often the ones just typed, are in sight."""
        screen = self.screen if isinstance(self.screen, ModelScreen) else None
        shown = screen.run_text if screen is not None else None
        if not shown:
            return self.AWAY
        lead = self.AWAY_FROM
        if screen.run is not None and screen.run.truncated:  # only the words the maps hold
            shown = screen.run.read + "…"
            lead = self.AWAY_CUT.format(n=len(screen.run.tokens))
        width = (self.content_size.width or self.app.size.width) - 1  # the cursor's cell
        room = width - cell_len(lead)
        if room < 20 and cell_len(shown) > room:  # a word or two of it would say little
            return self.AWAY if cell_len(self.AWAY) <= width else self.AWAY_SHORT
        return lead + cut_middle(shown, room)

    def on_paste(self, event: events.Paste) -> None:
        # before Input's own, which keeps only the first line, and said nothing of the rest
        event.prevent_default()
        event.stop()
        # as the model reads it: tabs are spaces, and control characters (no key types one)
        # would stay in the box and in a saved session
        text, notices = clean(" ".join(event.text.splitlines()))
        say_cleaned(self, notices)
        if not text:
            return
        selection = self.selection
        start, end = sorted(selection) if not selection.is_empty else (self.cursor_position,) * 2
        room = (self.max_length or len(self.value) + len(text)) - (len(self.value) - (end - start))
        if len(text) > room:  # Input drops a paste that does not fit whole: keep what fits
            self.notify(f"The sentence box holds {self.max_length:,} characters: "
                        f"{len(text) - room:,} of the {len(text):,} pasted were left out.",
                        severity="warning", timeout=6, markup=False)
            text = text[:max(room, 0)]
        if selection.is_empty:
            self.insert_text_at_cursor(text)
        else:
            self.replace(text, start, end)


class ModelScreen(Screen):
    BINDINGS = bindings.LABS["minilm"]
    # side by side from 76 columns: at 80x24 the grid's pictures shrink to 3 x 2 to make room
    HORIZONTAL_BREAKPOINTS = [(0, "-stacked"), (76, "-narrow"), (110, "-wide")]
    # (read from the body's width, not the screen's: a panel docked beside it, Textual's Keys,
    # leaves the body narrower, and the grid ran under the panel, the large picture gone)
    # up to 24 rows the step table's title takes the blank line under the pictures, so that
    # the first screen says there is a table below, not only its scrollbar
    VERTICAL_BREAKPOINTS = [(0, "-short"), (25, "-tall")]
    DEFAULT_CSS = """
    ModelScreen #sentence { height: 1; border: none; padding: 0 1; margin: 0; }
    ModelScreen #sentence:focus { background: $boost; }
    ModelScreen #model-message { height: auto; padding: 0 1; display: none; }
    ModelScreen #model-message.-shown { display: block; }
    ModelScreen #model-message.-invalid { color: $text-error; text-style: bold; }
    ModelScreen #tokens { height: auto; padding: 0 1; color: $text-muted; }
    ModelScreen #model-body { height: 1fr; scrollbar-size-vertical: 1; }
    ModelScreen #model-top { height: auto; layout: horizontal; }
    ModelScreen.-stacked #model-top { layout: vertical; }
    /* side by side, the grid's own last gap parts it from the picture: the picture takes
       the columns two paddings held (at 80×24, 16 tokens were labelled "3 …ck", "10…og") */
    ModelScreen #grid-box { height: auto; width: 53; padding: 0 0 0 1; }
    ModelScreen.-wide #grid-box { width: 67; }
    ModelScreen.-stacked #grid-box { width: 1fr; padding: 0 1; }
    ModelScreen #head-box { height: auto; width: 1fr; padding: 0 1 0 0; }
    ModelScreen.-stacked #head-box { padding: 0 1; }
    ModelScreen .model-title { height: 1; text-style: bold; }
    ModelScreen #head-summary { height: auto; padding: 0 1; }
    ModelScreen #steps-title { height: 1; padding: 0 1; text-style: bold; margin-top: 1; }
    ModelScreen.-short #steps-title { margin-top: 0; }
    ModelScreen #model-steps { margin: 0 1; }
    ModelScreen #steps-box { height: auto; }
    """

    def __init__(self, backend: str = "numpy", dtype: str = "float32", model: str = MODEL,
                 text: str = FIRST_SENTENCE, pick: tuple[int, int, int] = (0, 0, 0),
                 saved: dict[str, Any] | None = None, saved_text: str | None = None,
                 lesson_text: str | None = None, **kwargs) -> None:
        super().__init__(**kwargs)
        textual_compat.start_at_breakpoints(self)
        self.backend, self.dtype, self.model_name = backend, dtype, model
        self.text = text
        self.model = None
        self.run: Run | None = None
        self.layer_index, self.head_index, self.query_index = pick  # query: clamped on arrival
        self.message = ""
        self._lesson_refusal: str | None = None  # said for w or e while a step keeps numbers
        self.summary = None
        self.run_text: str | None = None  # the sentence ``run`` is for
        self.history: UndoStack[ModelChoice] = UndoStack()
        self._steps_words = ""  # the step table's title as shown
        self._steps_note = ""  # what its numbers need said (an exp that overflows)
        self.saved_refused: list[str] = []  # said with the first maps
        self.saved_notes: list[str] = []  # what was changed in the session's values, said too
        self._saved_query: int | None = None  # a session's, until the first maps place it
        if saved:
            self._take_saved(saved)
        # the sentence as opened or last saved: one typed since is work that quitting asks about
        # (reopened as the learner left it: as saved then, and a step's sentence stays the step's)
        self.saved_text = self.text if saved_text is None else saved_text
        self._lesson_text = lesson_text  # as a lesson step set it up: not the learner's
        # the learner's sentences a lesson replaced, and what replaced each
        self._replaced_texts: tuple[tuple[str, str], ...] = ()
        # the layer and query last shown: the one that changes is scrolled into view
        self._shown_layer: int | None = None
        self._shown_query: int | None = None
        self._in_view = "layer"  # which keep_in_view keeps in sight ("marks": a lesson's)

    # ---- a session's copy: the sentence, and the head and query it shows
    @property
    def kept_text(self) -> str:
        """The sentence a session keeps: the one typed, or, with the box emptied or holding
        nothing the model reads, the one whose maps still show (kept as typed, it reopened on
        blank maps)."""
        if self.text == self.run_text or not self.run_text:  # (read: no tokenizer call)
            return self.text
        return self.text if self._readable(self.text) else self.run_text

    def _readable(self, text: str) -> bool:
        """Whether the model finds anything to read in ``text``: not spaces, escape sequences
        or combining marks alone (the tokenizer's normaliser removes those)."""
        if self.model is None:  # still loading: its run will say the rest
            return bool(clean(text)[0].strip())
        try:  # (the tokenizer cleans the text first)
            self.model.tokenize(text)
        except EmptySentence:
            return False
        return True

    def session_settings(self) -> dict[str, Any]:
        return {"text": self.kept_text, "layer": self.layer_index, "head": self.head_index,
                "query": self.query_index}

    def _take_saved(self, saved: dict[str, Any]) -> None:
        """Start from a session's sentence and head, each checked; a refused value keeps the
        screen's own and is said with the first maps."""
        layers, heads = MODEL_SHAPES.get(self.model_name, (6, 12))
        refused = [f"{_quoted(k)} is not one of this screen's settings"
                   for k in saved if k not in ("text", "layer", "head", "query")]
        if "text" in saved:
            text = saved["text"]
            if not isinstance(text, str) or len(text) > SENTENCE_MAX:
                refused.append(f"the sentence must be text of at most {SENTENCE_MAX} "
                               f"characters, not {_quoted(text)}")
            else:  # what a paste into the box would keep (no key types a control character)
                self.text, notices = clean(text)
                self.saved_notes = [f"the session's sentence: {n}" for n in notices]
        for key, top in (("layer", layers), ("head", heads), ("query", None)):
            if key not in saved:
                continue
            value = saved[key]
            if (isinstance(value, bool) or not isinstance(value, int) or value < 0
                    or (top is not None and value >= top)):
                # the file holds array indexes; the screen names them from 1
                refused.append(f"{key} must be a whole number from 0"
                               + (f" to {top - 1}" if top else "")
                               + f" (an index: {key} 1 is 0), not {_quoted(value)}")
            elif key == "layer":
                self.layer_index = value
            elif key == "head":
                self.head_index = value
            else:
                self.query_index = value  # checked against the sentence's tokens on arrival
                self._saved_query = value
        self.saved_refused = refused

    def compose(self) -> ComposeResult:
        yield TitleBar(icon="α")
        yield SentenceInput(self.text, id="sentence", max_length=SENTENCE_MAX,
                            placeholder=SentenceInput.AWAY,
                            select_on_focus=False)
        yield Static(id="model-message")
        yield TokenLine(id="tokens")
        # above the pictures, not scrolled with them: a lesson's step reads it while the grid
        # scrolls to the chosen head (at 80×24 a lesson's panel leaves room for two layers)
        yield HeadSummaryLine(id="head-summary")
        with ModelBody(id="model-body", keep_in_view=self.keep_in_view,
                       moved=self.title_steps):
            with Horizontal(id="model-top"):
                with Vertical(id="grid-box"):
                    yield Static(GRID_TITLE, id="grid-title", classes="model-title")
                    yield HeadGrid(MODEL_SHAPES.get(self.model_name, (6, 12)), id="heads")
                with Vertical(id="head-box"):
                    yield HeadTitle(id="head-title", classes="model-title")
                    yield HeadPicture(id="head")
            with Vertical(id="steps-box"):  # a lesson that points at the table shows its title
                yield Static(id="steps-title")
                steps = StepTable(id="model-steps")
                # no box whose edge says "→ α·v4 …": a → ends the header while columns are cut
                steps.mark_cut_columns = True
                steps.numbered_rows = True  # 127:the and 121:the, however narrow
                yield steps
        yield KeyBar()

    def lesson_panel_room(self, panel_rows: int) -> int | None:  # as a LessonHost
        return None  # the panel's own share: the panes here scroll on their own

    def on_screen_resume(self, event: events.ScreenResume) -> None:
        textual_compat.styled_once_on_first_show(self, event)

    def on_mount(self) -> None:
        self.screen_layout_refresh_signal.subscribe(self, self.fit_to_room)
        self.title = "attn-tui"
        # the title is set once, so a lesson's title (which replaces it) is never overwritten
        spec = MODELS.get(self.model_name)
        named = spec.title if spec is not None else self.model_name
        # no "(Esc: workbench)" as in a lab: at 80 columns it would be cut, and the key bar says it
        self.sub_title = f"model {named} · {self.backend} {self.dtype}"
        self.say("loading the model…")
        # not scrolled to: Textual's scroll to a focused widget lands a moment later, after
        # keep_in_view had brought the chosen layer (or a step's marks) into sight
        self.query_one(HeadGrid).focus(scroll_visible=False)
        # no run yet (loading, or a session's empty sentence): no table with only "key" in it
        self.query_one("#steps-box").display = False
        self._load()

    def on_unmount(self) -> None:
        self.app.tutor.host_gone(self)
        # Go to reopens the screen on this sentence and head (see AttnApp.left_labs)
        # and quitting asks about a sentence typed here that no session holds
        self.app.left_labs["minilm"] = {
            "text": self.kept_text,  # an emptied box: the sentence whose maps showed
            "pick": (self.layer_index, self.head_index, self.query_index),
            "saved_text": self.saved_text, "lesson_text": self._lesson_text}

    # ---- loading and running, off the app's thread
    @work(thread=True, exclusive=True, group="model-load")
    def _load(self) -> None:
        try:
            model = shared_model(self.model_name)
        except (ModelUnavailable, ModelDamaged, ValueError) as exc:
            self._tell(self._unavailable, str(exc))
            return
        # the first sentence runs in this worker too: whoever waits for the load (a lesson's
        # first step) finds its numbers ready
        text = self.text
        try:
            run, reason = model.run(text, backend=self.backend, dtype=self.dtype, full=False), ""
        except RUN_FAILS as exc:  # an empty sentence, a backend that will not load: said
            run, reason = None, str(exc).splitlines()[0]
        self._tell(self._loaded, model, text, run, reason)

    def _tell(self, callback: Callable[..., object], *args: Any, **kwargs: Any) -> None:
        """From a worker: ``callback`` on the app's thread, if this screen is still on the app's
        stack by then (a sentence's maps can land after Esc has closed it, its widgets gone)."""
        def if_open() -> None:
            if self in self.app.screen_stack:
                callback(*args, **kwargs)

        self.app.call_from_thread(if_open)

    def _unavailable(self, reason: str) -> None:
        self.say(reason, error=True)

    def _loaded(self, model, text: str, run: Run | None, reason: str) -> None:
        self.model = model
        if self.message == "loading the model…":
            self.say("")
        if text != self.text:  # typed (or set by a lesson) while the model loaded
            self._start_run(self.text)
        elif run is None:
            self.say(reason, error=True)
        else:
            self._show_run(run, text)

    def _start_run(self, text: str) -> None:
        if self.model is not None:
            self._run_text(text)

    @work(thread=True, exclusive=True, group="model-run")
    def _run_text(self, text: str) -> None:
        try:
            run = self.model.run(text, backend=self.backend, dtype=self.dtype,
                                 full=False)  # maps: no last feed-forward
        except EmptySentence as exc:
            if not get_current_worker().is_cancelled:
                self._tell(self.say, str(exc), error=True)
            return
        except RUN_FAILS as exc:  # a backend that will not load: said, never a crash
            if not get_current_worker().is_cancelled:
                self._tell(self.say, str(exc).splitlines()[0], error=True)
            return
        if not get_current_worker().is_cancelled:
            self._tell(self._show_run, run, text)

    def _show_run(self, run: Run, text: str) -> None:
        self.run, self.run_text = run, text
        last = len(run.tokens) - 1
        if self._saved_query is not None and self._saved_query > last:
            self.saved_refused.append(f"query {self._saved_query} (token {self._saved_query + 1})"
                                      f" is past the sentence's {last + 1} tokens, so its last "
                                      "is shown")
        self._saved_query = None
        self.query_index = min(self.query_index, last)
        notes = "; ".join([*self.saved_notes, *run.notices])
        if self.saved_refused:  # what was taken, changed, is said after, apart
            self.say("From the session, not taken: " + "; ".join(self.saved_refused)
                     + (f". Taken: {notes}" if notes else ""), error=True)
            self.saved_refused = []
        else:
            self.say(notes)
        self.saved_notes = []
        self.query_one(TokenLine).show(run.tokens)
        self.query_one(HeadGrid).show(run.weights)
        self.query_one("#steps-box").display = True
        self._show_head()

    # ---- state flows down
    def _show_head(self) -> None:
        run = self.run
        if run is None:
            return
        grid = self.query_one(HeadGrid)
        moved = ("layer" if self._shown_layer != self.layer_index  # (the grid's arrows move
                 else "query" if self._shown_query != self.query_index else None)  # its mark)
        self._shown_layer, self._shown_query = self.layer_index, self.query_index
        if moved == "query" and self.focused is self.query_one(StepTable):
            moved = "steps"  # [ ] read in the table: it stays, under its title
        if moved and not self.app.tutor.setting_up:  # a step setting up points when ready
            self._in_view = moved
            self.call_after_refresh(self.keep_in_view)
        grid.at_layer, grid.at_head = self.layer_index, self.head_index
        alpha = run.weights[self.layer_index, self.head_index]
        self.summary = s = summarise(alpha, self.layer_index, self.head_index)
        self.query_one(HeadTitle).show(head_name(self.layer_index, self.head_index),
                                       short_head_name(self.layer_index, self.head_index))
        self.query_one(HeadPicture).show(alpha, run.tokens, self.query_index)
        self.query_one(HeadSummaryLine).show(s, s.named(run.tokens))
        i = self.query_index
        steps = run.head_steps(self.layer_index, self.head_index)
        # as the workbench's note says it: the exp column, not α, leaves the dtype's range
        out_of_range = steps.exp_out_of_range(i)
        self._steps_note = f"exp {out_of_range}; α uses e^(x − max)" if out_of_range else ""
        self.title_steps()
        self.call_after_refresh(self.title_steps)  # once the new table is laid out
        # numbered as the token line and the large picture number them: a sentence's two
        # "the" are two rows, and one of them may be the query itself
        self.query_one(StepTable).show(
            steps, i, token_labels(run.tokens))
        self.app.tutor.host_changed(self)  # a lesson's task is checked after every change

    def title_steps(self) -> None:
        """The table's title, with Tab named while the table is not all in sight."""
        run = self.run
        if run is None or not self.is_mounted:
            return
        title = self.query_one("#steps-title", Static)
        table = self.query_one(StepTable)
        seen = self.query_one(ModelBody).scrollable_content_region
        # from the sentence box, Tab goes to the grid first: the hint waits until it is left
        hidden = (self.focused is not table and table.region.size
                  and not isinstance(self.focused, SentenceInput)
                  and not seen.contains_region(table.region))
        i = self.query_index
        width = title.content_region.width or self.size.width - 2
        words = steps_title(run.tokens[i], i, len(run.tokens), width, bool(hidden),
                            self._steps_note)
        if words != self._steps_words:  # every scroll asks: a new title only when it changes
            self._steps_words = words
            put_words(title, Text(words))
        # the title scrolled out of sight above the table: the header's corner names the query
        out = bool(table.region.size and title.region.size
                   and title.region.y < seen.y < table.region.y + table.region.height)
        table.query_in_corner(i if out else None)

    def keep_in_view(self) -> None:
        """The chosen layer's row of the grid, or the marked query's of the picture, whichever
        moved last, or the step table under its title while it has the keys, or a lesson
        step's marks, in sight: again when the body changes height (a
        lesson's panel grows with a task's verdict)."""
        if self._in_view == "marks":
            self.app.tutor.points_again()
        elif self._in_view == "steps":  # the table with its title, which names the query
            body, table = self.query_one(ModelBody), self.query_one(StepTable)
            body.scroll_to_widget(self.query_one("#steps-box"), top=True, animate=False,
                                  immediate=True)
            if table.cursor_row > body.scrollable_content_region.height - 4:
                # and its cursor, where it was left deep in the table (the first PgDn then
                # jumped forty rows past what was on screen): paging goes on from what is seen
                table.reveal_cursor()
        elif self._in_view == "query":
            self.query_one(HeadPicture).query_into_view()
        else:
            self.query_one(HeadGrid).chosen_into_view()

    def on_descendant_focus(self, event: events.DescendantFocus) -> None:
        # Tab to the table scrolled it into view under its title, which names the query
        if self.app.tutor.setting_up:
            return
        self.call_after_refresh(self.title_steps)
        if event.widget is self.query_one(StepTable):
            self._in_view = "steps"
            self.call_after_refresh(self.keep_in_view)
        elif self._in_view == "steps" and event.widget is self.query_one(HeadGrid):
            self._in_view = "layer"  # the grid has the keys again: its chosen row in sight
            self.call_after_refresh(self.keep_in_view)

    def lesson_pointed(self) -> None:
        """A lesson's step has brought its marks into view: they are what stays in view. (An
        answer or another step points too: a refusal that held only until then goes.)"""
        self._in_view = "marks"
        if self.app.tutor.refuses_hand_over(self) is None:
            self.lesson_over()

    def lesson_over(self) -> None:
        """The lesson closed here (or no longer refuses w): its refusal goes."""
        if self.message and self.message == self._lesson_refusal:
            self.say("")

    def _refused_by_lesson(self, text: str) -> None:
        """w or e refused while the step keeps numbers back: said until it no longer holds
        ("✗ Answer first" stayed up through to the lesson's last step)."""
        self.say(text, error=True)
        self._lesson_refusal = text

    def say(self, text: str, *, error: bool = False) -> None:
        """One line under the sentence: a refusal (marked ✗, not only by colour) or a note."""
        self.message = text
        line = self.query_one("#model-message", Static)
        put_words(line, Text(("✗ " if error else "") + text))
        line.set_class(bool(text), "-shown")
        line.set_class(error and bool(text), "-invalid")
        if error:  # a refused sentence: a task waiting on it says so
            self.app.tutor.host_changed(self)

    # ---- messages and keys
    def focus_next(self, selector: Any = "*") -> Any:
        with self._sentence_passed_by():
            return super().focus_next(selector)

    def focus_previous(self, selector: Any = "*") -> Any:
        with self._sentence_passed_by():
            return super().focus_previous(selector)

    @contextlib.contextmanager
    def _sentence_passed_by(self) -> Iterator[None]:
        """While a question waits for its answer, Tab passes the sentence box by: with the
        step table kept back, Tab went straight into it, and the letter typed next went into
        the sentence, not to the question. / or a click still types there."""
        box = self.query_one("#sentence", Input)
        skip = not box.has_focus and self.app.tutor.asking(self)
        if skip:
            box.can_focus = False
        try:
            yield
        finally:
            if skip:
                box.can_focus = True

    @on(Input.Changed, "#sentence")
    def _typed(self, event: Input.Changed) -> None:
        with self.history.change(self.undo_state, merge="typing"):  # one u per sentence
            self.text = event.value
        self._start_run(event.value)

    @on(HeadGrid.Condensed)
    def _grid_condensed(self, event: HeadGrid.Condensed) -> None:
        self.query_one("#grid-title", Static).update(
            GRID_TITLE_ONE_CELL if event.one_cell else GRID_TITLE)

    @on(HeadGrid.Picked)
    def _picked(self, event: HeadGrid.Picked) -> None:
        if take_once(event, event.grid):
            self.action_pick(event.layer, event.head)

    @on(HeadPicture.QueryClicked)
    def _query_clicked(self, event: HeadPicture.QueryClicked) -> None:
        if event.query != self.query_index:
            self.action_set_query(event.query)

    def action_set_text(self, text: str) -> None:
        with self.history.change(self.undo_state):
            self._set_text(text)

    def _set_text(self, text: str) -> None:
        field = self.query_one("#sentence", Input)
        with self.prevent(Input.Changed):  # run here, so a lesson's settle waits for it
            field.value = text
        self.text = text
        self._start_run(text)

    def action_pick(self, layer: int, head: int) -> None:
        with self.history.change(self.undo_state):
            self.layer_index, self.head_index = layer, head
        self._show_head()

    def action_set_query(self, index: int) -> None:
        with self.history.change(self.undo_state):
            self.query_index = index
        self.action_query(0)

    @property
    def value_norms(self):
        if self.run is None:
            return None
        import numpy as np

        return np.linalg.norm(self.run.v[self.layer_index, self.head_index], axis=-1)

    @property
    def token_count(self) -> int:
        return 0 if self.run is None else len(self.run.tokens)

    @property
    def cls_heads(self) -> int:
        if self.run is None:
            return 0
        # by the summary's own rule, so a learner counting "mostly: [CLS]" lines gets this number
        return sum(s.label == "[CLS]" for row in summarise_all(self.run.weights) for s in row)

    def action_query(self, step: int) -> None:
        # before the first maps (the model loading) the index is kept, and clamped on arrival
        most = len(self.run.tokens) - 1 if self.run is not None else 10**6
        at = max(0, min(most, self.query_index + step))
        if step and at == self.query_index and self.run is not None:
            from attn_tui.tui.widgets.alpha_picture import say_at_edge

            end = "last" if step > 0 else "first"
            say_at_edge(self.app, f"Already at token {at + 1}, the {end} of {most + 1}.")
        with self.history.change(self.undo_state):
            self.query_index = at
        self._show_head()

    def action_undo(self) -> None:
        self._put_back(self.history.undo(self.undo_state()), "undo")

    def action_redo(self) -> None:
        self._put_back(self.history.redo(self.undo_state()), "redo")

    def _put_back(self, choice: ModelChoice | None, what: str) -> None:
        if choice is None:
            self.notify(f"Nothing to undo: the {self.state_words} are as the lesson step set "
                        "them up." if what == "undo" and self.history.at_start
                        else f"Nothing to {what}.", timeout=3)
            return
        before = self.undo_state()
        self._put(choice)
        # as the workbench says its undo: the head or token changed with no other sign
        say_put_back(self.app, what == "undo", self._change_words(before, choice))

    def _change_words(self, before: ModelChoice, after: ModelChoice) -> str:
        parts = []
        if before.text != after.text:
            def cut(text: str) -> str:
                words = " ".join(text.split())
                return words if len(words) <= 24 else words[:23] + "…"
            parts.append(f"the sentence “{cut(before.text)}” → “{cut(after.text)}”")
        if (before.layer, before.head) != (after.layer, after.head):
            parts.append(f"{head_name(before.layer, before.head)} → "
                         f"{head_name(after.layer, after.head)}")
        tokens = self.run.tokens if self.run is not None and before.text == after.text else None
        if before.query != after.query and tokens:
            def label(i: int) -> str:
                return token_label(i, tokens[i]) if i < len(tokens) else str(i + 1)
            parts.append(f"query {label(before.query)} → {label(after.query)}")
        return "; ".join(parts) or "nothing you can see changed"

    # the workbench's keys for its maths, which here would do nothing and say nothing
    WORKBENCH_KEYS = {"m": "the mask", "s": "÷√d_k", "v": "the map's view", "f": "the precision"}

    def on_key(self, event: events.Key) -> None:
        what = self.WORKBENCH_KEYS.get(event.character or "")
        if what is None or isinstance(self.focused, Input):
            return
        event.stop()
        self.notify(f"{event.character} changes {what} on the workbench: w opens this head "
                    "there, its real Q, K and V.", timeout=4, markup=False)

    def _put(self, choice: ModelChoice) -> None:
        """The sentence, head and query of ``choice`` on screen (the maps follow; a lesson's
        task is checked when they have)."""
        if choice.text != self.text:
            self._set_text(choice.text)
        self.query_index = choice.query
        self.layer_index, self.head_index = choice.layer, choice.head
        if self.run_text == self.text:  # else the sentence's run shows them when it lands
            self._show_head()

    def on_paste(self, event: events.Paste) -> None:
        # pasted on the grid or a table, where no key types: a sentence, as / then the paste
        # would give (it was dropped without a word)
        box = self.query_one("#sentence", SentenceInput)
        if self.focused is box or not box.focusable:
            return
        event.stop()
        text = " ".join(event.text.splitlines())
        if not self._readable(text):  # nothing to read: the keys stay, or the next one types
            say_cleaned(self, clean(text)[1])
            return
        self.action_focus_sentence()
        box.on_paste(events.Paste(event.text))

    def action_focus_sentence(self) -> None:
        # / asks for a sentence: what is typed replaces this one (Tab to the box edits it)
        field = self.query_one("#sentence", Input)
        self.set_focus(field)
        field.select_all()

    def leave_sentence(self) -> None:
        field = self.query_one("#sentence", Input)
        if field.value and not self._readable(field.value):
            # spaces or marks alone: emptied, so that the box names the sentence whose maps
            # still show, as an emptied box does (left as typed, it hid which one they were)
            with self.history.change(self.undo_state, merge="typing"), \
                    self.prevent(Input.Changed):
                field.value = self.text = ""
        # at once, not after a refresh as Widget.focus: the next key typed goes to the grid
        self.set_focus(self.query_one(HeadGrid), scroll_visible=False)
        if self.message.startswith("type a sentence: there is nothing to read"):
            self.say("")  # left empty: the last maps stay, as the box now says

    def fit_to_room(self, _screen: object = None) -> None:
        """After a layout, the width classes (HORIZONTAL_BREAKPOINTS) for the body's width,
        where it is narrower or wider than the screen's. (Not on the body's Resize: Textual
        sends none when the map it compares with was brought up to date before the layout.)"""
        width = self.query_one(ModelBody).size.width
        if width <= 0:
            return
        want = [name for least, name in self.HORIZONTAL_BREAKPOINTS if width >= least][-1]
        for _, name in self.HORIZONTAL_BREAKPOINTS:
            self.set_class(name == want, name)

    def action_back(self) -> None:
        if self.focused is self.query_one("#sentence", Input):
            self.leave_sentence()  # Escape leaves the sentence first
            return
        if self.app.screen is self:
            self.app.pop_screen()

    # ---- as a LessonHost (see attn_tui.tui.tutor.host): the sentence and the chosen head;
    # a sentence the learner typed is their work
    shown_note = "Shown: a head that meets the goal. u undoes it."
    state_words = "sentence, head and query"  # as a LessonHost

    def settle_edits(self) -> bool:
        """The heads the grid's arrows picked, not yet received, before a key's binding run
        early (see key_order) reads the head: `→ w` opens the head → picked."""
        grid = self.query_one(HeadGrid)
        for picked in list(grid.in_flight):
            if take_once(picked, grid):
                self.action_pick(picked.layer, picked.head)
        return True

    def lesson_state(self) -> object:
        return ModelChoice(self.text, self.layer_index, self.head_index, self.query_index)

    def undo_state(self) -> ModelChoice:
        """What u and U go back and forth between: as lesson_state, but a box emptied, or
        holding nothing the model reads, is the sentence whose maps still show (an empty box
        was a step of its own, which u went back to with an error under it)."""
        return ModelChoice(self.kept_text, self.layer_index, self.head_index, self.query_index)

    def lesson_work(self) -> object:
        return self.lesson_state()

    def has_unsaved_work(self) -> bool:
        """A sentence typed since it was opened or saved, and not one a lesson step set up.
        Picking a head or a query is looking, not work."""
        return self.kept_text not in (self.saved_text, self._lesson_text)

    def replaced_by_lesson(self) -> tuple[str, ...]:
        """What replaced sentences of the learner's that are still unsaved, in order: only u
        brings them back, and quitting loses them."""
        return tuple(dict.fromkeys(by for t, by in self._replaced_texts
                                   if t not in (self.saved_text, self.text)))

    def lesson_owns_state(self, also: bool = False) -> None:
        self._lesson_text = self.text

    def lesson_look_as(self, work: object) -> None:
        pass  # the query is part of lesson_state: restored with it

    def lesson_undo_stops_here(self, stops: bool = True) -> None:
        if not stops or not self.replaced_by_lesson():
            self.history.stop_here(stops)

    def lesson_replaced_work(self, work: object, by: str) -> None:
        assert isinstance(work, ModelChoice)
        self._replaced_texts = (*self._replaced_texts, (work.text, by))[-20:]

    def lesson_live(self) -> object:
        from attn_tui.lessons.tasks import lab_live

        if self.run is not None and self.run_text == self.text:
            return lab_live("lab:minilm", self.lesson_state(), self.summary)
        # loading, running, or the sentence refused: the message says which
        return lab_live("lab:minilm", self.lesson_state(), None, self.message or "computing…")

    def lesson_restore(self, state: object, edits: tuple = ()) -> None:
        assert isinstance(state, ModelChoice)
        with self.history.change(self.undo_state):  # one change u undoes
            self._put(ModelChoice(**asdict(state) | {e.target: e.value for e in edits}))

    def _say_not_ready(self, verb: str) -> None:
        self.say(f"nothing to {verb} yet: " + ("the model is still loading" if self.model is None
                                               else "the model has not run"), error=True)

    def action_export(self) -> None:
        """e: the head shown, its query's steps and its weights, to a file, as the workbench's
        e writes them; the file is named by the model and head, its first line names the
        sentence too."""
        from types import SimpleNamespace

        from attn_tui.report.heads import head_workspace

        if self.run is None:
            self._say_not_ready("export")
            return
        if self.app.tutor.refuses_hand_over(self) is not None:
            self._refused_by_lesson("e exports once the numbers this step keeps back are on "
                                    "screen.")
            return
        ws = head_workspace(self.run, self.layer_index, self.head_index, self.query_index)
        stem = f"{self.run.model}-L{self.layer_index + 1}H{self.head_index + 1}"
        self.app.session.export(SimpleNamespace(workspace=ws), stem=stem)

    def action_open_in_workbench(self) -> None:
        from attn_tui.report.heads import head_workspace

        bench = self.app.workbench()
        if self.model is not None and self.text.strip() and self.run_text != self.text:
            # typed ahead of its maps (Enter and w in one burst): this sentence's head, not the
            # last one shown; the worker's maps, landing later, would clear what w says
            self.workers.cancel_group(self, "model-run")
            try:
                self._show_run(self.model.run(self.text, backend=self.backend,
                                              dtype=self.dtype, full=False), self.text)
            except RUN_FAILS as exc:  # as the maps would: said, and nothing opened
                self.say(str(exc).splitlines()[0], error=True)
                return
        run = self.run
        if run is None or bench is None:
            self._say_not_ready("open")
            return
        if (refused := self.app.tutor.refuses_hand_over(self)) is not None:
            self._refused_by_lesson(refused)
            return
        self.app.tutor.hand_over(self)
        ws = head_workspace(run, self.layer_index, self.head_index, self.query_index)
        # named as this screen lists them ("2:the", "6:the"): a word said twice was two rows
        # of the same name; an export keeps the tokens themselves
        names = token_labels(run.tokens)
        ws = replace(ws, query_tokens=names, key_tokens=names)
        while self.app.screen is not bench and len(self.app.screen_stack) > 1:
            self.app.pop_screen()
        words = " ".join((self.run_text or "").split())  # as typed, not as tokens
        words = words if len(words) <= 30 else words[:29] + "…"
        bench.open_head(ws, note=f"{head_name(self.layer_index, self.head_index)} of '{words}': its real "
                             "Q, K, V. u undoes; g, lab minilm: back to the model screen.")
