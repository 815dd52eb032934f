"""`attn-tui --help`: the usage line says what is optional."""

from __future__ import annotations

from attn_tui.cli.main import build_parser


def test_the_usage_line_shows_the_command_as_optional():
    usage = build_parser().format_usage()
    assert "[COMMAND ...]" in usage
    assert " COMMAND ..." not in usage.replace("[COMMAND ...]", "")


def test_help_fits_an_80_column_terminal(monkeypatch):
    """The description was one 95-column line, kept raw with the examples, and two examples
    ran past 80 columns."""
    monkeypatch.setenv("COLUMNS", "80")
    lines = build_parser().format_help().splitlines()
    assert max(len(line) for line in lines) < 80, max(lines, key=len)
    assert "Learn self-attention by doing it: edit Q, K and V and watch every stage of" in lines


def test_an_export_error_found_after_parsing_wraps_its_usage_as_argparse_does(
        capsys, monkeypatch):
    from attn_tui.cli.main import main

    monkeypatch.setenv("COLUMNS", "80")
    assert main(["export", "--format", "npz"]) == 2
    err = capsys.readouterr().err.splitlines()
    assert err[0].startswith("usage: attn-tui export [-h] --format")
    assert max(len(line) for line in err[:-1]) < 80, err
    assert err[-1] == ("attn-tui export: error: --format npz is binary; give -o FILE (or -o - "
                       "for standard output)")
