"""A throwaway SSH host on loopback for `make bench-class`: its own sshd (config and host keys
in a temp dir, its own port), a throwaway account whose group gets the hosting guide's
``Match Group`` block with ``ForceCommand`` running this checkout's attn-tui, and a client key.

Everything it makes is undone by ``close()``, in reverse order, whatever happened before:
processes of the account, sshd, the account and its group, the directories it let the account
traverse, the temp dir. Not /run/sshd, sshd's own directory, made if missing: another host's
sshd may still need it. Needs root (useradd, sshd).
"""

from __future__ import annotations

import contextlib
import os
import pwd
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
GUIDE = ROOT / "docs" / "hosting.md"
TOOLS = {"sshd": "/usr/sbin/sshd", "ssh": "ssh", "ssh-keygen": "ssh-keygen",
         "useradd": "useradd", "userdel": "userdel", "setfacl": "setfacl"}
START_TIMEOUT = 10.0


class HostError(Exception):
    """A set-up step that failed, said in one line."""


def guide_match_block(group: str, command: str) -> str:
    """The guide's ``Match Group attn-class`` block, for this group and command."""
    text = GUIDE.read_text(encoding="utf-8")
    found = re.search(r"^Match Group attn-class\n((?:    .*\n)+)", text, re.M)
    if not found:
        raise HostError(f"{GUIDE} has no 'Match Group attn-class' block")
    body = re.sub(r"ForceCommand .*", f"ForceCommand {command}", found.group(1))
    return f"Match Group {group}\n{body}"


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _run(*argv: str) -> None:
    done = subprocess.run(argv, capture_output=True, text=True, timeout=60)
    if done.returncode != 0:
        last = (done.stderr.strip() or done.stdout.strip() or "failed").splitlines()[-1]
        raise HostError(f"{argv[0]}: {last}")


def _tool(name: str) -> str:
    where = shutil.which(TOOLS[name], path=os.environ.get("PATH", "") + ":/usr/sbin:/sbin")
    if where is None:
        raise HostError(f"{name} is not installed (make bench-class installs openssh-server "
                        "and acl with apt-get)")
    return where


def processes_of(uid: int) -> list[int]:
    pids = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                if os.stat(f"/proc/{entry}").st_uid == uid:
                    pids.append(int(entry))
            except OSError:
                continue
    return pids


class ClassHost:
    """Call ``open()`` then use ``ssh_argv()``; ``close()`` always."""

    def __init__(self, sshd: str | None = None, force_command: str | None = None) -> None:
        if sshd:
            TOOLS["sshd"] = sshd
        # what the Match block forces: this checkout's attn-tui, or a wrapper around it
        self.force_command = force_command or f"{sys.executable} -m attn_tui"
        self.undo: list = []
        self.user = f"attnb{os.getpid()}"
        self.uid: int | None = None
        self.port = _free_port()
        self.sshd: subprocess.Popen | None = None
        self.tmp: Path | None = None

    def open(self) -> None:
        if os.geteuid() != 0:
            raise HostError("bench-class needs root: it adds a throwaway account and runs sshd")
        tools = {name: _tool(name) for name in TOOLS}
        self.tmp = Path(tempfile.mkdtemp(prefix="attn-bench-class-"))
        self.undo.append(lambda: shutil.rmtree(self.tmp, ignore_errors=True))
        home = self.tmp / "home"
        _run(tools["useradd"], "--user-group", "--no-create-home", "--home-dir", str(home),
             "--shell", "/bin/sh", "--password", "*", self.user)
        self.undo.append(lambda: _run(tools["userdel"], self.user))
        self.uid = pwd.getpwnam(self.user).pw_uid
        self.undo.append(self._end_processes)
        home.mkdir()
        os.chown(home, self.uid, self.uid)
        self._let_traverse(tools["setfacl"])
        for name in ("host", "client"):
            _run(tools["ssh-keygen"], "-q", "-t", "ed25519", "-N", "", "-C", name,
                 "-f", str(self.tmp / name))
        # sshd reads the authorized keys as the account: it may pass through the temp dir
        # (not list it) and read that one file, a public key
        self.tmp.chmod(0o711)
        keys = self.tmp / "authorized_keys"
        keys.write_text((self.tmp / "client.pub").read_text())
        keys.chmod(0o644)
        command = self.force_command
        config = self.tmp / "sshd_config"
        config.write_text(
            f"Port {self.port}\nListenAddress 127.0.0.1\nHostKey {self.tmp / 'host'}\n"
            f"PidFile {self.tmp / 'sshd.pid'}\nAuthorizedKeysFile {self.tmp / 'authorized_keys'}\n"
            "StrictModes no\nUsePAM no\nPasswordAuthentication no\n"
            "KbdInteractiveAuthentication no\nPubkeyAuthentication yes\n"
            f"AllowUsers {self.user}\nLogLevel ERROR\n"
            # a class connecting at once: sshd's default (10:30:100) drops some of 30
            "MaxStartups 100\n"
            # this checkout's attn-tui, as /usr/local/bin/attn-tui is in the guide
            f"SetEnv PYTHONPATH={ROOT}\n"
            + guide_match_block(self.user, command))
        # sshd's privilege-separation directory, as the package's service makes it. Left
        # there after: removed at close, it was gone from under another host's sshd still
        # running (two test workers), whose next connection was reset before its key exchange
        Path("/run/sshd").mkdir(mode=0o755, exist_ok=True)
        checked = subprocess.run([tools["sshd"], "-t", "-f", str(config)], capture_output=True,
                                 text=True, timeout=30)
        if checked.returncode != 0:
            said = (checked.stderr.strip() or f"exit status {checked.returncode}").splitlines()
            raise HostError(f"sshd did not start: it refused its configuration: {said[-1]}")
        self.sshd = subprocess.Popen([tools["sshd"], "-D", "-e", "-f", str(config)],
                                     stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                                     text=True)
        self.undo.append(self._stop_sshd)
        self._wait_listening()

    def _let_traverse(self, setfacl: str) -> None:
        """The account must reach the interpreter and read this checkout: grant it (and only
        it) passage through any directory on the way that others cannot enter, e.g. /root,
        and reading of the checkout where others may not read it."""
        dirs: set[Path] = set()
        for target in (Path(os.path.realpath(sys.executable)), ROOT, Path(sys.prefix)):
            dirs.update(p for p in target.parents if not os.stat(p).st_mode & 0o001)
        grants = {d: "x" for d in dirs}
        # the checkout itself is read, not only passed through: Python lists a folder on its
        # path to find a module there, and a clone in `mktemp -d`'s folder (mode 700) gave
        # "No module named attn_tui"
        if os.stat(ROOT).st_mode & 0o005 != 0o005:
            grants[ROOT] = "rx"
        for d, perms in sorted(grants.items()):
            _run(setfacl, "-m", f"u:{self.user}:{perms}", str(d))
            self.undo.append(lambda d=d: self._take_back(setfacl, d))

    def _take_back(self, setfacl: str, d: Path) -> None:
        """Remove this account's entry alone: another run at the same time may have its own
        there. Once no named or default entry is left, the mask that adding one made goes
        too, so the directory is as it was without an ACL."""
        _run(setfacl, "-x", f"u:{self.user}", str(d))
        left = subprocess.run(["getfacl", "-c", "--absolute-names", str(d)],
                              capture_output=True, text=True).stdout.split()
        if not any(entry.startswith("default:") or (entry.split(":")[0] in ("user", "group")
                                                    and entry.split(":")[1])
                   for entry in left):
            _run(setfacl, "-b", str(d))

    def _wait_listening(self) -> None:
        deadline = time.monotonic() + START_TIMEOUT
        while time.monotonic() < deadline:
            if self.sshd.poll() is not None:
                said = (self.sshd.stderr.read().strip() or "no message").splitlines()[-1]
                raise HostError(f"sshd did not start: {said}")
            with contextlib.suppress(OSError):
                with socket.create_connection(("127.0.0.1", self.port), timeout=0.2):
                    return
            time.sleep(0.1)  # polling a socket
        raise HostError(f"sshd did not listen on 127.0.0.1:{self.port} within {START_TIMEOUT} s")

    def ssh_argv(self) -> list[str]:
        return ["ssh", "-tt", "-i", str(self.tmp / "client"), "-p", str(self.port),
                "-o", "StrictHostKeyChecking=no", "-o", "UserKnownHostsFile=/dev/null",
                "-o", "BatchMode=yes", "-o", "LogLevel=ERROR", "-o", "ConnectTimeout=10",
                f"{self.user}@127.0.0.1"]

    def sessions_pids(self) -> list[int]:
        """The account's processes: each session's shell-less attn-tui (and anything stuck)."""
        return processes_of(self.uid) if self.uid is not None else []

    def sshd_pid(self) -> int | None:
        return self.sshd.pid if self.sshd else None

    def _end_processes(self) -> None:
        for pid in processes_of(self.uid):
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)
        deadline = time.monotonic() + 5
        while processes_of(self.uid) and time.monotonic() < deadline:
            time.sleep(0.05)

    def descendants(self) -> list[int]:
        """Every process under our sshd: the per-connection sshd processes and the sessions."""
        if self.sshd is None:
            return []
        parent: dict[int, int] = {}
        for entry in os.listdir("/proc"):
            if entry.isdigit():
                with contextlib.suppress(OSError):
                    stat = Path(f"/proc/{entry}/stat").read_text()
                    parent[int(entry)] = int(stat[stat.rindex(")") + 2:].split()[1])
        found, frontier = [], [self.sshd.pid]
        while frontier:
            kids = [pid for pid, ppid in parent.items() if ppid in frontier]
            found += kids
            frontier = kids
        return found

    def _stop_sshd(self) -> None:
        left = self.descendants()
        for pid in left:  # sessions outlive the listening sshd: end them, by pid
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)
        if self.sshd and self.sshd.poll() is None:
            self.sshd.terminate()
            try:
                self.sshd.wait(timeout=5)
            except subprocess.TimeoutExpired:
                self.sshd.kill()
                self.sshd.wait(timeout=5)

    def close(self) -> list[str]:
        """Undo everything; returns the steps that failed (each one line)."""
        failed = []
        while self.undo:
            step = self.undo.pop()
            try:
                step()
            except Exception as exc:  # keep undoing the rest
                failed.append(str(exc))
        return failed
