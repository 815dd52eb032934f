"""The text of a cell being edited, with a caret: typed, pasted, moved through, and cut short."""

from __future__ import annotations

from rich.cells import cell_len


class EditBuffer:
    # a plain class: a dataclass costs ~0.5 ms of start-up to build
    __slots__ = ("text", "caret", "replace")

    def __init__(self, text: str = "", caret: int = 0, replace: bool = False) -> None:
        self.text, self.caret = text, caret
        self.replace = replace  # the old value is shown "selected": the first key typed replaces it

    def __repr__(self) -> str:
        return f"EditBuffer({self.text!r}, caret={self.caret}, replace={self.replace})"

    @classmethod
    def opened_with(cls, text: str, replace: bool) -> EditBuffer:
        return cls(text, len(text), replace)

    def insert(self, chars: str) -> None:
        if self.replace:
            self.text, self.caret, self.replace = "", 0, False
        self.text = self.text[: self.caret] + chars + self.text[self.caret:]
        self.caret += len(chars)

    def backspace(self) -> None:
        if self.replace:
            self.text, self.caret, self.replace = "", 0, False
        elif self.caret:
            self.text = self.text[: self.caret - 1] + self.text[self.caret:]
            self.caret -= 1

    def delete(self) -> None:
        if self.replace:
            self.text, self.caret, self.replace = "", 0, False
        else:
            self.text = self.text[: self.caret] + self.text[self.caret + 1:]

    def move(self, where: str) -> None:
        self.replace = False
        self.caret = {
            "left": max(0, self.caret - 1), "right": min(len(self.text), self.caret + 1),
            "home": 0, "end": len(self.text),
        }[where]

    def clear(self) -> None:
        self.text, self.caret, self.replace = "", 0, False

    def shown(self, width: int) -> str:
        """The text around the caret in ``width`` columns, the caret drawn as ▏. Where the
        text goes on beyond the cell, … says so: "456.7" alone reads as another number than
        -123456.7. The old value, shown selected, keeps its start, where a number is read."""
        safe = "".join(map(_visible, self.text))
        if self.replace:
            if cell_len(safe) <= width:
                return safe
            piece = safe[: max(0, width - 1)]
            while cell_len(piece) > width - 1:
                piece = piece[:-1]
            return piece + "…"
        line = safe[: self.caret] + "▏" + safe[self.caret:]
        # the caret with one character after it in view, where there is one: room for a …
        start = max(0, min(self.caret + 2 - width, len(line) - width))
        piece, caret = line[start: start + width], self.caret - start
        while cell_len(piece) > width:  # wide characters (full-width digits) take two cells
            if caret >= len(piece) // 2:
                piece, caret, start = piece[1:], caret - 1, start + 1
            else:
                piece = piece[:-1]
        if width >= 3:
            if start > 0 and caret != 0:
                piece = "…" + piece[1:]
            if start + len(piece) < len(line) and caret != len(piece) - 1:
                piece = piece[:-1] + "…"
        return piece


def _visible(ch: str) -> str:
    """A control character as its symbol (a line break as ␊, a tab as ␉), so a pasted one shows
    where it is; any other unprintable character as �."""
    if ch.isprintable():
        return ch
    if ord(ch) < 0x20:
        return chr(0x2400 + ord(ch))
    return "␡" if ch == "\x7f" else "�"
