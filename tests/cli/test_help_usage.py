"""`attn-tui --help`: the usage line says what is optional."""

from __future__ import annotations

from attn_tui.cli.main import build_parser


def test_the_usage_line_shows_the_command_as_optional():
    usage = build_parser().format_usage()
    assert "[COMMAND ...]" in usage
    assert " COMMAND ..." not in usage.replace("[COMMAND ...]", "")
