"""A question's choices break between them, never inside one, at the panel's width."""

from __future__ import annotations

from lesson_pilot import lesson_app, settle
from screen_text import screen_lines

from attn_tui.tui.tutor.panel import PanelView, render

CHOICES = ("its own token: the diagonal", "the token one back: just below the diagonal",
           "the first token", "every earlier token alike")


def _choice_lines(text: str) -> list[str]:
    lines = text.splitlines()
    return lines[lines.index("? which?") + 1:]


def test_choices_that_do_not_fit_one_line_start_lines_of_their_own() -> None:
    view = PanelView(lesson="l", k=1, n=1, title="t", prompt="which?", choices=CHOICES)
    assert _choice_lines(render(view, 76).plain) == [
        "a) its own token: the diagonal",
        "b) the token one back: just below the diagonal   c) the first token",
        "d) every earlier token alike"]
    # wide enough for all: one line, as before; without a width, one paragraph to wrap
    one = "   ".join(f"{c}) {t}" for c, t in zip("abcd", CHOICES, strict=True))
    assert _choice_lines(render(view, 200).plain) == [one]
    assert _choice_lines(render(view).plain) == [one]


async def test_at_80x24_no_choice_is_cut_across_two_lines() -> None:
    # learning step 2 read "b) the token one back: just below the" / "diagonal   c) …"
    async with lesson_app("learning", at=2).run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        lines = [line.strip("│ ") for line in screen_lines(pilot.app)]
        assert "b) the token one back: just below the diagonal   c) the first token" in lines
        await pilot.resize_terminal(120, 40)  # laid out again for the new width
        await settle(pilot)
        lines = [line.strip("│ ") for line in screen_lines(pilot.app)]
        assert any(line.startswith("a) its own token: the diagonal   b) the token one back")
                   for line in lines)


def test_once_answered_the_choices_give_way_to_one_sentence_naming_both() -> None:
    """At 80×24 the choices' two lines were kept under the answer, taking rows from the panes
    whose numbers the answer explains."""
    view = PanelView(lesson="l", k=1, n=1, title="t", prompt="which?", choices=CHOICES,
                     answer=1, why="Because.")
    wrong = _choice_lines(render(PanelView(**{**view.__dict__, "chosen": 2}), 76).plain)
    assert wrong == ["✗ Not quite: it is b) the token one back: just below the diagonal; you "
                     "chose c) the first token. Because."]
    right = _choice_lines(render(PanelView(**{**view.__dict__, "chosen": 1}), 200).plain)
    assert right == ["✓ Right. b) the token one back: just below the diagonal. Because."]
