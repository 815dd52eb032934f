"""At 80×24 every number a step's words print from the panes is on the panes, whole.

Each lesson is walked with n; at every step the filled {placeholders} of its text (and of its
question, before and after it is answered) are looked for on the rendered screen outside the
lesson panel: a number the words point at but the panes have scrolled away, or cut with …,
fails. A few facts exist only in words (the lecture's allclose tolerances, a square root the
table rounds in its header): those are named below.
"""

from __future__ import annotations

import re
import string

import pytest
from lesson_pilot import lesson_app, panel, press, settle, shown
from screen_text import screen_lines

from attn_tui.lessons import load
from attn_tui.lessons.facts import fill
from attn_tui.lessons.loader import LETTERS, placeholders

LESSONS = ["one", "select", "scale", "mask", "params", "nanogpt"]

# facts the words give that no pane prints: the lecture's seed and comparisons, √d_k (the
# table's header rounds it to ÷1.73), D / h and log₂ n (worked out in the sentence itself)
WORDS_ONLY = re.compile(r"^(lec(?:64)?\.(?!x0)|row\.sqrt_dk|lab\.count\.d_k|"
                        r"lab\.result\.max_entropy)")
# numbers a pane rounds to fit its cells (V's 0.181 for x[0]'s 0.1808)
ROUNDED = {"lec.x0"}
# numbers a step recalls from an earlier one, saying so in its words
RECALLED = {("select", 6): {"s.entropy[0]", "s.entropy[1]"}}
_NUMBER = re.compile(r"-?\d+(?:,\d{3})*(?:\.\d+)?(?:e[-+]\d+)?")


def _items(text: str, context) -> list[tuple[str, list[str]]]:
    """(placeholder, the ways a pane may print one of its numbers or names), for each number or
    name the pane-backed placeholders of text print: as the words write it, or at the panes'
    own four decimals (the words may round: α = (0.34, 0.30, 0.36))."""
    out = []
    for _, field, spec, _ in string.Formatter().parse(text):
        if field is None or WORDS_ONLY.match(field):
            continue
        value = string.Formatter().get_field(field, (), context)[0]
        written, plain = format(value, spec or ""), format(value, "")
        if isinstance(value, str):  # a token's name, as it is: t6 is not the number 6
            out.append((field, [written]))
            continue
        numbers, plains = _NUMBER.findall(written), _NUMBER.findall(plain)
        if numbers and len(numbers) == len(plains):
            out += [(field, [n, p]) for n, p in zip(numbers, plains, strict=True)]
        else:
            out.append((field, [written]))
    return out


def _off_panel(app) -> str:
    """The rendered screen, without the lesson panel's own rows (its words say the number)."""
    top = panel(app).region.y
    return "\n".join(screen_lines(app)[:top])


def _rounded_on(screen: str, number: str) -> bool:
    """A number on screen that is ``number`` to its own decimals (two digits at least; the pane
    rounds the unrounded value, so 0.0255 may read 0.026)."""
    for seen in _NUMBER.findall(screen):
        decimals = len(seen.partition(".")[2])
        if len(seen.strip("-0.")) >= 2 and abs(float(number) - float(seen)) <= 10 ** -decimals:
            return True
    return False


def _on(screen: str, way: str) -> bool:
    return re.search(rf"(?<![\w.]){re.escape(way)}(?![\w…]|\.\d)", screen) is not None


def _missing(app, texts: list[str], recalled: set[str] = frozenset()) -> list[str]:
    context = app.tutor.context()
    screen = _off_panel(app)
    missing = []
    for text in texts:
        for field, ways in _items(text, context):
            if field in recalled or any(_on(screen, w) for w in ways):
                continue
            if field not in ROUNDED or not _rounded_on(screen, ways[-1]):
                missing.append(f"{{{field}}} = {ways[0]}")
        # a name in quotes ('the', 'best') is a token: its row or column label is in sight
        for token in re.findall(r"(?<!\w)'([^'\s]+)'", fill(text, context)):
            if not re.search(rf"(?<!\w){re.escape(token)}(?!\w)", screen):
                missing.append(f"'{token}'")
        # the selected query's facts (row.…) are the step table's: its title says whose
        if "row" in placeholders(text) and hasattr(app.screen, "workspace"):
            ws = app.screen.workspace
            title = f"steps for query '{ws.query_tokens[ws.selected]}'"
            if title not in screen:
                missing.append(f"the step table's title, {title}")
    cut = re.findall(r"\d…", screen)  # a number cut by the edge of its pane
    return missing + [f"a number cut: {c}" for c in cut]


def _step_table_cut(app) -> list[str]:
    """What of the step table's title, header and summary is off screen while it is drawn:
    nanogpt's eight-row map took the column whole, and steps 2 to 10 began at "output ζ" or at
    the entropy line, with no title, header or rows of the step table above."""
    screen = app.screen
    if not (screen.query("#steps-box") and screen.query_one("#steps-box").display):
        return []
    text = _off_panel(app)
    parts = [("title", "steps for query '" in text), ("header", re.search(r"│key  ", text))]
    if screen.query_one("#summary").display:  # a question may hide it: it would answer
        parts.append(("summary", re.search(r"│ (output )?ζ = \(", text)))
    return [f"the step table's {what} is off screen" for what, found in parts if not found]


@pytest.mark.parametrize("name", LESSONS)
async def test_every_number_the_words_print_is_on_the_panes_at_80x24(name):
    """... and the step table, where it is drawn, keeps its title, header and summary."""
    lesson = load(name)
    problems = []
    async with lesson_app(name).run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        for k, step in enumerate(lesson.steps, start=1):
            q, recalled = step.question, RECALLED.get((name, k), set())
            texts = [step.text] + ([q.prompt, *q.choices] if q else [])
            problems += [f"step {k}: {m}" for m in _missing(pilot.app, texts, recalled)]
            problems += [f"step {k}: {m}" for m in _step_table_cut(pilot.app)]
            if q is not None:  # the feedback may recall numbers: none is cut
                await press(pilot, LETTERS[q.answer])
                problems += [f"step {k}, answered: {m}" for m in _missing(pilot.app, [])]
                problems += [f"step {k}, answered: {m}" for m in _step_table_cut(pilot.app)]
            await press(pilot, "n")
    assert not problems, f"{name} at 80×24, off screen or cut:\n" + "\n".join(problems)


async def test_mask_keeps_the_step_tables_title_header_and_first_row_beside_the_map():
    # steps 2 to 5 showed the step table's last rows alone: no title, no header, no 'the'
    async with lesson_app("mask").run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        for k in range(2, 6):
            await press(pilot, "n")
            lines = _off_panel(pilot.app).splitlines()
            query, score = ("loudly", "1.5000") if k == 5 else ("the", "2.0000")  # 5: its task's
            assert any(f"steps for query '{query}'" in x for x in lines), k
            assert any("key " in x and "q·k" in x for x in lines), k
            assert any(re.search(rf"│the +{score}", x) for x in lines), k
            assert any("╰" in x and "v: change view" in x for x in lines), k  # the whole map


async def test_scale_step_4_keeps_the_plots_titles_in_view_as_s_turns_the_scaling_off():
    # s made the explanation above the plots a line shorter: their titles scrolled off the top
    async with lesson_app("scale", at=4).run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        for _ in range(2):  # off, then on again
            await press(pilot, "s")
            lines = _off_panel(pilot.app).splitlines()
            assert any("entropy H (bits) against d_k" in x for x in lines)
            assert any("max α against d_k" in x for x in lines)


async def test_a_lessons_map_taller_than_its_share_scrolls_to_the_row_the_step_marks():
    # nanogpt step 9 is about α(t6 → t5): with the map kept to its share, its row t6 is in view
    async with lesson_app("nanogpt", at=9).run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        text = _off_panel(pilot.app)
        assert re.search(r"│t6 .*›0\.3141", text), text
        assert "steps for query 't6' (6 of 8)" in text and re.search(r"│key +q·k", text)


async def test_an_answer_at_80x24_leaves_each_pane_a_row_of_the_numbers_it_quotes():
    # one 3 answered: the panel took 13 of 24 rows, and the step table kept its header and no
    # row while the answer quoted α (0.3385, 0.2799, 0.3816)
    async with lesson_app("one", at=3).run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await press(pilot, "b")
        text = _off_panel(pilot.app)
        assert re.search(r"│is +0\.3200 +0\.3200 +1\.3771 +›0\.3385", text), text
        assert re.search(r"│who +0\.3385 +0\.2799 +0\.3816", text), text
        assert "α is now (0.3385, 0.2799, 0.3816)" in shown(pilot.app)  # the answer's words


async def test_an_answers_longer_panel_leaves_the_step_table_its_title_and_header():
    # select 3 answered: the panel grew and the column scrolled to the map, past the step
    # table's title ("steps for query 'verb?'") and header
    async with lesson_app("select", at=3).run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await press(pilot, "b")
        assert _step_table_cut(pilot.app) == []
        assert "all queries: weights α" in _off_panel(pilot.app)  # the map's title too
        # and a row of the map, not its header alone: the verb query's, whose marked 0.8343
        # the answer quotes (it showed the animal query's 0.8520, the other figure)
        assert "›0.8343" in _off_panel(pilot.app)


async def test_a_grid_narrowed_by_the_panel_keeps_the_cursors_cell_in_sight():
    """nanogpt 9 at 80×24: the 5 typed into t5·d8 met the task, the panel grew, Q took a
    scrollbar, and d8 (the cursor and the new 5) went off its right edge."""
    pytest.importorskip("torch")
    async with lesson_app("nanogpt", at=9).run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        grid = pilot.app.screen.query_one("#grid-q")
        await press(pilot, "home", *["right"] * 7, "5", "enter")
        assert pilot.app.screen.workspace.q[5][7] == 5.0 and grid.cursor_col == 7
        left = grid.cursor_col * grid.cell_width - grid.scroll_offset.x
        room = grid.scrollable_content_region.width - grid.label_width
        assert left >= 0 and left + grid.cell_width <= room, (left, room)


async def test_select_3s_answer_quotes_only_numbers_in_sight_at_80x24():
    """It quoted the animal query's 0.8520 and 0.7507 beside the verb query's, with the map
    scrolled to the verb query's row and the step table on the verb query."""
    async with lesson_app("select", at=3).run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await press(pilot, "b")
        said = " ".join(panel(pilot.app).plain.split())
        quoted = re.findall(r"\d\.\d{4}", said[said.index("Right."):])
        assert quoted == ["0.8343", "0.8135"]
        off = _off_panel(pilot.app)
        assert all(number in off for number in quoted), off


async def test_a_hint_that_takes_the_tables_rows_keeps_the_sum_row_the_words_name():
    """lesson one step 5 at 80×24: after h the step table kept the and best, and the sum row
    (3.5701, the words' "their sum") went; best's α, the task's figure, and the sum now stay."""
    async with lesson_app("one", at=5).run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await press(pilot, "h")
        text = shown(pilot.app)
        assert "Hint 1:" in text and "their sum, 3.5701" in text
        assert re.search(r"│best +0\.4400 +0\.2540 +1\.2892 +›0\.3611", text)
        assert re.search(r"│sum +3\.5701 +›1\.0000", text)
