"""Figures 1, 5 and 6: start an app in a real pseudo-terminal and watch it.

Each app is forked onto a fresh pty (``pty.fork``: the pty is its controlling terminal and its
stdin, stdout and stderr, where Textual draws), sized before ``exec``. The clock starts just
before the fork and stops when a string of the first screen appears in the bytes the app wrote:
that is the first frame a learner could read. Then /proc gives its memory and CPU time, and the
process (ours, by pid) is killed.
"""

from __future__ import annotations

import contextlib
import fcntl
import os
import pty
import select
import signal
import struct
import sys
import termios
import time
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SCRIPTS = Path(__file__).resolve().parent
COLS, ROWS = 120, 40
CLK_TCK = os.sysconf("SC_CLK_TCK")


@dataclass(frozen=True)
class Launch:
    name: str
    argv: tuple[str, ...]
    needle: bytes  # a string of the first screen


# the `attn-tui` command, as a learner starts it (the bare app is a script too); `-m` costs runpy
_SCRIPT = Path(sys.executable).with_name("attn-tui")
COMMAND = (str(_SCRIPT),) if _SCRIPT.exists() else (sys.executable, "-m", "attn_tui")
ATTN = Launch("attn-tui", COMMAND, b"0.3369")
BARE = Launch("bare", (sys.executable, str(SCRIPTS / "bench_bare_app.py")),
              b"bare baseline ready")
BARE_NUMPY = Launch("bare+numpy", (*BARE.argv, "--numpy"), BARE.needle)


def _env() -> dict[str, str]:
    """The caller's environment (OPENBLAS_* and the like untouched) as a modern terminal sets it."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("TEXTUAL")}
    env.update(TERM="xterm-256color", COLORTERM="truecolor", COLUMNS=str(COLS),
               LINES=str(ROWS))
    env.pop("NO_COLOR", None)
    return env


class PtyApp:
    def __init__(self, launch: Launch) -> None:
        self.launch = launch
        self.tail = b""
        self.seen: float | None = None
        env = _env()
        self.start = time.perf_counter()
        pid, fd = pty.fork()
        if pid == 0:  # the child: size the terminal, then become the app
            try:
                fcntl.ioctl(0, termios.TIOCSWINSZ, struct.pack("HHHH", ROWS, COLS, 0, 0))
                os.chdir(ROOT)
                os.execve(launch.argv[0], list(launch.argv), env)
            finally:
                os._exit(127)
        self.pid, self.fd = pid, fd

    def _read(self, timeout: float) -> bool:
        ready, _, _ = select.select([self.fd], [], [], timeout)
        if not ready:
            return True
        try:
            data = os.read(self.fd, 1 << 16)
        except OSError:  # EIO: the app has gone
            return False
        if not data:
            return False
        if self.seen is None:
            window = self.tail + data
            if self.launch.needle in window:
                self.seen = time.perf_counter()
            self.tail = window[-len(self.launch.needle):]
        return True

    def wait_first_screen(self, timeout: float = 30.0) -> float:
        """Seconds from fork to the first screen; raises if it never comes."""
        deadline = self.start + timeout
        while self.seen is None:
            left = deadline - time.perf_counter()
            if left <= 0 or not self._read(min(left, 0.5)):
                self.kill()
                raise RuntimeError(f"{self.launch.name}: no first screen within {timeout} s")
        return self.seen - self.start

    def drain(self, seconds: float) -> None:
        """Keep reading (an unread pty would block the app's writes) for ``seconds``."""
        end = time.perf_counter() + seconds
        while (left := end - time.perf_counter()) > 0:
            if not self._read(min(left, 0.25)):
                time.sleep(left)
                return

    def memory_kib(self) -> tuple[int, int]:
        """(VmRSS, VmHWM) in KiB."""
        fields = {}
        for line in Path(f"/proc/{self.pid}/status").read_text().splitlines():
            key, _, rest = line.partition(":")
            if key in ("VmRSS", "VmHWM"):
                fields[key] = int(rest.split()[0])
        return fields["VmRSS"], fields["VmHWM"]

    def cpu_seconds(self) -> float:
        """utime + stime of the process (all its threads), in seconds."""
        stat = Path(f"/proc/{self.pid}/stat").read_text()
        after_comm = stat[stat.rindex(")") + 2:].split()
        return (int(after_comm[11]) + int(after_comm[12])) / CLK_TCK

    def kill(self) -> None:
        with contextlib.suppress(ProcessLookupError):
            os.kill(self.pid, signal.SIGKILL)
        os.waitpid(self.pid, 0)
        os.close(self.fd)


def first_screen(runs: int, settle: float = 0.5, log=print) -> dict[str, dict[str, list]]:
    """Alternate attn-tui and the bare app ``runs`` times each: seconds to first screen, and
    resident memory ``settle`` seconds after it."""
    launches = (ATTN, BARE, BARE_NUMPY)
    out: dict[str, dict[str, list]] = {a.name: {"t": [], "rss": [], "hwm": []}
                                       for a in launches}
    for i in range(runs):
        order = launches if i % 2 == 0 else launches[::-1]
        for launch in order:
            app = PtyApp(launch)
            try:
                t = app.wait_first_screen()
                app.drain(settle)
                rss, hwm = app.memory_kib()
            finally:
                app.kill()
            rec = out[launch.name]
            rec["t"].append(t)
            rec["rss"].append(rss)
            rec["hwm"].append(hwm)
        log(f"  first screen run {i + 1}/{runs}: attn-tui {out['attn-tui']['t'][-1] * 1e3:.0f} ms,"
            f" bare {out['bare']['t'][-1] * 1e3:.0f} ms,"
            f" bare+numpy {out['bare+numpy']['t'][-1] * 1e3:.0f} ms")
    return out


def idle_cpu(seconds: float, settle: float = 2.0) -> dict[str, float]:
    """Percent of one core each app uses over ``seconds`` with no input, both watched at once
    (idle apps barely compete for the two cores)."""
    apps = [PtyApp(ATTN), PtyApp(BARE)]
    try:
        for app in apps:
            app.wait_first_screen()
        _drain_all(apps, settle)
        before = [app.cpu_seconds() for app in apps]
        t0 = time.perf_counter()
        _drain_all(apps, seconds)
        wall = time.perf_counter() - t0
        after = [app.cpu_seconds() for app in apps]
    finally:
        for app in apps:
            app.kill()
    return {app.launch.name: 100 * (b - a) / wall
            for app, a, b in zip(apps, before, after, strict=True)}


def _drain_all(apps: list[PtyApp], seconds: float) -> None:
    end = time.perf_counter() + seconds
    while (left := end - time.perf_counter()) > 0:
        for app in apps:
            app._read(0)
        time.sleep(min(left, 0.1))
