"""`attn-tui train`: train a tiny transformer on a synthetic task and print what it learned.

Only argparse at module level: the parser is built for every command line. torch loads when a
run starts, and textual never does on this path.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import select
import shlex
import shutil
import signal
import stat
import sys
import threading
import time
from typing import Any

from attn_tui.cli.errors import fail
from attn_tui.core.words import as_typed, whole
from attn_tui.train.config import LIMITS, MAX_LR, MIN_LR, TASKS


def _whole(name: str):
    lo, hi = LIMITS[name]

    def parse(text: str) -> int:
        from attn_tui.core.parse import parse_whole

        parsed = parse_whole(text)  # as the lab's field reads it: 1,000,000, 1_000, 1e3
        if not parsed.ok:
            raise argparse.ArgumentTypeError(parsed.error)
        value = int(parsed.value)
        if name == "steps" and value == 0:
            raise argparse.ArgumentTypeError("0 steps trains nothing: give at least 1")
        if not lo <= value <= hi:
            raise argparse.ArgumentTypeError(  # in the train lab's words
                f"must be between {whole(lo)} and {whole(hi)}; {text.strip()} is outside")
        return value

    return parse


def _rate(text: str) -> float:
    from attn_tui.core.parse import parse_cell

    parsed = parse_cell(text, cell_limit=False)  # as the lab's field reads it: 1/3, 1e-3, −0.5
    if parsed.ok:
        value = parsed.value
    elif text.strip().lower().lstrip("+-") in ("nan", "inf", "infinity"):
        value = float(text)  # said below as outside the range, as 1e9 is
    else:  # the lab's own words: "write 1.5, with a point", "1/0 divides by zero"
        raise argparse.ArgumentTypeError(parsed.error)
    if not MIN_LR <= value <= MAX_LR:  # nan fails this too
        raise argparse.ArgumentTypeError(f"{text} is not a learning rate between "
                                         f"{as_typed(MIN_LR)} and {as_typed(MAX_LR)}")
    return value


def add_train_parser(sub: Any) -> argparse.ArgumentParser:
    """The `train` subcommand; its dests start with train_ so they never meet the app's."""
    tr = sub.add_parser(
        "train", help="train a tiny transformer on a synthetic task (needs attn-tui[torch])",
        description="Train a small causal transformer (the nanoGPT lecture's heads) on a "
        "synthetic task, printing the loss and the held-out accuracy as it goes and, at the "
        "end, each head's attention for one example sequence. Tasks: "
        + "; ".join(f"{t.name}: {t.line}" for t in TASKS.values()) + ".",
    )
    tr.add_argument("--task", choices=tuple(TASKS), default="sort", dest="train_task",
                    help="what to learn (default: sort)")
    for flag, name in (("--steps", "steps"), ("--seed", "seed"), ("--layers", "layers"),
                       ("--heads", "heads"), ("--d-model", "d_model")):
        tr.add_argument(flag, type=_whole(name), dest=f"train_{name}", metavar="N",
                        help="(default: the task's)" if name != "seed" else "(default: 0)")
    tr.add_argument("--lr", type=_rate, dest="train_lr", metavar="X",
                    help="AdamW's learning rate (default: the task's)")
    tr.add_argument("--save", metavar="FILE", dest="train_save",
                    help="keep the frames, the weights and the training state in FILE "
                    "(.npz); attn-tui --lab train --load FILE reopens them, and Enter there "
                    "trains a run stopped early on")
    # a setting refused only once the flags are read together (heads and d_model) is a usage
    # error too, said with the parser's own usage lines, wrapped as for any other
    tr.set_defaults(train_parser=tr)
    return tr


class _Out:
    """Standard output, line by line; once the reader has gone (`| head`), it says so."""

    def __init__(self) -> None:
        self.gone = False
        self.failed: str | None = None
        self._pipe: select.poll | None = None
        try:
            fd = sys.stdout.fileno()
            if stat.S_ISFIFO(os.fstat(fd).st_mode):
                self._pipe = select.poll()
                self._pipe.register(fd, 0)  # POLLERR and POLLHUP are reported whatever is asked
        except (OSError, ValueError, AttributeError):
            pass

    def reader_gone(self) -> bool:
        """Whether the pipe's reader has gone, asked between steps: told only by the next line
        written, a run cut by `| head -1` trained on to its next report (1 % of its steps)."""
        if not self.gone and self._pipe is not None:
            try:
                if any(e & (select.POLLERR | select.POLLHUP) for _, e in self._pipe.poll(0)):
                    self.gone = True
            except (OSError, ValueError):
                pass
        return self.gone

    def __call__(self, line: str = "") -> None:
        if self.gone or self.failed:
            return
        try:
            sys.stdout.write(line + "\n")
            sys.stdout.flush()
        except BrokenPipeError:
            from attn_tui.core.files import discard_unwritten

            self.gone = True
            discard_unwritten(sys.stdout)
        except (OSError, ValueError) as exc:
            from attn_tui.core.files import os_reason

            self.failed = os_reason(exc, True) if isinstance(exc, OSError) else "it is closed"


class _StopBetweenSteps:
    """ctrl+c during the run asks it to stop after the step under way, so the file it saves
    trains on to a never-stopped run's losses (cut half-way, the batch generator had already
    drawn the next batch); ctrl+c again stops at once. A terminal closed (SIGHUP) or a
    `kill` or `timeout` (SIGTERM) stops it the same way, and --save keeps what it trained.
    Called, it says whether it was asked; ``signum`` says by which signal."""

    STOPS = ("SIGINT", "SIGTERM", "SIGHUP")

    def __enter__(self):
        self.signum: int | None = None
        self._before: dict[int, object] = {}
        if threading.current_thread() is threading.main_thread():  # only it takes signals
            for name in self.STOPS:
                if (sig := getattr(signal, name, None)) is not None:  # no SIGHUP on Windows
                    self._before[sig] = signal.signal(sig, self._ask)
        return self

    def _ask(self, signum, frame) -> None:
        self.signum = signum
        self._put_back()  # the next one is at once

    def _put_back(self) -> None:
        for sig, before in self._before.items():
            signal.signal(sig, before)
        self._before = {}

    def __call__(self) -> bool:
        return self.signum is not None

    @property
    def status(self) -> int:
        """The exit status of a run stopped this way: 128 + the signal, as a shell gives."""
        return 128 + (self.signum or signal.SIGINT)

    def __exit__(self, *exc) -> None:
        self._put_back()


def _save_name_problem(name: str) -> str | None:
    """Why --save ``name`` is refused before training, or None. Any name but a stream must
    end in .npz: run as root, --save /etc/passwd replaced that file with a zip archive."""
    if name == "":
        return "--save needs a file name"
    if name == "-":
        return ("--save -: the run's progress goes to standard output, so its .npz cannot; "
                "name a file ending in .npz.")
    return None


def _not_npz(path: str) -> str:
    from attn_tui.core.files import short_path
    from attn_tui.report.export import format_for

    named, name = format_for(path), short_path(path)  # a byte that is not UTF-8 as \xff
    if named:
        return (f"--save {name} is named as a .{named} file, but a run is saved as .npz: end "
                "the name with .npz.")
    return f"--save {name}: a run is saved as .npz; end the name with .npz."


def _kept_elsewhere(data: bytes) -> str | None:
    """A run trained to its end, whose --save failed there (a disk filled up, a folder gone):
    written to a new file in the system's temporary folder rather than lost. None if that
    fails too."""
    import tempfile

    try:
        fd, path = tempfile.mkstemp(prefix="attn-tui-run-", suffix=".npz")
    except OSError:
        return None
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data)
    except OSError:
        with contextlib.suppress(OSError):
            os.unlink(path)
        return None
    return path


def run_train(args: argparse.Namespace) -> int:
    from attn_tui.compute import torch_available
    from attn_tui.train.config import INSTALL_TORCH_TRAIN, TrainConfigError, default_config

    if not torch_available():
        return fail(INSTALL_TORCH_TRAIN)
    changes = {name: getattr(args, f"train_{name}")
               for name in ("steps", "seed", "layers", "heads", "d_model", "lr")
               if getattr(args, f"train_{name}") is not None}
    try:
        config = default_config(args.train_task, **changes).checked()
    except TrainConfigError as exc:
        args.train_parser.print_usage(sys.stderr)
        print(f"attn-tui train: error: {exc}", file=sys.stderr)
        return 2
    if sys.stdout is None:  # started with >&-: said before a run of minutes, as print says it
        return fail("Cannot write to standard output: it is closed.")
    stream = None
    if args.train_save is not None:  # said now, not after a run of minutes
        from attn_tui.core.files import FileError, check_target, open_stream

        problem = _save_name_problem(args.train_save)
        if problem:
            return fail(problem)
        try:
            # a FIFO is opened now, and kept: one nobody reads is said before training
            stream = open_stream(args.train_save, "save")
            if stream is None:
                check_target(args.train_save, "save")
                if not args.train_save.lower().endswith(".npz"):
                    return fail(_not_npz(args.train_save))
        except FileError as exc:
            return fail(str(exc))
    out = _Out()
    try:
        from attn_tui.report.train import alpha_tables, header_lines, progress_line
        from attn_tui.train.trainer import Run

        # in a terminal the sentences fit its width, broken between words; in a pipe each
        # stays one line
        width = shutil.get_terminal_size().columns if sys.stdout.isatty() else None
        for line in header_lines(config, width):
            out(line)
        start = time.perf_counter()
        run = Run(config)
    except KeyboardInterrupt:  # ctrl+c while torch loads: nothing trained, nothing to keep
        print("attn-tui: stopped before the first step" + (
            f"; nothing was saved to {args.train_save}." if args.train_save else "."),
            file=sys.stderr)
        return 130
    shown = 0
    cut = False  # a step broken off half-way: its weights, moments and batches may disagree
    with _StopBetweenSteps() as interrupted:
        def stop() -> bool:
            return interrupted() or out.reader_gone()

        def report() -> int:  # the checks not printed yet (step 0's before any training)
            for step, acc in run.evals[shown:]:
                loss = run.losses[step - 1] if step else float("nan")
                out(progress_line(step, loss, acc))
            return len(run.evals)

        try:
            shown = report()
            while not run.done and not out.gone and not out.failed and not interrupted():
                run.advance(config.eval_every, stop=stop)
                shown = report()
        except KeyboardInterrupt:  # pressed twice: at once, in the middle of a step
            cut = True
        if interrupted() or cut:
            out(f"stopped at step {run.step}")
    with contextlib.suppress(KeyboardInterrupt):  # pressed again: the last check's numbers
        run.check_now()
    record = run.record()
    if cut:
        from dataclasses import replace

        record = replace(record, resume={})  # it opens, and trains anew
    if not out.gone:
        # in a terminal the tables fit its width; in a pipe each row stays whole
        for line in alpha_tables(record, time.perf_counter() - start, width):
            out(line)
    if out.failed and (not args.train_save or run.step == 0):
        return fail(f"Cannot write to standard output: {out.failed}.")
    if args.train_save:  # a failed standard output stopped the run: what it trained is kept
        from attn_tui.core.files import FileError, atomic_write
        from attn_tui.train.runfile import encode

        data = encode(record)
        try:
            if stream is not None:
                stream.write(data)
            else:
                atomic_write(args.train_save, data, "save")
        except FileError as exc:
            kept = _kept_elsewhere(data)  # a pipe or a device that failed too
            if kept is None:
                return fail(str(exc))
            return fail(f"{exc} The run is kept in {kept} instead: attn-tui --lab train "
                        f"--load {shlex.quote(kept)}")
        if stream is not None:  # a pipe or a device: nothing there for --load to reopen
            out(f"wrote the run to {args.train_save}")
        else:
            out(f"saved {args.train_save}: attn-tui --lab train --load "
                f"{shlex.quote(args.train_save)}")
        if out.failed:
            ended = ("finished" if run.done
                     else f"stopped at step {run.step} of {config.steps}")
            kept = (f"it was written to {args.train_save}" if stream is not None  # a device
                    else f"{args.train_save} keeps it")
            return fail(f"Cannot write to standard output: {out.failed}; the run {ended}, and "
                        f"{kept}.")
        if out.gone and not run.done:  # | head: the run stopped early, and what is kept says so
            kept = (f"what it trained was written to {args.train_save}" if stream is not None
                    else f"{args.train_save} keeps it up to that step")
            print(f"attn-tui: standard output closed at step {run.step} of {config.steps}, "
                  f"so the run stopped there; {kept}.", file=sys.stderr)
    if record.diverged:
        return 1
    # stopped by ctrl+c (130), kill (143), a closed terminal (129): `train … && next` stops too
    return interrupted.status if interrupted() or cut else 0
