"""docs/hosting.md's SSH set-up, run for real on loopback: an sshd of its own with the guide's
``Match Group`` block, forcing the guide's wrapper around this checkout's attn-tui, and a
throwaway account. What a learner asks for over ssh reaches the app or is one line; nothing
is left running after they go. Needs root and sshd (`make test-hosting` installs it); skipped,
saying so, elsewhere."""

from __future__ import annotations

import fcntl
import os
import pty
import re
import select
import shutil
import struct
import subprocess
import sys
import tempfile
import termios
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
GUIDE = ROOT / "docs" / "hosting.md"
SSHD = shutil.which("sshd", path=os.environ.get("PATH", "") + ":/usr/sbin:/sbin")
pytestmark = [
    pytest.mark.skipif(os.geteuid() != 0, reason="a real sshd with a throwaway account needs "
                       "root"),
    pytest.mark.skipif(SSHD is None or shutil.which("setfacl") is None,
                       reason="sshd or setfacl is not installed: `make test-hosting` installs "
                       "them (apt-get install openssh-server acl) and runs this"),
]


@pytest.fixture(scope="module")
def host():
    sys.path.insert(0, str(ROOT / "scripts"))
    try:
        from bench_class_host import ClassHost
    finally:
        sys.path.remove(str(ROOT / "scripts"))
    # where the throwaway account may read it (pytest's own temp folders are root's alone)
    folder = Path(tempfile.mkdtemp(prefix="attn-ssh-wrapper-"))
    folder.chmod(0o755)
    block = next(b for b in re.findall(r"```sh\n(.*?)```", GUIDE.read_text(), re.S)
                 if "attn-tui-session" in b)
    wrapper = folder / "attn-tui-session"
    wrapper.write_text(block.replace("/usr/local/bin/attn-tui ", f"{sys.executable} -m attn_tui "))
    wrapper.chmod(0o755)
    made = ClassHost(SSHD, force_command=str(wrapper))
    try:
        made.open()
        yield made
    finally:
        shutil.rmtree(folder, ignore_errors=True)
        assert made.close() == []


def in_a_terminal(argv: list[str], shows: bytes, then: bytes = b"", timeout: float = 60,
                  hang_up_on: bytes = b""):
    """Run ``argv`` on an 80×24 pty until it shows ``shows``, type ``then`` and wait for it to
    end, or with nothing to type (or once it shows ``hang_up_on`` after) kill it there: (what
    it showed, its exit status, or None if it was killed or had not ended in time)."""
    pid, fd = pty.fork()
    if pid == 0:
        try:
            fcntl.ioctl(0, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 80, 0, 0))
            env = {**os.environ, "TERM": "xterm-256color", "LANG": "C.UTF-8"}
            os.execvpe(argv[0], argv, env)
        finally:
            os._exit(127)
    seen, typed, deadline, at = b"", False, time.monotonic() + timeout, 0
    status = None
    try:
        while time.monotonic() < deadline:
            if not typed and shows in seen:
                if not then:  # hang up: the client killed, as a dropped connection
                    deadline = 0
                    break
                os.write(fd, then)
                typed, at = True, len(seen)
            elif typed and hang_up_on and hang_up_on in seen[at:]:
                deadline = 0
                break
            ready, _, _ = select.select([fd], [], [], 0.5)
            if ready:
                try:
                    data = os.read(fd, 1 << 16)
                except OSError:
                    data = b""
                if not data:
                    break
                seen += data
            done, code = os.waitpid(pid, os.WNOHANG)
            if done:
                status = os.waitstatus_to_exitcode(code)
                pid = 0
                break
        while pid and time.monotonic() < deadline:  # its output ended: it is ending
            done, code = os.waitpid(pid, os.WNOHANG)
            if done:
                status, pid = os.waitstatus_to_exitcode(code), 0
            else:
                time.sleep(0.05)  # polling a child that has closed its terminal
    finally:
        if pid:
            os.kill(pid, 9)
            os.waitpid(pid, 0)
        os.close(fd)
    return seen, status


def over_ssh(argv: list[str], shows: bytes, **how):
    """in_a_terminal, tried again when sshd dropped the connection before the session began
    (kex_exchange_identification: a busy loopback sshd does so now and then under a full
    suite's load; what is tested starts after it)."""
    for _ in range(3):
        seen, status = in_a_terminal(argv, shows, **how)
        if status != 255 or b"kex_exchange_identification" not in seen:
            break
        time.sleep(0.5)  # before trying again, as a learner would
    return seen, status


def until_gone(host, timeout: float = 15) -> list[int]:
    deadline = time.monotonic() + timeout
    while host.sessions_pids() and time.monotonic() < deadline:
        time.sleep(0.1)  # sshd ends the session's processes after the client goes
    return host.sessions_pids()


def test_a_learner_lands_in_the_app_and_quitting_ends_the_session(host):
    seen, status = over_ssh(host.ssh_argv(), b"0.3369", then=b"\x11")  # ctrl+q
    assert b"0.3369" in seen and status == 0
    assert until_gone(host) == []


def test_a_lesson_and_step_asked_for_reach_the_app_and_a_hang_up_leaves_nothing(host):
    seen, status = over_ssh([*host.ssh_argv(), "attn-tui", "--lesson", "mask",
                                  "--step", "2"], b"Step 2 of 5", timeout=30)
    assert b"Step 2 of 5" in seen
    assert status is None  # killed there: a dropped connection
    assert until_gone(host) == []


def test_anything_else_asked_for_is_one_line(host):
    seen, status = over_ssh([*host.ssh_argv(), "cat", "/etc/passwd"], b"never")
    assert status == 2 and b"root:" not in seen
    assert b"here you may ask for --lesson NAME, --step N, --preset NAME or --no-mouse, " \
           b"not cat" in seen


def test_without_a_terminal_the_learner_is_told_to_ask_for_one(host):
    argv = [a for a in host.ssh_argv() if a != "-tt"] + ["-T"]
    done = subprocess.run(argv, capture_output=True, text=True, timeout=60, stdin=subprocess.DEVNULL)
    assert done.returncode == 2
    assert "over ssh, `ssh -t` asks for a terminal" in done.stderr, done.stderr
    assert until_gone(host) == []


def test_edits_not_saved_when_the_connection_drops_are_kept_for_the_next_login(host):
    seen, status = over_ssh(host.ssh_argv(), b"0.3369", then=b"7\r", hang_up_on=b"3.0800")
    assert b"3.0800" in seen and status is None  # typed, then the connection dropped
    assert until_gone(host) == []
    kept = host.tmp / "home" / ".local" / "share" / "attn-tui" / "unsaved"
    [rescued] = kept.glob("unsaved-*.json")
    assert b'[7.0, 0.2, 0.3]' in rescued.read_bytes()
    seen, status = over_ssh(host.ssh_argv(), b"Unsaved edits kept", then=b"\x11")
    assert b"Unsaved edits kept" in seen and status == 0
