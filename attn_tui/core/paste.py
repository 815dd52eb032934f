"""Several numbers pasted at once: a block of cells, row by row.

What a teacher copies from elsewhere reads as a block: cells from a spreadsheet (tabs between,
rows on lines), a CSV line (quoted fields too), a Markdown table, a numpy or torch print (``[[0.1 0.2]\\n [0.3 0.4]]``,
``tensor([[0.1000, 0.2000]])``) or a Python list (``[[0.1, 0.2], [0.3, 0.4]]``). Every number
is read as a typed cell is (parse_cell), so the same values are accepted and refused.

``1,5`` stays one value rather than the two cells 1 and 5 (a decimal comma is more likely than a
two-number CSV line), and is refused with the point form to type; so is a block of them, as
a spreadsheet in a decimal-comma locale copies it. Commas separate numbers that have points or
spaces around them (``0.1,0.2``, ``1, 2``); between spreadsheet cells only tabs do.
"""

from __future__ import annotations

import re

from attn_tui.core.parse import one_number, parse_cell, too_long
from attn_tui.core.words import plural

Block = tuple[tuple[float, ...], ...]

MAX_CHARS = 6_000_000  # 256 × 1024 numbers at full precision, as TSV, with room to spare
# around a printed array: "tensor(" or "array(", keywords such as dtype=torch.float32,
# device='cuda:0' or grad_fn=<AddBackward0>, and the closing ")". Each word is tried once
# (\b): a long run of letters must not cost its length squared.
_WRAPPING = re.compile(r"^\s*[A-Za-z_][\w.]*\s*\("
                       r"|\b\w+\s*=\s*(?:'[^']*'|\"[^\"]*\"|<[^<>]*>|[\w.:]+)|\)\s*$")
_ROW_IN_BRACKETS = re.compile(r"\[([^\[\]]*)\]")
_DECIMAL_COMMA = re.compile(r"^[+-]?\d+,\d+$")
_SEMICOLON = re.compile(r"(;)")
_COMMA = re.compile(r"(,)")


class BlockError(ValueError):
    """Text that looks like several numbers but is not a block of them; the message says why."""


def read_block(text: str) -> Block | None:
    """The rows of numbers in ``text``, or None when it is not several numbers (one value, or
    words): that is typed into the cell instead, where parse_cell answers it. Raises
    BlockError for a block with a bad number or rows of different lengths."""
    body = text.strip()
    if len(body) > MAX_CHARS:
        raise BlockError(f"too long to paste ({len(body):,} characters)")
    if not body or _DECIMAL_COMMA.match(body):
        return None
    lines = [line.strip() for line in body.splitlines() if line.strip()]
    blank = None  # a blank line between rows, outside brackets and tables
    if all(line.startswith("|") for line in lines):
        rows = _markdown_rows(lines)
    elif "[" in body:  # a printed array or a list: each innermost [...] is one row
        rest = _ROW_IN_BRACKETS.sub(" ", body).replace("[", " ").replace("]", " ")
        if _WRAPPING.sub(" ", rest).strip(" ,;\t\r\n"):
            return None  # words around the numbers: not a block (the cell says what is wrong)
        # MATLAB and Julia write [1 2; 3 4]: a ; inside brackets ends a row
        # in code a comma always separates: [[1,0],[0,1]] is four numbers
        rows_text = [r for group in _ROW_IN_BRACKETS.findall(body) for r in group.split(";")]
        rows = [_tokens(r, code=True) for r in rows_text]
    elif "\t" in body:  # spreadsheet cells: only tabs separate (a cell may be 0,5)
        # a tab at a row's start or end is an empty cell, as a comma there is, and a blank
        # line a row of them: dropped, they moved the numbers after them
        cells = [line.strip(" \r") for line in text.strip(" \r\n").splitlines()]
        rows = [[_unquote(t.strip(" ")) for t in line.split("\t")] for line in cells]
    else:
        # in a column of numbers, a blank line is a blank cell: dropped, it moved every number
        # after it up one (between rows of several numbers it only sets them apart)
        blank = next((i for i, line in enumerate(body.splitlines()) if not line.strip()), None)
        if '"' in body and "," in body:  # quoted CSV, as spreadsheets save it: "1.5","2"
            import csv

            rows = [[t.strip() for t in next(csv.reader([line], skipinitialspace=True))]
                    for line in lines]
        else:
            rows = [[_unquote(t) for t in _tokens(line, code=False)] for line in lines]
    rows = [r for r in rows if r]
    if blank is not None and len(rows) >= 2 and all(len(r) == 1 for r in rows) and any(
            parse_cell(t).ok for row in rows for t in row):
        raise BlockError(f"row {blank + 1} is empty: fill every cell, or paste a smaller block")
    for i, row in enumerate(rows):  # an empty cell would move the numbers after it
        if "" in row:
            j = row.index("")
            raise BlockError(f"row {i + 1}, number {j + 1} is empty: fill every cell, or "
                             "paste a smaller block")
    if sum(len(r) for r in rows) < 2:
        return None
    if not any(parse_cell(t).ok or _DECIMAL_COMMA.match(t) for row in rows for t in row):
        return None  # words, not numbers: typed into the cell, which says what is wrong
    first = len(rows[0])
    if any(len(row) != first for row in rows):
        r = next(i for i, row in enumerate(rows) if len(row) != first)
        spaced = next((i for i, row in enumerate(rows) if len(row) == 1 and len(row[0].split()) > 1),
                      None) if "\t" in body and "[" not in body else None
        if spaced is not None and (tabbed := next(
                (i for i, row in enumerate(rows) if len(row) > 1), None)) is not None:
            # a row typed by hand beside cells copied from a sheet: its numbers read as one
            raise BlockError(f"row {tabbed + 1} is split by tabs but row {spaced + 1} by "
                             "spaces: split every row the same way")
        # 1,2 above 3.5,4: the comma read as a decimal one made row 1 one number
        for i, row in enumerate(rows):
            for j, token in enumerate(row):
                if _DECIMAL_COMMA.match(token):
                    raise BlockError(_comma_inside(f"row {i + 1}, number {j + 1}", token))
        raise BlockError(f"row 1 has {_count(first)} but row {r + 1} has {_count(len(rows[r]))}:"
                         " paste a rectangle of numbers")
    block = []
    for i, row in enumerate(rows):
        values = []
        for j, token in enumerate(row):
            parsed = parse_cell(token)
            if not parsed.ok:
                where = f"row {i + 1}, number {j + 1}" if len(rows) > 1 else f"number {j + 1}"
                if _DECIMAL_COMMA.match(token):
                    raise BlockError(_comma_inside(where, token))
                raise BlockError(f"{where}: {parsed.error}")
            values.append(parsed.value)
        block.append(tuple(values))
    return tuple(block)


def _comma_inside(where: str, token: str) -> str:
    return (f"{where}: '{token}' has a comma inside; write {token.replace(',', '.')} for one "
            "number, or a space after the comma for two")


def paste_too_long(text: str) -> str:
    """Why ``text``, neither a block (read_block gave None) nor short enough for a cell, is not
    pasted: a number with too many digits, or words."""
    body = text.strip()
    if one_number(body):
        return too_long(body)
    return f"{len(body):,} characters are neither a number nor a block of numbers"


_RULE = re.compile(r":?-+:?")


def _markdown_rows(lines: list[str]) -> list[list[str]]:
    """A Markdown table (attn-tui's own `c` copies, notes): its cells, without the rule under
    the header, the header itself when it is names (d1 d2), and a first column of names
    (tokens) when every row starts with one."""
    rows = [[cell.strip() for cell in line.strip("|").split("|")] for line in lines]
    if len(rows) > 1 and rows[1] and all(_RULE.fullmatch(c) for c in rows[1]):
        header = rows.pop(0)
        rows.pop(0)
        if all(parse_cell(c).ok for c in header):  # a header of numbers is a row of numbers
            rows.insert(0, header)
    if rows and all(row and not parse_cell(row[0]).ok for row in rows):
        rows = [row[1:] for row in rows]
    return rows


def _tokens(line: str, code: bool) -> list[str]:
    """Numbers on a line, split at spaces, semicolons and commas; outside code a piece that
    reads as a decimal comma (0,5, also between semicolons) stays whole, to be refused with
    what to type. Spaces around a comma or a semicolon belong to it; two of those in a row
    (1;;3, 1, ,3), or one at the start of the line, or a comma at its end, leave an empty
    number, which is refused too (dropped, it moved the numbers after it into the wrong
    columns). A semicolon at the end of a line ends a row, as in MATLAB."""
    items = []  # the numbers, and each "," or ";" written between them
    for piece in line.split():
        for part in _SEMICOLON.split(piece):  # 0,5;1,5: a decimal-comma locale's CSV
            if not code and _DECIMAL_COMMA.match(part):
                items.append(part)
            else:
                items += [p for p in _COMMA.split(part) if p]
    if items and items[-1] == ";":  # MATLAB's rows end with one: 1 2 3;
        items.pop()
    out, after_separator = [], True  # a separator first leaves an empty number before it
    for item in items:
        if item in (",", ";"):
            if after_separator:
                out.append("")
            after_separator = True
        else:
            out.append(item)
            after_separator = False
    if items and items[-1] == ",":
        out.append("")
    return out


def _unquote(cell: str) -> str:
    """A cell without the double quotes a spreadsheet may put around it: "1.5" is 1.5."""
    cell = cell.strip()
    return cell[1:-1].strip() if len(cell) >= 2 and cell[0] == cell[-1] == '"' else cell


def _count(n: int) -> str:
    return plural(n, "number")
