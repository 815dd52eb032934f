"""CPU per key of bench-class's student, in-process: no sshd, no pty.

    python scripts/bench_keys.py                      300 keys, a table per kind of key
    python scripts/bench_keys.py --profile out.prof   the same under cProfile (then pstats)

One app at 80×24 (the class's window) on the default workspace, driven by bench_class's seeded
student: the same key mix, one key at a time. Each key is posted as a driver posts it, then the
app runs until it has drawn at least one frame and has stayed quiet (no frame, nothing due) for
QUIET seconds, as between a student's keys; the process CPU (time.process_time) over that span
is the key's cost. Headless Textual skips building the terminal's bytes, so each frame is
rendered to the string a terminal would get (bench_edit's probe does the same): that work is
the app's in a real session. The quiet span's own cost is measured as "no key" (the same wait
with nothing posted).
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_class import COLS, ROWS, student_keys  # noqa: E402
from bench_edit import _post_key  # noqa: E402

QUIET = 0.05  # no frame for this long (three frame periods): the key's work is done
KINDS = {"m": "m (mask)", "s": "s (scale)", "v": "v (view)", "\r": "Enter (commit)",
         "]": "] (token +)", "[": "[ (token −)"}


def kind_of(key: str) -> str:
    return KINDS.get(key, "digit or . (typing)")


class Frames:
    """Counts the frames drawn and the bytes a terminal would be sent for them."""

    def __init__(self, app) -> None:
        from attn_tui.tui.textual_compat import on_each_frame

        self.count = 0
        self.bytes = 0
        on_each_frame(app, self._frame)

    def _frame(self, _screen, text: str | None) -> None:
        self.count += 1
        if text is not None:
            self.bytes += len(text.encode())


def _update_due(app) -> bool:
    screen = app.screen
    return bool(screen._layout_required or screen._scroll_required or screen._repaint_required
                or screen._recompose_required or screen._dirty_widgets)


async def _quiet(app, frames: Frames, first_frame: bool) -> bool:
    """Until a frame has been drawn (``first_frame``) and QUIET passed with no frame and
    nothing due; False if no frame came within a second."""
    start = time.perf_counter()
    seen = frames.count
    while first_frame and frames.count == seen:
        if time.perf_counter() - start > 1.0:
            return False
        await asyncio.sleep(0.002)
    while True:
        seen = frames.count
        await asyncio.sleep(QUIET)
        if frames.count == seen and not _update_due(app):
            return True


async def run(keys: int, seed: int, profile: str | None,
              only: str | None = None) -> dict[str, list[tuple]]:
    from attn_tui.tui.app import make_app

    app = make_app(no_progress=True)
    out: dict[str, list[tuple]] = {}
    stream = student_keys(seed)
    async with app.run_test(size=(COLS, ROWS)) as pilot:
        await pilot.pause()
        frames = Frames(app)
        await _quiet(app, frames, first_frame=False)
        for _ in range(20):  # warm-up: caches, the picture view's first mount
            _post_key(app, next(stream))
            await _quiet(app, frames, first_frame=True)
        prof = None
        if profile:
            import cProfile

            prof = cProfile.Profile()
        gc.collect()
        for i in range(keys):
            key = next(stream)
            f0, b0 = frames.count, frames.bytes
            profiled = prof is not None and (only is None or kind_of(key) == kind_of(only))
            if profiled:
                prof.enable()
            c0 = time.process_time()
            _post_key(app, key)
            drew = await _quiet(app, frames, first_frame=True)
            cpu = time.process_time() - c0
            if profiled:
                prof.disable()
            out.setdefault(kind_of(key), []).append(
                (cpu, frames.count - f0, frames.bytes - b0, drew))
            if i % 10 == 0:  # the wait alone, as a baseline
                c0 = time.process_time()
                await _quiet(app, frames, first_frame=False)
                out.setdefault("no key (the wait alone)", []).append(
                    (time.process_time() - c0, 0, 0, True))
        if prof:
            prof.dump_stats(profile)
    return out


def report(out: dict[str, list[tuple]]) -> str:
    lines = [f"{'key':<24}{'n':>5}{'CPU ms p50':>12}{'mean':>8}{'frames':>8}{'bytes':>8}"
             f"{'no frame':>10}"]
    keyed = [r for k, rs in out.items() if not k.startswith("no key") for r in rs]
    rows = sorted(out.items(), key=lambda kv: kv[0].startswith("no key"))
    for name, rs in [*rows, ("all keys", keyed)]:
        cpu = [r[0] * 1e3 for r in rs]
        lines.append(f"{name:<24}{len(rs):>5}{statistics.median(cpu):>12.2f}"
                     f"{statistics.fmean(cpu):>8.2f}{statistics.fmean(r[1] for r in rs):>8.2f}"
                     f"{statistics.fmean(r[2] for r in rs):>8.0f}"
                     f"{sum(not r[3] for r in rs):>10}")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--keys", type=int, default=300)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--profile", metavar="FILE", help="write cProfile stats of the keys")
    ap.add_argument("--profile-only", metavar="KEY",
                    help="profile only the keys of this key's kind (m, s, v, 0, ], [; enter)")
    args = ap.parse_args(argv)
    from attn_tui.cli.blas_threads import one_blas_thread

    one_blas_thread()  # as `attn-tui` starts
    start = time.perf_counter()
    only = "\r" if args.profile_only == "enter" else args.profile_only
    out = asyncio.run(run(args.keys, args.seed, args.profile, only))
    print(report(out))
    print(f"{args.keys} keys, seed {args.seed}, {time.perf_counter() - start:.0f} s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
