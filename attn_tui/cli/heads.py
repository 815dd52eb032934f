"""`attn-tui print heads --text "…"`: a trained model's heads on a sentence, as plain text, or
one head exported as md, csv or npz. textual is never imported here."""

from __future__ import annotations

import argparse
import sys

from attn_tui.cli.counts import whole_number
from attn_tui.cli.errors import fail

HEAD_FORMATS = ("text", "md", "csv", "tex", "npz")


def add_heads_arguments(pr: argparse.ArgumentParser) -> None:
    """Flags only `print heads` reads; their dests start with heads_ (see check_heads_flags)."""
    pr.add_argument("--text", dest="heads_text", metavar="SENTENCE",
                    help="heads: the sentence the model reads")
    from attn_tui.models.files import MODELS

    pr.add_argument("--model", dest="heads_model", default=None, choices=tuple(MODELS),
                    help="heads: the model (default: minilm)")
    pr.add_argument("--layer", dest="heads_layer", type=whole_number, default=None, metavar="L",
                    help="heads: only layer L (counted from 1)")
    pr.add_argument("--head", dest="heads_head", type=whole_number, default=None, metavar="H",
                    help="heads: only head H (counted from 1)")
    pr.add_argument("--query", dest="heads_query", type=whole_number, default=None, metavar="I",
                    help="heads, with --format md, csv, tex or npz: the query token whose "
                    "steps are shown (npz: its 'selected'), counted from 1 as the tokens are "
                    "listed (default: 1, [CLS])")
    pr.add_argument("--format", dest="heads_format", choices=HEAD_FORMATS, default=None,
                    help="heads: text (default), or one head (--layer and --head) as md, "
                    "csv, tex or npz like the workbench's export")
    pr.add_argument("-o", "--output", dest="heads_output", metavar="FILE", default=None,
                    help="heads: write here (atomically) instead of to standard output")


HEADS_FLAGS = {"heads_text": "--text", "heads_model": "--model", "heads_layer": "--layer",
               "heads_head": "--head", "heads_query": "--query", "heads_format": "--format",
               "heads_output": "-o"}


def check_heads_flags(parser: argparse.ArgumentParser, args: argparse.Namespace) -> None:
    """Usage errors (exit 2) for flags that do not fit together, before anything loads."""
    if args.section != "heads":
        for dest, flag in HEADS_FLAGS.items():
            if getattr(args, dest, None) is not None:
                parser.error(f"argument {flag}: only 'attn-tui print heads' reads it")
        return
    if args.heads_text is None:
        parser.error("print heads needs --text \"a sentence\"")
    if stray := [ch for ch in args.heads_text if "\udc80" <= ch <= "\udcff"]:
        # a Latin-1 é would be dropped, and "café" read as "caf": refused, not guessed
        byte = stray[0].encode("utf-8", "surrogateescape")[0]
        parser.error(f"argument --text: byte \\x{byte:02x} is not UTF-8 text; set the "
                     "terminal to UTF-8, or convert the sentence (iconv -t UTF-8)")
    fmt = args.heads_format or "text"
    if fmt != "text" and (args.heads_layer is None or args.heads_head is None):
        parser.error(f"argument --format {fmt}: exports one head; give --layer and --head")
    if args.heads_query is not None and fmt == "text":
        parser.error("argument --query: the text format lists every query; --format md, csv, "
                     "tex or npz shows one query's steps")
    if fmt == "npz" and args.heads_output is None:
        parser.error("argument --format npz: it is binary; give -o FILE (or -o - for "
                     "standard output)")
    if args.heads_output == "":
        parser.error("argument -o: expected a file name, got an empty one")
    if fmt == "npz" and args.heads_output:
        from attn_tui.cli.export import binary_to_terminal

        if binary_to_terminal(args.heads_output):
            parser.error(f"argument -o {args.heads_output}: that is a terminal, where npz's "
                         "binary would be drawn as junk; redirect it (> head.npz) or give -o FILE")
    if fmt == "text" and args.heads_output not in (None, "-"):
        from attn_tui.report.export import format_for

        if args.heads_output.lower().endswith(".json"):  # a session's name: never written over
            parser.error(f"argument -o: {args.heads_output} is named as a session (.json), "
                         "which the heads' text never writes: end the name with .txt")
        named = format_for(args.heads_output)
        if named is not None:  # text bytes in heads.npz: refused, as export refuses it
            other = (f", or give --format {named} with --layer and --head"
                     if named in HEAD_FORMATS[1:] else "")
            parser.error(f"argument -o: {args.heads_output} is named as a .{named} file, but "
                         f"the heads print as text: end the name with .txt{other}")


def run_heads(args: argparse.Namespace) -> int:
    from attn_tui.compute import BackendUnavailable
    from attn_tui.models import EmptySentence, ModelDamaged, ModelUnavailable, load_model

    try:
        model = load_model(args.heads_model or "minilm")
    except (ModelUnavailable, ModelDamaged, ValueError) as exc:
        return fail(str(exc))
    c = model.config
    for flag, value, most in (("--layer", args.heads_layer, c.layers),
                              ("--head", args.heads_head, c.heads)):
        if value is not None and not 1 <= value <= most:
            return fail(f"{flag} {value} is out of range: {model.spec.title} has {most} "
                         f"{'layers' if flag == '--layer' else 'heads'}, counted from 1 "
                         f"(1-{most})")
    try:
        run = model.run(args.heads_text, backend=args.print_backend,
                        dtype=args.print_dtype or "float32")
    except EmptySentence:  # the screen's words ask to type; a command line's name the flag
        return fail("--text has nothing to read: give it a sentence (--text \"The cat sat.\")")
    except (BackendUnavailable, ModelDamaged) as exc:  # damage a sentence finds
        return fail(str(exc))
    if args.heads_query is not None and not 1 <= args.heads_query <= len(run.tokens):
        return fail(f"--query {args.heads_query} is out of range: the sentence has "
                     f"{len(run.tokens)} tokens, counted from 1 (1-{len(run.tokens)})")
    # the flags count from 1, as every screen does; the arrays from 0
    layer, head = (None if n is None else n - 1 for n in (args.heads_layer, args.heads_head))
    query = 0 if args.heads_query is None else args.heads_query - 1
    fmt = args.heads_format or "text"
    data: str | bytes
    if fmt == "text":
        from attn_tui.report.heads import heads_text

        data = heads_text(run, model.spec.title, layer, head)
    else:
        for note in run.notices:
            print(f"attn-tui: note: {note}", file=sys.stderr)
        from attn_tui.report import export
        from attn_tui.report.heads import head_workspace

        ws = head_workspace(run, layer, head, query)
        output = None if args.heads_output == "-" else args.heads_output
        try:
            if output:
                export.export_file(ws, output, fmt, streams=True, offered=HEAD_FORMATS)
                return 0
            data = export.export_bytes(ws, fmt)
        except ValueError as exc:
            return fail(str(exc))
    if fmt == "text" and args.heads_output not in (None, "-"):
        from attn_tui.core.files import atomic_write

        try:
            atomic_write(args.heads_output, data.encode("utf-8"), streams=True)
        except ValueError as exc:
            return fail(str(exc))
        return 0
    from attn_tui.core.files import write_stdout

    failed = write_stdout(data)
    return fail(failed) if failed else 0
