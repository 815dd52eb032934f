"""`attn-tui export` and `attn-tui --session FILE`: the command-line side of sessions and exports.

Imported by cli.py when it builds its parser, so only argparse is imported at module level; numpy
and the compute core load when a command runs, and textual never does on these paths.
"""

from __future__ import annotations

import argparse
import os
import stat
import sys
from typing import Any

from attn_tui.cli.errors import fail
from attn_tui.core.presets import EXAMPLE_NAMES

EXPORT_FORMATS = ("md", "csv", "tex", "npz", "py")
BINARY = ("npz",)

PRESETS = EXAMPLE_NAMES
MASKS = ("none", "causal", "causal-after")
SCRIPT_BACKENDS = ("numpy", "torch")
DTYPES = ("float64", "float32")


def add_export_parser(sub: Any) -> argparse.ArgumentParser:
    """The `export` subcommand; its dests are prefixed so they never clash with the app's flags."""
    ex = sub.add_parser(
        "export", help="write the step table, the weights, every stage or a script",
        description="Export what the workbench shows for a preset or a saved session: the step "
        "table of the selected query and the weights (md, csv, tex), every stage (npz), or a "
        "standalone Python script that prints the same numbers (py).",
    )
    ex.add_argument("--format", required=True, choices=EXPORT_FORMATS, dest="export_format",
                    help="md, csv or tex tables; npz arrays (needs -o); py script")
    src = ex.add_mutually_exclusive_group()
    src.add_argument("--session", metavar="FILE", dest="export_session",
                     help="a saved session (ctrl+s in the app); - reads it from "
                     "standard input")
    # NAME in the usage: the choices inside the session-or-preset group made a line argparse
    # cannot break (100 columns); the help lists them
    src.add_argument("--preset", choices=PRESETS, dest="export_preset", metavar="NAME",
                     help=f"a built-in example: {', '.join(PRESETS)} (default: one)")
    ex.add_argument("--mask", choices=MASKS, dest="export_mask",
                    help="override the mask mode")
    ex.add_argument("--backend", choices=SCRIPT_BACKENDS, dest="export_backend",
                    help="the array library the tables are computed with, and a py "
                    "script's (default: the session's; numpy for a preset)")
    ex.add_argument("--dtype", choices=DTYPES, dest="export_dtype",
                    help="floating-point precision (default: the session's; float64 for a "
                    "preset)")
    ex.add_argument("-o", "--output", metavar="FILE", dest="export_output",
                    help="write here (atomically) instead of to standard output; - is "
                    "standard output")
    # a usage error found once the flags are read together is said with the parser's own
    # usage lines, wrapped as for any other (as train does)
    ex.set_defaults(export_parser=ex)
    return ex


def binary_to_terminal(name: str | None = None) -> bool:
    """Whether standard output (or the file ``name``: /dev/stdout, /dev/tty) is a terminal,
    where a zip's bytes are junk and may be taken as the terminal's own control sequences."""
    try:
        if name is None or name == "-":
            return sys.stdout.isatty()
        if not stat.S_ISCHR(os.stat(name).st_mode):  # a file, a pipe: never a terminal
            return False
        fd = os.open(name, os.O_WRONLY | os.O_NOCTTY)
        try:
            return os.isatty(fd)
        finally:
            os.close(fd)
    except (ValueError, OSError, AttributeError):
        return False


def _usage(args: argparse.Namespace, message: str) -> int:
    args.export_parser.print_usage(sys.stderr)
    print(f"attn-tui export: error: {message}", file=sys.stderr)
    return 2


def open_session(path: str, lab: str | None = None) -> tuple[Any, str | None, dict, dict]:
    """(workspace, lab to open, its saved settings, the labs kept as left with Esc) for
    `attn-tui --session FILE`; SessionError on a bad file."""
    from attn_tui.core.labs import lab_available
    from attn_tui.core.session import load_full

    ws, screen, saved, kept = load_full(path)
    if lab is None and screen.startswith("lab:"):
        name = screen[4:]
        # a lab this install does not have: open the workbench rather than fail
        if lab_available(name):
            lab = name
    if screen == f"lab:{lab}":
        return ws, lab, saved, kept
    if saved:  # --lab opens another: the session's lab keeps its settings for Go to
        kept = {**kept, screen[4:]: saved}
    return ws, lab, {}, kept


def _same_file(a: str, b: str) -> bool:
    try:
        return os.path.samefile(a, b)
    except OSError:  # one of them does not exist (yet): then they are not the same file
        return False


def _workspace(args: argparse.Namespace) -> Any:
    from dataclasses import replace

    from attn_tui.core.session import load

    if args.export_session:
        def waiting() -> None:  # a named pipe no program writes to yet
            print(f"attn-tui: waiting for a program to write to {args.export_session} "
                  "(ctrl+c stops)", file=sys.stderr, flush=True)

        ws = load(args.export_session, stream=True, waiting=waiting)[0]
    else:  # a preset or one of the lecture's examples, computed as `attn-tui --preset` shows it
        from attn_tui.lessons.workspaces import build

        ws = replace(build(args.export_preset or "one"), backend="numpy", dtype="float64")
    # as the app's --backend and --dtype override a session's
    given = {"mask": args.export_mask, "backend": args.export_backend,
             "dtype": args.export_dtype}
    return replace(ws, **{k: v for k, v in given.items() if v})


def run_export(args: argparse.Namespace) -> int:
    fmt, output = args.export_format, args.export_output
    for flag, value in (("--session", args.export_session), ("-o", output)):
        if value == "":
            return _usage(args, f"argument {flag}: expected a file name, got an empty one")
    if output == "-":  # the usual name for standard output
        output = None
    if fmt in BINARY and output is None and args.export_output != "-":
        return _usage(args, f"--format {fmt} is binary; give -o FILE (or -o - for standard "
                      "output)")
    if fmt in BINARY and binary_to_terminal(output):
        return fail(f"-o {args.export_output}: that is a terminal, where --format {fmt}'s "
                     f"binary would be drawn as junk; redirect it (> file.{fmt}) or give -o FILE")
    if output and args.export_session and _same_file(output, args.export_session):
        return fail(f"-o {output} is the session being exported: writing there would replace "
                     "it; give another name")
    from attn_tui.compute import BackendUnavailable
    from attn_tui.compute.backend import DTYPES_BY_BACKEND
    from attn_tui.report import export

    try:
        ws = _workspace(args)
        if ws.dtype not in DTYPES_BY_BACKEND.get(ws.backend, (ws.dtype,)):  # bfloat16 on numpy
            return fail(f"{ws.backend} has no {ws.dtype}, which the session computes in: add "
                        "--dtype float32 (or float64), or --backend torch")
        if output:
            export.export_file(ws, output, fmt, args.export_backend, streams=True)
            return 0
        data = export.export_bytes(ws, fmt, args.export_backend)
    except (BackendUnavailable, ValueError) as exc:  # FileError and SessionError included
        return fail(str(exc))
    from attn_tui.core.files import write_stdout

    failed = write_stdout(data)
    return fail(failed) if failed else 0
