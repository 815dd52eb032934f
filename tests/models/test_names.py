"""Token names as listed, and undone for a view that numbers its rows itself."""

from attn_tui.models.names import token_labels, unlabelled


def test_a_word_said_twice_gets_two_names_and_unlabelled_gives_the_tokens_back():
    tokens = ("[CLS]", "the", "cat", "the", "[SEP]")
    names = token_labels(tokens)
    assert names == ("1:[CLS]", "2:the", "3:cat", "4:the", "5:[SEP]")
    assert unlabelled(names) == tokens


def test_each_name_loses_only_its_own_number():
    # a token added after w's ("t14") left every row numbered twice in the picture
    assert unlabelled(("1:[CLS]", "2:the", "t3")) == ("[CLS]", "the", "t3")
    assert unlabelled(("1:a", "3:c")) == ("a", "3:c")  # a row taken out: 3:c is row 2 now
    assert unlabelled(("2:a", "1:b")) == ("2:a", "1:b")  # numbered, but not as listed
    assert unlabelled(("The", "cat")) == ("The", "cat")
    assert unlabelled(()) == ()
