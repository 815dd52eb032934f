"""Go to a lesson or a lab: one menu for everything beyond the workbench."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.widgets import Static
from textual.widgets.option_list import Option

from attn_tui.tui.screens.dialogs.modal import AttnModal, ChoiceList, two_columns

# characters of a name the header shows: a long paste quoted whole pushed the list, and the
# way out, off the window
SHOWN = 24


def plain(text: str) -> str:
    """``text`` as Go to compares it: lower case, letters, digits and hyphens, one space
    between words (a list line copied and pasted back, "· 0/2 tasks", matches its entry)."""
    return " ".join("".join(c if c.isalnum() or c == "-" else " " for c in text.lower()).split())


class GotoModal(AttnModal[str | None]):
    """Dismisses with "lesson:NAME", "lab:NAME", "workbench" or None."""

    BINDINGS = [Binding("escape,q", "dismiss(None)", "Cancel")]
    DEFAULT_CSS = """
    GotoModal { align: center middle; }
    GotoModal > Vertical { width: 100; max-width: 100%; height: auto; max-height: 100%;
                           border: round $border; background: $surface; padding: 0 1; }
    GotoModal OptionList { height: auto; max-height: 20; border: none; }
    """

    HEADER = "[b]Go to[/b]  (type a name, or ↑↓; Enter opens, Escape cancels)"

    def __init__(self, entries: list[tuple[str, str]]) -> None:
        super().__init__()
        self.entries = entries  # (target, line shown)
        self.typed = ""  # the start of a name typed so far
        self.missed = ""  # a name typed after it that starts nothing: Enter opens nothing then

    def compose_dialog(self) -> ComposeResult:
        with Vertical():
            yield Static(self.HEADER, id="goto-header")
            yield ChoiceList(*self._options(""))

    def _matches(self, typed: str) -> list[tuple[str, str]]:
        """The entries whose name (mask) or line as shown (lesson mask) starts with ``typed``."""
        return [(target, line) for target, line in self.entries
                if target.split(":")[-1].startswith(typed) or plain(line).startswith(typed)]

    def _options(self, typed: str) -> list[Option]:
        return [Option(two_columns(line), id=target) for target, line in self._matches(typed)]

    def on_key(self, event) -> None:
        """Letters, digits and spaces keep the entries whose name or line starts with them (a
        letter that matches none starts again from itself); Backspace takes one back."""
        if self.closed:
            return  # a key typed after Enter: AttnModal hands it on
        char = event.character
        if event.key == "enter" and self.missed:
            # "zzz" Enter opened the workbench, the entry first in the list the z's left alone
            event.stop()
            event.prevent_default()
            self.app.bell()
            self._missed(self.missed, "↑↓ picks one")
            return
        if event.key in ("up", "down", "pageup", "pagedown", "home", "end"):
            self.missed = ""  # an entry picked by hand: Enter opens it
            return
        if event.key == "backspace" and self.missed:
            # the letter refused was never taken: Backspace takes back the refusal, not a
            # letter of the name that matched ("s z ⌫" had emptied the filter)
            event.stop()
            event.prevent_default()
            self.missed = ""
            self._show_typed()
            return
        if event.key == "backspace":
            typed = self.typed[:-1]
        elif char and (char.isalnum() or char in " -") and event.key not in ("q", "escape"):
            typed = self.typed + char.lower()
        else:
            return
        event.stop()
        event.prevent_default()  # read here, not by a binding
        # a letter that matches nothing starts a new name; a digit alone names nothing to
        # start from ("lab 3" opened step 3)
        again = () if event.key == "backspace" or not char.isalpha() else (char.lower(),)
        self._filter(typed, *again)

    def on_paste(self, event) -> None:
        """A pasted name filters as if typed ("lesson mask", "Mask" or " mask\n"); it never
        opens anything by itself."""
        event.stop()
        if self.closed:
            return
        if plain(event.text):  # after the letters typed, as if typed: "ma" then "sk" is mask
            self._filter(plain(self.typed + event.text), plain(event.text))
        else:
            self.app.bell()
            self.query_one("#goto-header", Static).update(
                f"[b]Go to[/b]{_shown(self.typed)}  [$text-warning]the paste has no letter or "
                "digit to look for[/]  (Escape cancels)")

    def _filter(self, typed: str, *again: str) -> None:
        """Keep the entries that start with ``typed`` (or else with the first of ``again``
        that any starts with); if none does, say so and keep the list as it was."""
        for attempt in (typed, *again):
            if self._matches(attempt) or not attempt:
                self.typed, self.missed = attempt, ""
                choices = self.query_one(ChoiceList)
                choices.clear_options()
                choices.add_options(self._options(attempt))
                choices.highlighted = 0
                self._show_typed()
                return
        self.app.bell()  # heard in few terminals over SSH: the header says it too
        self.missed = typed
        self._missed(typed, "Backspace" if self.typed else "")

    def _show_typed(self) -> None:
        self.query_one("#goto-header", Static).update(
            f"[b]Go to[/b]{_shown(self.typed)}  (Enter opens, Escape cancels)" if self.typed
            else self.HEADER)

    def _missed(self, typed: str, mend: str) -> None:
        typed = typed if len(typed) <= SHOWN else typed[:SHOWN - 1] + "…"
        self.query_one("#goto-header", Static).update(
            f"[b]Go to[/b]{_shown(self.typed)}  [$text-warning]nothing starts with '{typed}'[/]  "
            + (f"({mend}, or Escape cancels)" if mend else "(Escape cancels)"))


def _shown(typed: str) -> str:
    """What is typed, with the caret after it; a long name's end (a list line pasted)."""
    if not typed:
        return ""
    return f" {typed if len(typed) <= SHOWN else '…' + typed[1 - SHOWN:]}▏"
