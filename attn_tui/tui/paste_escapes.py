"""Escape sequences inside a paste are dropped before Textual's parser reads them.

A terminal wraps pasted text in ESC [200~ … ESC [201~. Textual's parser reads an ESC inside that
as the start of a key sequence, so what follows it would run as keys or land out of order, and
text copied from a coloured terminal carries such sequences. Here every escape sequence inside a
paste is taken out (as ``print heads --text`` does), and the app says how many.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from textual.message import Message

from attn_tui.tui import textual_compat

ESC = "\x1b"
START, END = ESC + "[200~", ESC + "[201~"


class PasteCleaned(Message):
    """Escape sequences were taken out of a paste (posted by the terminal's reader)."""

    def __init__(self, removed: int) -> None:
        self.removed = removed
        super().__init__()


def _sequence_end(data: str, at: int) -> int | None:
    """Where the escape sequence starting at ``data[at]`` (an ESC) ends; None if the data ends
    first. CSI: parameters and intermediates, then a final byte; SS3: one character more;
    OSC, DCS, SOS, PM, APC: up to BEL or ESC \\; anything else: ESC and one character. An ESC
    inside any of them ends it unfinished, just before that ESC (which may be the paste's end:
    swallowed, the paste never ended and the app stopped reading keys)."""
    if at + 1 >= len(data):
        return None
    kind, i = data[at + 1], at + 2
    if kind == ESC:
        return at + 1  # a lone ESC
    if kind == "[":
        while i < len(data) and not "\x40" <= data[i] <= "\x7e":
            if data[i] == ESC:
                return i
            i += 1
        return i + 1 if i < len(data) else None
    if kind == "O":
        if i >= len(data):
            return None
        return i if data[i] == ESC else i + 1
    if kind in "]P_^X":
        while i < len(data):
            if data[i] == "\x07":
                return i + 1
            if data[i] == ESC:
                if i + 1 >= len(data):
                    return None
                return i + 2 if data[i + 1] == "\\" else i
            i += 1
        return None
    return at + 2


class PasteEscapes:
    """A filter for one terminal's input, fed in chunks as they are read: outside a paste the
    text passes untouched (a lone Escape at a chunk's end is a key, and is never held back);
    inside, escape sequences are dropped, and a sequence cut by a chunk's end waits for the
    next one."""

    def __init__(self) -> None:
        self.inside = False
        self.removed = 0  # in the paste being read
        self._tail = ""  # the last characters passed outside a paste: a START split in two
        self._carry = ""  # inside a paste: an escape sequence the chunk cut short

    def __call__(self, data: str) -> tuple[str, int | None]:
        """(the chunk to parse, the count removed from a paste that ended in it, or None)."""
        data, self._carry = self._carry + data, ""
        out: list[str] = []
        ended: int | None = None
        i = 0
        while i < len(data):
            if not self.inside:
                seen = self._tail + data[i:]
                found = seen.find(START)
                if found < 0:
                    out.append(data[i:])
                    self._tail = seen[-(len(START) - 1):]
                    break
                stop = found - len(self._tail) + len(START)  # the index just past START
                out.append(data[i:stop])
                i, self.inside, self.removed, self._tail = stop, True, 0, ""
                continue
            esc = data.find(ESC, i)
            if esc < 0:
                out.append(data[i:])
                break
            out.append(data[i:esc])
            rest = data[esc:]
            if rest.startswith(END):
                out.append(END)
                i, self.inside = esc + len(END), False
                if self.removed:
                    ended = (ended or 0) + self.removed
                continue
            if END.startswith(rest):  # the end, perhaps, cut short
                self._carry = rest
                break
            stop = _sequence_end(data, esc)
            if stop is None:
                self._carry = rest
                break
            self.removed += 1
            i = stop
        return "".join(out), ended


def drop_escapes_in_pastes() -> None:
    """Put the filter in front of the terminal parser's ``feed``, one per parser (once per
    process: the parser class is Textual's, shared by every driver)."""

    def wrap(original: Callable[[Any, str], Iterable[Any]]) -> Callable[[Any, str], Any]:
        def feed(self, data: str):
            cleaner = self.__dict__.get("_attn_paste_escapes")
            if cleaner is None:
                cleaner = self.__dict__["_attn_paste_escapes"] = PasteEscapes()
            if data:  # "" is the end of input
                data, removed = cleaner(data)
                if not data:
                    return
            else:
                removed = None
            yield from original(self, data)
            if removed:
                yield PasteCleaned(removed)

        return feed

    textual_compat.wrap_parser_feed(wrap)
