"""The compute layer stays light: no textual, no rich, and torch only when asked for."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import attn_tui.compute

COMPUTE_DIR = Path(attn_tui.compute.__file__).resolve().parent
MODULES = sorted(COMPUTE_DIR.glob("*.py"))
UI_LIBRARIES = {"textual", "rich"}
OPTIONAL = {"torch", "array_api_strict"}


def _imports(tree: ast.AST) -> list[tuple[str, ast.stmt]]:
    """(top-level package name, node) for every import statement anywhere in ``tree``."""
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found += [(alias.name.split(".")[0], node) for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            found.append((node.module.split(".")[0], node))
    return found


def test_importing_compute_loads_no_torch_textual_or_rich() -> None:
    code = (
        "import attn_tui, attn_tui.compute; import sys; "
        "print('torch' in sys.modules, 'textual' in sys.modules, 'rich' in sys.modules)"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=60,
        cwd=COMPUTE_DIR.parents[1],
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "False False False"


def test_compute_modules_are_found() -> None:
    names = {m.name for m in MODULES}
    assert {
        "__init__.py", "attend.py", "backend.py", "nanogpt.py", "params.py", "scaling.py",
        "softmax.py",
    } <= names


def test_compute_source_never_imports_textual_or_rich() -> None:
    offenders = [
        f"{m.name}:{node.lineno} imports {name}"
        for m in MODULES
        for name, node in _imports(ast.parse(m.read_text(encoding="utf-8")))
        if name in UI_LIBRARIES
    ]
    assert offenders == []


def test_optional_backends_are_imported_inside_functions_only() -> None:
    offenders = []
    for m in MODULES:
        tree = ast.parse(m.read_text(encoding="utf-8"))
        top_level = [n for n in tree.body if isinstance(n, ast.Import | ast.ImportFrom)]
        for name, node in _imports(ast.Module(body=top_level, type_ignores=[])):
            if name in OPTIONAL:
                offenders.append(f"{m.name}:{node.lineno} imports {name} at module level")
    assert offenders == []
