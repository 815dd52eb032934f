"""The hosting guide's ssh wrapper, run as written: what a learner asks for over ssh reaches
attn-tui only as --lesson NAME, --step N, --preset NAME or --no-mouse, and anything else is
one line."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest

GUIDE = Path(__file__).resolve().parents[2] / "docs" / "hosting.md"

pytestmark = pytest.mark.skipif(shutil.which("sh") is None, reason="needs a POSIX sh")


@pytest.fixture
def wrapper(tmp_path: Path) -> Path:
    """The guide's script, with attn-tui replaced by one that prints its arguments and how
    many TEXTUAL_ variables it was given."""
    block = next(b for b in re.findall(r"```sh\n(.*?)```", GUIDE.read_text(), re.S)
                 if "attn-tui-session" in b)
    stub = tmp_path / "attn-tui"
    stub.write_text('#!/bin/sh\nfor a in "$@"; do printf "%s|" "$a"; done\n'
                    'env | grep -c "^TEXTUAL_" || true\n')
    stub.chmod(0o755)
    script = tmp_path / "attn-tui-session"
    script.write_text(block.replace("/usr/local/bin/attn-tui ", f"{stub} "))
    script.chmod(0o755)
    return script


def run(wrapper: Path, asked: str | None) -> subprocess.CompletedProcess[str]:
    env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "TEXTUAL_DRIVER": "x",
           "TEXTUAL_DEBUG": "1"}
    if asked is not None:
        env["SSH_ORIGINAL_COMMAND"] = asked
    return subprocess.run([str(wrapper)], env=env, capture_output=True, text=True, timeout=10)


@pytest.mark.parametrize(("asked", "passed"), [
    (None, ""),
    ("", ""),
    ("attn-tui --lesson mask", "--lesson|mask|"),
    ("--no-mouse", "--no-mouse|"),
    ("attn-tui --preset nanogpt --no-mouse --lesson real-heads",
     "--preset|nanogpt|--no-mouse|--lesson|real-heads|"),
    ("attn-tui --lesson mask --step 4", "--lesson|mask|--step|4|"),
    # the lessons' names: an unknown one is refused naming them, and list (it prints, then the
    # session ends) was refused
    ("attn-tui --lesson list", "--lesson|list|"),
])
def test_what_may_be_asked_for_reaches_attn_tui(wrapper: Path, asked, passed) -> None:
    done = run(wrapper, asked)
    assert done.returncode == 0, done.stderr
    # its arguments, then how many TEXTUAL_ variables reached it: none
    assert done.stdout == passed + "0\n"


@pytest.mark.parametrize(("asked", "says"), [
    ("cat /etc/passwd", "here you may ask for --lesson NAME, --step N, --preset NAME or "
                        "--no-mouse, not cat"),
    ("attn-tui --lesson mask --step 0", "--step takes a number such as 4"),
    ("attn-tui --lesson mask --step 1000", "--step takes a number such as 4"),
    ("attn-tui --lesson mask --step '4;ls'", "--step takes a number such as 4"),
    ("attn-tui --lesson mask --step", "--step takes a number such as 4"),
    ("attn-tui --step mask", "--step takes a number such as 4"),
    ("attn-tui serve", "not serve"),
    ("attn-tui --lesson", "--lesson takes a name such as mask"),
    ("attn-tui --lesson ../x", "--lesson takes a name such as mask"),
    ("attn-tui --preset '*'", "--preset takes a name such as mask"),
    ("attn-tui --session /etc/shadow", "not --session"),
    ("attn-tui --lesson --no-mouse", "--lesson takes a name such as mask"),
    ("attn-tui --preset list", "--preset takes a name such as mask"),
])
def test_anything_else_is_one_line_and_nothing_runs(wrapper: Path, asked, says) -> None:
    done = run(wrapper, asked)
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.startswith("attn-tui: ") and says in done.stderr
    assert done.stderr.count("\n") == 1
