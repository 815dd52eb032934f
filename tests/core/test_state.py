"""A workspace's source: where its numbers came from, as long as they are still those."""

from __future__ import annotations

from dataclasses import replace

import pytest

from attn_tui.core import state
from attn_tui.core.state import EDITED, set_cell, with_source_kept


def test_a_heads_source_says_edited_once_its_numbers_are_not_the_heads():
    """An export after an edit credited the model with the learner's numbers."""
    head = replace(state.from_preset("one"), source="a model, layer 0 head 0, on “x”")
    assert with_source_kept(head, replace(head, mask="causal")).source == head.source
    edited = with_source_kept(head, set_cell(head, "Q", 0, 0, 9.0))
    assert edited.source == head.source + EDITED
    assert with_source_kept(edited, set_cell(edited, "K", 0, 0, 2.0)).source == edited.source
    assert with_source_kept(head, state.from_preset("mask")).source == ""
    assert with_source_kept(head, state.add_row(head, "K")).source == head.source + EDITED


def test_change_words_say_what_an_undo_takes_back():
    """u and U changed the panes without a word: with several kinds of change on the stack,
    the learner could not tell which one went."""
    ws = state.from_preset("one")
    edited = state.set_cell(ws, "Q", 0, 0, 7.0)
    assert state.change_words(edited, ws) == "Q who d1 7 → 0.1"
    assert state.change_words(ws, replace(ws, mask="causal", scale=False)) == \
        "mask none → causal, ÷√d_k on → off"
    grown = state.resize(ws, t=4)
    assert state.change_words(ws, grown) == f"T 3 → 4 (+{grown.key_tokens[-1]})"
    # the token x took, named: "Undid: queries 3 → 4" said nothing of which came back
    sel = state.from_preset("select")
    gone = state.remove_row(sel, "K", 0)
    assert state.change_words(gone, sel) == "T 2 → 3 (+dog)"
    assert state.change_words(sel, gone) == "T 3 → 2 (−dog)"
    assert state.change_words(ws, state.resize(ws, d_k=4)) == "d_k 3 → 4"
    mask = state.from_preset("mask")  # self-attention: its queries are its T tokens, said once
    assert state.change_words(mask, state.remove_row(mask, "K", 1)) == "T 4 → 3 (−dog)"



def test_change_words_name_where_numbers_from_elsewhere_came_from():
    # w on the model screen, then u: "Undid: T 13 → 3, queries 13 → 1, d_k 32 → 3 …"
    ws = state.from_preset("one")
    head = replace(state.from_preset("mask"),
                   source="all-MiniLM-L6-v2, layer 2 head 9, on “The cat sat.”")
    # and the settings that came back with them (they were all the words said of a preset)
    assert state.change_words(head, ws) == ("Q, K and V: all-MiniLM-L6-v2, layer 2 head 9 → "
                                            "the workbench's own, mask causal → none, "
                                            "÷√d_k off → on")
    # the same head of two sentences: named with their sentences, or the words said nothing
    other = replace(head, source="all-MiniLM-L6-v2, layer 2 head 9, on “dogs bark loudly”")
    assert state.change_words(other, head) == (
        "Q, K and V: all-MiniLM-L6-v2, layer 2 head 9, on “dogs bark loudly” → "
        "all-MiniLM-L6-v2, layer 2 head 9, on “The cat sat.”")
    edited = replace(state.set_cell(head, "Q", 0, 0, 7.0), source=head.source + EDITED)
    assert state.change_words(edited, head) == "Q the d1 7 → 2"  # an edit of the head's own
    run = replace(ws, source="the train lab's sort run (L 2, h 2, D 48, lr 3e-3, seed 0) at "
                             "step 2000, layer 1 head 2")
    assert state.change_words(head, run) == ("Q, K and V: all-MiniLM-L6-v2, layer 2 head 9 → "
                                             "the train lab's sort run at step 2000, layer 1 head 2"
                                             ", mask causal → none, ÷√d_k off → on")
    seed = replace(run, source=run.source.replace("seed 0", "seed 1"))
    assert state.change_words(run, seed) == (
        "Q, K and V: the train lab's sort run (L 2, h 2, D 48, lr 3e-3, seed 0) at step 2000, "
        "layer 1 head 2 → the train lab's sort run (L 2, h 2, D 48, lr 3e-3, seed 1) at step "
        "2000, layer 1 head 2")
    long = replace(head, source=head.source.replace("The cat sat.", "The cat sat on the mat "
                                                    "because it was tired."))
    assert state.change_words(long, other).startswith(
        "Q, K and V: all-MiniLM-L6-v2, layer 2 head 9, on “The cat sat on the mat because…” → ")
    hungry = replace(long, source=long.source.replace("tired", "hungry"))
    assert state.change_words(long, hungry) == (  # the same start: told apart by their ends
        "Q, K and V: all-MiniLM-L6-v2, layer 2 head 9, on “…the mat because it was tired.” → "
        "all-MiniLM-L6-v2, layer 2 head 9, on “…the mat because it was hungry.”")


@pytest.mark.parametrize(("typed", "said"), [
    (1e-320, "1e-320"),  # %g wrote the subnormal's stored value, 9.99989e-321
    (1e6, "1000000"),  # not 1e+06
    (1e-5, "1e-5"),  # not repr's 1e-05
    (-2.0, "-2"), (1 / 3, "0.333333"), (-1e300, "-1e300")])
def test_change_words_write_a_cell_as_it_was_typed(typed: float, said: str) -> None:
    ws = state.from_preset("one")
    assert state.change_words(ws, state.set_cell(ws, "Q", 0, 0, typed)) == f"Q who d1 0.1 → {said}"
    both = state.set_cell(state.set_cell(ws, "K", 0, 0, 1.0), "K", 1, 1, 1.0)
    assert state.change_words(ws, both) == "2 cells of K"
    assert state.change_words(ws, ws) == "nothing seen"
