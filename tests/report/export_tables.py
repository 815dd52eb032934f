"""Read the exported tables back, independently of the code that wrote them, and the numbers
they must hold, straight from attend()."""

from __future__ import annotations

import csv
import io
import re

import numpy as np

from attn_tui.compute import attend
from attn_tui.core.state import Workspace

TEX_UNESCAPE = {r"\textbackslash{}": "\\", r"\textasciitilde{}": "~",
                r"\textasciicircum{}": "^", r"\&": "&", r"\%": "%", r"\$": "$", r"\#": "#",
                r"\_": "_", r"\{": "{", r"\}": "}", r"\textbar{}": "|", r"\textless{}": "<",
                r"\textgreater{}": ">"}


def expected(ws: Workspace) -> tuple[list[list[float]], list[float], list[list[float]]]:
    """(step rows, sums row without its two blanks, weights rows with their row sum)."""
    s = attend(ws.q, ws.k, ws.v, mask=ws.mask, scale=ws.scale, backend=ws.backend,
               dtype=ws.dtype)
    i = ws.selected
    contrib = s.weights[i][:, None] * np.asarray(ws.v)
    given = s.masked  # what the softmax received: -inf only where the mask comes first
    rows = [[s.scores[i, j], given[i, j], s.exp[i, j], s.weights[i, j], *contrib[j]]
            for j in range(ws.t_k)]
    sums = [s.exp[i].sum(), s.row_sums[i], *contrib.sum(axis=0)]
    weights = [[*s.weights[r], s.row_sums[r]] for r in range(ws.t_q)]
    return rows, sums, weights


def parse_md(text: str) -> list[list[list[str]]]:
    """Every pipe table: a list of rows of cells (header and rule rows dropped)."""
    tables, current = [], None
    for line in text.splitlines():
        if not line.startswith("|"):
            current = None
            continue
        cells = [re.sub(r"\\(.)", r"\1", c.strip())
                 for c in re.split(r"(?<!\\)\|", line.strip())[1:-1]]
        if current is None:
            current = []
            tables.append(current)
        elif set("".join(cells)) <= set(":-"):
            continue
        current.append(cells)
    return [t[1:] for t in tables]


def _csv_cell(cell: str) -> str:
    # a name a spreadsheet would run as a formula is written with a ' in front
    return cell[1:] if cell[:1] == "'" and cell[1:2] in ("=", "+", "-", "@") else cell


def parse_csv(text: str) -> list[list[list[str]]]:
    blocks = text.split("\n\n")[:2]  # the two tables; then which query, and where from
    return [[[_csv_cell(c) for c in row] for row in list(csv.reader(io.StringIO(b)))[1:]]
            for b in blocks]


def _tex_cell(cell: str) -> str:
    cell = cell.strip()
    cell = re.sub(r"^\$(-?[\d.]+)\\times 10\^\{(-?\d+)\}\$$", r"\1e\2", cell)
    cell = cell.replace(r"$-\infty$", "-inf").replace(r"$\infty$", "inf").replace("$-$", "-")
    cell = cell[2:] if cell.startswith("{}[") else cell  # [ guarded after \\ or \midrule
    return re.sub("|".join(re.escape(k) for k in TEX_UNESCAPE),
                  lambda m: TEX_UNESCAPE[m.group(0)], cell)


def parse_tex(text: str) -> list[list[list[str]]]:
    tables, current = [], None
    for line in text.splitlines():
        if line.startswith(r"\begin{tabular}"):
            current = []
            tables.append(current)
        elif current is not None and line.endswith(r"\\"):
            current.append([_tex_cell(c) for c in re.split(r"(?<!\\)&", line[:-2])])
    return [t[1:] for t in tables]


def numbers(cells: list[str]) -> list[float]:
    return [float(c) for c in cells]


def assert_tables_match(ws: Workspace, tables: list[list[list[str]]]) -> None:
    """The two tables hold attend()'s numbers to 4 decimals, and the token names as given."""
    rows, sums, weights = expected(ws)
    steps, alpha = tables
    assert [r[0] for r in steps[:-1]] == list(ws.key_tokens)
    for got, want in zip(steps[:-1], rows, strict=True):
        np.testing.assert_allclose(numbers(got[1:]), want, rtol=0, atol=5.001e-5)
    assert steps[-1][0] == "sum"
    assert steps[-1][1:3] == ["", ""]
    np.testing.assert_allclose(numbers(steps[-1][3:]), sums, rtol=0, atol=5.001e-5)
    assert [r[0] for r in alpha] == list(ws.query_tokens)
    for got, want in zip(alpha, weights, strict=True):
        np.testing.assert_allclose(numbers(got[1:]), want, rtol=0, atol=5.001e-5)
