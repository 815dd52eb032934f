"""Run a lesson under Pilot, the way a learner does: keys, then wait until the panes settle."""

from __future__ import annotations

from screen_text import screen_text

from attn_tui.tui.app import make_app
from attn_tui.tui.tutor.panel import LessonPanel


def lesson_app(name: str, at: int = 1):
    """The app on lesson ``name``, opening at step ``at`` (1-based) as a learner's kept progress
    reopens it: a test about step 7 need not replay steps 1 to 6 (test_replay walks them all)."""
    app = make_app(lesson=name)
    app.animation_level = "none"
    if at > 1:
        assert app.progress.save(name, step=at - 1) is None
    return app


async def settle(pilot) -> None:
    """Every worker done (the step's own, a lab's experiment), then the repaints after it."""
    await pilot.pause()
    await pilot.app.workers.wait_for_complete()
    await pilot.pause()
    # the step scrolls its marked cells into view after a refresh: let that land before a shot
    await pilot.wait_for_scheduled_animations()
    await pilot.pause()
    await pilot.pause()


async def press(pilot, *keys: str) -> None:
    for key in keys:
        await pilot.press(key)
        await settle(pilot)


def panel(app) -> LessonPanel:
    return app.screen.query_one(LessonPanel)


def shown(app) -> str:
    """The screen as text, plus the lesson panel's words in view unwrapped (a number the panel
    wraps over two lines is still one number to the learner): all of them, or where the panel
    scrolls, its rows on screen."""
    text = screen_text(app)
    found = app.screen.query(LessonPanel)
    if not found:
        return text
    words = found.first()
    if words.max_scroll_y == 0:
        return text + "\n" + " ".join(words.plain.split())
    inside = words.content_region  # the rows in view, within the border, padding and scrollbar
    rows = text.splitlines()[inside.y:inside.bottom]
    return text + "\n" + " ".join(" ".join(row[inside.x:inside.right] for row in rows).split())
