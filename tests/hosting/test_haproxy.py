"""docs/hosting.md's HAProxy configuration, run for real on loopback: two `attn-tui serve`
behind Debian's haproxy. Sessions spread over both; one instance killed, new sessions go to the
other and the other's sessions carry on. Skipped, saying so, where haproxy is not installed
(`make test-hosting` installs it)."""

from __future__ import annotations

import asyncio
import os
import re
import shutil
import signal
import subprocess
from pathlib import Path

import pytest
from serving import FIRST_ALPHA, Tab, children, end_group, free_port, start_serve, wait_listening

pytest.importorskip("textual_serve")
aiohttp = pytest.importorskip("aiohttp")

GUIDE = Path(__file__).parents[2] / "docs" / "hosting.md"
HAPROXY = shutil.which("haproxy", path=os.environ.get("PATH", "") + ":/usr/sbin:/sbin")
pytestmark = pytest.mark.skipif(
    HAPROXY is None, reason="haproxy is not installed: `make test-hosting` installs it "
    "(apt-get install haproxy) and runs this")


FULL_PAGE = "/etc/haproxy/errors/attn-tui-full.http"


def guide_config(front: int, backends: list[int], full_page: Path) -> str:
    """The guide's HAProxy block, with its addresses moved to loopback ports and its page for
    a full class (the guide's http block) written to ``full_page``."""
    guide = GUIDE.read_text(encoding="utf-8")
    block = re.search(r"```haproxy\n(.*?)```", guide, re.S).group(1)
    full_page.write_text(re.search(r"```http\n(.*?)```", guide, re.S).group(1))
    assert "bind :80" in block and block.count(FULL_PAGE) == 1
    block = block.replace("bind :80", f"bind 127.0.0.1:{front}")
    block = block.replace(FULL_PAGE, str(full_page))
    for n, port in enumerate(backends, start=1):
        block, found = re.subn(rf"10\.0\.0\.1{n}:8000", f"127.0.0.1:{port}", block)
        assert found == 1
    return block


@pytest.fixture
def two_hosts(tmp_path, request):
    front = free_port()
    public = f"http://127.0.0.1:{front}"
    each = str(getattr(request, "param", 6))  # sessions a host takes
    servers = [start_serve("--max-sessions", each, "--public-url", public) for _ in range(2)]
    config = tmp_path / "haproxy.cfg"
    config.write_text(guide_config(front, [port for _, port in servers],
                                   tmp_path / "attn-tui-full.http"))
    checked = subprocess.run([HAPROXY, "-c", "-q", "-f", str(config)], capture_output=True,
                             text=True, timeout=30)
    assert checked.returncode == 0, checked.stdout + checked.stderr
    proxy = subprocess.Popen([HAPROXY, "-db", "-f", str(config)], stdout=subprocess.PIPE,
                             stderr=subprocess.PIPE, text=True)
    try:
        wait_listening(front, proxy)
        yield front, [proc for proc, _ in servers]
    finally:
        proxy.send_signal(signal.SIGTERM)
        try:
            proxy.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proxy.kill()
        for proc, _ in servers:
            end_group(proc)


class Learner:
    """One browser: its own cookies, the page, then the page's WebSocket."""

    def __init__(self, front: int, cookie: str | None = None) -> None:
        self.front = front
        self.host = cookie
        jar = aiohttp.CookieJar(unsafe=True)  # cookies for an IP address host
        if cookie:
            jar.update_cookies({"attn-host": cookie})
        self.http = aiohttp.ClientSession(cookie_jar=jar)

    async def open(self) -> bool:
        async with self.http.get(f"http://127.0.0.1:{self.front}/") as page:
            assert page.status == 200
            if "attn-host" in page.cookies:  # HAProxy chose (again) where this browser goes
                self.host = page.cookies["attn-host"].value
        self.tab = Tab(await self.http.ws_connect(
            f"ws://127.0.0.1:{self.front}/ws?width=80&height=24"))
        return await self.tab.shows(FIRST_ALPHA)

    async def close(self) -> None:
        await self.tab.close()
        await self.http.close()


def test_a_class_spreads_over_two_hosts_and_survives_losing_one(two_hosts):
    front, (host1, host2) = two_hosts

    async def scenario():
        learners = [Learner(front) for _ in range(4)]
        try:
            opened = [await learner.open() for learner in learners]
            hosts = [learner.host for learner in learners]
            sessions = (len(children(host1.pid)), len(children(host2.pid)))
            os.killpg(host1.pid, signal.SIGKILL)  # host1 dies, with its sessions
            host1.wait(timeout=10)
            on_host2 = [learner for learner in learners if learner.host == "host2"]
            carried_on = [await learner.tab.key("m", b"causal") for learner in on_host2]
            # the dead host's tabs are told their connection ended; they do not hang open
            ended = [await learner.tab.ends() for learner in learners if learner.host == "host1"]
            # new learners, and one of host1's reloading its page with host1's cookie
            late = [Learner(front), Learner(front), Learner(front, cookie="host1")]
            reopened = [await learner.open() for learner in late]
            late_hosts = [learner.host for learner in late]
            learners += late
            sessions_after = len(children(host2.pid))
            return opened, hosts, sessions, carried_on, ended, reopened, late_hosts, sessions_after
        finally:
            for learner in learners:
                await learner.close()

    opened, hosts, sessions, carried_on, ended, reopened, late_hosts, sessions_after = \
        asyncio.run(scenario())
    assert opened == [True] * 4
    assert sorted(hosts) == ["host1", "host1", "host2", "host2"]
    assert sessions == (2, 2)
    assert carried_on == [True, True]
    assert ended == [True, True]
    assert reopened == [True] * 3
    assert late_hosts == ["host2"] * 3
    assert sessions_after == 5


@pytest.mark.parametrize("two_hosts", [1], indirect=True)
def test_with_every_host_full_a_new_tab_gets_attn_tuis_page_not_haproxys(two_hosts):
    """HAProxy's health check takes a full host out (its page answers 503); with both out, a
    new tab read HAProxy's bare "No server is available to handle this request"."""
    front, _ = two_hosts

    async def scenario():
        learners = [Learner(front) for _ in range(2)]
        try:
            opened = [await learner.open() for learner in learners]
            async with aiohttp.ClientSession() as http:
                for _ in range(150):  # until the checks (every 2 s, 2 to fall) take both out
                    async with http.get(f"http://127.0.0.1:{front}/") as page:
                        status, headers, body = page.status, page.headers, await page.text()
                    if "on every host" in body:
                        break
                    await asyncio.sleep(0.1)  # polling HAProxy's view, not the app's
            return opened, status, headers, body
        finally:
            for learner in learners:
                await learner.close()

    opened, status, headers, body = asyncio.run(scenario())
    assert opened == [True, True]
    assert status == 503 and headers.get("Retry-After") == "30"
    assert "Every attn-tui session on every host is in use. Try again when someone leaves." in body
    assert "No server is available" not in body
