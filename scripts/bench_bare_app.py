"""The benchmark's baseline: a bare Textual app (Header, one Label, Footer).

Started exactly as attn-tui is (``python scripts/bench_bare_app.py`` in a pty), it is the floor
any Textual app pays for the interpreter, Textual's import and its first frame. In-process, its
one binding (x) updates the label: the cheapest possible key → repaint. With ``--numpy`` it
imports numpy first: what any app pays whose first screen shows a computed number.
"""

from __future__ import annotations

from textual.app import App, ComposeResult
from textual.widgets import Footer, Header, Label

READY = "bare baseline ready"


class BareApp(App[None]):
    BINDINGS = [("x", "bump", "Bump"), ("q", "quit", "Quit")]

    def __init__(self) -> None:
        super().__init__()
        self.count = 0

    def compose(self) -> ComposeResult:
        yield Header()
        yield Label(READY, id="label")
        yield Footer()

    def action_bump(self) -> None:
        self.count += 1
        self.query_one("#label", Label).update(self.label_text(self.count))

    @staticmethod
    def label_text(count: int) -> str:
        return f"pressed {count} times"


if __name__ == "__main__":
    import sys

    if "--numpy" in sys.argv[1:]:  # the floor for an app whose first screen needs numpy
        import numpy  # noqa: F401
    BareApp().run()
