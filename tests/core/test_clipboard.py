"""What the copy key puts on the clipboard, and what the notification says."""

from __future__ import annotations

from dataclasses import replace

from attn_tui.core import state
from attn_tui.report.clipboard import OSC52_SAFE_BYTES, table_copy
from attn_tui.report.export import export_text


def test_copy_is_the_markdown_export_and_says_what_it_is() -> None:
    ws = replace(state.from_preset("mask"), selected=2)
    copied = table_copy(ws)
    assert copied.text == export_text(ws, "md")
    assert copied.message == ("Copied the step table for query 'barked' and the 4×4 weights "
                              f"as Markdown ({copied.text.count(chr(10))} lines).")
    assert not copied.too_large


def test_csv_copy_names_its_format() -> None:
    copied = table_copy(state.from_preset("one"), "csv")
    assert copied.text.startswith("key,q_dot_k,scaled,exp,alpha,")
    assert "as CSV" in copied.message


def test_a_table_too_large_for_some_terminals_says_so() -> None:
    ws = state.random_workspace(120, 64, seed=0)
    copied = table_copy(ws)
    assert len(copied.text) * 4 / 3 > OSC52_SAFE_BYTES
    assert copied.too_large and "some terminals may cut it short" in copied.message
