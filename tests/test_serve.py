"""`attn-tui serve` on loopback: the page, a busy port, the session cap, the refusal to go public."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
import urllib.request

import pytest

pytest.importorskip("textual_serve")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_for(port: int, proc: subprocess.Popen, timeout: float = 30) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise AssertionError(f"server exited: {proc.stderr.read()}")
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.2):
                return
        except OSError:
            time.sleep(0.1)  # polling a socket, not synchronising the app
    raise AssertionError("server did not start listening")


@pytest.fixture
def server():
    procs = []

    def start(*extra: str) -> tuple[subprocess.Popen, int]:
        port = free_port()
        proc = subprocess.Popen(
            [sys.executable, "-m", "attn_tui", "serve", "--port", str(port), *extra],
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        )
        procs.append(proc)
        wait_for(port, proc)
        return proc, port

    yield start
    for proc in procs:
        if proc.poll() is None:
            proc.send_signal(signal.SIGINT)
            try:
                proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                proc.kill()


def test_serves_the_page_and_stops_cleanly(server):
    proc, port = server()
    with urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=10) as page:
        body = page.read().decode()
    assert page.status == 200 and "attn-tui" in body
    proc.send_signal(signal.SIGINT)
    assert proc.wait(timeout=10) == 0


def test_a_busy_port_is_one_clear_line(server):
    _, port = server()
    done = subprocess.run([sys.executable, "-m", "attn_tui", "serve", "--port", str(port)],
                          capture_output=True, text=True, timeout=30)
    assert done.returncode == 2
    assert done.stderr.strip() == (f"attn-tui: port {port} on 127.0.0.1 is already in use; "
                                   "choose another with --port")


@pytest.mark.parametrize("host", ["0.0.0.0", "192.0.2.10", "::"])
def test_beyond_loopback_needs_public(host):
    done = subprocess.run([sys.executable, "-m", "attn_tui", "serve", "--host", host],
                          capture_output=True, text=True, timeout=30)
    assert done.returncode == 2
    assert "no authentication" in done.stderr and "--public" in done.stderr
    assert "Traceback" not in done.stderr


def test_session_cap_turns_away_the_extra_tab(server):
    aiohttp = pytest.importorskip("aiohttp")
    import asyncio

    _, port = server("--max-sessions", "1")

    async def scenario() -> tuple[bool, int]:
        async with aiohttp.ClientSession() as http:
            first = await http.ws_connect(f"http://127.0.0.1:{port}/ws?width=80&height=24")
            # the first tab's app is running once it draws the workbench's first α (an app
            # that refused to start, e.g. for want of a terminal, draws nothing)
            drawn = b""
            while b"0.3369" not in drawn:
                msg = await asyncio.wait_for(first.receive(), timeout=30)
                if msg.type not in (aiohttp.WSMsgType.BINARY, aiohttp.WSMsgType.TEXT):
                    break
                drawn += msg.data if isinstance(msg.data, bytes) else msg.data.encode()
            started = b"0.3369" in drawn
            async with http.get(f"http://127.0.0.1:{port}/") as page:
                status = page.status
            await first.close()
            return started, status

    started, status = asyncio.run(scenario())
    assert started
    assert status == 503


def test_serve_without_textual_serve_says_how_to_install(tmp_path):
    (tmp_path / "sitecustomize.py").write_text("import sys\nsys.modules['textual_serve'] = None\n")
    env = {**os.environ, "PYTHONPATH": str(tmp_path)}
    done = subprocess.run([sys.executable, "-m", "attn_tui", "serve", "--port", str(free_port())],
                          capture_output=True, text=True, timeout=30, env=env)
    assert done.returncode == 2
    assert "pip install 'attn-tui[serve]'" in done.stderr
