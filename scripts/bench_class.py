"""`make bench-class`: a class over SSH, measured. A real sshd on loopback (bench_class_host)
with the hosting guide's ForceCommand account; N = 1, 10 and 30 concurrent sessions, each an
`ssh -tt` on its own pty, driven by a seeded student at about 4 keys a second.

Per N it reports each session's resident memory (the app process) and their sum, the CPU of
every process of the class (sshd's and the apps'), key → screen-change latency (from writing a
key to the session's pty until the first byte of the screen's answer comes back) at p50, p95 and
max, and bytes sent per key; each as a ratio to N = 1, with the issue's goals and a verdict.
After each N every client disconnects (as a closed window does) and the account's processes
still alive are counted. Ctrl+C, a failed session or a failed set-up step still undo everything.
"""

from __future__ import annotations

import argparse
import contextlib
import fcntl
import os
import pty
import random
import select
import signal
import statistics
import struct
import sys
import termios
import time
from dataclasses import dataclass, field
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_class_host import ClassHost, HostError  # noqa: E402

COLS, ROWS = 80, 24
FIRST_SCREEN = b"0.3369"
FRAME = 1 / 60
CLK_TCK = os.sysconf("SC_CLK_TCK")
ANSWER_TIMEOUT = 2.0  # a key with no answer by then counts as unanswered
ARRIVAL_TIMEOUT = 90.0  # all N first screens, on a busy 2-core machine
GONE_TIMEOUT = 10.0  # after disconnecting, the account's processes must be gone by then

# what a student does, each step a run of keys every one of which changes the screen
ACTIONS = (
    (4, lambda r: ["m"]),                                  # mask order
    (3, lambda r: ["s"]),                                  # ÷√d_k on or off
    (2, lambda r: ["v"]),                                  # the map's view
    (4, lambda r: list(f"{r.randint(0, 9)}.{r.randint(0, 9)}") + ["\r"]),  # a cell edit
    (1, lambda r: ["]", "["]),                             # a token more, then fewer
)


def student_keys(seed: int):
    """An endless, seeded stream of keys."""
    r = random.Random(seed)
    weights = [w for w, _ in ACTIONS]
    while True:
        (_, make), = r.choices(ACTIONS, weights)
        yield from make(r)


@dataclass
class Session:
    index: int
    pid: int
    fd: int
    keys: object
    interval: float
    drawn: bool = False
    tail: bytes = b""
    sent_at: float | None = None
    next_at: float = 0.0
    latencies: list[float] = field(default_factory=list)
    unanswered: int = 0
    keys_sent: int = 0
    bytes_in: int = 0
    counting: bool = False
    alive: bool = True
    last: bytes = b""  # the end of what the session showed, for a session that ends early
    typed: list[str] = field(default_factory=list)


def connect(argv: list[str], index: int, seed: int, rate: float) -> Session:
    env = {k: v for k, v in os.environ.items() if not k.startswith("TEXTUAL")}
    env.update(TERM="xterm-256color", COLORTERM="truecolor", LANG="C.UTF-8")
    pid, fd = pty.fork()
    if pid == 0:
        try:
            fcntl.ioctl(0, termios.TIOCSWINSZ, struct.pack("HHHH", ROWS, COLS, 0, 0))
            os.execvpe(argv[0], argv, env)
        finally:
            os._exit(127)
    return Session(index, pid, fd, student_keys(seed * 1000 + index), 1 / rate)


def read(session: Session, now: float) -> None:
    try:
        data = os.read(session.fd, 1 << 16)
    except OSError:
        data = b""
    if not data:
        session.alive = False
        return
    session.last = (session.last + data)[-4000:]
    if session.counting:
        session.bytes_in += len(data)
    if not session.drawn:
        window = session.tail + data
        session.drawn = FIRST_SCREEN in window
        session.tail = window[-len(FIRST_SCREEN):]
    elif session.sent_at is not None:
        session.latencies.append(now - session.sent_at)
        session.sent_at = None


def pump(sessions: list[Session], until: float, drive: bool) -> None:
    """Read every session's output until ``until``; with ``drive``, each student types its
    next key when its interval has passed and its last key has been answered (or timed out)."""
    by_fd = {s.fd: s for s in sessions}
    while (now := time.perf_counter()) < until:
        if drive:
            for s in sessions:
                if not s.alive:
                    continue
                if s.sent_at is not None and now - s.sent_at > ANSWER_TIMEOUT:
                    s.unanswered += 1
                    s.sent_at = None
                if s.sent_at is None and now >= s.next_at:
                    key = next(s.keys)
                    os.write(s.fd, key.encode())
                    s.typed = (s.typed + [key])[-20:]
                    s.sent_at = now
                    s.keys_sent += 1
                    # about `rate` keys a second, jittered like a person, never two at once
                    s.next_at = now + s.interval * random.uniform(0.6, 1.4)
        wake = min([until] + [s.next_at for s in sessions if drive and s.sent_at is None])
        fds = [s.fd for s in sessions if s.alive]
        if not fds:
            return
        ready, _, _ = select.select(fds, [], [], max(0.0, min(wake - now, 0.05)))
        now = time.perf_counter()
        for fd in ready:
            read(by_fd[fd], now)


def proc_stat(pid: int) -> tuple[int, float] | None:
    """(rss KiB, cpu seconds) of a process, or None when it has gone."""
    try:
        status = Path(f"/proc/{pid}/status").read_text()
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    rss = next((int(line.split()[1]) for line in status.splitlines()
                if line.startswith("VmRSS:")), 0)
    fields = stat[stat.rindex(")") + 2:].split()
    return rss, (int(fields[11]) + int(fields[12])) / CLK_TCK


def app_pids(host: ClassHost) -> list[int]:
    """The sessions' attn-tui processes (not the shell sshd runs the ForceCommand with)."""
    out = []
    for pid in host.sessions_pids():
        with contextlib.suppress(OSError):
            argv = Path(f"/proc/{pid}/cmdline").read_bytes().split(b"\0")
            if argv[0] == os.fsencode(sys.executable) and b"attn_tui" in argv:
                out.append(pid)
    return out


def class_cpu(host: ClassHost) -> dict[int, float]:
    found = {}
    for pid in host.descendants():
        if (st := proc_stat(pid)) is not None:
            found[pid] = st[1]
    return found


def disconnect(sessions: list[Session]) -> None:
    for s in sessions:
        with contextlib.suppress(ProcessLookupError):
            os.kill(s.pid, signal.SIGHUP)  # the learner's window closes
    for s in sessions:
        with contextlib.suppress(ChildProcessError):
            deadline = time.monotonic() + 5
            while os.waitpid(s.pid, os.WNOHANG) == (0, 0):
                if time.monotonic() > deadline:
                    os.kill(s.pid, signal.SIGKILL)
                    os.waitpid(s.pid, 0)
                    break
                time.sleep(0.02)
        with contextlib.suppress(OSError):
            os.close(s.fd)


def run_class(host: ClassHost, n: int, seconds: float, rate: float, seed: int, log) -> dict:
    sessions: list[Session] = []
    try:
        t0 = time.perf_counter()
        for i in range(n):
            sessions.append(connect(host.ssh_argv(), i, seed, rate))
        deadline = t0 + ARRIVAL_TIMEOUT
        # wait for every session that is still connecting; one that ended is lost
        while (waiting := [s for s in sessions if s.alive and not s.drawn]) \
                and time.perf_counter() < deadline:
            pump(waiting, time.perf_counter() + 0.2, drive=False)
        arrived = sum(s.drawn for s in sessions)
        log(f"  N = {n}: {arrived} of {n} first screens in {time.perf_counter() - t0:.1f} s")
        pump(sessions, time.perf_counter() + 1.0, drive=False)  # let start-up settle
        before = class_cpu(host)
        clients_before = sum(st[1] for s in sessions if (st := proc_stat(s.pid)) is not None)
        self_before = time.process_time()
        for s in sessions:
            s.counting = True
        start = time.perf_counter()
        pump([s for s in sessions if s.drawn], start + seconds, drive=True)
        wall = time.perf_counter() - start
        pump(sessions, time.perf_counter() + ANSWER_TIMEOUT, drive=False)
        after = class_cpu(host)
        clients = sum(st[1] for s in sessions if (st := proc_stat(s.pid)) is not None) \
            - clients_before
        own = time.process_time() - self_before
        apps = app_pids(host)
        rss = [st[0] for pid in apps if (st := proc_stat(pid)) is not None]
        cpu = sum(after[pid] - before.get(pid, 0.0) for pid in after)
        app_cpu = sum(after[pid] - before.get(pid, 0.0) for pid in after if pid in apps)
        lost = sum(not s.drawn or not s.alive for s in sessions)
        for s in sessions:
            if not s.alive:
                text = s.last.decode("utf-8", "replace")
                log(f"  session {s.index} ended after {s.keys_sent} keys; last keys "
                    f"{''.join(s.typed)!r}; it showed at the end: {text[-600:]!r}")
    finally:
        disconnect(sessions)
    deadline = time.monotonic() + GONE_TIMEOUT
    while host.sessions_pids() and time.monotonic() < deadline:
        time.sleep(0.1)
    stuck = len(host.sessions_pids())
    latencies = sorted(x for s in sessions for x in s.latencies)
    keys = sum(s.keys_sent for s in sessions)
    return {
        "n": n, "arrived": arrived, "lost": lost, "stuck": stuck, "apps": len(apps),
        "rss": rss, "rss_sum": sum(rss), "cpu": cpu, "wall": wall, "keys": keys,
        "app_cpu": app_cpu, "client_cpu": clients + own,
        "unanswered": sum(s.unanswered for s in sessions),
        "bytes_per_key": sum(s.bytes_in for s in sessions) / keys if keys else float("nan"),
        "p50": quantile(latencies, 0.50), "p95": quantile(latencies, 0.95),
        "max": latencies[-1] if latencies else float("nan"),
    }


def quantile(xs: list[float], q: float) -> float:
    if not xs:
        return float("nan")
    return statistics.quantiles(xs, n=100, method="inclusive")[round(q * 100) - 1] \
        if len(xs) > 1 else xs[0]


def fmt_ms(x: float) -> str:
    return f"{x * 1e3:.1f} ms"


def table(results: list[dict]) -> tuple[list[str], list[tuple[str, ...]]]:
    """Rows: a figure, its value per N with the ratio to N = 1, its goal and the verdict."""
    one = results[0]
    heads = ["figure", *(f"N = {r['n']}" for r in results), "goal", "verdict"]
    rows = []

    def ratio(r: dict, key: str) -> str:
        return "" if r is one or not one[key] else f" ({r[key] / one[key]:.2f}×)"

    def row(name, key, show, goal="", ok=None, ratios=True):
        cells = [show(r) + (ratio(r, key) if ratios else "") for r in results]
        verdict = "" if ok is None else ("PASS" if ok else "MISS")
        rows.append((name, *cells, goal, verdict))

    last = results[-1]
    per = {r["n"]: statistics.median(r["rss"]) if r["rss"] else 0 for r in results}
    for r in results:
        r["rss_one"] = per[r["n"]]
        r["cpu_per"] = r["cpu"] / r["n"]
        r["cpu_key"] = r["cpu"] / r["keys"] if r["keys"] else 0.0
    row("sessions that drew and stayed", "arrived", lambda r: f"{r['n'] - r['lost']}/{r['n']}",
        "all, none lost", all(r["lost"] == 0 for r in results), ratios=False)
    row("key → screen change, p50", "p50", lambda r: fmt_ms(r["p50"]),
        f"< {fmt_ms(FRAME)} at N = {last['n']}", last["p50"] < FRAME)
    row("key → screen change, p95", "p95", lambda r: fmt_ms(r["p95"]),
        f"≤ 3× N = 1 at N = {last['n']}", last["p95"] <= 3 * one["p95"])
    row("key → screen change, max", "max", lambda r: fmt_ms(r["max"]))
    row("keys answered / sent", "keys",
        lambda r: f"{r['keys'] - r['unanswered']}/{r['keys']}", "all",
        all(r["keys"] > 0 and r["unanswered"] == 0 for r in results), ratios=False)
    row("resident memory, one session (median)", "rss_one",
        lambda r: f"{r['rss_one'] / 1024:.1f} MiB")
    row("resident memory, sum", "rss_sum", lambda r: f"{r['rss_sum'] / 1024:.0f} MiB",
        "≤ 1.05 × N × one session",
        all(r["rss"] and r["rss_sum"] <= 1.05 * r["n"] * one["rss_sum"] / one["n"]
            for r in results))  # a run with no session measured passes nothing
    row("CPU of the class (sshd + apps)", "cpu",
        lambda r: f"{r['cpu']:.1f} s in {r['wall']:.0f} s")
    row("  of which the apps", "app_cpu", lambda r: f"{r['app_cpu']:.1f} s")
    row("CPU per session", "cpu_per", lambda r: f"{r['cpu_per']:.2f} s")
    row("CPU per key (sshd + app)", "cpu_key",
        lambda r: f"{r['cpu'] / r['keys'] * 1e3:.1f} ms" if r["keys"] else "—")
    # in a class the learners' machines do this; here it shares the server's cores
    row("CPU of the ssh clients and students", "client_cpu",
        lambda r: f"{r['client_cpu']:.1f} s")
    row("bytes sent per key", "bytes_per_key", lambda r: f"{r['bytes_per_key']:.0f} B")
    row("processes left after disconnect", "stuck", lambda r: str(r["stuck"]), "0",
        all(r["stuck"] == 0 for r in results), ratios=False)
    return heads, rows


def render(heads: list[str], rows: list[tuple[str, ...]], markdown: bool) -> str:
    if markdown:
        lines = ["| " + " | ".join(heads) + " |", "|" + " --- |" * len(heads)]
        lines += ["| " + " | ".join(r) + " |" for r in rows]
        return "\n".join(lines)
    widths = [max(len(str(c)) for c in col) for col in zip(heads, *rows, strict=True)]
    return "\n".join("  ".join(str(c).ljust(w) for c, w in zip(r, widths, strict=True)).rstrip()
                     for r in [heads, *rows])


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="bench_class.py", description=__doc__.split("\n\n")[0])
    ap.add_argument("--sessions", default="1,10,30",
                    help="class sizes, the first is the baseline (default: 1,10,30)")
    ap.add_argument("--seconds", type=float, default=60.0,
                    help="how long each class types (default: 60)")
    ap.add_argument("--rate", type=float, default=4.0, help="keys a second (default: 4)")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--sshd", metavar="PATH", help="the sshd to run (default: /usr/sbin/sshd)")
    ap.add_argument("--markdown", action="store_true", help="print the table as markdown too")
    args = ap.parse_args(argv)
    try:
        sizes = [int(x) for x in args.sessions.split(",")]
        if not sizes or min(sizes) < 1 or max(sizes) > 100:
            raise ValueError
    except ValueError:
        ap.error("--sessions: class sizes from 1 to 100, e.g. 1,10,30")
    if not 0 < args.seconds <= 600 or not 0 < args.rate <= 50:
        ap.error("--seconds must be in (0, 600] and --rate in (0, 50]")

    def log(message: str) -> None:
        print(message, file=sys.stderr, flush=True)

    def on_term(signum, frame):
        raise KeyboardInterrupt

    signal.signal(signal.SIGTERM, on_term)
    signal.signal(signal.SIGHUP, on_term)
    host = ClassHost(args.sshd)
    results = []
    status = 0
    try:
        host.open()
        log(f"bench-class: sshd on 127.0.0.1:{host.port}, account {host.user}, "
            f"{args.seconds:g} s at {args.rate:g} keys/s; load average "
            + " ".join(f"{x:.2f}" for x in os.getloadavg()))
        for n in sizes:
            results.append(run_class(host, n, args.seconds, args.rate, args.seed, log))
    except HostError as exc:
        log(f"bench-class: {exc}")
        status = 2
    except KeyboardInterrupt:
        log("bench-class: interrupted; cleaning up")
        status = 130
    finally:
        for failure in host.close():
            log(f"bench-class: clean-up: {failure}")
            status = status or 1
    if results:
        heads, rows = table(results)
        print(render(heads, rows, markdown=False))
        if args.markdown:
            print()
            print(render(heads, rows, markdown=True))
        print("load average after: " + " ".join(f"{x:.2f}" for x in os.getloadavg()))
        if status == 0 and any(r[-1] == "MISS" for r in rows):
            status = 1
    return status


if __name__ == "__main__":
    sys.exit(main())
