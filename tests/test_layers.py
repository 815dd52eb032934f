"""The package's layers: the import-linter contracts in pyproject.toml hold, and no module of
attn_tui imports itself back, counting the imports written inside functions."""

from __future__ import annotations

import ast
import shutil
import subprocess
import sys
from pathlib import Path

import attn_tui

ROOT = Path(attn_tui.__file__).resolve().parents[1]
PACKAGE = ROOT / "attn_tui"


def test_the_import_contracts_hold() -> None:
    """cli → tui → lessons | report → models | train → core → compute, and textual and rich only in the UI."""
    lint = shutil.which("lint-imports", path=str(Path(sys.executable).parent)) or "lint-imports"
    done = subprocess.run([lint, "--no-cache"], capture_output=True, text=True, cwd=ROOT,
                          timeout=120)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "2 kept, 0 broken" in done.stdout


def _modules() -> dict[str, Path]:
    out = {}
    for path in PACKAGE.rglob("*.py"):
        parts = list(path.relative_to(ROOT).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts = parts[:-1]
        out[".".join(parts)] = path
    return out


def _type_checking_only(tree: ast.AST) -> set[int]:
    """The nodes under ``if TYPE_CHECKING:``: never run, so no import cycle at run time."""
    skip: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            skip.update(id(n) for n in ast.walk(node))
    return skip


def import_graph() -> dict[str, dict[str, int]]:
    """{module: {attn_tui module it imports: line}}, from every import statement anywhere in
    the module (inside functions too), by reading the source."""
    modules = _modules()

    def known(name: str) -> str | None:
        while name and name not in modules:
            name = name.rpartition(".")[0]
        return name or None

    graph: dict[str, dict[str, int]] = {}
    for name, path in modules.items():
        tree = ast.parse(path.read_text(encoding="utf-8"))
        skip = _type_checking_only(tree)
        here = name.split(".") if path.name == "__init__.py" else name.split(".")[:-1]
        deps: dict[str, int] = {}
        for node in ast.walk(tree):
            if id(node) in skip:
                continue
            if isinstance(node, ast.Import):
                targets = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom):
                base = node.module or ""
                if node.level:
                    up = here[: len(here) - (node.level - 1)]
                    base = ".".join([*up, base] if base else up)
                targets = [base] + [f"{base}.{alias.name}" for alias in node.names]
            else:
                continue
            for target in targets:
                if target.startswith("attn_tui") and (dep := known(target)) not in (None, name):
                    deps.setdefault(dep, node.lineno)
        graph[name] = deps
    return graph


def cycles(graph: dict[str, dict[str, int]]) -> list[list[str]]:
    """The strongly connected parts of ``graph`` with more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        for w in graph.get(v, {}):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            part = []
            while True:
                w = stack.pop()
                part.append(w)
                if w == v:
                    break
            if len(part) > 1:
                found.append(sorted(part))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return found


def test_the_graph_counts_imports_written_inside_functions() -> None:
    # app.action_help imports the help screen inside the function: the edge must be seen
    graph = import_graph()
    assert "attn_tui.tui.screens.help_screen" in graph["attn_tui.tui.app"]
    assert cycles({"a": {"b": 1}, "b": {"c": 2}, "c": {"a": 3}, "d": {"a": 4}}) == [
        ["a", "b", "c"]]


def test_no_module_imports_itself_back() -> None:
    graph = import_graph()
    found = cycles(graph)
    described = [" ↔ ".join(part) + ": " + ", ".join(
        f"{a} → {b} (line {graph[a][b]})" for a in part for b in part if b in graph[a])
        for part in found]
    assert described == []


def test_cli_imports_the_ui_only_inside_the_functions_that_start_it() -> None:
    """`attn-tui print`, `--help` and `export` never load textual: at module level the CLI
    imports neither textual, rich nor attn_tui.tui (textual_serve's hosting modules are the
    serve command's own, loaded only by it)."""
    ui = ("textual", "rich", "attn_tui.tui")
    offenders = []
    for path in sorted((PACKAGE / "cli").glob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in tree.body:
            names = ([a.name for a in node.names] if isinstance(node, ast.Import)
                     else [node.module or ""] if isinstance(node, ast.ImportFrom) else [])
            offenders += [f"{path.name}:{node.lineno} {n}" for n in names
                          if n == "attn_tui.tui" or n.startswith(tuple(f"{u}." for u in ui))
                          or n in ui]
    assert offenders == []


def _probes(tree: ast.AST) -> list[str]:
    """``hasattr(x, "name")`` and ``getattr(x, "name", default)``: a literal name probed."""
    found = []
    for node in ast.walk(tree):
        if (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
                and node.func.id in ("hasattr", "getattr") and len(node.args) >= 2
                and isinstance(node.args[1], ast.Constant)
                and (node.func.id == "hasattr" or len(node.args) == 3)):
            found.append(f"{node.func.id}(…, {node.args[1].value!r}) at line {node.lineno}")
    return found


def test_the_ui_asks_for_roles_not_attributes() -> None:
    """Screens and widgets ask ``isinstance(screen, roles.X)``: no literal name is probed in tui/
    outside textual_compat, where Textual's private names live."""
    probes = {path.relative_to(ROOT).as_posix(): found
              for path in (PACKAGE / "tui").rglob("*.py")
              if path.name != "textual_compat.py"
              and (found := _probes(ast.parse(path.read_text(encoding="utf-8"))))}
    assert probes == {}


def test_the_probe_finder_finds_a_probe() -> None:
    tree = ast.parse('hasattr(s, "held")\ngetattr(s, "x", None)\ngetattr(s, name, None)\n'
                     'getattr(s, "y")')
    assert _probes(tree) == ["hasattr(…, 'held') at line 1", "getattr(…, 'x') at line 2"]
