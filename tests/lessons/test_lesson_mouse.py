"""A lesson walked with the mouse alone: the panel's edge and a question's choices answer a
click as their keys do (the keys were the only way: a mouse user could not move a step)."""

from __future__ import annotations

from lesson_pilot import lesson_app, panel, settle, shown
from screen_text import screen_lines


async def click_words(pilot, words: str) -> None:
    """Click the first character of ``words`` where the screen shows them (the lowest such
    line: the panel's edge is below the panes)."""
    for y, line in reversed(list(enumerate(screen_lines(pilot.app)))):
        if (x := line.find(words)) >= 0:
            await pilot.click(offset=(x, y))
            await settle(pilot)
            return
    raise AssertionError(f"{words!r} is not on screen:\n" + "\n".join(screen_lines(pilot.app)))


async def test_next_back_a_choice_and_leave_are_clicks_too():
    async with lesson_app("one").run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await click_words(pilot, "n next")
        await click_words(pilot, "n next")
        assert "Step 3 of" in panel(pilot.app).border_title
        assert "a, b or c answers" in panel(pilot.app).edge_text
        await click_words(pilot, "b) ")
        text = " ".join(panel(pilot.app).plain.split())
        assert "✓ Right. b) " in text or "you chose b) " in text
        assert pilot.app.screen.workspace.t_q == 1  # an answer, not the Q editor's a
        await click_words(pilot, "p back")
        assert "Step 2 of" in panel(pilot.app).border_title
        await click_words(pilot, "Esc keep playing")
        assert pilot.app.tutor.lesson is None and not pilot.app.screen.query("LessonPanel")


async def test_a_tasks_hint_and_show_me_are_clicks_too():
    async with lesson_app("select", at=4).run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        await click_words(pilot, "h hint")
        assert "Hint 1:" in shown(pilot.app)
        for _ in range(3):  # the hints, then "show me" is offered
            if "y show me" in panel(pilot.app).edge_text:
                break
            await click_words(pilot, "h hint")
        await click_words(pilot, "y show me")
        assert "Done:" in shown(pilot.app)
        await click_words(pilot, "ctrl+r reset")
        assert "Done:" not in shown(pilot.app)
