"""The README tells the truth: its commands run, its key table is current."""

from __future__ import annotations

import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
README = (ROOT / "README.md").read_text(encoding="utf-8")
HEADLESS = ("print", "--help", "--version", "export", "list")


def readme_commands() -> list[str]:
    blocks = re.findall(r"```sh\n(.*?)```", README, flags=re.S)
    commands = []
    for block in blocks:
        for line in block.splitlines():
            line = line.split("  #")[0].strip()
            if line.startswith("attn-tui") and any(w in shlex.split(line) for w in HEADLESS):
                commands.append(line)
    return commands


def test_readme_shows_the_two_setup_commands():
    quick = README.split("## Quick start", 1)[1].split("##", 1)[0]
    assert "make run" in quick and "make test" in quick


def test_readme_has_headless_commands_to_check():
    assert len(readme_commands()) >= 5


@pytest.mark.parametrize("command", readme_commands())
def test_readme_command_runs(command: str, tmp_path: Path):
    args = shlex.split(command)[1:]
    done = subprocess.run([sys.executable, "-m", "attn_tui", *args], capture_output=True,
                          text=True, timeout=120, cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert "Traceback" not in done.stderr
    if "-o" in args:
        assert (tmp_path / args[args.index("-o") + 1]).stat().st_size > 0
    else:
        assert done.stdout.strip()


def test_keyboard_reference_is_current():
    done = subprocess.run([sys.executable, str(ROOT / "scripts" / "gen_keys.py"), "--check"],
                          capture_output=True, text=True, cwd=ROOT)
    assert done.returncode == 0, done.stdout + done.stderr


def test_python_example_prints_what_the_readme_says():
    block = README.split("## Python API", 1)[1].split("```python\n", 1)[1].split("```", 1)[0]
    code = "\n".join(line for line in block.splitlines() if not line.startswith("#"))
    expected = [line[2:] for line in block.splitlines() if line.startswith("# ")]
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip().splitlines() == expected
