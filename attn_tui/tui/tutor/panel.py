"""The lesson's voice: a panel under the live panes with the step's text, keys and question."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from rich.cells import cell_len
from rich.style import Style as RichStyle
from rich.text import Text
from textual import events
from textual.app import ComposeResult
from textual.containers import VerticalScroll
from textual.content import Content
from textual.style import Style
from textual.widgets import Static

from attn_tui.core.words import full_stop, listed
from attn_tui.tui import textual_compat
from attn_tui.tui.keys import key_word, takes_text

LETTERS = "abcd"
# the edge's keys in fewer columns, taken in turn until they fit a narrow panel
# ("", how a part starts or ends): a part that only informs goes (the letters that answer:
# each choice shows its letter, and is a click), before the clickable words grow shorter
SHORTER_KEYS = (("Esc keep playing", "Esc leave"), ("ctrl+r reset", "^r reset"), (" · ", "·"),
                ("", "answers"), ("⇧↑↓ more", "⇧↑↓"), ("^r reset", "^r"), ("Esc leave", "Esc"))
EDGE_GAP = " · "


def clicks(action: str) -> Style:
    """A style whose click runs ``action`` on the App, as its key would (``lesson('next')``)."""
    return Style.from_meta({"@click": f"app.{action}"})


def edge(parts: list[tuple[str, str | None]], room: int) -> Content:
    """The keys on the panel's lower edge, each clickable where it names an action: shorter
    words, taken in turn, until they fit ``room`` columns (less than 0: not laid out yet)."""
    gap = EDGE_GAP
    for long, short in SHORTER_KEYS:  # a narrow window: shorter words, not a cut line
        if room < 0 or cell_len(gap.join(text for text, _ in parts)) <= room:
            break
        if long == EDGE_GAP:
            gap = short
        elif not long:  # drop the parts that only inform, named by how they start or end
            parts = [(text, action) for text, action in parts
                     if action is not None or not (text.startswith(short) or text.endswith(short))]
        else:
            parts = [(text.replace(long, short), action) for text, action in parts]
    return Content(gap).join(Content.styled(text, clicks(action)) if action else Content(text)
                             for text, action in parts)


@dataclass(frozen=True)
class PanelView:
    """Everything the panel shows for one step, already in words and numbers."""

    lesson: str
    k: int  # 1-based
    n: int
    title: str
    text: str = ""
    keys: tuple[tuple[str, str], ...] = ()
    prompt: str = ""
    choices: tuple[str, ...] = ()
    answer: int | None = None
    chosen: int | None = None  # None until the learner answers
    why: str = ""
    note: str = ""  # e.g. the answer to a question that was skipped with n
    done: bool = False
    busy: bool = False
    goal: str = ""  # a task's goal in words; its check (tasks.Verdict) once read
    task_why: str = ""
    verdict: Any = None
    hints: tuple[str, ...] = ()
    offering: bool = False  # "show me" offered, waiting for y
    solved_before: bool = False
    shown: str = ""  # what "show me" put on the panes, while they still show it
    resumed: str = ""  # why a reopened lesson came back to this step, until n or p
    drifted: bool = False  # the panes left the step's start; its words quote that start
    answering: str = ""  # the choice made, while the panes change to show the answer (busy)
    open_tasks: tuple[int, ...] = ()  # at the end: the steps (1-based) whose task is not met
    shown_tasks: tuple[int, ...] = ()  # of those, the ones only "show me" (y) met
    open_questions: tuple[int, ...] = ()  # and those whose question is not answered (n passed it)
    # of the questions passed this time through, those answered an earlier time (kept)
    passed_again: tuple[int, ...] = ()


class OneClick:
    """The panel's words act on a click as their keys do, once: the second click of a double
    click would take a second step (or answer on the next step's question)."""

    def on_click(self, event: events.Click) -> None:
        if event.chain > 1:  # before Widget's handler runs the word's action, here or above
            event.prevent_default()
            event.stop()


class LessonBody(OneClick, Static):
    """The step's words, its question's choices among them."""


class LessonPanel(OneClick, VerticalScroll, can_focus=False):
    # not scoped: while a lesson runs its screen has the class -lesson, and the dimensions bar
    # steps aside so the panes keep their rows at 80 x 24
    SCOPED_CSS = False
    DEFAULT_CSS = """
    Screen.-lesson DimsBar { display: none; }
    Screen.-lesson .-concealed { display: none; }
    LessonPanel { height: auto; max-height: 45%; border: round $accent; padding: 0 1;
                  background: $surface; scrollbar-size-vertical: 1;
                  border-title-style: bold; border-subtitle-color: $text-muted; }
    LessonPanel > Static { height: auto; }
    /* a question's choices answer when clicked: drawn as before, lit under the pointer */
    LessonPanel > Static { link-style: none; link-color: $foreground; link-background: initial; }
    /* a question and its choices, and then the answer's feedback, are read in full: the panes
       give up rows for them */
    LessonPanel.-asking, LessonPanel.-answered { max-height: 65%; }
    /* a task's live value and its ✓ are read while the panes change: room for them too */
    LessonPanel.-task { max-height: 50%; }
    """

    def __init__(self, **kwargs) -> None:
        super().__init__(**kwargs)
        self.view: PanelView | None = None
        self.plain = ""  # what the panel says, as plain text
        self._keys: list[tuple[str, str | None]] = []  # the lower edge's keys and actions
        self.edge_text = ""  # the lower edge as it reads (border_subtitle holds markup)
        self._words = Content("")  # what the body shows, measured for the scrollbar
        self._wrapped_at = -1  # the body's width at the last resize

    def on_mount(self) -> None:
        # a cell or field being typed into takes n, p and Esc: the edge says what they do then
        self.screen.bindings_updated_signal.subscribe(self, lambda _screen: self._edge())
        self.screen.screen_layout_refresh_signal.subscribe(self, lambda _screen: self._fit())

    def on_unmount(self) -> None:
        self.screen.bindings_updated_signal.unsubscribe(self)
        self.screen.screen_layout_refresh_signal.unsubscribe(self)
        textual_compat.lift_notices(self.screen, None)

    def _edge(self) -> None:
        keys = self._typing_keys() if takes_text(self.app.focused) else self._keys
        # words beyond the panel (a small window): say that shift+↑↓ brings them in
        parts = ([("⇧↑↓ more", None)] if self.max_scroll_y > 0 else []) + keys
        # the corners, a line and a blank each side (not laid out yet: called again once it is)
        shown = edge(parts, self.outer_size.width - 6)
        if shown.plain != self.edge_text:
            self.border_subtitle, self.edge_text = shown, shown.plain

    def _typing_keys(self) -> list[tuple[str, None]]:
        enter, escape = key_word(self.app, "enter", "Set"), key_word(self.app, "escape", "Cancel")
        if enter == escape:  # the sentence box: both leave it, the sentence kept
            return [(f"typing: ⏎ or Esc {enter}", None)]
        return [(f"typing: ⏎ {enter}", None), (f"Esc {escape}", None)]

    _cap: int | None = None  # the rows the panel may take, where fewer than its CSS share

    def _fit(self) -> None:
        """A question or an answer takes up to 65% of the screen and a task 50%, but no more
        than the host's panes can spare while they show the numbers the words quote (at 80 x
        24, ten rows for the step table and the map), and never less than every step's 45%.
        Past that the panel scrolls, an answer's end in sight."""
        cap = None
        share = (0.65 if self.has_class("-asking") or self.has_class("-answered") else
                 0.5 if self.has_class("-task") else None)
        if share is not None:
            room = self.screen.lesson_panel_room(self.outer_size.height)
            height = self.screen.size.height
            if room is not None and room < int(height * share):
                cap = max(int(height * 0.45), room)
        if cap != self._cap:
            self._cap = cap
            self.styles.max_height = cap  # None: the stylesheet's share again

    def _fit_scrollbar(self) -> None:
        """A scrollbar only when the words need it at the panel's whole width. Left to
        itself, a scrollbar shown once (while the panes above were still settling) narrows the
        text by a column, the text wraps onto one more line, and the scrollbar stays."""
        body = self._body()
        if self.view is None or body is None:
            return
        full = self.scrollable_content_region.width + (
            self.styles.scrollbar_size_vertical if self.show_vertical_scrollbar else 0)
        rows = self.scrollable_content_region.height
        lines = self._words.get_height(body.styles, full) if full > 0 else rows + 1
        overflow = "hidden" if rows > 0 and lines <= rows else "auto"
        if self.styles.overflow_y != overflow:
            self.styles.overflow_y = overflow
            self.call_after_refresh(self._edge)

    def compose(self) -> ComposeResult:
        yield LessonBody(id="lesson-body")

    def _body(self) -> Static | None:
        """The words' widget; None once the panel is being taken down (Esc as a step set up
        it: a refresh's callbacks came after, and found no body)."""
        found = self.query("#lesson-body")
        return found.first(Static) if found else None

    def _words_for(self, view: PanelView) -> None:
        # the body's width, less a column a scrollbar may yet take
        width = self.scrollable_content_region.width - 1 if self.is_mounted else None
        body = render(view, width if width and width > 10 else None)
        self.plain = body.plain.replace("\xa0", " ")  # as read: the no-break spaces are spaces
        self._words = Content.from_rich_text(body)
        shown = self._body()
        if shown is not None:
            shown.update(body)

    def on_resize(self) -> None:
        # notices above the panel (one raised while a question shows covered its choices),
        # and above the workbench's status line, which the panel leaves in sight above it
        status = self.screen.query("#status")
        below = sum(w.outer_size.height for w in status if w.display)
        textual_compat.lift_notices(self.screen, self.outer_size.height + below)
        # the text wraps anew at the new width (the choices are laid out for it), and its
        # height must follow, or the panel keeps the old height, clips the end (an answer's
        # feedback) and shows no scrollbar
        body = self._body()
        if body is None:
            return
        width = self.scrollable_content_region.width
        if width != self._wrapped_at:  # a new height alone leaves every line as it was
            self._wrapped_at = width
            if self.view is not None and self.view.prompt:
                self._words_for(self.view)
            body.refresh(layout=True)
        # a new height moves the one scrolling column of a narrow window: the step's marks
        # come back into view (unless a cell is being typed into)
        if not takes_text(self.app.focused):
            self.call_after_refresh(self.app.tutor.points_again, True)
        self.call_after_refresh(self._fit_scrollbar)
        self.call_after_refresh(self._edge)
        if self.view is not None and self.view.chosen is not None:
            self.call_after_refresh(self.scroll_end, animate=False)

    def show(self, view: PanelView, at_end: bool = False) -> None:
        """Show a step; ``at_end`` scrolls to the last line (the feedback after an answer)."""
        self.view = view
        state = " · done" if view.done else (" · …" if view.busy else "")
        # on the edge, not in a notice: a notice covered the task's check at 80 x 24, and a
        # line in the body would push that check below the panel's edge
        # before the step's title, which an 80-column edge cuts: where the learner is, first
        back = f" · {view.resumed}" if view.resumed and not view.done else ""
        # plain words, never markup: a title may name [CLS]
        self.border_title = Content(
            f"lesson {view.lesson} · Step {view.k} of {view.n}{state}{back} · {view.title}")
        asking = bool(view.prompt) and view.chosen is None and not (view.done or view.busy)
        letters = "abcd"[: len(view.choices)]
        solved = view.verdict is not None and view.verdict.done
        reset = ("ctrl+r reset", "lesson('reset')")
        if view.goal and not (view.done or view.busy):
            # y show me is clicked in the words that offer it, not here: it takes the place of
            # h hint on the edge, under a pointer that was clicking for hints
            task = ([] if solved else [("y show me", None)] if view.offering
                    else [("h hint", "lesson('hint')")]) + [reset]
        else:
            task = [reset] if view.drifted and not view.done else []
        back = ("p back", "lesson('prev')")
        moves = ([("getting ready…", None)] if view.busy else [back] if view.done
                 else [("n next", "lesson('next')"), back])  # n ends the lesson; then it is done
        # the letters are clicked in the body, on the choices themselves
        self._keys = ([(f"{', '.join(letters[:-1])} or {letters[-1]} answers", None)]
                      if asking else []) + task + moves + [("Esc keep playing",
                                                            "lesson('leave')")]
        shown = edge(self._keys, -1)
        self.border_subtitle, self.edge_text = shown, shown.plain
        self.set_class(view.chosen is not None, "-answered")
        self.set_class(asking, "-asking")
        self.set_class(bool(view.goal) and not (view.done or view.busy), "-task")
        self._words_for(view)
        self.call_after_refresh(self._fit_scrollbar)
        self.call_after_refresh(self._edge)
        if at_end:
            self.call_after_refresh(self.scroll_end, animate=False)
        else:
            self.scroll_home(animate=False)


def _on_steps(what: str, steps: Iterable[int], past: bool = False) -> str:
    """"task on step 5 is", "questions on steps 3 and 4 were": the steps (1-based) named."""
    named = [str(k) for k in steps]
    verb = ("was", "were") if past else ("is", "are")
    if len(named) == 1:
        return f"{what} on step {named[0]} {verb[0]}"
    return f"{what}s on steps {listed(named)} {verb[1]}"


def render(view: PanelView, width: int | None = None) -> Text:
    """The panel's words; ``width`` (the body's columns) lets the choices of a question break
    only between them, never inside one."""
    out = Text()
    if view.note:
        out.append(view.note + "\n", style="italic")
    if view.done:
        out.append("That is the whole lesson. ", style="bold")
        unmet = [k for k in view.open_tasks if k not in view.shown_tasks]
        if unmet:
            out.append(f"The {_on_steps('task', unmet)} not met yet. ")
        if view.shown_tasks:
            out.append(f"The {_on_steps('task', view.shown_tasks, past=True)} met only as show "
                       "me (y) set it up: to count, meet it with other numbers of your own. ")
        if view.open_questions:
            out.append(f"The {_on_steps('question', view.open_questions)} not answered yet. ")
        if view.passed_again:
            them = "it" if len(view.passed_again) == 1 else "them"
            out.append(f"The {_on_steps('question', view.passed_again, past=True)} passed "
                       f"this time through; you answered {them} an earlier time. ")
        out.append("Esc leaves the panes as they are for you to keep playing; g opens another "
                   "lesson; p goes back a step.")
        return out
    if view.busy and view.answering:  # a reveal that takes a while (a run to train)
        out.append(f"You chose {view.answering}. The panes change to show the answer: its "
                   "words follow in a moment.", style="italic")
        return out
    if view.busy:  # its words are filled from numbers not computed yet
        out.append("Getting the step ready: its words follow in a moment.", style="italic")
        return out
    if view.drifted:  # first: in a small window the words' end is below the panel's edge
        out.append("The words quote the step's start, not the panes now: ctrl+r puts it back.\n",
                   style="italic")
    out.append(view.text)
    # on a question, the keys to try come with the answer: they often show it (m, s, v); on
    # a task, with its hints or once it is done: at 80 x 24 the panes need the row meanwhile
    v = view.verdict
    task_open = (bool(view.goal) and not view.hints and not (v is not None and v.done)
                 and not view.solved_before)
    if view.keys and (not view.prompt or view.chosen is not None) and not task_open:
        out.append("\nTry ", style="bold")
        for i, (key, does) in enumerate(view.keys):
            out.append("  " if i else "")
            out.append(f" {key} ", style="reverse bold")
            out.append(f" {does}")
    if view.prompt:
        _question(out, view, width)
    if view.goal:
        _task(out, view)
    return out


def _task(out: Text, view: PanelView) -> None:
    """The goal, the live value against its target, and ✓ / the broken rule: in words and
    marks, never by colour alone. The mark rides in the label, at the start of a line: after
    the goal it could wrap away from its words."""
    v = view.verdict
    # a rule left once the goal was met (the Try line's m) is no mistake: marked as a goal
    # not held now, and kept as met
    kept = v is not None and v.broken is not None and view.solved_before
    mark = ("" if v is None else " ○" if kept else " ✗" if v.broken is not None
            else " ✓" if v.met else " ○")
    out.append(f"\nTask{mark} ", style="reverse bold")
    out.append(f" {view.goal}", style="bold")
    if v is None:
        return
    out.append("  ")  # the check follows the goal on its line: a row kept for the panes
    if v.broken is not None:
        out.append("Met before; on these panes a rule does not hold: " if kept
                   else "Rule broken: ", style="bold")
        # a rule that quotes a sentence ends with its full stop: "… tired.'", not "tired.'."
        out.append(f"{v.broken}{full_stop(v.broken)}")
    elif v.met:
        out.append("Done: ", style="bold")
    else:
        # kept as met (the ✓ in Go to's count): the panes now, come back to or walked on
        out.append("Met before; on these panes now: " if view.solved_before else "Not yet: ",
                   style="bold")
    read = v.broken is None or not v.waiting  # nothing to read yet: the rule is what counts
    if read:
        line = v.line()
        # after a rule's full stop the reading starts a sentence: "… tired.' Entropy (bits)"
        out.append(line if v.broken is None else f" {line[:1].upper()}{line[1:]}")
    if view.shown:  # in the panel, not a notice: a notice covered the ✓ it brought
        out.append(f"  {view.shown}", style="italic")
    if v.broken is not None:
        if not kept:  # (kept: ctrl+r would take the learner's answer away)
            out.append(f"{' ·' if read or view.shown else ''} ctrl+r starts the step again.")
    elif v.met:
        out.append("\n" + view.task_why)
        return
    for i, hint in enumerate(view.hints, start=1):
        out.append(f"\nHint {i}: ", style="bold")
        out.append(hint)
    if view.offering:
        out.append("\nShow a state that meets the goal? ", style="bold")
        out.append("y shows it", style=RichStyle(meta={"@click": "app.lesson('show')"}))
        out.append(" (u undoes); any other key keeps trying.")


CHOICE_GAP = "   "


def _question(out: Text, view: PanelView, width: int | None) -> None:
    out.append("\n? ", style="bold")
    out.append(view.prompt, style="bold")
    out.append("\n")
    if view.chosen is not None:
        _verdict(out, view)
        return
    used = 0  # columns of the choices' current line
    for i, choice in enumerate(view.choices):
        label = f"{LETTERS[i]})"
        size = cell_len(f"{label} {choice}")
        if i and width is not None and used + len(CHOICE_GAP) + size > width:
            out.append("\n")  # the next choice starts a line rather than break in two
            used = 0
        elif i:
            out.append(CHOICE_GAP)
            used += len(CHOICE_GAP)
        # a click on a choice answers, as its letter does
        click = {"@click": f"app.lesson('answer', '{LETTERS[i]}')"}
        out.append(label, style=RichStyle(bold=True, meta=click))
        out.append(f" {choice}", style=RichStyle(meta=click))
        used += size


def _verdict(out: Text, view: PanelView) -> None:
    """Once answered, the choices give way to one sentence naming the answer and the choice
    made: at 80 x 24 their lines are rows the panes need for the numbers the answer explains."""
    assert view.answer is not None and view.chosen is not None
    right = f"{LETTERS[view.answer]}) {view.choices[view.answer]}"
    if view.chosen == view.answer:
        out.append(f"✓ Right. {right}. ", style="bold")
    else:
        out.append(f"✗ Not quite: it is {right}", style="bold")
        out.append(f"; you chose {LETTERS[view.chosen]}) {view.choices[view.chosen]}. ")
    out.append(view.why)
