"""Escape sequences inside a bracketed paste are taken out before Textual's parser reads them:
"1 2<ESC>xx" pasted onto Q ran x twice (remove token), and "red<ESC>[31mwine" typed into the
model screen's sentence came out reordered."""

from __future__ import annotations

import pytest
from textual import events

from attn_tui.tui import textual_compat
from attn_tui.tui.keys import read_escape_as_typed
from attn_tui.tui.paste_escapes import (
    END,
    START,
    PasteCleaned,
    PasteEscapes,
    drop_escapes_in_pastes,
)


def _events(*chunks: str) -> list:
    read_escape_as_typed()
    drop_escapes_in_pastes()
    parser = textual_compat.xterm_parser()()
    out = []
    for chunk in chunks:
        out += list(parser.feed(chunk))
    return out


def _said(made: list) -> list:
    return [("paste", e.text) if isinstance(e, events.Paste) else
            ("cleaned", e.removed) if isinstance(e, PasteCleaned) else
            ("key", e.key) for e in made if isinstance(e, (events.Paste, PasteCleaned, events.Key))]


def test_a_paste_with_an_escape_pastes_the_rest_and_runs_no_key():
    assert _said(_events(f"{START}1 2\x1bxx{END}")) == [("paste", "1 2x"), ("cleaned", 1)]


@pytest.mark.parametrize("cut", range(1, 24))
def test_a_colour_sequence_in_a_sentence_is_taken_out_wherever_the_reads_cut_it(cut):
    data = f"{START}red\x1b[31mwine{END}"
    assert _said(_events(data[:cut], data[cut:])) == [("paste", "redwine"), ("cleaned", 1)]


def test_outside_a_paste_escape_and_keys_are_untouched():
    # Escape then x is two keys (attn-tui reads ESC and a letter as typed), not held back
    assert _said(_events("a\x1bx")) == [("key", "a"), ("key", "escape"), ("key", "x")]
    assert _said(_events(f"{START}plain{END}q")) == [("paste", "plain"), ("key", "q")]


def test_the_filter_holds_back_only_a_cut_sequence_inside_a_paste():
    f = PasteEscapes()
    assert f("x\x1b") == ("x\x1b", None)  # a lone Escape outside a paste: passed at once
    assert f(START[:3]) == (START[:3], None) and f(START[3:] + "ab\x1b[3") == (START[3:] + "ab", None)
    assert f.inside
    assert f("1m\x1b]0;title\x07cd" + END[:2]) == ("cd", None)  # the cut END waits
    assert f(END[2:] + "z") == (END + "z", 2)
    assert not f.inside


@pytest.mark.parametrize(("pasted", "kept", "removed"), [
    ("x\x1b", "x", 1),  # a lone ESC last: it took the end's ESC, and the paste never ended
    ("hello \x1b[31mred\x1b[0", "hello red", 2),
    ("abc\x1b[", "abc", 1),
    ("a\x1b]0;t\x1b", "a", 2),
    ("a\x1b\x1b[31mb", "ab", 2),
    ("a\x1b[3\x1b[31mb", "ab", 2),
    ("\x1bOAb", "b", 1),  # SS3 and its character
])
def test_a_paste_ending_in_or_cut_by_an_escape_still_ends(pasted, kept, removed):
    made = _said(_events(f"{START}{pasted}{END}", "m"))
    assert made == [("paste", kept), ("cleaned", removed), ("key", "m")]


def test_a_paste_cut_at_every_read_still_ends_with_the_keys_after_it():
    data = f"{START}1 2\x1b[0\x1bx{END}q"
    for cut in range(1, len(data)):
        made = _said(_events(data[:cut], data[cut:]))
        # the notice may come after a key read in the same chunk as the paste's end
        assert sorted(made) == [("cleaned", 2), ("key", "q"), ("paste", "1 2")], (cut, made)
