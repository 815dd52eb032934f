"""A class in real browsers: N tabs of headless Chromium open `attn-tui serve` at once (on
loopback) and each must show its first screen, then answer `m`, within a time limit. Prints, per
tab, when its page loaded, when its first screen came and how long `m` took, and every address a
page asked for that is not the server's.

Needs playwright (pip install playwright) and a Chromium from the distribution
(apt-get install chromium); playwright's own browser download is not used.

    python scripts/serve_browsers.py --tabs 20            # starts its own server
    python scripts/serve_browsers.py --url http://127.0.0.1:8000/ --tabs 20
"""

from __future__ import annotations

import argparse
import asyncio
import os
import shutil
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
CHROMIUM = ("/usr/lib/chromium/chromium", "chromium", "chromium-browser")


def find_chromium() -> str | None:
    for name in CHROMIUM:
        if os.path.isfile(name) or shutil.which(name):
            return name if os.path.isfile(name) else shutil.which(name)
    return None


async def tab(context, index: int, url: str, t0: float, limit: float, outside: list[str]):
    page = await context.new_page()
    received: list[str] = []
    page.on("websocket", lambda ws: ws.on("framereceived", lambda data: received.append(
        data if isinstance(data, str) else data.decode("utf-8", "replace"))))
    base = url.rstrip("/")
    page.on("request", lambda r: None if r.url.startswith(base) else outside.append(r.url))
    row = {"tab": index}

    async def until(text: str) -> None:
        while text not in "".join(received[-50:]):
            if time.monotonic() - t0 > limit:
                raise TimeoutError(f"no {text!r} within {limit:g} s")
            await asyncio.sleep(0.05)

    try:
        await page.goto(url, timeout=limit * 1000)
        row["loaded"] = time.monotonic() - t0
        await until("0.3369")
        row["first"] = time.monotonic() - t0
        received.clear()
        await page.click("#terminal")
        sent = time.monotonic()
        await page.keyboard.press("m")
        await until("causal")
        row["m"] = time.monotonic() - sent
    except Exception as exc:  # a tab that fails is a result, not the end of the run
        row["error"] = str(exc).splitlines()[0][:100]
    return row


async def run(url: str, tabs: int, limit: float, chromium: str) -> list[dict]:
    from playwright.async_api import async_playwright

    outside: list[str] = []
    async with async_playwright() as p:
        browser = await p.chromium.launch(executable_path=chromium, args=["--no-sandbox"])
        context = await browser.new_context()
        t0 = time.monotonic()
        rows = await asyncio.gather(*(tab(context, i, url, t0, limit, outside)
                                      for i in range(tabs)))
        await browser.close()
    if outside:
        print("asked beyond the server: " + ", ".join(sorted(set(outside))))
    return rows


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--tabs", type=int, default=20)
    ap.add_argument("--limit", type=float, default=30.0, help="seconds each tab may take")
    ap.add_argument("--url", help="a running server (default: start one on loopback)")
    args = ap.parse_args()
    if not 1 <= args.tabs <= 50:
        ap.error("--tabs must be from 1 to 50")
    try:
        import playwright  # noqa: F401
    except ImportError:
        print("serve_browsers: needs playwright: pip install playwright", file=sys.stderr)
        return 2
    if (chromium := find_chromium()) is None:
        print("serve_browsers: needs Chromium: apt-get install chromium", file=sys.stderr)
        return 2
    server = None
    url = args.url
    if url is None:
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            port = s.getsockname()[1]
        server = subprocess.Popen([sys.executable, "-m", "attn_tui", "serve", "--port", str(port),
                                   "--max-sessions", str(args.tabs)], cwd=ROOT,
                                  stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                                  start_new_session=True)
        url = f"http://127.0.0.1:{port}/"
        time.sleep(2)  # the server's start, before the tabs
    try:
        rows = asyncio.run(run(url, args.tabs, args.limit, chromium))
    finally:
        if server is not None:
            os.killpg(server.pid, signal.SIGINT)
            server.wait(timeout=15)
    for row in rows:
        print("  ".join(f"{k} {v:.2f}s" if isinstance(v, float) else f"{k} {v}"
                        for k, v in row.items()))
    good = sum("m" in row for row in rows)
    print(f"{good} of {args.tabs} tabs showed the first screen and answered m "
          f"within {args.limit:g} s; load average {os.getloadavg()[0]:.2f}")
    return 0 if good == args.tabs else 1


if __name__ == "__main__":
    sys.exit(main())
