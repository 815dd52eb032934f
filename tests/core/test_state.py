"""A workspace's source: where its numbers came from, as long as they are still those."""

from __future__ import annotations

from dataclasses import replace

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
