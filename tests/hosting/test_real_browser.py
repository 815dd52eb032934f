"""`attn-tui serve` in a real browser: Debian's Chromium, driven headless by Playwright, on
loopback. What a learner does first, opening the page and typing, must work without a click.
`make test-hosting` installs both; elsewhere these tests skip and say what is missing."""

from __future__ import annotations

import shutil
import time

import pytest
from serving import FIRST_ALPHA, end_group, start_serve

pytest.importorskip("textual_serve")
playwright = pytest.importorskip(
    "playwright.sync_api", reason="Playwright is not installed: `make test-hosting` installs it")
CHROMIUM = shutil.which("chromium")
pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(CHROMIUM is None, reason="chromium is not installed: `make "
                       "test-hosting` installs it (apt-get install chromium)"),
]


class Page:
    """A browser tab on the server, with every byte its terminal was sent: the page draws on
    a canvas, so what it shows is read from its WebSocket, as the protocol tests read it."""

    def __init__(self, page) -> None:
        self.page = page
        self.drawn = bytearray()
        page.on("websocket", self._watch)

    def _watch(self, ws) -> None:
        ws.on("framereceived", lambda data: self.drawn.extend(
            data if isinstance(data, bytes) else b""))

    def shows(self, text: bytes, since: int = 0, timeout: float = 30) -> bool:
        """True once ``text`` arrived after byte ``since``; the browser's own loop runs while
        waiting (its events are handled only inside Playwright's calls)."""
        deadline = time.monotonic() + timeout
        while text not in self.drawn[since:]:
            if time.monotonic() > deadline:
                return False
            self.page.wait_for_timeout(50)  # lets Playwright deliver frames; not a sleep
        return True


@pytest.fixture
def browser():
    with playwright.sync_playwright() as p:
        chromium = p.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        try:
            yield chromium
        finally:
            chromium.close()


def test_keys_typed_on_a_fresh_page_reach_the_app_without_a_click(browser):
    proc, port = start_serve()
    try:
        tab = Page(browser.new_page(viewport={"width": 1000, "height": 640}))
        tab.page.goto(f"http://127.0.0.1:{port}/")
        assert tab.shows(FIRST_ALPHA), "the first screen never arrived"
        focused = tab.page.evaluate("document.activeElement.className")
        since = len(tab.drawn)
        tab.page.keyboard.press("m")
        assert tab.shows(b"causal", since, timeout=15), f"m went to {focused!r}, not the app"
        assert "xterm-helper-textarea" in focused
    finally:
        end_group(proc)


def test_with_delay_the_start_button_has_the_keyboard_and_enter_starts(browser):
    """?delay shows a Start button and opens no session: keys given to the terminal then went
    to a socket not yet made (lost, with an error in the console)."""
    proc, port = start_serve()
    try:
        tab = Page(browser.new_page(viewport={"width": 1000, "height": 640}))
        tab.page.goto(f"http://127.0.0.1:{port}/?delay=1")
        tab.page.wait_for_load_state("load")
        assert tab.page.evaluate("document.activeElement.id") == "start"
        tab.page.keyboard.press("Enter")  # the button reloads the page without ?delay
        assert tab.shows(FIRST_ALPHA), "Enter on Start did not start a session"
        since = len(tab.drawn)
        tab.page.keyboard.press("m")
        assert tab.shows(b"causal", since, timeout=15)
    finally:
        end_group(proc)


def test_a_session_ended_gives_the_keyboard_to_restart(browser):
    proc, port = start_serve()
    try:
        tab = Page(browser.new_page(viewport={"width": 1000, "height": 640}))
        tab.page.goto(f"http://127.0.0.1:{port}/")
        assert tab.shows(FIRST_ALPHA)
    finally:
        end_group(proc)  # the server stopped: the tab is told why
    tab.page.wait_for_function("document.body.classList.contains('-closed')", timeout=15000)
    tab.page.wait_for_function("document.activeElement.id === 'restart'", timeout=5000)
    assert "stopped on the server" in tab.page.inner_text("#ended")
