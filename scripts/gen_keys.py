"""Write the keyboard reference into README.md between its markers, from the bindings.

    python scripts/gen_keys.py          rewrite README.md
    python scripts/gen_keys.py --check  exit 1 if README.md is out of date
"""

from __future__ import annotations

import sys
from pathlib import Path

from attn_tui.tui.help_keys import as_markdown

README = Path(__file__).resolve().parents[1] / "README.md"
START, END = "<!-- keys:start -->", "<!-- keys:end -->"


def updated(text: str) -> str:
    head, rest = text.split(START, 1)
    _, tail = rest.split(END, 1)
    return f"{head}{START}\n{as_markdown().rstrip()}\n{END}{tail}"


def main() -> int:
    text = README.read_text(encoding="utf-8")
    new = updated(text)
    if "--check" in sys.argv:
        if new != text:
            print("README.md's keyboard reference is stale: run python scripts/gen_keys.py")
            return 1
        return 0
    README.write_text(new, encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
