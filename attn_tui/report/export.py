"""Export what the workbench shows: the step table and the weights as Markdown, CSV or LaTeX,
every stage as .npz, or a standalone script (see ``script.py``).

The Markdown tables themselves are made in ``tables.py``, whose code exported scripts copy.
"""

from __future__ import annotations

import csv
import io
import os
from typing import Any

import numpy as np

from attn_tui.compute import Steps, attend
from attn_tui.core.state import Workspace
from attn_tui.core.words import full_stop
from attn_tui.report.fmt import table_num
from attn_tui.report.script import script
from attn_tui.report.tables import distinct, markdown, md_cell, model

FORMATS = ("md", "csv", "tex")
NPZ_STAGES = ("scores", "scaled", "masked", "exp", "weights", "row_sums", "output", "entropy",
              "blocked", "max_entropy", "values")


def compute(ws: Workspace) -> Steps:
    return attend(ws.q, ws.k, ws.v, mask=ws.mask, scale=ws.scale, backend=ws.backend,
                  dtype=ws.dtype)


def table_model(ws: Workspace, steps: Steps | None = None) -> dict[str, Any]:
    s = steps if steps is not None else compute(ws)
    return model(s, ws.selected, ws.query_tokens, ws.key_tokens, ws.mask, ws.scale,
                 ws.backend, ws.dtype)


def export_text(ws: Workspace, fmt: str, steps: Steps | None = None) -> str:
    """The step table of the selected query and the weights matrix, in ``fmt``."""
    render = {"md": _markdown, "csv": _csv, "tex": _latex}.get(fmt)
    if render is None:
        raise ValueError(f"unknown format {fmt!r}; choose one of: {', '.join(FORMATS)}")
    return render(table_model(ws, steps) | {"source": ws.source, "key_tokens": ws.key_tokens,
                                            "query_tokens": ws.query_tokens})


def _markdown(m: dict[str, Any]) -> str:
    # as the exported script prints it (its SOURCE)
    source = m["source"]
    return (f"From {md_cell(source)}{full_stop(source)}\n\n" if source else "") + markdown(m)


def csv_name(name: str) -> str:
    """A token name a spreadsheet will not run as a formula (=, +, -, @ start one)."""
    return "'" + name if name[:1] in ("=", "+", "-", "@") else name


# the labels a CSV's own rows and columns use beside the tokens
_CSV_LABELS = frozenset({"key", "query", "sum", "row_sum", "steps_for_query", "from"})


def csv_names(names: list[str] | tuple[str, ...]) -> list[str]:
    """Token names a CSV reader can tell apart (``tables.distinct``, with the file's own
    labels), as the file writes them: "=1" as "'=1"."""
    out = [csv_name(n) for n in distinct(list(names), _CSV_LABELS)]
    if len(set(out)) < len(out):  # "=1" and "'=1", the same once written: all numbered
        out = [csv_name(f"{i + 1}:{name}") for i, name in enumerate(names)]
    return out


def _csv(m: dict[str, Any]) -> str:
    n_v = len(m["rows"][0]) - 4
    keys, queries = csv_names(m["key_tokens"]), csv_names(m["query_tokens"])  # as typed
    buf = io.StringIO()
    out = csv.writer(buf, lineterminator="\n")
    # named by the mask, not by the query shown: a reader picks a column by its name
    given = ("scaled" if m["scale"] else "unscaled") + ("_masked" if m["mask"] == "causal" else "")
    out.writerow(["key", "q_dot_k", given, "exp", "alpha"] + [f"alpha_v{c + 1}" for c in range(n_v)])
    for key, row in zip(keys, m["rows"], strict=True):
        out.writerow([key] + [table_num(x) for x in row])
    out.writerow(["sum"] + ["" if x is None else table_num(x) for x in m["sums"]])
    out.writerow([])
    out.writerow(["query"] + keys + ["row_sum"])
    for q, row, total in zip(queries, m["weights"], m["row_sums"], strict=True):
        out.writerow([q] + [table_num(x) for x in row] + [table_num(total)])
    # last: the step table's header stays the file's first row
    out.writerows([[], ["steps_for_query", queries[m["index"]],
                        f"{m['index'] + 1} of {m['t_q']}"]])
    if m["source"]:
        out.writerow(["from", m["source"]])
    return buf.getvalue()


_TEX = {"\\": r"\textbackslash{}", "&": r"\&", "%": r"\%", "$": r"\$", "#": r"\#", "_": r"\_",
        "{": r"\{", "}": r"\}", "~": r"\textasciitilde{}", "^": r"\textasciicircum{}",
        # without T1 fonts these print as other glyphs (—, ¡, ¿)
        "|": r"\textbar{}", "<": r"\textless{}", ">": r"\textgreater{}"}


def tex_text(text: str) -> str:
    out = "".join(_TEX.get(c, c) for c in text)
    # after \\ or \midrule a cell starting with [ would be read as their optional argument
    return "{}" + out if out.startswith("[") else out


# the source's quotation marks and dashes in ASCII, as the comment line keeps to it
_ASCII = str.maketrans({"“": '"', "”": '"', "‘": "'", "’": "'", "–": "-", "—": "--", "…": "..."})


def tex_comment(text: str) -> str:
    """``text`` for a % comment line: ASCII, any other character as Python writes its escape
    (\\xe9, \\u65e5)."""
    return text.translate(_ASCII).encode("ascii", "backslashreplace").decode()


def tex_num(x: float) -> str:
    """A number for a text-mode cell: a real minus sign, ∞ for an overflowed exp, and
    e-notation as a power of ten."""
    text = table_num(x)
    if "e" in text and "inf" not in text:
        mantissa, _, exp = text.partition("e")
        return rf"${mantissa}\times 10^{{{int(exp)}}}$"
    return {"inf": r"$\infty$", "-inf": r"$-\infty$"}.get(text) or text.replace("-", "$-$", 1)


def _tabular(head: list[str], rows: list[list[str]], total: list[str] | None) -> list[str]:
    line = " & ".join
    out = [r"\begin{tabular}{l" + "r" * (len(head) - 1) + "}", r"\toprule",
           line(head) + r" \\", r"\midrule"]
    out += [line(r) + r" \\" for r in rows]
    if total is not None:
        out += [r"\midrule", line(total) + r" \\"]
    return out + [r"\bottomrule", r"\end{tabular}"]


def _latex(m: dict[str, Any]) -> str:
    n_v = len(m["rows"][0]) - 4
    scaled = r"$q\cdot k/\sqrt{d_k}$" if m["scale"] else "unscaled"
    if m["scaled_header"].endswith(", masked"):  # it holds the mask's -inf too
        scaled += ", masked"
    head = ["key", r"$q\cdot k$", scaled, r"$\exp$", r"$\alpha$"]
    head += [rf"$\alpha v_{{{c + 1}}}$" for c in range(n_v)]
    rows = [[tex_text(k)] + [tex_num(x) for x in r]
            for k, r in zip(m["keys"], m["rows"], strict=True)]
    total = ["sum"] + ["" if x is None else tex_num(x) for x in m["sums"]]
    # needs \usepackage{booktabs}; comments stay ASCII so any engine reads them
    query = tex_comment(m["query"])  # named, as md names it: 'cat' (3 of 5)
    title = (f"% steps for query '{query}' ({m['index'] + 1} of {m['t_q']}); mask {m['mask']}; "
             f"{'scaled by sqrt(d_k)' if m['scale'] else 'unscaled'}; {m['backend']} {m['dtype']}")
    out = [title] + _tabular(head, rows, total)
    if m["source"]:
        out.insert(0, "% from " + tex_comment(m["source"]))
    out += ["", "% weights alpha: every query (rows) over every key (columns)"]
    head = [r"query $\backslash$ key"] + [tex_text(k) for k in m["keys"]] + ["row sum"]
    rows = [[tex_text(q)] + [tex_num(x) for x in r] + [tex_num(t)]
            for q, r, t in zip(m["queries"], m["weights"], m["row_sums"], strict=True)]
    return "\n".join(out + _tabular(head, rows, None)) + "\n"


def npz_arrays(ws: Workspace, steps: Steps | None = None) -> dict[str, np.ndarray]:
    """Every stage of ``attend`` plus Q, K, V, the token names and the settings (0-d arrays)."""
    s = steps if steps is not None else compute(ws)
    out = {name: np.asarray(getattr(s, name)) for name in NPZ_STAGES}
    # in the precision the stages were computed in (bfloat16's are widened to float32)
    given = {"float64": np.float64, "float16": np.float16}.get(ws.dtype, np.float32)
    out.update(q=np.asarray(ws.q, dtype=given), k=np.asarray(ws.k, dtype=given),
               v=np.asarray(ws.v, dtype=given),
               query_tokens=np.asarray(ws.query_tokens, dtype=str),
               key_tokens=np.asarray(ws.key_tokens, dtype=str))
    settings = dict(mask=ws.mask, scale=ws.scale, backend=ws.backend, dtype=ws.dtype,
                    selected=ws.selected, d_k=s.d_k, scale_factor=s.scale_factor)
    if ws.source:  # the head the numbers came from, not an example's name and seed
        settings.update(source=ws.source)
    else:
        settings.update(seed=ws.seed, preset=ws.preset)
    out.update({k: np.asarray(v) for k, v in settings.items()})
    return out


def export_npz_bytes(ws: Workspace, steps: Steps | None = None) -> bytes:
    buf = io.BytesIO()
    np.savez(buf, **npz_arrays(ws, steps))  # str arrays, not objects: loads without pickle
    return buf.getvalue()


def export_npz(ws: Workspace, path: str | os.PathLike, steps: Steps | None = None) -> None:
    export_file(ws, path, "npz", steps=steps)


def export_script(ws: Workspace, backend: str = "numpy", name: str = "attention.py") -> str:
    """A standalone script printing these numbers; ``name``: the file's, for its "Run:" line."""
    return script(ws, backend, name)


EXTENSIONS = {".md": "md", ".markdown": "md", ".csv": "csv", ".tex": "tex", ".npz": "npz",
              ".py": "py"}
TEXT_NAMES = (".txt", ".text", ".log")  # no export's own, but a reader opens them as text


def format_for(path: str | os.PathLike) -> str | None:
    """The export format a file name asks for, by its extension."""
    return EXTENSIONS.get(os.path.splitext(os.fspath(path))[1].lower())


def export_bytes(ws: Workspace, fmt: str, script_backend: str | None = None,
                 steps: Steps | None = None, name: str | None = None) -> bytes:
    """Any export as the bytes of its file; the script's backend defaults to the workspace's,
    and ``name`` (the file's, when it is a .py) is the one its "Run:" line names."""
    if fmt == "npz":
        return export_npz_bytes(ws, steps)
    if fmt == "py":
        backend = script_backend or ("torch" if ws.backend == "torch" else "numpy")
        return export_script(ws, backend, name or "attention.py").encode("utf-8")
    return export_text(ws, fmt, steps).encode("utf-8")


def name_problem(path: str | os.PathLike, fmt: str | None = None,
                 offered: tuple[str, ...] | None = None, example: str = "steps.md") -> str | None:
    """What is wrong with ``path`` as the name of an export (of ``fmt``, or of the format its
    extension names), whatever is on disk there; None if nothing. ``offered``: the formats
    the caller can write, where not every one (`print heads` writes no tex or py);
    ``example``: a file name to suggest in a folder (the name a dialog offers)."""
    from attn_tui.core.files import short_path

    shown = short_path(os.fspath(path))
    ext = os.path.splitext(os.fspath(path))[1].lower()
    named = format_for(path)
    if ext == ".json":  # a session's name: an export never writes over one
        want = f".{fmt}" if fmt else ".md, .csv, .tex, .npz or .py"
        return (f"{shown} is named as a session (.json), which an export never writes: end "
                f"the name with {want}.")
    if fmt is not None and named is not None and named != fmt:  # npz bytes in notes.md
        other = f", or export {named} instead" if offered is None or named in offered else ""
        return (f"{shown} is named as a .{named} file, but the export is {fmt}: end the name "
                f"with .{fmt}{other}.")
    if fmt == "npz" and ext in TEXT_NAMES:
        return f"{shown} is named as a text file, but npz is binary: end the name with .npz."
    if os.path.isdir(os.path.expanduser(path)):  # a format given too: "it is a directory"
        if fmt is not None:
            example = os.path.splitext(example)[0] + f".{fmt}"
        return (f"Cannot export to {shown}: it is a folder; name a file in it, "
                f"e.g. {os.path.join(shown, example)}.")
    if (fmt or named) is None:
        return f"Cannot tell the format of {shown}: end the name with .md, .csv, .tex, .npz or .py."
    return None


def _run_name(base: str) -> str | None:
    """The file name as a script's "Run: python NAME" line can give it: quoted for a shell;
    None for a pipe's or a device's name, or one a docstring cannot hold as it is."""
    import shlex

    if not base.lower().endswith(".py"):
        return None
    # ./-x.py: a name that starts with a dash would be read as python's own option
    quoted = shlex.quote("./" + base if base.startswith("-") else base)
    return None if '"' in quoted or "\\" in quoted or not quoted.isprintable() else quoted


def export_file(ws: Workspace, path: str | os.PathLike, fmt: str | None = None,
                script_backend: str | None = None, steps: Steps | None = None,
                streams: bool = False, offered: tuple[str, ...] | None = None) -> str:
    """Write an export atomically; the format comes from the extension unless given.
    ``streams``: a device or a pipe is written to as it is (see atomic_write); ``offered``:
    see name_problem.

    Returns the format written; raises ValueError (SessionError for the file) in one sentence.
    """
    from attn_tui.core.files import atomic_write

    if (problem := name_problem(path, fmt, offered)) is not None:
        raise ValueError(problem)
    fmt = fmt or format_for(path)
    assert fmt is not None
    name = _run_name(os.path.basename(os.fspath(path)))
    atomic_write(path, export_bytes(ws, fmt, script_backend, steps, name), streams=streams)
    return fmt
