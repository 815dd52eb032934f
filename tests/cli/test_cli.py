"""The command line: flags, reports and every kind of bad input, from a user's shell."""

from __future__ import annotations

import os
import subprocess
import sys
from dataclasses import replace

import pytest

from attn_tui.cli.main import main, parse_args


def run(*args: str, env: dict | None = None) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "attn_tui", *args], capture_output=True,
                          text=True, timeout=120, env=env)


def test_version_and_help_list_every_command():
    from attn_tui import __version__

    assert run("--version").stdout.strip() == f"attn-tui {__version__}"
    text = run("--help").stdout
    for word in ("print", "--preset", "--backend", "--dtype", "--lab"):
        assert word in text


@pytest.mark.parametrize(
    "args",
    [
        ["print", "bogus"], ["print", "--backend", "jax"], ["print", "--dtype", "float8"],
        ["--preset", "nope"], ["--backend"], ["--preset"], ["--lab", "kitchen"], ["frobnicate"],
        ["print", "--backend"], ["--dtype", "int8"], ["--no-such-flag"],
        ["--theme", "neon"], ["--theme"], ["--lesson", "nope"], ["--lesson"], ["--session"],
        ["serve", "--port", "0"], ["serve", "--port", "70000"], ["serve", "--port", "http"],
        ["serve", "--max-sessions", "0"], ["serve", "--max-sessions", "-3"], ["serve", "--port"],
        ["export"], ["export", "--format", "docx"], ["export", "--format", "md", "--mask", "x"],
        ["export", "--format", "md", "--preset", "big"], ["export", "--format", "npz"],
        ["export", "--format", "md", "--session", "a.json", "--preset", "one"],
        ["print", "one", "two"], ["--lab"],
        # each would have silently ignored the other
        ["--session", "a.json", "--preset", "mask"], ["--lab", "scaling", "--lesson", "mask"],
        ["--session", "a.json", "--lesson", "mask"], ["--preset", "select", "--lesson", "mask"],
        # an app flag before a command: the command never read it (a wrong export, exit 0)
        ["--session", "a.json", "export", "--format", "md"],
        ["--preset", "mask", "export", "--format", "md"],
        ["--backend", "torch", "print", "nanogpt"], ["--dtype", "float32", "print"],
        ["--lab", "heads", "serve"], ["--no-mouse", "print"],
        ["--lesson", "mask", "export", "--format", "md"],
        # empty file names, and a flag that only one format reads
        ["--session", ""], ["export", "--format", "md", "--session", ""],
        ["export", "--format", "md", "-o", ""], ["export", "--format", "md", "--dtype", "float16"],
    ],
)
def test_bad_flags_get_usage_and_exit_2(args):
    done = run(*args)
    assert done.returncode == 2
    assert "usage:" in done.stderr
    assert "Traceback" not in done.stderr


def test_print_all_has_no_colour_codes_in_a_pipe():
    done = run("print", "all")
    assert done.returncode == 0
    assert "\x1b[" not in done.stdout
    for number in ("0.3369", "3.5701", "0.8520", "1.7771", "0.1333", "0.4551", "0.6742",
                   "0.8122", "44,502,016", "4096.00x"):
        assert number in done.stdout


def test_print_torch_missing_is_one_clear_line(tmp_path):
    # a sitecustomize that hides torch, as if it were not installed
    (tmp_path / "sitecustomize.py").write_text("import sys\nsys.modules['torch'] = None\n")
    import os

    env = {**os.environ, "PYTHONPATH": str(tmp_path)}
    done = run("print", "one", "--backend", "torch", env=env)
    assert done.returncode == 2
    assert done.stderr.strip() == (
        "attn-tui: torch is not installed; install it with: pip install 'attn-tui[torch]'"
    )


def test_print_nanogpt_on_torch_reproduces_the_lecture():
    pytest.importorskip("torch")
    out = run("print", "nanogpt", "--backend", "torch", "--dtype", "float32").stdout
    assert "0.1808  -0.0700" in out.replace("   ", "  ")
    assert "allclose to version 1: False" in out
    assert "0.3966" in out and "0.6034" in out


def test_parser_defaults_open_the_chapter_example():
    args = parse_args([])
    assert (args.preset, args.backend, args.dtype, args.command) == ("one", "numpy", "float64",
                                                                     None)


def test_no_flags_mean_what_argparse_makes_of_an_empty_command_line():
    from attn_tui.cli.main import NO_FLAGS, parse_flags

    assert vars(parse_args([])) == vars(parse_flags([])) == NO_FLAGS


def test_a_launch_without_flags_does_not_import_argparse():
    code = ("import sys\n"
            "from attn_tui.cli.main import parse_args\n"
            "sys.argv = ['attn-tui']\n"
            "print(parse_args().preset, 'argparse' in sys.modules)\n")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert done.stdout.strip() == "one False", done.stderr


def test_print_and_import_load_neither_textual_nor_torch():
    code = (
        "import sys, io, contextlib\n"
        "from attn_tui.cli.main import main\n"
        "with contextlib.redirect_stdout(io.StringIO()):\n"
        "    main(['print', 'all'])\n"
        "print('textual' in sys.modules, 'torch' in sys.modules)\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert done.stdout.strip() == "False False", done.stderr


def test_backend_and_dtype_given_with_a_session_override_the_sessions(tmp_path, monkeypatch):
    """--session class.json --dtype float32 opened the session in float64, silently."""
    from attn_tui.cli import main as cli
    from attn_tui.core import session, state

    path = tmp_path / "class.json"
    session.save(replace(state.from_preset("mask"), dtype="float32"), path)
    opened: dict = {}

    def fake_make_app(**kwargs):
        opened.update(kwargs)
        raise SystemExit(0)

    import attn_tui.tui.app

    monkeypatch.setattr(attn_tui.tui.app, "make_app", fake_make_app)
    monkeypatch.setattr("attn_tui.cli.terminal.terminal_problem", lambda: None)  # pytest has none
    for flags, want in (([], ("numpy", "float32")),  # the session's own
                        (["--dtype", "float64"], ("numpy", "float64"))):
        with pytest.raises(SystemExit):
            cli.main(["--session", str(path), *flags])
        assert (opened["backend"], opened["dtype"]) == want
        assert opened["workspace"].mask == "causal"


def test_only_a_dtype_typed_reaches_the_model_screen_and_serves_sessions(monkeypatch):
    """float64 is the workbench's default, not a choice: passed on as one, it made the model
    screen and every served session compute the model in float64."""
    from attn_tui.cli import main as cli

    opened: dict = {}

    def fake_make_app(**kwargs):
        opened.update(kwargs)
        raise SystemExit(0)

    import attn_tui.tui.app

    monkeypatch.setattr(attn_tui.tui.app, "make_app", fake_make_app)
    monkeypatch.setattr("attn_tui.cli.terminal.terminal_problem", lambda: None)
    for flags, asked in (([], None), (["--dtype", "float64"], "float64")):
        with pytest.raises(SystemExit):
            cli.main(["--model", "minilm", *flags])
        assert (opened["dtype"], opened["asked_dtype"]) == ("float64", asked)
    served: list = []
    monkeypatch.setattr("attn_tui.cli.serve.serve", lambda *a, **k: served.append(a[4]) or 0)
    assert cli.main(["serve"]) == 0 and cli.main(["--dtype", "float32", "serve"]) == 0
    assert "--dtype" not in served[0]
    assert served[1][served[1].index("--dtype") + 1] == "float32"


@pytest.mark.parametrize(("args", "says"), [
    (["--session", "a.json", "export", "--format", "md"],
     "--session: put it after the command (attn-tui export … --session …)"),
    (["--backend", "torch", "print", "nanogpt"], "--backend: put it after the command"),
    (["--lab", "heads", "serve"], "--lab: not used by 'attn-tui serve'"),
])
def test_a_flag_before_a_command_says_where_it_goes(args, says):
    done = run(*args)
    assert done.returncode == 2 and says in done.stderr


def test_backend_numpy_over_a_bfloat16_session_says_what_to_add(tmp_path):
    from attn_tui.core import session
    from attn_tui.core.state import from_preset

    path = tmp_path / "bf16.json"
    session.save(replace(from_preset("mask"), backend="torch", dtype="bfloat16"), path)
    done = run("--backend", "numpy", "--session", str(path))
    assert done.returncode == 2
    assert "computes in bfloat16, which numpy does not have: add --dtype float32" in done.stderr


@pytest.mark.parametrize("flag", [["--preset", "mask"], ["--theme", "nord"], ["--no-mouse"],
                                  ["--backend", "numpy"]])
def test_lesson_list_refuses_a_flag_it_would_ignore(flag):
    # --lesson list --preset mask printed the list and ignored --preset, status 0
    done = run("--lesson", "list", *flag)
    assert done.returncode == 2 and done.stdout == ""
    assert f"argument {flag[0]}: not used by --lesson list" in done.stderr


def test_lesson_list_alone_lists_every_lesson():
    from attn_tui.lessons import catalog

    done = run("--lesson", "list")
    assert done.returncode == 0
    lines = done.stdout.splitlines()
    # each lesson's line, its progress indented under it, then the lesson to take next
    assert [line.split()[0] for line in lines[:-1:2]] == [e.name for e in catalog()]
    assert lines[-1].startswith("Next: ")


_OUTPUTS = (("full", "no space left on device"), ("closed", "it is closed"))
_COMMANDS = (["print", "all"], ["export", "--format", "md"], ["--lesson", "list"], ["--help"],
             ["--version"], ["print", "--help"])


# argparse writes help and the version to standard error when standard output is closed
@pytest.mark.parametrize(("args", "stdout", "reason"), [
    (args, stdout, reason) for args in _COMMANDS for stdout, reason in _OUTPUTS
    if not (stdout == "closed" and args[-1] in ("--help", "--version"))])
def test_standard_output_that_cannot_be_written_is_one_line_and_exit_2(args, stdout, reason):
    # a traceback (OSError, AttributeError) and exit 1 before; --help and --version exit 0
    if stdout == "full":
        if not os.path.exists("/dev/full"):
            pytest.skip("no /dev/full here")
        with open("/dev/full", "wb") as full:
            done = subprocess.run([sys.executable, "-m", "attn_tui", *args], stdout=full,
                                  stderr=subprocess.PIPE, text=True)
    else:
        done = subprocess.run([sys.executable, "-m", "attn_tui", *args],
                              stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
                              pass_fds=(), preexec_fn=lambda: os.close(1))
    assert done.returncode == 2
    assert done.stderr == f"attn-tui: Cannot write to standard output: {reason}.\n"


@pytest.mark.parametrize(("args", "usage"), [
    (["export", "--format", "md", "--bogus"], "usage: attn-tui export"),
    (["print", "one", "extra"], "usage: attn-tui print"),
    (["serve", "--bogus"], "usage: attn-tui serve"),
    (["--bogus"], "usage: attn-tui [-h]"),
])
def test_an_unknown_argument_is_refused_with_its_commands_usage(args, usage):
    # after a command, the app's own usage was printed, which does not list the command's flags
    done = run(*args)
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.startswith(usage)
    assert f"error: unrecognized arguments: {args[-1]}" in done.stderr


def test_session_dash_says_the_keyboard_is_read_there_not_that_no_file_is_named_dash():
    done = run("--session", "-")
    assert done.returncode == 2
    assert done.stderr.strip().endswith(
        "argument --session: - would be standard input, where the app reads the keyboard; "
        "give the session's file name")


def _help_examples() -> list[list[str]]:
    import re
    import shlex

    from attn_tui.cli.main import EPILOG

    # a command, then its words after two spaces or more (or on the next line)
    return [shlex.split(re.split(r"\s{2,}", line.strip())[0])[1:]
            for line in EPILOG.splitlines() if line.strip().startswith("attn-tui")]


@pytest.mark.parametrize("args", _help_examples(), ids=" ".join)
def test_every_example_in_help_is_taken_and_those_that_print_run(args, capsys):
    # --help showed `print heads … --layer 0`: refused, as layers are counted from 1
    from attn_tui.cli.main import main

    parse_args(args)  # a refusal exits 2
    if args and args[0] == "print":
        assert main(args) == 0
        assert capsys.readouterr().out.strip()


def test_a_byte_that_is_not_utf8_is_quoted_as_the_shell_quotes_it(capsys, tmp_path):
    # "Cannot open /tmp/w/\udcff.json" and "unknown lesson 'x\udcff'": Python's own spelling
    odd = b"x\xff".decode("utf-8", "surrogateescape")
    assert main(["--session", str(tmp_path / f"{odd}.json")]) == 2
    assert capsys.readouterr().err == f"attn-tui: Cannot open {tmp_path}/x\\xff.json: no such file.\n"
    with pytest.raises(SystemExit):
        main(["--lesson", odd])
    assert "unknown lesson 'x\\xff'" in capsys.readouterr().err


def test_an_app_flag_after_serve_is_refused_with_where_it_goes(capsys):
    # "unrecognized arguments: --theme nord", and no word anywhere of attn-tui --theme nord serve
    with pytest.raises(SystemExit) as done:
        parse_args(["serve", "--port", "9000", "--theme", "nord"])
    assert done.value.code == 2
    assert capsys.readouterr().err.splitlines()[-1] == (
        "attn-tui serve: error: unrecognized arguments: --theme nord (the app's own flags go "
        "before the word serve: attn-tui --theme nord serve …)")
    assert parse_args(["--theme", "nord", "serve"]).theme == "nord"
    with pytest.raises(SystemExit):  # only the app's flags are moved in the hint
        parse_args(["serve", "--theme", "nord", "--bogus"])
    assert capsys.readouterr().err.endswith("attn-tui --theme nord serve …)\n")
    for argv in (["serve", "--bogus", "--theme"], ["serve", "--theme", "--bogus"]):
        with pytest.raises(SystemExit):  # a flag without its value: no command to suggest
            parse_args(argv)
        assert "go before the word" not in capsys.readouterr().err


def test_preset_after_print_points_to_the_section_that_names_the_example(capsys):
    # "unrecognized arguments: --preset mask", where attn-tui print mask was meant
    with pytest.raises(SystemExit) as done:
        parse_args(["print", "one", "--preset", "mask"])
    assert done.value.code == 2
    assert capsys.readouterr().err.splitlines()[-1] == (
        "attn-tui print: error: unrecognized arguments: --preset mask (print takes the "
        "example as its section: attn-tui print mask)")
    for argv in (["print", "--preset", "mask"], ["print", "--preset=mask"]):
        with pytest.raises(SystemExit):  # mask read as the section, or one word with it
            parse_args(argv)
        assert capsys.readouterr().err.endswith(
            "(print takes the example as its section: attn-tui print mask)\n")
    with pytest.raises(SystemExit):  # no such section: no command to suggest
        parse_args(["print", "one", "--preset", "random"])
    assert "print takes the example" not in capsys.readouterr().err


def test_version_with_standard_output_closed_is_read_on_standard_error_and_exits_0():
    # argparse writes it there then: it was read, so no "Cannot write" and no status 2
    done = subprocess.run([sys.executable, "-m", "attn_tui", "--version"],
                          stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
                          preexec_fn=lambda: os.close(1))
    assert done.returncode == 0 and done.stderr.startswith("attn-tui ")


@pytest.mark.parametrize(("argv", "app_args"), [
    (["--theme", "nord", "serve"], ["--preset", "one", "--backend", "numpy", "--theme", "nord"]),
    # a class on one step: every browser opens it (a lesson refuses --preset beside it)
    (["--lesson", "mask", "--step", "4", "serve"],
     ["--backend", "numpy", "--lesson", "mask", "--step", "4"]),
])
def test_serve_passes_the_apps_flags_to_every_browsers_app(monkeypatch, argv, app_args):
    from attn_tui.cli import serve

    seen = {}
    monkeypatch.setattr(serve, "serve", lambda *a, **k: seen.update(app_args=a[4]) or 0)
    assert main(argv) == 0
    assert seen["app_args"] == app_args
    parse_args(seen["app_args"])  # what each browser's app is started with is taken


@pytest.mark.parametrize(("argv", "said"), [
    (["--lesson", "list", "serve"], "argument --lesson: list only prints"),
    (["--lesson", "mask", "--step", "9", "serve"], "lesson mask has 5 steps; 9 is past its last"),
])
def test_serve_refuses_a_lesson_no_browser_could_open(monkeypatch, capsys, argv, said):
    from attn_tui.cli import serve

    monkeypatch.setattr(serve, "serve", lambda *a, **k: pytest.fail("served"))
    with pytest.raises(SystemExit) as done:
        main(argv)
    assert done.value.code == 2 and said in capsys.readouterr().err


def test_version_with_both_outputs_closed_exits_2():
    # printed nowhere: an exit status is all a script has
    done = subprocess.run([sys.executable, "-m", "attn_tui", "--version"],
                          stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                          preexec_fn=lambda: (os.close(1), os.close(2)))
    assert done.returncode == 2


@pytest.mark.parametrize(("args", "says"), [
    (["--preset", "one", "--preset", "mask"],
     "attn-tui: error: argument --preset: given twice (one, then mask); give it once"),
    (["--step", "2", "--lesson", "one", "--step", "3"],
     "attn-tui: error: argument --step: given twice (2, then 3); give it once"),
    (["export", "--format", "md", "-o", "a.md", "--output", "b.md"],
     "attn-tui export: error: argument -o/--output: given twice (a.md, then b.md); give it once"),
    (["serve", "--port", "8001", "--port", "8002"],
     "attn-tui serve: error: argument --port: given twice (8001, then 8002); give it once"),
])
def test_a_flag_given_twice_with_two_values_is_refused_not_the_last_one_kept(args, says, capsys):
    with pytest.raises(SystemExit) as done:
        parse_args(args)
    assert done.value.code == 2
    assert capsys.readouterr().err.splitlines()[-1] == says


def test_a_flag_given_twice_with_the_same_value_is_taken():
    args = parse_args(["--preset", "mask", "--dtype", "float32", "--preset", "mask"])
    assert (args.preset, args.dtype) == ("mask", "float32")
