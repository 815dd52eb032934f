"""A lab's controls on one focusable line: pick a field, step it, or type a value.

←→ pick a field, ↑↓ step it, PgUp/PgDn double or halve it, Enter or Space flips an on/off or
cycles a choice; a digit (or Enter on a number) opens an edit, Enter sets it, Escape cancels.
The bar never decides anything itself: it posts ``Changed`` for a value its field accepts and
``Rejected`` (with the reason) for one it does not, and shows what the screen gives it.
"""

from __future__ import annotations

from typing import Any, ClassVar

from rich.cells import cell_len
from rich.style import Style
from rich.text import Text
from textual import events
from textual.geometry import Size
from textual.message import Message
from textual.visual import visualize
from textual.widget import Widget

from attn_tui.tui import bindings
from attn_tui.tui.keys import AfterKeys, KeysInOrder, run_after_keys
from attn_tui.tui.roles import HoldsForQuestion, SettlesEdits, StepsFields
from attn_tui.tui.widgets.control_field import Field
from attn_tui.tui.widgets.editor_message import EditorMessage

# keys that edit the typed text (or do nothing to it) while a value is typed; any other key
# that is not a character keeps its meaning
TYPING_KEYS = frozenset({"escape", "ctrl+z", "enter", "backspace", "left", "right", "up",
                         "down", "home", "end", "pageup", "pagedown", "delete", "ctrl+u",
                         "ctrl+y"})


class ControlBar(KeysInOrder, Widget, can_focus=True):
    BINDINGS = bindings.CONTROL_BAR
    EDIT_ACTIONS = frozenset({"pick", "step", "scale", "activate"})  # none while typing
    DEFAULT_CSS = """
    ControlBar { height: auto; width: 1fr; padding: 0 1; background: $boost; }
    ControlBar:focus { background: $boost; }
    /* its fields are clicks (see units): drawn as they always were, lit under the pointer */
    ControlBar { link-style: none; link-color: $foreground; link-background: initial; }
    """

    class Changed(EditorMessage):
        """A field was given a value it accepts; the screen decides what follows."""

        def __init__(self, editor: Widget, key: str, value: Any, typed: str | None = None
                     ) -> None:
            self.key = key
            """The field's key (its name in the screen's settings)."""
            self.value = value
            """The value it was given."""
            self.typed = typed
            """The text typed for it, if it was typed (not a step)."""
            super().__init__(editor)

        @property
        def bar(self) -> ControlBar:
            """Alias for ``editor``."""
            return self.editor  # type: ignore[return-value]

        def can_replace(self, message: Message) -> bool:
            # a held key sends many of these; only the newest for a field matters
            return isinstance(message, ControlBar.Changed) and message.key == self.key

        @property
        def stale(self) -> bool:
            """The bar has moved on since (a later step, or the screen put its values back, as
            R does): a key read in the same burst must not undo that."""
            return self.bar.values.get(self.key) != self.value

    class Rejected(EditorMessage):
        """A typed value or a step the field refuses, with the reason in words."""

        def __init__(self, editor: Widget, key: str, reason: str) -> None:
            self.key = key
            """The field's key."""
            self.reason = reason
            """Why, in words, for the screen to show."""
            super().__init__(editor)

        @property
        def bar(self) -> ControlBar:
            """Alias for ``editor``."""
            return self.editor  # type: ignore[return-value]

    class Kept(Message):
        """A typed value the field accepts that is the value it has: nothing changes, but a
        refusal shown for an earlier try no longer stands."""

        def __init__(self, bar: ControlBar, key: str, value: Any) -> None:
            super().__init__()
            self.bar, self.key, self.value = bar, key, value

    class Moved(Message):
        """Another field is picked: a refusal said of the one left no longer stands."""

        def __init__(self, bar: ControlBar, key: str) -> None:
            super().__init__()
            self.bar, self.key = bar, key

    def __init__(self, fields: tuple[Field, ...], values: dict[str, Any],
                 enter_cycles: bool = True, **kwargs) -> None:
        super().__init__(**kwargs)
        self.fields = fields
        self.enter_cycles = enter_cycles  # False where the screen takes Enter (the train lab)
        self.values = dict(values)
        self.field = 0
        self._editing: str | None = None  # the text being typed, when an edit is open
        self._replace = False  # Enter opened the old value: the first key typed replaces it
        self._refused: str | None = None  # typed text refused already and kept open
        self._refusal_shown = False  # a refusal of this typing is on the screen's line
        # the field the last key, a minus that is the screen's key, was pressed on: a digit
        # next is a negative number typed, refused as one ("-5" had set 5, with no word)
        self._minus_on: int | None = None
        # the last value announced, until the screen has taken it: a key's binding run early
        # (see key_order) has the screen take it first
        self.in_flight: ControlBar.Changed | None = None

    @property
    def editing(self) -> str | None:
        return self._editing

    @property
    def is_typing(self) -> bool:
        """True while a value is being typed (keys are text, not commands): ``TypedInto``."""
        return self._editing is not None

    @editing.setter
    def editing(self, text: str | None) -> None:
        opened = (self._editing is None) != (text is None)
        if text != self._editing:  # new text: a refusal is news again
            self._refused = None
        self._editing = text
        if opened:  # a lesson's keys stand aside while a number is typed: the key bar follows
            self.refresh_bindings()

    def field_named(self, key: str) -> Field:
        return next(f for f in self.fields if f.key == key)

    def set_range(self, key: str, hi: float) -> None:
        """A field whose top depends on another setting (a head of h): ↑ stops there, and a
        value past it is refused in the same words as any other out of range."""
        self.fields = tuple(f._replace(hi=hi) if f.key == key else f for f in self.fields)
        self._repaint()

    # what differs in a bar of one line (the dimensions bar): the hint shares the fields' line
    ONE_LINE: ClassVar[bool] = False
    GAP: ClassVar[str] = "  "  # between two fields
    TYPED_SHOWN: ClassVar[int] = 24  # of the text being typed; a longer one shows its end, …

    def show(self, **values: Any) -> None:
        if self.ONE_LINE:
            # called on every edit of the workbench: repaint only when a value changed, and
            # never lay out again (the bar is one line whatever it shows)
            if any(self.values.get(k) != v for k, v in values.items()):
                self.values.update(values)
                self._repaint()
            return
        self.values.update(values)
        self._repaint()

    def _repaint(self) -> None:
        """A change that keeps the bar's lines (most: the fields keep their places) repaints
        it; one that needs more or fewer lines for its width lays it out too (24 digits typed
        into steps wrapped the fields onto a second line, and the hint below was cut off)."""
        layout = False
        if not self.ONE_LINE and self.is_mounted:
            width = self.content_size.width
            layout = width <= 0 or self.get_content_height(
                self.size, self.size, width) != self.content_size.height
        self.refresh(layout=layout)

    def units(self) -> list[Text]:
        """Each field as its name and value: one unit, never parted by a line break."""
        out = []
        for i, f in enumerate(self.fields):
            picked = self.has_focus and i == self.field
            shown = f.text(self.values[f.key])
            if picked and self.editing is not None:
                typed, most = self.editing, self.TYPED_SHOWN
                shown = (typed if len(typed) <= most else "…" + typed[-(most - 1):]) + "▏"
            # clicks: the name or value picks the field, ‹ and › step it down and up
            pick, down, up = (Style(meta={"@click": f"click_field({i}, {step})"})
                              for step in (0, -1, 1))
            look = Style.parse("reverse bold" if picked else "bold")
            unit = Text()
            unit.append(f"{self.label_of(f)} ", style=Style(bold=picked) + pick)
            unit.append("‹", style=look + down)
            unit.append(shown, style=look + pick)
            unit.append(f"›{f.unit}", style=look + up)
            out.append(unit)
        return out

    def label_of(self, field: Field) -> str:
        """The field's name as drawn on the bar."""
        return field.label

    def hints(self) -> tuple[str, ...]:
        """What the keys do here, longest first: the longest that fits is shown."""
        if self.editing is not None and self.editing == self._refused:
            return ("refused: mend it and Enter (ctrl+u clears), or Escape",
                    "refused: mend it, or Escape")
        if self.editing is not None:
            return ("typing: Enter sets it, Escape cancels",)
        if self.has_focus:
            f = self.current
            keys = "↑↓ or Enter" if self.enter_cycles else "↑↓"
            # where the screen takes Enter (the train lab trains), Enter opens no edit
            typing = "type a number or Enter" if self.enter_cycles else "type a number"
            keys_here = {"choice": f"←→ field  {keys}: another {f.label}",
                         "bool": f"←→ field  {keys}: {f.label} on or off",
                         # a ladder's PgUp/PgDn take one rung, as ↑↓ do
                         "ladder": f"←→ field  ↑↓ step  {typing}"}.get(
                f.kind, f"←→ field  ↑↓ step  PgUp/PgDn ×2 ÷2  {typing}")
            if f.meaning:  # "h" alone says little to a newcomer: said first, where it fits
                return (f"{f.label}: {f.meaning} · {keys_here}",
                        f"{f.label}: {f.meaning} · ←→ ↑↓ PgUp/PgDn, or type",
                        f"{f.label}: {f.meaning} · ←→ ↑↓, or type", keys_here)
            return (keys_here,)
        if "c" in self.app.tutor.keys_taken(self.screen):  # a lesson's c) answers a question
            return ("Tab here to change the controls",)
        return ("Tab here (or press c) to change the controls",)

    def render(self) -> Text:
        return self.laid_out(self.size.width)

    def get_content_height(self, container: Size, viewport: Size, width: int) -> int:
        # the fields are broken into lines for the width given, not the width drawn last
        return visualize(self, self.laid_out(width)).get_height(self.styles, width)

    def laid_out(self, width: int) -> Text:
        """The fields, as many to a line as fit in ``width`` (a field too wide for any line
        gets one of its own), then the hint: on the last line in a bar of ONE_LINE, else on
        a line below."""
        lines = [Text()]
        for unit in self.units():
            line = lines[-1]
            if line.cell_len and line.cell_len + unit.cell_len > width:
                line.right_crop(len(self.GAP))
                lines.append(line := Text())
            line.append_text(unit)
            line.append(self.GAP)
        if (over := lines[-1].cell_len - width) > 0:  # the last gap, past the edge
            lines[-1].right_crop(min(over, len(self.GAP)))
        out = Text("\n").join(lines)
        hints = self.hints()
        if self.ONE_LINE:
            # the longest hint that fits whole: a cut one ("(Tab here or press") reads as broken
            room = width - lines[-1].cell_len
            out.append(next((h for h in hints if len(h) <= room), ""), style="italic")
        else:
            out.append("\n")  # the longest that fits its line, else the shortest
            out.append(next((h for h in hints if cell_len(h) <= width), hints[-1]),
                       style="italic dim")
        return out

    # ---- actions
    @property
    def current(self) -> Field:
        return self.fields[self.field]

    def action_pick(self, step: int) -> None:
        self.field = (self.field + step) % len(self.fields)
        self._repaint()
        self.post_message(self.Moved(self, self.current.key))

    def action_click_field(self, index: int, step: int = 0) -> None:
        """A click on field ``index``: its name or value picks it, its ‹ or › steps it down
        or up. A value being typed is stored first, as leaving the field would; a refused one
        stays open, its message saying why."""
        typing_leaves = self.editing is not None and (index != self.field or step)
        if typing_leaves:
            if not self.take_typed(keep_refused=True):
                return
            if isinstance(self.screen, SettlesEdits):  # taken now: the step below is news
                self.screen.settle_edits()  # on it, not a bar the screen then puts back
        if index != self.field:
            self.field = index
            self._repaint()
            self.post_message(self.Moved(self, self.current.key))
        if step:
            self.action_step(step)

    def action_step(self, direction: int) -> None:
        f, now = self.current, self.values[self.current.key]
        # a screen may step a field by its other settings (the train lab's D, by its heads)
        screen = self.screen
        self._offer(screen.step_value(f, now, direction) if isinstance(screen, StepsFields)
                    else f.stepped(now, direction), direction)

    def action_scale(self, up: int) -> None:
        self._offer(self.current.scaled(self.values[self.current.key], bool(up)),
                    1 if up else -1)

    def _held(self) -> bool:
        """True (and said by the screen) while a lesson's question keeps the settings: typing
        would open a value no Enter could set, and the keys after it would be typed into it."""
        screen = self.screen
        return isinstance(screen, HoldsForQuestion) and screen.held()

    def action_activate(self) -> None:
        f = self.current
        if f.kind in ("bool", "choice"):
            self._offer(f.stepped(self.values[f.key], 1))
        elif not self._held():
            self.editing = f.text(self.values[f.key]).replace(",", "")
            self._replace = True
            self._repaint()

    def _offer(self, value: Any, direction: int = 1) -> None:
        f = self.current
        if value == self.values[f.key]:
            if f.kind not in ("bool", "choice"):
                self.post_message(self.Rejected(self, f.key, f.at_end(value, direction)))
            return
        self.values[f.key] = value
        self._repaint()
        self._announce(f.key, value)

    def _announce(self, key: str, value: Any, typed: str | None = None) -> None:
        self.in_flight = self.Changed(self, key, value, typed)
        self.post_message(self.in_flight)

    def reopen(self, key: str, typed: str) -> None:
        """The screen refused a typed value the field took (a head past h): the text comes
        back to be mended, as a value the field refuses itself stays."""
        keys = [f.key for f in self.fields]
        if key not in keys or self.editing is not None or not self.has_focus:
            return
        self.field = keys.index(key)
        self.editing, self._replace = typed, False
        self._refused, self._refusal_shown = typed, True
        self._repaint()

    # ---- typing
    def on_after_keys(self, event: AfterKeys) -> None:
        run_after_keys(event)  # the keys before it have been read here

    async def read_own_key(self, event: events.Key) -> bool:
        f = self.current
        signed = self._minus_on == self.field
        self._minus_on = None
        if self.editing is None:
            # a digit or a point begins a number; so does any other character that is no key
            # here (a sign, so that "-5" is refused whole rather than 5 set; a letter, so that
            # Enter says why it is not a number), while minus stays a key where it is one (the
            # dimensions bar's −1, the precision lab's scores ×↓)
            unbound = (event.is_printable and event.character is not None
                       and event.character.strip() != ""
                       and event.key not in self.screen.active_bindings)
            if f.kind not in ("bool", "choice") and event.character and (
                event.character.isdigit() or event.character == "." or unbound):
                event.stop()
                event.prevent_default()
                if self._held():
                    return True
                typed_sign = signed and (event.character.isdigit() or event.character == ".")
                self.editing = ("-" if typed_sign else "") + event.character
                self._replace = False
                event.stop()
                event.prevent_default()
                self._repaint()
                return True
            if event.key == "minus" and f.kind not in ("bool", "choice"):
                self._minus_on = self.field  # the screen's key runs: a step down, or its −1
            if (f.kind in ("bool", "choice") and event.character is not None
                    and event.character.isdigit()
                    and event.key not in self.screen.active_bindings):
                # a digit on a named choice did nothing, silently
                event.stop()
                event.prevent_default()
                names = ("on, off" if f.kind == "bool"
                         else ", ".join(f.text(c) for c in f.choices))
                self.post_message(self.Rejected(
                    self, f.key, f"{f.label} takes one of {names}: ↑↓ steps through them"))
                return True
            return False
        if not event.is_printable and event.key not in TYPING_KEYS:
            # Tab, ctrl+s, F1 … keep their meaning: the workbench takes the typed value first
            # (settle_edits), or leaving the bar does (on_blur)
            return False
        event.stop()
        event.prevent_default()
        if event.key in ("escape", "ctrl+z"):  # as in a cell: undo while typing drops the typing
            self._drop_typing()
        elif event.key == "enter":  # refused, the text stays to be mended, as a cell's does
            self.take_typed(keep_refused=True)
        elif event.key == "backspace":
            self.editing = "" if self._replace else self.editing[:-1]
            self._replace = False
        elif event.key == "ctrl+u":  # as in a cell: clear the typing
            self.editing, self._replace = "", False
        elif event.character and event.character.isprintable() and len(self.editing) < 24:
            self.editing = (event.character if self._replace else self.editing + event.character)
            self._replace = False
        self._repaint()
        return True

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "typed":
            return self.editing is not None
        if action in self.EDIT_ACTIONS and self.editing is not None:
            return False
        if action == "scale" and (self.current.kind in ("bool", "choice")
                                  or self.app.tutor.holds_back(self.screen) is not None):
            # ×2 ÷2 mean nothing for a task or an on/off, nor while a lesson's question keeps
            # the settings: PgDn scrolls the screen as elsewhere (it switched the train lab's
            # task, and every setting with it; under a question it only said "Answer first",
            # and the lab's words cut off by the lesson's panel stayed out of reach)
            return False
        return super().check_action(action, parameters)

    def action_typed(self, what: str) -> None:
        if what == "set":
            self.take_typed(keep_refused=True)
        else:
            self._drop_typing()
            self._repaint()

    def _drop_typing(self) -> None:
        """Cancel the typing: the field keeps its value, and a refusal said of what was typed
        no longer stands; the screen's other words (a run's "Paused at …") do."""
        self.editing = None
        if self._refusal_shown:
            self._refusal_shown = False
            f = self.current
            self.post_message(self.Kept(self, f.key, self.values[f.key]))

    def take_typed(self, keep_refused: bool) -> bool:
        """Close the open edit and store its value, as Enter does; False if the field refuses
        the text (Rejected says why, quoting it), which stays open if ``keep_refused``."""
        if self.editing is None:
            return True
        f = self.current
        value, error = f.parse(self.editing)
        if error:
            self._refusal_shown = True
            if self._refused != self.editing:  # said once is enough (ctrl+s, then the blur)
                self.post_message(self.Rejected(self, f.key, error))
            self._refused = self.editing if keep_refused else None
            if keep_refused:  # kept to mend, as a cell's is: typing goes on from its end
                self._replace = False
            else:
                self.editing = None
            self._repaint()
            return False
        typed, self.editing = self.editing, None
        self._refusal_shown = False  # taken: what the screen says next replaces the refusal
        if value != self.values[f.key]:
            self.values[f.key] = value
            self._announce(f.key, value, typed)
        else:
            self.post_message(self.Kept(self, f.key, value))
        self._repaint()
        return True

    def on_paste(self, event: events.Paste) -> None:
        """A pasted number is typed into the field (first line, at most 24 characters); Enter
        takes it as it would a typed one."""
        event.stop()
        f = self.current
        lines = event.text.strip().splitlines()
        if f.kind in ("bool", "choice") or not lines:
            return
        text = "".join(c for c in lines[0].strip() if c.isprintable())
        base = "" if self.editing is None or self._replace else self.editing
        self.editing, self._replace = (base + text)[:24], False
        self._repaint()

    def on_focus(self) -> None:
        self._repaint()

    def on_blur(self) -> None:
        # leaving the bar (Tab, a click) keeps a typed value, as a cell does; a refused one is
        # named in the message, not dropped unseen. The terminal window losing focus is not
        # leaving: Textual gives the focus back, and the typing goes on (1, away, 6 is 16)
        if self.app.app_focus:
            self.take_typed(keep_refused=False)
        self._repaint()
