"""Helpers for tests that drive `attn-tui serve` over textual-serve's WebSocket protocol, on
loopback: start servers, read what a tab receives, send it keys, find a server's app processes."""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import signal
import socket
import subprocess
import sys
import time

FIRST_ALPHA = b"0.3369"  # the workbench's first weight: the app has drawn its first screen


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_listening(port: int, proc: subprocess.Popen | None = None, timeout: float = 30) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if proc is not None and proc.poll() is not None:
            raise AssertionError(f"exited before listening: {proc.stderr.read()}")
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.2):
                return
        except OSError:
            time.sleep(0.1)  # polling a socket, not synchronising the app
    raise AssertionError(f"nothing listening on port {port} after {timeout} s")


def start_serve(*extra: str, port: int | None = None) -> tuple[subprocess.Popen, int]:
    """An `attn-tui serve` in its own process group (so its app processes can be ended with
    it), listening on loopback."""
    port = port or free_port()
    proc = subprocess.Popen([sys.executable, "-m", "attn_tui", "serve", "--port", str(port),
                             *extra],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            start_new_session=True)
    wait_listening(port, proc)
    return proc, port


def end_group(proc: subprocess.Popen) -> None:
    """Stop a server started by start_serve and every process of its group."""
    if proc.poll() is None:
        proc.send_signal(signal.SIGINT)
        try:
            proc.wait(timeout=15)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(timeout=5)
    with contextlib.suppress(ProcessLookupError):
        os.killpg(proc.pid, signal.SIGKILL)


def children(pid: int) -> set[int]:
    """Processes whose parent is ``pid``, read from /proc."""
    found = set()
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/stat") as stat:
                    fields = stat.read().rsplit(")", 1)[1].split()
            except OSError:
                continue
            if int(fields[1]) == pid:
                found.add(int(entry))
    return found


async def first_screen(ws, timeout: float = 30) -> bytes:
    """What a tab received up to its app's first screen (or up to the socket's close)."""
    import aiohttp

    drawn = b""
    while FIRST_ALPHA not in drawn:
        msg = await asyncio.wait_for(ws.receive(), timeout=timeout)
        if msg.type != aiohttp.WSMsgType.BINARY:
            break
        drawn += msg.data
    return drawn


async def answers(ws, key: str, shows: bytes, timeout: float = 30) -> bool:
    """Send a key as the browser does; True once the screen shows ``shows``."""
    import aiohttp

    await ws.send_str(json.dumps(["stdin", key]))
    drawn = b""
    while shows not in drawn:
        msg = await asyncio.wait_for(ws.receive(), timeout=timeout)
        if msg.type != aiohttp.WSMsgType.BINARY:
            return False
        drawn += msg.data
    return True


async def closing(ws, timeout: float = 30):
    """The close frame's code and reason, skipping any screen output before it."""
    import aiohttp

    while True:
        msg = await asyncio.wait_for(ws.receive(), timeout=timeout)
        if msg.type not in (aiohttp.WSMsgType.BINARY, aiohttp.WSMsgType.TEXT):
            return msg.data, msg.extra


class Tab:
    """A tab that keeps reading its socket, as a browser does: aiohttp answers the server's
    heartbeat pings only while someone reads, and a tab left unread for 22 s is dropped."""

    def __init__(self, ws) -> None:
        self.ws = ws
        self.screen = bytearray()
        self.closed: tuple | None = None
        self._moved = asyncio.Event()
        self._reader = asyncio.ensure_future(self._read())

    async def _read(self) -> None:
        import aiohttp

        while True:
            msg = await self.ws.receive()
            if msg.type == aiohttp.WSMsgType.BINARY:
                self.screen += msg.data
            elif msg.type != aiohttp.WSMsgType.TEXT:
                self.closed = (msg.data, msg.extra)
            self._moved.set()
            if self.closed is not None:
                return

    async def shows(self, text: bytes, since: int = 0, timeout: float = 30) -> bool:
        """True once ``text`` has arrived after byte ``since``; False if the socket closed."""
        deadline = asyncio.get_running_loop().time() + timeout
        while text not in self.screen[since:]:
            if self.closed is not None:
                return False
            self._moved.clear()
            left = deadline - asyncio.get_running_loop().time()
            if left <= 0:
                return False
            with contextlib.suppress(asyncio.TimeoutError):
                await asyncio.wait_for(self._moved.wait(), left)
        return True

    async def ends(self, timeout: float = 30) -> bool:
        """True once the socket has closed."""
        with contextlib.suppress(asyncio.TimeoutError):
            await asyncio.wait_for(asyncio.shield(self._reader), timeout)
        return self.closed is not None

    async def key(self, key: str, shows: bytes, timeout: float = 30) -> bool:
        since = len(self.screen)
        await self.ws.send_str(json.dumps(["stdin", key]))
        return await self.shows(shows, since, timeout)

    async def close(self) -> None:
        await self.ws.close()
        self._reader.cancel()
