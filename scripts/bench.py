"""attn-tui's benchmark: each figure measured side by side with a baseline, in one run.

    python scripts/bench.py              the full run (a few minutes), as a table
    python scripts/bench.py --quick      a smoke run: fewer repetitions, 3 s of idle
    python scripts/bench.py --markdown   the table as Markdown, for the README
    python scripts/bench.py --only edit,idle

Absolute times drift on a shared machine, so every figure is a ratio against a baseline taken in
the same run, alternated with it. A missed target prints MISS but the exit status stays 0: this
is a report, not a gate. Progress goes to stderr, the table to stdout.

1. launch → first usable screen in a pty, against a bare Textual app (bench_pty.py); 1b. no
   torch, lab or lesson module imported by the first frame (bench_edit.py)
2. edit a Q cell → the step table repainted with the new α, T = 8, 64, 256 (bench_edit.py)
3. the scaling experiment's arithmetic against the chapter's loop's, each net of its draws;
   the scaling lab's answer to a key that needs no new draws (bench_scaling.py)
4. `attn-tui print all` against seeds/attention.py
5. resident memory after the first screen (bench_pty.py)
6. idle CPU with no input (bench_pty.py)
7. the trained model (all-MiniLM-L6-v2): first result, load and forward pass against
   transformers' BertModel on the same files; a 32-token sentence against one frame
   (bench_model.py; needs the model package and transformers)
8. training steps in the train lab against a bare torch loop; a key → repaint while it trains
   against the same key with no run (bench_train.py; needs torch)
"""

from __future__ import annotations

import argparse
import compileall
import os
import platform
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

from bench_common import build_rows, markdown_table, median, mib, text_table

from attn_tui.cli.blas_threads import one_blas_thread

# figures 2 and 3 run attn-tui in this process: with its BLAS threads, as `attn-tui` starts it
one_blas_thread()

ROOT = Path(__file__).resolve().parents[1]
SEED = ROOT.parent / "shared" / "seeds" / "attention.py"
ALL = ("scaling", "print_all", "first_screen", "idle", "imports", "edit", "model", "train")


@dataclass(frozen=True)
class Plan:
    screen_runs: int  # per app, alternated (figures 1 and 5)
    print_runs: int  # per command, alternated (figure 4)
    scaling_reps: int  # per implementation, alternated (figure 3)
    lab_presses: int  # keys timed in the scaling lab, per setting (figure 3)
    edits: int  # per configuration (figure 2)
    edit_blocks: int  # interleaved rounds the edits are split into
    idle_seconds: float  # figure 6
    model_cold: int = 5  # fresh interpreters per side (figure 7)
    model_warm: int = 50  # forward passes per side (figure 7)
    train_reps: int = 3  # alternated rounds of the three training loops (figure 8)
    train_keys: int = 30  # key presses timed, idle and while training (figure 8)


FULL = Plan(screen_runs=21, print_runs=9, scaling_reps=15, lab_presses=40, edits=100,
            edit_blocks=4, idle_seconds=10.0)
QUICK = Plan(screen_runs=3, print_runs=3, scaling_reps=3, lab_presses=6, edits=15,
             edit_blocks=1, idle_seconds=3.0, model_cold=1, model_warm=10, train_reps=1,
             train_keys=8)


def _quartiles(xs: list[float]) -> tuple[float, float]:
    """First and third quartiles (the middle half of ``xs`` lies between them)."""
    import statistics

    if len(xs) < 2:
        return (xs[0], xs[0]) if xs else (float("nan"), float("nan"))
    q = statistics.quantiles(xs, n=4)
    return q[0], q[2]


def log(message: str) -> None:
    print(message, file=sys.stderr, flush=True)


def print_all(runs: int) -> tuple[float, float]:
    """Median wall seconds of `attn-tui print all` and of the chapter's script."""
    from bench_pty import COMMAND

    ours = [*COMMAND, "print", "all"]
    seed = [sys.executable, str(SEED)]
    times: dict[str, list[float]] = {"ours": [], "seed": []}
    for i in range(runs):
        pair = (("ours", ours), ("seed", seed))
        for name, argv in pair if i % 2 == 0 else pair[::-1]:
            start = time.perf_counter()
            done = subprocess.run(argv, cwd=ROOT, capture_output=True, check=False)
            times[name].append(time.perf_counter() - start)
            if done.returncode != 0 or not done.stdout:
                raise RuntimeError(f"{' '.join(argv)} failed: {done.stderr.decode()[-400:]}")
    return median(times["ours"]), median(times["seed"])


def measure(plan: Plan, only: tuple[str, ...]) -> tuple[dict, list[str]]:
    m: dict = {}
    notes: list[str] = []
    if "scaling" in only:
        from bench_scaling import scaling_figure

        log("figure 3: scaling experiment, vectorised vs the chapter's loop")
        m["scaling"] = s = scaling_figure(reps=plan.scaling_reps)
        notes.append(f"3: medians of {plan.scaling_reps} alternated repetitions; the 2.45 M "
                     f"normal draws both must make take {s['draws'] * 1e3:.1f} ms alone, so "
                     f"nothing that reproduces the chapter's numbers can beat "
                     f"{s['loop'] / s['draws']:.1f}× the loop in all; each run's arithmetic is "
                     "its time outside its own draws, timed inside the run")
        from bench_scaling import lab_answers

        log("figure 3: the scaling lab, keys that need no new draws")
        m["scaling_lab"] = lab_answers(plan.lab_presses)
        notes.append(f"3: the lab headless at 120×40, medians of {plan.lab_presses} presses "
                     "(s and ↑ on temp, alternated) from the key to the first frame with the "
                     "new table, and to the one with the new plots (textual-plot draws them "
                     "a frame later)")
    if "print_all" in only:
        if SEED.exists():
            log(f"figure 4: print all vs {SEED}")
            m["print_all"] = print_all(plan.print_runs)
            notes.append(f"4: medians of {plan.print_runs} alternated runs, stdout to a pipe")
        else:
            notes.append(f"4: skipped, {SEED} not found")
    if "first_screen" in only:
        from bench_pty import COLS, ROWS, first_screen

        log("figures 1 and 5: first screen and memory, in a pty")
        fs = first_screen(plan.screen_runs, log=log)
        a, b, c = fs["attn-tui"], fs["bare"], fs["bare+numpy"]
        m["first_screen"] = (median(a["t"]), median(b["t"]))
        m["memory"] = (median(a["rss"]), median(b["rss"]))
        m["numpy_floor"] = {"t": (median(c["t"]), median(b["t"])),
                            "rss": (median(c["rss"]), median(b["rss"]))}
        q1, q3 = _quartiles([x / y for x, y in zip(a["t"], b["t"], strict=True)])
        notes.append(f"1, 5: medians of {plan.screen_runs} alternated launches each in a "
                     f"{COLS}×{ROWS} pty; memory is VmRSS 0.5 s after the first screen "
                     f"(peak VmHWM: attn-tui {mib(median(a['hwm']))}, "
                     f"bare {mib(median(b['hwm']))}); launch by launch, attn-tui over the "
                     f"bare app launched beside it has quartiles {q1:.2f}× and {q3:.2f}×: "
                     "single launches spread that widely within one run")
    if "idle" in only:
        from bench_pty import idle_cpu

        log(f"figure 6: idle CPU over {plan.idle_seconds:g} s")
        cpu = idle_cpu(plan.idle_seconds)
        m["idle"] = (cpu["attn-tui"], cpu["bare"], plan.idle_seconds)
        notes.append("6: utime + stime from /proc/PID/stat, 2 s after the first screen, "
                     "both apps at once")
    if "imports" in only:
        from bench_edit import first_frame_imports

        log("figure 1b: modules loaded by the first frame")
        m["lazy_imports"] = first_frame_imports()
    if "edit" in only:
        from bench_edit import SIZE, edit_latency

        log(f"figure 2: {plan.edits} edits per configuration")
        e = edit_latency(plan.edits, plan.edit_blocks, log=log)
        m["edit"] = {k: median(v) for k, v in e.items()}
        notes.append(f"2: medians of {plan.edits} edits of each kind ({plan.edit_blocks} "
                     f"interleaved rounds, run_test at {SIZE[0]}×{SIZE[1]}); an edit types a "
                     "3-character value into Q[0, 0], lets the app settle, and times Enter to "
                     "the first frame carrying the new α; the bare app's one key is timed the "
                     "same way. Typed at machine speed from the first key: "
                     + ", ".join(f"{k} {m['edit'][k + '_burst'] * 1e3:.1f} ms"
                                 for k in ("t8", "t64", "t256")))
    if "model" in only:
        from bench_model import model_figure

        log(f"figure 7: the model, {plan.model_cold} cold starts and {plan.model_warm} forward "
            "passes per side, against transformers")
        try:
            m["model"] = md = model_figure(plan.model_cold, plan.model_warm)
        except (ImportError, subprocess.CalledProcessError) as exc:
            notes.append(f"7: skipped: {exc}")
        else:
            notes.append(f"7: medians, alternated; float32 on one thread each; cold: "
                         f"{plan.model_cold} fresh interpreters per side, from start to the "
                         f"first attention maps (transformers' import is most of its time); "
                         f"warm: {plan.model_warm} whole forward passes each (attn-tui's "
                         "up to the sentence embedding), transformers with "
                         f"output_attentions=True; the 32-token runs ({md['t_long']} tokens) are "
                         "run(full=False), as the screen asks: the 72 maps without the last "
                         "layer's output projection and feed-forward, which no map needs, "
                         f"each precision in runs of {max(1, plan.model_warm // 5)} of its "
                         "own, taking turns; the "
                         "numbers only, not their drawing; the model screen computes in "
                         "float32, its weights' precision, unless --dtype float64")
    if "train" in only:
        import importlib.util

        if importlib.util.find_spec("torch") is None:
            notes.append("8: skipped, torch is not installed")
        else:
            from bench_train import STEPS, sort_config, train_figures

            log("figure 8: training speed and key → repaint in the train lab")
            m["train"] = t = train_figures(plan.train_reps, plan.train_keys, log=log)
            from attn_tui.core.words import plural

            c = sort_config(STEPS)
            notes.append(f"8: medians of {plural(plan.train_reps, 'alternated round')} of the "
                         f"lab's default run, {STEPS:,} sort steps (L {c.layers}, h {c.heads}, "
                         f"D {c.d_model}, batch {c.batch}, {c.frames} α frames and {c.evals} "
                         "held-out checks, one torch thread); the Run alone, "
                         f"frames and accuracy included but no screen: "
                         f"{t['run'] * 1e3:.2f} ms/step; round by round, the lab over the bare "
                         "loop run just before it: "
                         + ", ".join(f"{r:.2f}×" for r in t["lab_rounds"])
                         + f"; keys: {plan.train_keys} presses of ↑ "
                         "on the seed field, each timed to the frame showing the new seed")
    return m, notes


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="fewer repetitions: a smoke run")
    ap.add_argument("--markdown", action="store_true", help="print the table as Markdown")
    ap.add_argument("--only", metavar="LIST", default=",".join(ALL),
                    help=f"comma-separated subset of: {', '.join(ALL)}")
    args = ap.parse_args(argv)
    only = tuple(x.strip() for x in args.only.split(",") if x.strip())
    unknown = set(only) - set(ALL)
    if unknown:
        ap.error(f"unknown figure(s): {', '.join(sorted(unknown))}")
    os.chdir(ROOT)
    # measured as installed: byte-compiled, as pip does for a regular install (an editable one
    # compiles on import, or on every launch where bytecode cannot be written)
    compileall.compile_dir(ROOT / "attn_tui", quiet=1)
    start = time.perf_counter()
    m, notes = measure(QUICK if args.quick else FULL, only)
    rows = build_rows(m)
    print(markdown_table(rows) if args.markdown else text_table(rows))
    print()
    mode = "quick" if args.quick else "full"
    print(f"{mode} run, {time.perf_counter() - start:.0f} s; Python {platform.python_version()},"
          f" {os.cpu_count()} cores, load average {os.getloadavg()[0]:.2f} at the end")
    for note in notes:
        print(("- " if args.markdown else "  ") + note)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
