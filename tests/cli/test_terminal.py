"""Started where the full-screen app cannot run, attn-tui says why in one line and exits 2."""

from __future__ import annotations

import io
import os
import re
import select
import subprocess
import sys
import time
from collections.abc import Callable

import pytest

from attn_tui.cli.terminal import terminal_problem


class Stream(io.StringIO):
    def __init__(self, tty: bool = True, encoding: str = "utf-8") -> None:
        super().__init__()
        self._tty, self._encoding = tty, encoding

    def isatty(self) -> bool:
        if self.closed:
            raise ValueError("I/O operation on closed file")  # as a real closed stream does
        return self._tty

    @property
    def encoding(self) -> str:
        return self._encoding


GOOD = {"TERM": "xterm-256color"}


def problem(environ=GOOD, stdin=None, screen=None) -> str | None:
    return terminal_problem(environ, stdin or Stream(), screen or Stream())


def test_a_utf8_terminal_has_no_problem():
    assert problem() is None
    assert problem({}) is None  # TERM unset: most terminals still understand the escapes


@pytest.mark.parametrize(("environ", "stdin", "screen", "says"), [
    (GOOD, Stream(tty=False), None, "standard input is not a terminal"),
    (GOOD, None, Stream(tty=False), "standard error is not a terminal"),
    ({"TERM": "dumb"}, None, None, "TERM=dumb: this terminal cannot move the cursor"),
    (GOOD, None, Stream(encoding="ascii"), "encoding is ascii"),
    (GOOD, None, Stream(encoding="latin-1"), "encoding is latin-1"),
    (GOOD, None, Stream(encoding="no-such-codec"), "encoding is no-such-codec"),
])
def test_each_problem_is_named(environ, stdin, screen, says):
    said = problem(environ, stdin, screen)
    assert said is not None and says in said


def test_over_ssh_without_a_terminal_it_says_ssh_t():
    """`ssh -T` was told to use `print all` or `export`, which a ForceCommand account cannot."""
    said = problem({**GOOD, "SSH_CONNECTION": "10.0.0.2 50000 10.0.0.1 22"}, Stream(tty=False))
    assert said is not None and "over ssh, `ssh -t` asks for a terminal" in said
    assert "ssh -t" not in problem(GOOD, Stream(tty=False))


def test_the_web_driver_of_serve_is_never_refused():
    assert problem({"TERM": "dumb", "TEXTUAL_DRIVER": "textual.drivers.web_driver:WebDriver"},
                   Stream(tty=False), Stream(tty=False, encoding="ascii")) is None


def test_a_closed_stream_is_not_a_terminal():
    closed = Stream()
    closed.close()
    said = problem(stdin=closed)
    assert said is not None and "standard input" in said


def _run_in_pty(env: dict[str, str], timeout: float = 30.0) -> tuple[int | None, str]:
    """(exit status, or None if still running at ``timeout`` and killed; what it wrote)."""
    main, sub = os.openpty()
    try:
        proc = subprocess.Popen([sys.executable, "-m", "attn_tui"], stdin=sub, stdout=sub,
                                stderr=sub, env=env, close_fds=True)
    finally:
        os.close(sub)
    out, deadline = b"", time.monotonic() + timeout
    try:
        while (left := deadline - time.monotonic()) > 0:
            if not select.select([main], [], [], left)[0]:
                break
            if not (chunk := os.read(main, 4096)):
                break
            out += chunk
    except OSError:  # EIO: the child has gone and the pty is closed
        pass
    finally:
        os.close(main)
    text = out.decode("utf-8", "replace")
    try:  # the pty closes as the child exits, a moment before it can be waited for
        return proc.wait(timeout=max(0.0, deadline - time.monotonic()) + 5.0), text
    except subprocess.TimeoutExpired:  # an app drawn where it cannot be used, waiting for keys
        proc.kill()
        proc.wait()
        return None, text


@pytest.mark.parametrize(("extra", "says"), [
    ({"TERM": "dumb"}, "TERM=dumb"),
    ({"TERM": "xterm", "PYTHONIOENCODING": "ascii"}, "encoding is ascii"),
])
def test_in_a_real_pty_the_refusal_comes_before_any_drawing(extra, says):
    env = {k: v for k, v in os.environ.items() if not k.startswith("TEXTUAL")}
    code, out = _run_in_pty({**env, **extra})
    assert code == 2
    assert out.strip().startswith("attn-tui: ") and says in out
    assert out.isascii()  # readable whatever the terminal's encoding
    assert "\x1b[" not in out  # no escape code: the terminal was never set up


def test_without_a_terminal_the_app_exits_at_once():
    done = subprocess.run([sys.executable, "-m", "attn_tui", "--preset", "mask"],
                          stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=60)
    assert done.returncode == 2
    assert done.stdout == ""
    assert "standard input is not a terminal" in done.stderr
    assert "attn-tui print all" in done.stderr


def test_sigterm_gives_the_terminal_back_then_ends_by_the_signal(tmp_path):
    """``kill`` left the terminal on the alternate screen, reporting the mouse, with no
    cursor: the shell under it was unusable until ``reset``."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("TEXTUAL")}
    env.update(TERM="xterm-256color", ATTN_TUI_DATA_DIR=str(tmp_path), COLUMNS="80", LINES="24")
    main, sub = os.openpty()
    try:
        proc = subprocess.Popen([sys.executable, "-m", "attn_tui", "--preset", "mask"],
                                stdin=sub, stdout=sub, stderr=sub, env=env, close_fds=True,
                                start_new_session=True)
    finally:
        os.close(sub)
    out, deadline, sent_at = b"", time.monotonic() + 60, None
    try:
        while time.monotonic() < deadline:
            if select.select([main], [], [], 0.2)[0]:
                if not (chunk := os.read(main, 65536)):
                    break
                out += chunk
            if sent_at is None and b"workbench" in out:  # drawn: the terminal is set up
                sent_at = len(out)
                proc.send_signal(15)
    except OSError:  # EIO: the app has gone and the pty is closed
        pass
    finally:
        os.close(main)
        if proc.poll() is None and sent_at is None:
            proc.kill()
    assert sent_at is not None, out[-400:]
    assert proc.wait(timeout=10) == -15  # its parent sees the signal, as before
    after = out[sent_at:]
    for restored in (b"\x1b[?1049l", b"\x1b[?1000l", b"\x1b[?25h"):  # screen, mouse, cursor
        assert restored in after


def _app_in_pty(data, *args: str, own_terminal: bool = False) -> tuple[subprocess.Popen, int]:
    """attn-tui started in a pty of 80×24, keeping its files in ``data``: (process, the pty's
    other side). ``own_terminal``: the pty is its controlling terminal, as sshd's is, so that
    closing the other side hangs it up."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("TEXTUAL")}
    env.update(TERM="xterm-256color", ATTN_TUI_DATA_DIR=str(data), COLUMNS="80", LINES="24")
    main, sub = os.openpty()
    try:
        proc = subprocess.Popen([sys.executable, "-m", "attn_tui", *args], stdin=sub,
                                stdout=sub, stderr=sub, env=env, close_fds=True,
                                start_new_session=True,
                                preexec_fn=_own_terminal if own_terminal else None)
    finally:
        os.close(sub)
    return proc, main


def _type_then_end(proc: subprocess.Popen, main: int, ready: bytes, keys: bytes,
                   reached: Callable[[bytes], object], end: Callable[[], object],
                   seconds: float = 60) -> tuple[bytes, bool]:
    """Read the app's pty: once ``ready`` is drawn, type ``keys``; once what was drawn after
    them has ``reached``, ``end()`` it (a signal; True back: the pty was closed, and reading
    stops). Reads on until the app has gone. (All it drew, whether ``end`` was called.)"""
    out, deadline, typed, ended = b"", time.monotonic() + seconds, None, False
    try:
        while time.monotonic() < deadline:
            if select.select([main], [], [], 0.2)[0]:
                if not (chunk := os.read(main, 65536)):
                    break
                out += chunk
            if typed is None and ready in out:
                typed = len(out)
                os.write(main, keys)
            elif not ended and typed is not None and reached(out[typed:]):
                ended = True
                if end():
                    break
            if proc.poll() is not None:
                # gone: what it wrote last may still wait in the pty (under load the message
                # after the terminal's reset was left there, and the test read without it)
                out += _drain(main)
                break
    except OSError:  # EIO: the app has gone and the pty is closed
        pass
    return out, ended


def _drain(main: int) -> bytes:
    """What is left to read in the pty of a process that has ended."""
    out = b""
    try:
        while select.select([main], [], [], 0.2)[0] and (chunk := os.read(main, 65536)):
            out += chunk
    except OSError:  # EIO: nothing more
        pass
    return out


# SIGHUP: the ssh connection dropped; SIGTERM: kill; SIGINT: kill -INT (ended it with nothing
# kept and exit 0: ctrl+c typed in the terminal is a key, so only another process sends it)
@pytest.mark.parametrize("sig", [1, 2, 15])
def test_unsaved_edits_are_rescued_when_the_app_is_ended_from_outside(tmp_path, sig):
    """A dropped ssh connection ended the app at once: edits not saved with ctrl+s were lost
    without a word. They are written to a session file of their own, and the next start says
    where (tests/tui/test_rescue.py)."""
    from attn_tui.core import session

    proc, main = _app_in_pty(tmp_path)
    # q1 = 7 shows as 3.0800; read on after the signal: the app writes as it ends
    out, sent = _type_then_end(proc, main, b"workbench", b"7\r", lambda seen: b"3.0800" in seen,
                               lambda: proc.send_signal(sig))
    try:
        assert sent, out[-400:]
        assert proc.wait(timeout=20) == -sig  # ended by the signal, as before
    finally:
        os.close(main)
        if proc.poll() is None:
            proc.kill()
    rescued = list((tmp_path / "unsaved").glob("unsaved-*.json"))
    assert len(rescued) == 1, out[-400:]
    assert session.load(rescued[0])[0].q[0] == (7.0, 0.2, 0.3)
    if sig != 1:  # the terminal is given back, and told where the edits went
        after = out[out.rindex(b"\x1b[?1049l"):].decode()
        assert f"attn-tui: unsaved work kept in {rescued[0]}; ctrl+o offers it at the next " \
               "start" in after.replace("\r\n", "\n").replace("\n", "")


def _own_terminal() -> None:
    """In the child: the pty becomes its controlling terminal (the kernel sends SIGHUP when
    its other side closes)."""
    import fcntl
    import termios

    fcntl.ioctl(0, termios.TIOCSCTTY, 0)


# (SIGHUP sent with kill takes the same way as the kernel's on a real hang-up: not repeated)
@pytest.mark.parametrize("sig", [15, "hang-up"])
def test_a_run_training_when_the_app_is_ended_from_outside_is_kept_and_the_app_ends(tmp_path,
                                                                                   sig):
    """The run's worker hands each step's news to the event loop: a rescue that waited on the
    run there would have waited for ever, and the process with it (tests/tui/labs/
    test_train_reopen.py has the rest)."""
    pytest.importorskip("torch")
    from attn_tui.train.runfile import load

    proc, main = _app_in_pty(tmp_path, "--lab", "train", own_terminal=True)

    def end() -> bool:
        if sig == "hang-up":  # the connection drops: the terminal's other side goes
            os.close(main)
            return True
        proc.send_signal(sig)
        return False

    # Enter trains the lab's sort run (2,000 steps); it ends once a step has been taken
    out, ended = _type_then_end(proc, main, b"lab: train", b"\r",
                                lambda seen: re.search(rb"step [1-9]\d*/2000", seen), end,
                                seconds=90)
    try:
        assert ended, out[-400:]
        assert proc.wait(timeout=20) == -(1 if sig == "hang-up" else sig)
    finally:
        if sig != "hang-up":
            os.close(main)
        if proc.poll() is None:
            proc.kill()
    [path] = (tmp_path / "unsaved").glob("unsaved-*.npz")
    record = load(str(path))
    assert 0 < record.steps_done < 2000 and record.resume
    assert not list((tmp_path / "unsaved").glob("*.json"))  # the workbench had no edits


def test_a_terminal_that_reports_no_size_is_drawn_once_and_sigterm_ends_it(tmp_path):
    """A pty of 0×0 (a serial console, `script` from a pipe): Rich's fallback 80×25 and
    the driver's 80×24 both reached the screen, and it laid itself out at each in turn,
    without end, drawing 1.3 MB in four seconds at a whole core; SIGTERM never got its turn."""
    env = {k: v for k, v in os.environ.items()
           if not k.startswith("TEXTUAL") and k not in ("COLUMNS", "LINES")}
    env.update(TERM="xterm-256color", ATTN_TUI_DATA_DIR=str(tmp_path))
    main, sub = os.openpty()  # a new pty reports 0 columns and 0 lines
    assert os.get_terminal_size(sub) == (0, 0)
    try:
        proc = subprocess.Popen([sys.executable, "-m", "attn_tui"], stdin=sub, stdout=sub,
                                stderr=sub, env=env, close_fds=True, start_new_session=True)
    finally:
        os.close(sub)
    out, deadline, drawn, mark = b"", time.monotonic() + 60, None, None
    try:
        while time.monotonic() < deadline and proc.poll() is None:
            if select.select([main], [], [], 0.1)[0]:
                if not (chunk := os.read(main, 65536)):
                    break
                out += chunk
            if drawn is None and b"workbench" in out:
                drawn = time.monotonic()
            if mark is None and drawn is not None and time.monotonic() > drawn + 1:
                mark, deadline = len(out), time.monotonic() + 2  # drawn: two seconds idle
        assert mark is not None, out[-400:]
        # what it drew in those two seconds, with nothing pressed: nothing, or a cursor blink
        assert len(out) - mark < 2_000
        proc.send_signal(15)
        assert proc.wait(timeout=10) == -15
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
        os.close(main)
