"""The command line: parse flags, then either print a report or start the app.

textual is imported only on the path that runs the app, so `print` and `--help` stay light.
"""

from __future__ import annotations

import argparse
import sys

from attn_tui import __version__

PRESETS = ("one", "select", "mask", "random")
BACKENDS = ("numpy", "torch")
DTYPES = ("float64", "float32")
SECTIONS = ("one", "select", "scale", "mask", "params", "nanogpt", "all")

EPILOG = """\
examples:
  attn-tui                      the workbench, on the chapter's three-key example
  attn-tui --preset mask        the 4x4 causal-mask example
  attn-tui print all            every table of the course material, as plain text
  attn-tui print nanogpt --backend torch   the lecture's tensors, draw for draw
"""


def build_parser() -> argparse.ArgumentParser:
    ap = argparse.ArgumentParser(
        prog="attn-tui",
        description="Learn self-attention by doing it: edit Q, K and V and watch every stage "
        "of attention recompute.",
        epilog=EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    ap.add_argument("--version", action="version", version=f"attn-tui {__version__}")
    ap.add_argument("--preset", choices=PRESETS, default="one",
                    help="the example the workbench opens with (default: one)")
    ap.add_argument("--backend", choices=BACKENDS, default="numpy",
                    help="array library for every computation (default: numpy)")
    ap.add_argument("--dtype", choices=DTYPES, default="float64",
                    help="floating-point precision (default: float64)")
    sub = ap.add_subparsers(dest="command", metavar="COMMAND")
    pr = sub.add_parser(
        "print", help="print the course material's tables as plain text",
        description="Print one section of the course material, or all of them, as plain text.",
    )
    pr.add_argument("section", nargs="?", default="all", choices=SECTIONS,
                    help="which part to print (default: all)")
    pr.add_argument("--backend", choices=BACKENDS, default="numpy", dest="print_backend",
                    help="array library (default: numpy)")
    pr.add_argument("--dtype", choices=DTYPES, default="float64", dest="print_dtype",
                    help="precision (default: float64)")
    return ap


def _fail(message: str) -> int:
    print(f"attn-tui: {message}", file=sys.stderr)
    return 2


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    if args.command == "print":
        return _print(args.section, args.print_backend, args.print_dtype)
    return _run_app(args)


def _print(section: str, backend: str, dtype: str) -> int:
    from attn_tui.compute import BackendUnavailable
    from attn_tui.report import render

    try:
        text = render(section, backend=backend, dtype=dtype)
    except BackendUnavailable as exc:
        return _fail(str(exc))
    try:
        sys.stdout.write(text)
        sys.stdout.flush()
    except BrokenPipeError:  # `attn-tui print | head` is fine
        sys.stderr.close()
    return 0


def _run_app(args: argparse.Namespace) -> int:
    if args.backend == "torch":
        from attn_tui.compute import torch_available
        from attn_tui.compute.backend import INSTALL_TORCH

        if not torch_available():
            return _fail(INSTALL_TORCH)
    from attn_tui.app import make_app

    app = make_app(preset=args.preset, backend=args.backend, dtype=args.dtype)
    app.run()
    return app.return_code or 0


if __name__ == "__main__":
    raise SystemExit(main())
