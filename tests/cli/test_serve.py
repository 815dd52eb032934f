"""`attn-tui serve` on loopback: the page, a busy port, the session cap, the refusal to go public,
and the address the page points its browser at (--public-url, for a reverse proxy)."""

from __future__ import annotations

import asyncio
import json
import os
import re
import signal
import socket
import subprocess
import sys
import time
import urllib.request

import pytest
from serving import (
    FIRST_ALPHA,
    Tab,
    answers,
    children,
    closing,
    end_group,
    first_screen,
    wait_listening,
)

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


def test_to_a_file_the_log_is_one_line_per_event(server):
    """Sent to a file or a journal, each request took 2 to 5 lines, wrapped at 80 columns and
    padded with spaces: hard to grep."""
    proc, port = server("--max-sessions", "1")
    agent = "a-browser/1.0" + " with a long description" * 4
    request = urllib.request.Request(f"http://127.0.0.1:{port}/", headers={"User-Agent": agent})
    with urllib.request.urlopen(request, timeout=10) as page:
        assert page.status == 200
    proc.send_signal(signal.SIGINT)
    out, _ = proc.communicate(timeout=10)
    lines = out.splitlines()
    assert lines[0] == f"attn-tui serving on http://127.0.0.1:{port} (at most 1 session; Ctrl+C stops)"
    (hit,) = [x for x in lines if '"GET / HTTP/1.1" 200' in x]
    assert hit.startswith("INFO 127.0.0.1 ") and hit.endswith(f'"{agent}"')
    assert not any(x.startswith(" ") or x != x.rstrip() for x in lines)


@pytest.mark.parametrize("out", ["pipe-closed", "pipe-closed-at-once", "/dev/full"])
def test_a_log_that_cannot_be_written_is_said_once_and_the_server_serves_on(out):
    """`serve | head` ended: a 40-line traceback on stderr for every request after; to
    /dev/full, the start-up line failed and the server said it could not listen."""
    port = free_port()
    sink = open(out, "w") if out.startswith("/") else subprocess.PIPE  # noqa: SIM115
    proc = subprocess.Popen([sys.executable, "-m", "attn_tui", "serve", "--port", str(port)],
                            stdout=sink, stderr=subprocess.PIPE, text=True)
    try:
        if out == "pipe-closed":
            assert proc.stdout.readline().startswith("attn-tui serving on ")
            proc.stdout.close()  # as head does once it has its lines
        elif out == "pipe-closed-at-once":  # `serve | true`: rich exited with status 1
            proc.stdout.close()
        wait_for(port, proc)
        for _ in range(3):
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=10) as page:
                assert page.status == 200
    finally:
        proc.send_signal(signal.SIGINT)
        _, err = proc.communicate(timeout=15)
        if sink is not subprocess.PIPE:
            sink.close()
    why = "its reader has stopped" if sink is subprocess.PIPE else "no space left on device"
    assert err == f"attn-tui: the log cannot be written ({why}): serving on without one\n"
    assert proc.returncode == 0


def test_health_answers_whether_a_new_tab_would_get_a_session_and_stays_out_of_the_log(server):
    """HAProxy checked / every 2 s, and each check was a line of the log: 121 of 134."""
    import aiohttp

    proc, port = server("--max-sessions", "1")
    base = f"http://127.0.0.1:{port}"

    async def scenario():
        async with aiohttp.ClientSession() as http:
            async with http.get(f"{base}/health") as room:
                free = (room.status, await room.text())
            ws = await http.ws_connect(f"{base}/ws?width=80&height=24")
            assert FIRST_ALPHA in await first_screen(ws)
            async with http.get(f"{base}/health") as full:
                taken = (full.status, await full.text(), full.headers.get("Retry-After"))
            await ws.close()
            return free, taken

    free, taken = asyncio.run(scenario())
    assert free == (200, "ok: 0 of 1 sessions\n")
    assert taken == (503, "full\n", "30")
    proc.send_signal(signal.SIGINT)
    out, _ = proc.communicate(timeout=15)
    assert "/health" not in out and '"GET /ws' in out


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

    proc, port = server("--max-sessions", "1")

    async def scenario():
        async with aiohttp.ClientSession() as http:
            first = await http.ws_connect(f"http://127.0.0.1:{port}/ws?width=80&height=24")
            # the first tab's app is running once it draws (an app that refused to start,
            # e.g. for want of a terminal, draws nothing)
            started = FIRST_ALPHA in await first_screen(first)
            async with http.get(f"http://127.0.0.1:{port}/") as page:
                status, retry, body = page.status, page.headers.get("Retry-After"), \
                    await page.text()
            # a tab whose page loaded before the server filled up is told in its socket
            extra = await http.ws_connect(f"http://127.0.0.1:{port}/ws?width=80&height=24")
            refused = await closing(extra)
            await first.close()
            return started, status, retry, body, refused

    started, status, retry, body, refused = asyncio.run(scenario())
    full = "attn-tui is full: its one session is in use. Try again when it is free."
    assert started
    assert (status, retry) == (503, "30")
    assert "<html>" in body and full in body
    assert refused == (1013, full)
    proc.send_signal(signal.SIGINT)  # and the log says so, in one line like every event's
    out, _ = proc.communicate(timeout=10)
    assert f"WARNING attn-tui: session refused: {full}" in out.splitlines()


def test_the_page_loads_nothing_from_beyond_the_server(server):
    """An offline classroom cannot reach a font CDN, and a page that asks one tells a third
    party who attends: every address the page and its stylesheet name is this server's."""
    _, port = server()
    base = f"http://127.0.0.1:{port}"
    with urllib.request.urlopen(f"{base}/", timeout=10) as page:
        body = page.read().decode()
    named = re.findall(r'(?:src|href)="([^"]*)"|url\("?([^")]*)"?\)', body)
    addresses = {a or b for a, b in named} - {""}
    with urllib.request.urlopen(f"{base}/static/css/xterm.css", timeout=10) as css:
        addresses |= set(re.findall(r'url\("?([^")]*)"?\)', css.read().decode()))
    assert f"{base}/static/fonts/RobotoMono-VariableFont_wght.ttf" in addresses
    beyond = {a for a in addresses if not a.startswith(base + "/")}
    assert beyond == set()
    for address in addresses:
        with urllib.request.urlopen(address, timeout=10) as got:
            assert got.status == 200, address


@pytest.mark.skipif(not os.path.isdir("/proc/self"), reason="reads processes from /proc")
def test_a_killed_session_process_ends_that_session_only(server):
    aiohttp = pytest.importorskip("aiohttp")

    proc, port = server("--max-sessions", "2")
    url = f"http://127.0.0.1:{port}/ws?width=80&height=24"

    async def scenario():
        async with aiohttp.ClientSession() as http:
            doomed = await http.ws_connect(url)
            assert FIRST_ALPHA in await first_screen(doomed)
            doomed_pids = children(proc.pid)
            survivor = await http.ws_connect(url)
            assert FIRST_ALPHA in await first_screen(survivor)
            (pid,) = doomed_pids
            os.kill(pid, signal.SIGKILL)
            ended = await closing(doomed)
            answered = await answers(survivor, "m", b"causal")
            await survivor.close()
            return ended, answered

    ended, answered = asyncio.run(scenario())
    assert ended == (1011, "This session's attn-tui process was stopped (SIGKILL). "
                           "Reload the page for a new session.")
    assert answered
    assert proc.poll() is None  # the server carries on


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="prctl is Linux's")
def test_a_server_killed_outright_takes_its_sessions_with_it(server):
    """kill -9 of serve (or the OOM killer) left each learner's app running, orphaned, for as
    long as anyone looked (ten minutes, 53 MB each)."""
    aiohttp = pytest.importorskip("aiohttp")

    proc, port = server()

    async def scenario() -> set[int]:
        async with aiohttp.ClientSession() as http:
            tab = await http.ws_connect(f"http://127.0.0.1:{port}/ws?width=80&height=24")
            assert FIRST_ALPHA in await first_screen(tab)
            apps = children(proc.pid)
            proc.kill()
            proc.wait(timeout=10)
            await tab.close()
            return apps

    apps = asyncio.run(scenario())
    assert len(apps) == 1
    deadline = time.monotonic() + 10
    while apps and time.monotonic() < deadline:
        apps = {pid for pid in apps if _alive(pid)}
        time.sleep(0.05)  # polling /proc for a process's end, not synchronising an app
    assert not apps, "the app outlived its server"


def _alive(pid: int) -> bool:
    """``pid`` runs and is not a zombie waiting for its parent to read its status."""
    try:
        with open(f"/proc/{pid}/stat") as stat:
            return stat.read().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


def test_tabs_opened_together_start_in_turn_and_all_arrive(server):
    """Three tabs at once with one start at a time: the later ones are told their place,
    then every one draws its first screen and answers a key; a fourth is turned away."""
    aiohttp = pytest.importorskip("aiohttp")

    _, port = server("--max-sessions", "3", "--max-starting", "1")
    url = f"http://127.0.0.1:{port}/ws?width=80&height=24"

    async def tab(http):
        ws = await http.ws_connect(url)
        drawn = await first_screen(ws)
        return ws, drawn

    async def scenario():
        async with aiohttp.ClientSession() as http:
            tabs = await asyncio.gather(*(tab(http) for _ in range(3)))
            extra = await http.ws_connect(url)
            refused = await closing(extra)
            keyed = [await answers(ws, "m", b"causal") for ws, _ in tabs]
            for ws, _ in tabs:
                await ws.close()
            return [drawn for _, drawn in tabs], keyed, refused

    drawn, keyed, refused = asyncio.run(scenario())
    assert all(FIRST_ALPHA in screen for screen in drawn)
    told = sorted(screen.split(FIRST_ALPHA)[0].count("attn-tui: starting…".encode())
                  > 0 for screen in drawn)
    assert told == [False, True, True]
    assert any(b"(1 ahead of you)" in screen for screen in drawn)
    assert keyed == [True, True, True]
    assert refused[0] == 1013


def test_keys_typed_while_waiting_to_start_are_dropped_and_a_resize_is_kept(server):
    """Keys typed on the "starting…" page were held by the server and all reached the app at
    its start; a resize sent meanwhile was lost. The third tab of three, two starts ahead of
    it, types m and resizes to 100×30 while it waits."""
    aiohttp = pytest.importorskip("aiohttp")

    _, port = server("--max-sessions", "3", "--max-starting", "1")
    url = f"http://127.0.0.1:{port}/ws?width=80&height=24"

    async def scenario():
        async with aiohttp.ClientSession() as http:
            first = [await http.ws_connect(url) for _ in range(2)]
            last = Tab(await http.ws_connect(url))
            assert await last.shows(b"(1 ahead of you)")
            await last.ws.send_str(json.dumps(["stdin", "m"]))
            await last.ws.send_str(json.dumps(["resize", {"width": 100, "height": 30}]))
            readers = [asyncio.ensure_future(first_screen(ws)) for ws in first]
            assert await last.shows(FIRST_ALPHA)
            # stdin is read in order: once s is answered, an m held back would have been too
            answered = await last.key("s", "÷√d_k OFF".encode())
            await asyncio.gather(*readers)
            screen = bytes(last.screen)
            await last.close()
            for ws in first:
                await ws.close()
            return answered, screen

    answered, screen = asyncio.run(scenario())
    assert answered
    assert b"causal" not in screen
    assert b"\x1b[30;" in screen  # drawn on 30 rows: the resize sent while it waited


@pytest.mark.skipif(not os.path.isdir("/proc/self"), reason="reads processes from /proc")
def test_a_tab_closed_while_it_waits_leaves_the_line_and_starts_no_app(server):
    """A tab closed on the "starting…" page kept its place: when its turn came an app started
    for nobody, and the tab behind it waited for that start too."""
    aiohttp = pytest.importorskip("aiohttp")

    proc, port = server("--max-sessions", "3", "--max-starting", "1")
    url = f"http://127.0.0.1:{port}/ws?width=80&height=24"

    async def scenario():
        async with aiohttp.ClientSession() as http:
            first = Tab(await http.ws_connect(url))
            gone = Tab(await http.ws_connect(url))
            last = Tab(await http.ws_connect(url))
            assert await last.shows(b"(1 ahead of you)")
            await gone.close()
            moved_up = await last.shows(b"(next)", since=len(last.screen), timeout=15)
            drawn = [await first.shows(FIRST_ALPHA), await last.shows(FIRST_ALPHA)]
            apps = children(proc.pid)
            await first.close()
            await last.close()
            return moved_up, drawn, apps

    moved_up, drawn, apps = asyncio.run(scenario())
    assert moved_up and drawn == [True, True]
    assert len(apps) == 2


def test_serve_without_textual_serve_says_how_to_install(tmp_path):
    (tmp_path / "sitecustomize.py").write_text("import sys\nsys.modules['textual_serve'] = None\n")
    env = {**os.environ, "PYTHONPATH": str(tmp_path)}
    done = subprocess.run([sys.executable, "-m", "attn_tui", "serve", "--port", str(free_port())],
                          capture_output=True, text=True, timeout=30, env=env)
    assert done.returncode == 2
    assert "pip install 'attn-tui[serve]'" in done.stderr


def page_urls(body: str) -> tuple[str, str]:
    """The script the page loads and the WebSocket it opens: the two addresses it hard-codes."""
    script = re.search(r'<script src="([^"]+)"', body).group(1)
    websocket = re.search(r'data-session-websocket-url="([^"]+)"', body).group(1)
    return script, websocket


def test_the_page_points_at_the_listening_address_by_default(server):
    _, port = server()
    request = urllib.request.Request(f"http://127.0.0.1:{port}/", headers={"Host": "elsewhere"})
    with urllib.request.urlopen(request, timeout=10) as page:
        script, websocket = page_urls(page.read().decode())
    assert script == f"http://127.0.0.1:{port}/static/js/textual.js"
    assert websocket == f"ws://127.0.0.1:{port}/ws"


def ipv6_loopback() -> bool:
    try:
        with socket.socket(socket.AF_INET6) as s:
            s.bind(("::1", 0))
        return True
    except OSError:
        return False


@pytest.mark.skipif(not ipv6_loopback(), reason="no IPv6 loopback here")
def test_an_ipv6_listening_address_is_bracketed_in_the_page():
    port = free_port()
    proc = subprocess.Popen([sys.executable, "-m", "attn_tui", "serve", "--host", "::1",
                             "--port", str(port)],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        deadline = time.monotonic() + 30
        while True:
            try:
                with urllib.request.urlopen(f"http://[::1]:{port}/", timeout=10) as page:
                    body = page.read().decode()
                break
            except OSError:
                assert proc.poll() is None, proc.stderr.read()
                assert time.monotonic() < deadline, "server did not start listening"
                time.sleep(0.1)  # polling a socket, not synchronising the app
    finally:
        proc.send_signal(signal.SIGINT)
        proc.wait(timeout=10)
    assert page_urls(body) == (f"http://[::1]:{port}/static/js/textual.js",
                               f"ws://[::1]:{port}/ws")


@pytest.mark.parametrize(("given", "base", "ws"), [
    ("https://class.example.org/attn/", "https://class.example.org/attn",
     "wss://class.example.org/attn/ws"),
    ("HTTP://10.0.0.5:8080", "http://10.0.0.5:8080", "ws://10.0.0.5:8080/ws"),
    ("https://[2001:db8::5]:8443", "https://[2001:db8::5]:8443", "wss://[2001:db8::5]:8443/ws"),
])
def test_public_url_is_where_the_page_points(server, given, base, ws):
    proc, port = server("--public-url", given)
    with urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=10) as page:
        script, websocket = page_urls(page.read().decode())
    assert script == f"{base}/static/js/textual.js"
    assert websocket == ws
    proc.send_signal(signal.SIGINT)
    proc.wait(timeout=10)
    assert f"serving on http://127.0.0.1:{port} for {base} " in proc.stdout.read()


@pytest.mark.parametrize(("url", "says"), [
    ("ftp://example.org/attn", "must start with http:// or https://"),
    ("example.org/attn", "must start with http:// or https://"),
    ("https://", "has no host"),
    ("https:///attn", "has no host"),
    ("https://example.org:99999/", "bad port number"),
    ("https://example.org:0/", "bad port number"),
    ("https://example.org:/", "bad port number"),
    ("https://[::1/attn", "is not a URL"),
    ("https://teacher:secret@example.org/", "user name or password"),
    ("https://example.org/attn?x=1", "query or fragment"),
    ("https://example.org/a b", "is not a URL"),
    ("", "is not a URL"),
])
def test_a_bad_public_url_is_a_usage_error(url, says):
    done = subprocess.run([sys.executable, "-m", "attn_tui", "serve", "--public-url", url,
                           "--port", str(free_port())],
                          capture_output=True, text=True, timeout=30)
    assert done.returncode == 2
    usage, error = done.stderr.strip().splitlines()[0], done.stderr.strip().splitlines()[-1]
    assert usage.startswith("usage: attn-tui serve")
    assert error.startswith(f"attn-tui serve: error: argument --public-url: {url!r} ")
    assert says in error
    assert "Traceback" not in done.stderr


def test_behind_a_path_prefix_proxy_the_app_runs(server):
    """docs/hosting.md's nginx recipe, played by a small proxy: /attn/… on the proxy is /… on the
    server, WebSocket upgrades included. The page must load its script and open its WebSocket
    through the proxy, and the app must draw there."""
    aiohttp = pytest.importorskip("aiohttp")
    from aiohttp import web

    proxy_port = free_port()
    _, port = server("--public-url", f"http://127.0.0.1:{proxy_port}/attn/")
    backend = f"http://127.0.0.1:{port}"
    seen: list[str] = []

    async def forward(request: web.Request) -> web.StreamResponse:
        path = "/" + request.match_info["tail"] + (f"?{request.query_string}"
                                                   if request.query_string else "")
        seen.append(path)
        async with aiohttp.ClientSession() as http:
            if request.headers.get("Upgrade", "").lower() == "websocket":
                outward = web.WebSocketResponse()
                await outward.prepare(request)
                async with http.ws_connect(backend + path) as inward:
                    async def down() -> None:
                        async for msg in inward:
                            if msg.type == aiohttp.WSMsgType.BINARY:
                                await outward.send_bytes(msg.data)
                            elif msg.type == aiohttp.WSMsgType.TEXT:
                                await outward.send_str(msg.data)
                        await outward.close()

                    pump = asyncio.ensure_future(down())
                    async for msg in outward:
                        if msg.type == aiohttp.WSMsgType.TEXT:
                            await inward.send_str(msg.data)
                    pump.cancel()
                return outward
            async with http.get(backend + path) as reply:
                return web.Response(status=reply.status, body=await reply.read(),
                                    content_type=reply.content_type)

    async def scenario() -> tuple[int, bool]:
        proxy = web.Application()
        proxy.router.add_get("/attn/{tail:.*}", forward)
        runner = web.AppRunner(proxy)
        await runner.setup()
        await web.TCPSite(runner, "127.0.0.1", proxy_port).start()
        try:
            async with aiohttp.ClientSession() as browser:
                async with browser.get(f"http://127.0.0.1:{proxy_port}/attn/") as page:
                    script, websocket = page_urls(await page.text())
                async with browser.get(script) as js:
                    script_status = js.status
                terminal = await browser.ws_connect(f"{websocket}?width=80&height=24")
                drawn = b""
                while b"0.3369" not in drawn:
                    msg = await asyncio.wait_for(terminal.receive(), timeout=30)
                    if msg.type not in (aiohttp.WSMsgType.BINARY, aiohttp.WSMsgType.TEXT):
                        break
                    drawn += msg.data if isinstance(msg.data, bytes) else msg.data.encode()
                await terminal.close()
                return script_status, b"0.3369" in drawn
        finally:
            await runner.cleanup()

    script_status, drew = asyncio.run(scenario())
    assert script_status == 200
    assert drew
    assert seen[:3] == ["/", "/static/js/textual.js", "/ws?width=80&height=24"]


def test_each_browser_keeps_its_own_folder_by_a_cookie_and_no_other_path(server, tmp_path):
    """Every tab ran as the server's user in one folder: one learner's lesson progress came
    up in the next learner's tab, and ctrl+s wrote wherever a learner typed (ctrl+o read it)."""
    import aiohttp

    learners = tmp_path / "learners"
    _, port = server("--learners", str(learners))
    base = f"http://127.0.0.1:{port}"

    async def scenario():
        async with aiohttp.ClientSession() as http:
            async with http.get(f"{base}/") as page:
                given = page.cookies["attn_tui_learner"]
            outcomes = []
            for name in (given.value, "b" * 32):
                ws = await http.ws_connect(f"{base}/ws?width=100&height=30",
                                           headers={"Cookie": f"attn_tui_learner={name}"})
                assert FIRST_ALPHA in await first_screen(ws)
                # ctrl+s: the dialog offers attn-session.json; a path beyond the folder first
                assert await answers(ws, "\x13", b"Save session")
                assert await answers(ws, "\x15/tmp/elsewhere.json\r", b"your own on the")
                await ws.send_str(json.dumps(["stdin", "\x15mine.json\r"]))
                drawn, told = b"", []  # the screen, and what the page is told besides
                while b"Saved mine.json" not in drawn or not told:
                    msg = await asyncio.wait_for(ws.receive(), timeout=30)
                    if msg.type == aiohttp.WSMsgType.BINARY:
                        drawn += msg.data
                    elif msg.type == aiohttp.WSMsgType.TEXT:
                        told.append(json.loads(msg.data))
                    else:
                        break
                outcomes.append((b"Your browser" in drawn, told[:1]))
                await ws.close()
            return given, outcomes

    given, outcomes = asyncio.run(scenario())
    # Lax, not Strict: the class link followed from another site (an LMS, a mail) must
    # bring the cookie, or the learner starts over with a new folder
    assert given["httponly"] and given["samesite"] == "Lax"
    assert re.fullmatch(r"[0-9a-f]{32}", given.value)
    for shown, told in outcomes:  # ... and the browser is handed a copy to download
        assert shown and told and told[0][0] == "deliver_file_start", told
    for name in (given.value, "b" * 32):  # each its own: files, and progress beside them
        assert (learners / name / "files" / "mine.json").is_file()
    assert not (tmp_path / "elsewhere.json").exists() and not os.path.exists("/tmp/elsewhere.json")


def test_the_static_folder_lists_nothing(server):
    _, port = server()
    try:
        urllib.request.urlopen(f"http://127.0.0.1:{port}/static/", timeout=10)
        listed = True
    except urllib.error.HTTPError as exc:
        listed = exc.code not in (403, 404)
    assert not listed


def test_an_empty_host_is_one_clear_line():
    out = subprocess.run([sys.executable, "-m", "attn_tui", "serve", "--host", "", "--public"],
                         capture_output=True, text=True, timeout=60)
    assert out.returncode == 2
    assert out.stderr.strip() == ("attn-tui: --host is empty: give an address, e.g. 127.0.0.1 "
                                  "(this machine) or 0.0.0.0 (every interface, with --public)")


def test_listening_everywhere_without_a_public_url_the_page_follows_the_address_used(server):
    """--host 0.0.0.0 --public put http://0.0.0.0:PORT/… into the page, which in a learner's
    browser is the learner's own machine: a blank page that never connected."""
    proc, port = server("--host", "0.0.0.0", "--public")
    with urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=10) as page:
        body = page.read().decode()
    assert f"ws://127.0.0.1:{port}/ws" in body and f"http://127.0.0.1:{port}/static/" in body
    assert "0.0.0.0" not in body
    proc.send_signal(signal.SIGINT)
    out, _ = proc.communicate(timeout=30)
    assert f"attn-tui serving on every interface, port {port} (e.g. http://" in out


def test_ctrl_c_tells_each_tab_why_and_stops_at_once(server):
    """With one tab open, Ctrl+C took about 21 s, silent, and the tab read "Session ended."."""
    import aiohttp

    proc, port = server()

    async def scenario():
        async with aiohttp.ClientSession() as http:
            tab = await http.ws_connect(f"http://127.0.0.1:{port}/ws?width=80&height=24")
            assert FIRST_ALPHA in await first_screen(tab)
            start = time.monotonic()
            proc.send_signal(signal.SIGINT)
            told = await closing(tab)
            await asyncio.get_running_loop().run_in_executor(None, proc.wait, 30)
            return told, time.monotonic() - start

    told, took = asyncio.run(scenario())
    assert told == (1001, "attn-tui was stopped on the server. Reload the page once it is back.")
    assert proc.returncode == 0 and took < 5, took


def test_save_then_quit_in_the_browser_waits_until_the_download_is_fetched(server, tmp_path):
    """ctrl+q, s, a name: the app quit straight after handing the file over, and the browser
    saved an empty file (2 runs in 3; every time from a plain WebSocket client)."""
    import aiohttp

    learners = tmp_path / "learners"
    _, port = server("--learners", str(learners))
    base = f"http://127.0.0.1:{port}"
    name = "c" * 32

    async def scenario():
        async with aiohttp.ClientSession() as http:
            ws = await http.ws_connect(f"{base}/ws?width=100&height=30",
                                       headers={"Cookie": f"attn_tui_learner={name}"})
            assert FIRST_ALPHA in await first_screen(ws)
            assert await answers(ws, "5\r", b"0.5")  # an edit: quitting asks about it
            assert await answers(ws, "\x11", b"unsaved")
            assert await answers(ws, "s", b"Save session")
            await ws.send_str(json.dumps(["stdin", "\x15my;work.json\r"]))
            key = None
            while key is None:
                msg = await asyncio.wait_for(ws.receive(), timeout=30)
                assert msg.type in (aiohttp.WSMsgType.BINARY, aiohttp.WSMsgType.TEXT), msg
                if msg.type == aiohttp.WSMsgType.TEXT:
                    told = json.loads(msg.data)
                    key = told[1] if told[0] == "deliver_file_start" else None
            # a browser that asks half a second later: the scenario, not a wait for a state.
            # The app must still be there to send the file, and quit only once it is fetched.
            await asyncio.sleep(0.5)
            async with http.get(f"{base}/download/{key}") as got:
                body, named = await got.read(), got.headers["Content-Disposition"]
            code, _ = await closing(ws)
            return body, named, code

    body, named, code = asyncio.run(scenario())
    saved = (learners / name / "files" / "my;work.json").read_bytes()
    assert body == saved and len(saved) > 100
    # quoted, and named in UTF-8 too: a bare filename=my;work.json downloaded as "my"
    assert named == "attachment; filename=\"my;work.json\"; filename*=UTF-8''my%3Bwork.json"
    assert code == 1000  # and then the app quit, as asked


@pytest.mark.parametrize("flags, said", [
    (["--learners", ""], "attn-tui: --learners is empty: give a folder, or leave it out for the "
                         "default"),
    (["--learners", "~nosuchuser/x"], "attn-tui: cannot keep the learners' folders in "
                                      "~nosuchuser/x: Could not determine home directory; choose "
                                      "another with --learners"),
    (["--learners", "/dev/null"], "attn-tui: cannot keep the learners' folders in /dev/null: "
                                  "it is a file, not a folder; choose another with --learners"),
])
def test_a_learners_folder_that_cannot_be_is_one_clear_line(flags, said):
    out = subprocess.run([sys.executable, "-m", "attn_tui", "serve", *flags],
                         capture_output=True, text=True, timeout=60)
    assert out.returncode == 2 and out.stderr.strip() == said


def test_a_host_that_cannot_be_listened_on_is_one_line_without_the_public_warning():
    # the warning about serving beyond this machine came first, then why it would not
    out = subprocess.run([sys.executable, "-m", "attn_tui", "serve", "--host",
                          "nosuchhost.invalid", "--public", "--port", "18799"],
                         capture_output=True, text=True, timeout=60)
    assert out.returncode == 2 and out.stderr.count("\n") == 1
    assert out.stderr.startswith("attn-tui: cannot listen on nosuchhost.invalid:18799: ")


def test_no_progress_may_follow_the_serve_word(server, tmp_path):
    """'attn-tui serve --no-progress' was 'unrecognized arguments', though serve's other flags
    come after it."""
    proc, _ = server("--no-progress", "--learners", str(tmp_path / "l"))
    assert proc.poll() is None


@pytest.mark.parametrize("how", ["ctrl+c to the group", "sigterm to every process",
                                 "sigterm to the apps a moment first", "hangup of its terminal"])
def test_a_class_stopped_as_a_whole_tells_every_tab_why(how):
    """Ctrl+C in serve's terminal reached the apps too (its process group), and systemd's stop
    sends SIGTERM to every process of the service: an app that quit first closed its tab
    with a bare "Session ended." (code 1000), before the server could say why. Its terminal
    closing (SIGHUP) ended serve outright, and the tabs were told nothing."""
    import aiohttp
    from serving import end_group, start_serve

    proc, port = start_serve()
    try:
        async def scenario():
            async with aiohttp.ClientSession() as http:
                tabs = [await http.ws_connect(f"http://127.0.0.1:{port}/ws?width=80&height=24")
                        for _ in range(3)]
                for tab in tabs:
                    assert FIRST_ALPHA in await first_screen(tab, timeout=60)
                apps = children(proc.pid)
                assert len(apps) == 3
                if how == "ctrl+c to the group":  # as the terminal sends it
                    os.killpg(proc.pid, signal.SIGINT)
                elif how == "hangup of its terminal":
                    os.killpg(proc.pid, signal.SIGHUP)
                elif how == "sigterm to every process":
                    for pid in (proc.pid, *apps):
                        os.kill(pid, signal.SIGTERM)
                else:  # the order systemd's signals are read in is no one's to choose
                    for pid in apps:
                        os.kill(pid, signal.SIGTERM)
                    await asyncio.sleep(0.1)  # the apps quit before the server reads its own
                    os.kill(proc.pid, signal.SIGTERM)
                return await asyncio.gather(*(closing(tab) for tab in tabs))

        told = asyncio.run(scenario())
        assert told == [(1001, "attn-tui was stopped on the server. Reload the page once it "
                               "is back.")] * 3
        assert proc.wait(timeout=30) == 0
    finally:
        end_group(proc)


def test_step_puts_each_learner_on_it_once_and_a_reload_resumes(tmp_path):
    """`attn-tui --lesson mask --step 2 serve` sent a learner back to step 2 on every reload."""
    import aiohttp

    port = free_port()
    proc = subprocess.Popen([sys.executable, "-m", "attn_tui", "--lesson", "mask", "--step", "2",
                             "serve", "--port", str(port), "--learners", str(tmp_path)],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            start_new_session=True)
    try:
        wait_listening(port, proc)

        async def opens(http, learner: str, shows: bytes, key: str | None = None) -> bool:
            ws = await http.ws_connect(f"http://127.0.0.1:{port}/ws?width=100&height=30",
                                       headers={"Cookie": f"attn_tui_learner={learner}"})
            drawn = b""
            while shows not in drawn:
                msg = await asyncio.wait_for(ws.receive(), timeout=30)
                if msg.type != aiohttp.WSMsgType.BINARY:
                    return False
                drawn += msg.data
            moved = key is None or await answers(ws, key, b"Step 3 of 5")
            await ws.close()
            return moved

        async def scenario():
            async with aiohttp.ClientSession() as http:
                return [await opens(http, "a" * 32, b"Step 2 of 5", "n"),
                        await opens(http, "a" * 32, b"Step 3 of 5"),  # the reload: resumed
                        await opens(http, "b" * 32, b"Step 2 of 5")]  # another learner

        assert asyncio.run(scenario()) == [True, True, True]
    finally:
        end_group(proc)


def test_without_progress_every_session_opens_on_the_step():
    """With --no-progress a reload dropped --step and so opened the lesson at step 1: there
    is nothing kept to resume from."""
    from attn_tui.cli.serve import make_server

    kept = make_server("127.0.0.1", 0, 2, ["--lesson", "mask", "--step", "4"])
    assert "--step" in kept.command and "--step" not in kept.resume_command
    none = make_server("127.0.0.1", 0, 2, ["--lesson", "mask", "--step", "4", "--no-progress"])
    assert none.resume_command == none.command
