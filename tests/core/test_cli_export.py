"""`attn-tui export …` and `attn-tui --session FILE` from a shell: right output, or one line and
exit status 2, never a traceback."""

from __future__ import annotations

import contextlib
import io
import os
import stat
import subprocess
import sys
from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest

from attn_tui.cli import main as cli
from attn_tui.core import session, state
from attn_tui.report import export


def attn(*args: str, cwd: Path) -> subprocess.CompletedProcess[bytes]:
    return subprocess.run([sys.executable, "-m", "attn_tui", *args], capture_output=True,
                          cwd=cwd, timeout=120)


def one_line_error(result: subprocess.CompletedProcess[bytes], words: str) -> None:
    err = result.stderr.decode()
    assert result.returncode == 2
    assert result.stdout == b""
    assert "Traceback" not in err
    assert err.count("\n") == 1 and err.startswith("attn-tui: ")
    assert words in err


@pytest.mark.parametrize("fmt", ["md", "csv", "tex"])
def test_tables_go_to_stdout(fmt: str, tmp_path: Path) -> None:
    result = attn("export", "--format", fmt, "--preset", "mask", "--mask", "causal-after",
                  cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    ws = replace(state.from_preset("mask"), mask="causal-after")
    assert result.stdout.decode("utf-8") == export.export_text(ws, fmt)


def test_a_lecture_preset_is_exported_as_the_app_shows_it(tmp_path: Path) -> None:
    # export --preset lecture-head said "torch float32", while attn-tui --preset lecture-head
    # (and p, and its e) computed and said numpy float64
    pytest.importorskip("torch")
    from attn_tui.tui.app import make_app

    result = attn("export", "--format", "md", "--preset", "lecture-head", cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    shown = make_app(preset="lecture-head").initial_workspace
    assert (shown.backend, shown.dtype) == ("numpy", "float64")
    assert result.stdout.decode("utf-8") == export.export_text(shown, "md")


def test_a_script_goes_to_stdout_and_runs(tmp_path: Path) -> None:
    result = attn("export", "--format", "py", "--preset", "select", cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    (tmp_path / "a.py").write_bytes(result.stdout)
    ran = subprocess.run([sys.executable, "-I", str(tmp_path / "a.py")], capture_output=True,
                         cwd=tmp_path, timeout=120)
    assert ran.stdout.decode() == export.export_text(state.from_preset("select"), "md")


def test_a_session_is_exported_as_saved(tmp_path: Path) -> None:
    ws = state.set_cell(replace(state.from_preset("one"), mask="causal"), "K", 2, 0, -3.25)
    session.save(ws, tmp_path / "s.json")
    result = attn("export", "--format", "csv", "--session", "s.json", cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert result.stdout.decode() == export.export_text(ws, "csv")
    # q·k = 0.1×-3.25 + 0.2×0.7 + 0.3×0.8; the causal mask hides this key from the one query,
    # so the softmax is given -inf for it (as the app's step table shows)
    best = result.stdout.decode().splitlines()[3]
    assert best == "best,0.0550,-inf,0.0000,0.0000,0.0000,0.0000,0.0000"


@pytest.mark.parametrize("backend", ["numpy", "torch"])
@pytest.mark.parametrize("fmt", ["md", "npz"])
def test_backend_and_dtype_override_the_workspaces_for_every_format(tmp_path, backend, fmt):
    """float32 tables took a session file saved for them: --backend was for py alone, and
    there was no --dtype."""
    if backend == "torch":
        pytest.importorskip("torch")
    result = attn("export", "--format", fmt, "--preset", "select", "--backend", backend,
                  "--dtype", "float32", "-o", f"x.{fmt}", cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    ws = replace(state.from_preset("select"), backend=backend, dtype="float32")
    if fmt == "md":
        written = (tmp_path / "x.md").read_text()
        assert written == export.export_text(ws, "md")
        assert f"÷√d_k; {backend} float32" in written.splitlines()[0]
    else:
        with np.load(tmp_path / "x.npz") as stages:
            assert stages["weights"].dtype == np.float32


def test_a_numpy_export_of_a_half_precision_session_names_both_ways_out(tmp_path: Path) -> None:
    pytest.importorskip("torch")
    session.save(replace(state.from_preset("one"), backend="torch", dtype="bfloat16"),
                 tmp_path / "s.json")
    one_line_error(attn("export", "--format", "md", "--session", "s.json", "--backend", "numpy",
                        cwd=tmp_path),
                   "numpy has no bfloat16, which the session computes in: add --dtype float32 "
                   "(or float64), or --backend torch")


def test_a_numpy_float16_session_exports_as_the_app_exports_it(tmp_path: Path) -> None:
    """The app opens and exports a numpy float16 session; the command line refused it as
    "numpy has no float16", which numpy has."""
    ws = replace(state.from_preset("one"), dtype="float16")
    session.save(ws, tmp_path / "s.json")
    done = attn("export", "--format", "md", "--session", "s.json", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert done.stdout.decode() == export.export_text(ws, "md")
    assert "numpy float16" in done.stdout.decode().splitlines()[0]


def test_a_session_is_read_from_standard_input_or_a_pipe(tmp_path: Path) -> None:
    # "Cannot open -: no such file." and "it is not a regular file" for <(…) before
    ws = state.set_cell(state.from_preset("mask"), "Q", 1, 1, 2.5)
    session.save(ws, tmp_path / "s.json")
    expected = export.export_text(ws, "md")
    with open(tmp_path / "s.json", "rb") as f:
        piped = subprocess.run([sys.executable, "-m", "attn_tui", "export", "--format", "md",
                                "--session", "-"], stdin=f, capture_output=True, timeout=120)
    assert piped.returncode == 0, piped.stderr
    assert piped.stdout.decode() == expected
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    proc = subprocess.Popen([sys.executable, "-m", "attn_tui", "export", "--format", "md",
                             "--session", str(fifo)], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE)
    with open(fifo, "wb") as w:  # blocks until export opens it to read
        w.write((tmp_path / "s.json").read_bytes())
    out, err = proc.communicate(timeout=120)
    assert proc.returncode == 0, err
    assert out.decode() == expected


def test_a_bad_session_from_standard_input_is_named_as_such(tmp_path: Path) -> None:
    done = subprocess.run([sys.executable, "-m", "attn_tui", "export", "--format", "md",
                           "--session", "-"], input=b"not json", capture_output=True,
                          timeout=120)
    one_line_error(done, "Cannot open standard input: it is not valid JSON")


def test_npz_needs_an_output_file(tmp_path: Path) -> None:
    result = attn("export", "--format", "npz", cwd=tmp_path)
    err = result.stderr.decode()
    assert result.returncode == 2 and result.stdout == b""
    assert err.startswith("usage: attn-tui export")
    assert "--format npz is binary; give -o FILE" in err and "Traceback" not in err


def test_npz_is_written_with_o(tmp_path: Path) -> None:
    result = attn("export", "--format", "npz", "--preset", "random", "-o", "out.npz",
                  cwd=tmp_path)
    assert result.returncode == 0 and result.stdout == b""
    ws = state.from_preset("random")
    s = export.compute(ws)
    with np.load(tmp_path / "out.npz", allow_pickle=False) as z:
        np.testing.assert_array_equal(z["weights"], s.weights)
        np.testing.assert_array_equal(z["exp"], s.exp)


def test_text_is_written_with_o_and_nothing_printed(tmp_path: Path) -> None:
    result = attn("export", "--format", "md", "-o", "t.md", cwd=tmp_path)
    assert result.returncode == 0 and result.stdout == b""
    assert (tmp_path / "t.md").read_text() == export.export_text(state.from_preset("one"), "md")


@pytest.mark.parametrize(("make", "words"), [
    (lambda d: None, "Cannot open s.json: no such file."),
    (lambda d: (d / "s.json").mkdir(), "it is a directory"),
    (lambda d: (d / "s.json").write_text('{"format": "attn-tui-session", "vers'), "truncated"),
    (lambda d: (d / "s.json").write_text("not json"), "not valid JSON"),
    (lambda d: (d / "s.json").write_bytes(b"\x89PNG\r\n\x1a\n\x00"), "not UTF-8"),
])
def test_a_bad_session_is_one_line_and_status_2(make, words: str, tmp_path: Path) -> None:
    make(tmp_path)
    one_line_error(attn("export", "--format", "md", "--session", "s.json", cwd=tmp_path), words)


def test_a_bad_session_for_the_app_fails_before_the_terminal(tmp_path: Path) -> None:
    (tmp_path / "s.json").write_text(session.to_json(state.from_preset("one"))[:-30])
    one_line_error(attn("--session", "s.json", cwd=tmp_path), "truncated")


def test_an_unwritable_output_is_one_line(tmp_path: Path) -> None:
    one_line_error(attn("export", "--format", "md", "-o", "no/such/dir/t.md", cwd=tmp_path),
                   f"its folder {tmp_path}/no/such/dir does not exist")


def test_session_and_preset_exclude_each_other(tmp_path: Path) -> None:
    result = attn("export", "--format", "md", "--session", "s.json", "--preset", "one",
                  cwd=tmp_path)
    assert result.returncode == 2
    assert "not allowed with argument" in result.stderr.decode()


def test_export_never_loads_textual(tmp_path: Path) -> None:
    code = ("import sys; from attn_tui.cli.main import main; rc = main(['export', '--format', 'md']); "
            "import attn_tui.report.clipboard, attn_tui.report.script; "
            "print(rc, 'textual' in sys.modules, 'torch' in sys.modules, file=sys.stderr)")
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                            cwd=tmp_path, timeout=120)
    assert result.stderr.strip() == "0 False False"


def test_session_flag_hands_the_workspace_and_lab_to_the_app(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import attn_tui.tui.app

    ws = replace(state.from_preset("mask"), dtype="float32", selected=3, mask="causal-after")
    session.save(ws, tmp_path / "s.json", screen="workbench")
    seen = {}

    class FakeApp:
        return_code = 0
        stopped_by = None  # no signal ended it

        def run(self, **kwargs) -> None:
            seen["ran"] = True

    def fake_make_app(**kwargs):
        seen.update(kwargs)
        return FakeApp()

    monkeypatch.setattr(attn_tui.tui.app, "make_app", fake_make_app)
    monkeypatch.setattr("attn_tui.cli.terminal.terminal_problem", lambda: None)  # pytest has none
    assert cli.main(["--session", str(tmp_path / "s.json")]) == 0
    assert seen["ran"] and seen["workspace"] == ws
    assert (seen["backend"], seen["dtype"], seen["lab"]) == ("numpy", "float32", None)


def test_export_never_writes_over_the_session_it_reads(tmp_path: Path) -> None:
    # `export --session s.json -o s.json` replaced the session with a Markdown table, status 0
    path = tmp_path / "s.json"
    session.save(state.from_preset("mask"), path)
    before = path.read_bytes()
    for name in ("s.json", "./s.json"):
        result = attn("export", "--session", "s.json", "--format", "md", "-o", name, cwd=tmp_path)
        one_line_error(result, "is the session being exported")
    assert path.read_bytes() == before


def test_a_name_that_says_another_format_is_refused(tmp_path: Path) -> None:
    result = attn("export", "--preset", "mask", "--format", "npz", "-o", "notes.md", cwd=tmp_path)
    one_line_error(result, "notes.md is named as a .md file, but the export is npz")
    assert not (tmp_path / "notes.md").exists()
    # a name with no export extension is the user's choice
    assert attn("export", "--format", "md", "-o", "notes.txt", cwd=tmp_path).returncode == 0


def test_binary_npz_into_a_text_name_is_refused(tmp_path: Path) -> None:
    # --format npz -o notes.txt wrote a zip archive into a file named as text
    result = attn("export", "--format", "npz", "-o", "notes.TXT", cwd=tmp_path)
    one_line_error(result, "notes.TXT is named as a text file, but npz is binary: end the name "
                           "with .npz.")
    assert not (tmp_path / "notes.TXT").exists()
    assert attn("export", "--format", "npz", "-o", "arrays", cwd=tmp_path).returncode == 0


@pytest.mark.parametrize("fmt", ["md", "npz"])
def test_dash_is_standard_output(fmt: str, tmp_path: Path) -> None:
    result = attn("export", "--preset", "mask", "--format", fmt, "-o", "-", cwd=tmp_path)
    assert result.returncode == 0 and not (tmp_path / "-").exists()
    want = export.export_bytes(state.from_preset("mask"), fmt)
    if fmt == "npz":  # a zip archive: its members, not its timestamps
        import io

        got, expected = np.load(io.BytesIO(result.stdout)), np.load(io.BytesIO(want))
        assert sorted(got.files) == sorted(expected.files)
        assert all(np.array_equal(got[k], expected[k]) for k in got.files)
    else:
        assert result.stdout == want


def test_o_dev_null_writes_nothing_and_leaves_the_device(tmp_path: Path) -> None:
    # "Cannot write /dev/null: it is not a regular file": the command line's usual sink
    result = attn("export", "--format", "npz", "-o", "/dev/null", cwd=tmp_path)
    assert result.returncode == 0 and result.stdout == b"" and result.stderr == b""
    assert stat.S_ISCHR(os.stat("/dev/null").st_mode)


def test_o_into_a_pipe_as_a_shells_process_substitution_names_it(tmp_path: Path) -> None:
    # attn-tui export --format npz -o >(ssh host 'cat > x.npz'): the shell passes /dev/fd/N
    read, write = os.pipe()
    try:
        result = subprocess.run(
            [sys.executable, "-m", "attn_tui", "export", "--format", "npz", "--preset", "mask",
             "-o", f"/dev/fd/{write}"], capture_output=True, cwd=tmp_path, timeout=120,
            pass_fds=(write,))
        os.close(write)
        with os.fdopen(read, "rb") as f:
            data = f.read()
    finally:
        for fd in (read, write):
            with contextlib.suppress(OSError):
                os.close(fd)
    assert result.returncode == 0, result.stderr
    with np.load(io.BytesIO(data), allow_pickle=False) as z:
        np.testing.assert_array_equal(z["weights"], export.compute(state.from_preset("mask")).weights)
    assert list(tmp_path.iterdir()) == []


def test_o_a_fifo_nothing_reads_is_one_line_not_a_hang(tmp_path: Path) -> None:
    os.mkfifo(tmp_path / "pipe")
    one_line_error(attn("export", "--format", "md", "-o", "pipe", cwd=tmp_path),
                   "Cannot write pipe: it is a pipe that nothing reads from.")
    assert stat.S_ISFIFO((tmp_path / "pipe").stat().st_mode)


class _Terminal:
    """Standard output that is a terminal, as isatty() says; what is written is kept."""

    def __init__(self) -> None:
        import io

        self.buffer = io.BytesIO()

    def isatty(self) -> bool:
        return True

    def write(self, text: str) -> int:
        self.buffer.write(text.encode())
        return len(text)

    def flush(self) -> None:
        pass


@pytest.mark.parametrize("argv", [
    ["export", "--format", "npz", "-o", "-"],
    ["print", "heads", "--text", "hi", "--layer", "0", "--head", "0", "--format", "npz", "-o",
     "-"],
])
def test_npz_to_standard_output_is_refused_when_it_is_a_terminal(argv, monkeypatch, capsys):
    """-o - with npz drew a zip archive's bytes on the terminal."""
    from attn_tui.cli.main import main

    if argv[1] == "heads":
        pytest.importorskip("tokenizers")
    out = _Terminal()
    monkeypatch.setattr("sys.stdout", out)
    try:
        code = main(argv)
    except SystemExit as exc:  # argparse's error
        code = exc.code
    assert code == 2 and out.buffer.getvalue() == b""
    assert "-o -: that is a terminal" in capsys.readouterr().err


@pytest.mark.parametrize("heads", [False, True])
def test_npz_to_a_terminal_named_as_a_file_is_refused_too(heads, capsys):
    """-o /dev/stdout in a terminal drew the archive; -o /dev/null still takes it."""
    import pty

    from attn_tui.cli.main import main

    if heads:
        pytest.importorskip("tokenizers")
    main_fd, sub_fd = pty.openpty()
    try:
        name = os.ttyname(sub_fd)
        argv = (["print", "heads", "--text", "hi", "--layer", "1", "--head", "1"] if heads
                else ["export"]) + ["--format", "npz", "-o", name]
        try:
            code = main(argv)
        except SystemExit as exc:
            code = exc.code
        assert code == 2 and f"-o {name}: that is a terminal" in capsys.readouterr().err
        try:
            code = main([*argv[:-1], os.devnull])
        except SystemExit as exc:
            code = exc.code
        assert code == 0
    finally:
        os.close(main_fd)
        os.close(sub_fd)


def test_a_named_pipe_no_program_writes_to_yet_is_said_and_then_read(tmp_path: Path) -> None:
    # `export --session ff` with nothing writing to ff waited silently until ctrl+c
    pipe = tmp_path / "ff"
    os.mkfifo(pipe)
    proc = subprocess.Popen([sys.executable, "-m", "attn_tui", "export", "--format", "md",
                             "--session", "ff"], cwd=tmp_path, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE)
    try:
        import select

        # said after a second with no writer (waited for here at most 30 s, never forever)
        assert select.select([proc.stderr], [], [], 30)[0], "nothing was said"
        line = proc.stderr.readline().decode()
        assert line == "attn-tui: waiting for a program to write to ff (ctrl+c stops)\n"
        ws = state.from_preset("select")
        pipe.write_text(session.to_json(ws))
        out, err = proc.communicate(timeout=60)
    finally:
        proc.kill()
    assert proc.returncode == 0 and err == b""
    assert out.decode() == export.export_text(ws, "md")
