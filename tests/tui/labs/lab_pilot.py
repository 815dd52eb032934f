"""Open a lab under Pilot and wait until what it shows is settled."""

from __future__ import annotations

from attn_tui.tui.app import make_app


async def settle(pilot) -> None:
    """Wait for every worker and the repaint after it (no sleeps)."""
    await pilot.pause()
    await pilot.app.workers.wait_for_complete()
    await pilot.pause()


def lab_app(name: str, **kwargs):
    app = make_app(lab=name, **kwargs)
    app.animation_level = "none"
    return app


async def run_action(pilot, action: str) -> None:
    """Drive the lab the way a lesson does: ``app.run_action("screen.<action>")``."""
    await pilot.app.run_action(f"screen.{action}")
    await settle(pilot)
