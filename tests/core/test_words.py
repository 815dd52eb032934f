"""Words for counts and lists, as a learner reads them."""

from __future__ import annotations

from attn_tui.core.words import listed, plural


def test_items_are_listed_as_a_sentence_lists_them():
    assert listed(["mask"]) == "mask"
    assert listed(["4", "5"]) == "4 and 5"
    assert listed(["mask", "one", "select"]) == "mask, one and select"


def test_counts_take_their_plural_and_thousands_commas():
    assert plural(1, "trial") == "1 trial"
    assert plural(1024, "key") == "1,024 keys"
    assert plural(2, "query", "queries") == "2 queries"
