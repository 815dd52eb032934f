"""Exports hold the screen's numbers: tables parse back to attend()'s values, the .npz holds every
stage, and an exported script, run on its own, prints what the Markdown export shows."""

from __future__ import annotations

import ast
import itertools
import re
import subprocess
import sys
from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest
from export_tables import assert_tables_match, parse_csv, parse_md, parse_tex

from attn_tui.compute import MASKS, attend
from attn_tui.core import state
from attn_tui.report import export
from attn_tui.report.fmt import num

PRESETS = ("one", "select", "mask", "random")
PARSERS = {"md": parse_md, "csv": parse_csv, "tex": parse_tex}
# runs a script with attn_tui made unimportable, so a stray import fails loudly
LAUNCH = ("import runpy, sys; sys.modules['attn_tui'] = None; "
          "runpy.run_path(sys.argv[1], run_name='__main__')")


def workspace(preset: str, mask: str, selected: int = -1) -> state.Workspace:
    ws = state.from_preset(preset, seed=7)
    return replace(ws, mask=mask, selected=selected % ws.t_q)


CASES = list(itertools.product(PRESETS, MASKS))


@pytest.mark.parametrize("fmt", list(PARSERS))
@pytest.mark.parametrize(("preset", "mask"), CASES)
def test_tables_parse_back_to_attends_numbers(fmt: str, preset: str, mask: str) -> None:
    ws = workspace(preset, mask)
    assert_tables_match(ws, PARSERS[fmt](export.export_text(ws, fmt)))


@pytest.mark.parametrize("fmt", list(PARSERS))
def test_awkward_token_names_survive_every_format(fmt: str) -> None:
    names = ("a|b", "x & y", "50%", "c,d", 'say "hi"', "_{$#}^~\\", "*[a]*<b>`", "[b]x[/b]",
             "=SUM(A1)", "-x", "@home", "$x$ ~y~")
    ws = state.random_workspace(len(names), 3, seed=1)
    ws = replace(ws, query_tokens=names, key_tokens=names, mask="causal", selected=4)
    assert_tables_match(ws, PARSERS[fmt](export.export_text(ws, fmt)))


def test_the_mask_example_as_markdown() -> None:
    """Known values, typed in by hand, so a wrong parser cannot hide a wrong table."""
    ws = replace(state.from_preset("mask"), mask="causal-after", selected=1)
    text = export.export_text(ws, "md")
    assert "| dog | 2.0000 | 2.0000 | 7.3891 | 0.5512 | 0.0000 | 0.5512 | 0.0000 | 0.0000 |" in text
    assert "| sum |  |  | 13.4048 | 0.6742 | 0.1230 | 0.5512 | 0.0000 | 0.0000 |" in text
    assert "| the | 0.4551 | 0.0000 | 0.0000 | 0.0000 | 0.4551 |" in text
    assert "α sums to 0.6742; 0.3258 of the weight is lost" in text
    # not a distribution, so no entropy "of at most" log2(2) = 1 bit beside it
    assert "entropy" not in text
    causal = export.export_text(replace(ws, mask="causal"), "md")
    assert "entropy of α: 0.6854 bits of at most 1.0000" in causal  # α 0.1824, 0.8176
    # masked first, the column holds the softmax's input, −inf for a hidden key: headed so
    assert "| key | q·k | unscaled, masked | exp | α |" in causal
    assert "| barked | 1.0000 | -inf | 0.0000 | 0.0000 |" in causal
    assert "| key | q·k | unscaled | exp | α |" in text  # softmax first: no −inf there
    last = export.export_text(replace(ws, mask="causal", selected=3, scale=True), "md")
    assert "| key | q·k | ÷2 | exp | α |" in last  # the last query hides no key
    tex = export.export_text(replace(ws, mask="causal", scale=True), "tex")
    assert r"$q\cdot k/\sqrt{d_k}$, masked" in tex
    header = export.export_text(replace(ws, mask="causal"), "csv").splitlines()[0]
    assert header.startswith("key,q_dot_k,unscaled_masked,exp,alpha,")
    assert export.export_text(ws, "csv").startswith("key,q_dot_k,unscaled,exp,alpha,")
    # the last query hides no key, yet its column keeps the name of the causal mask's
    final = export.export_text(replace(ws, mask="causal", selected=3, scale=True), "csv")
    assert final.startswith("key,q_dot_k,scaled_masked,exp,alpha,")


def test_latex_uses_booktabs_and_real_minus_signs() -> None:
    ws = state.random_workspace(3, 2, seed=3)
    text = export.export_text(ws, "tex")
    assert text.count(r"\toprule") == 2 and text.count(r"\bottomrule") == 2
    assert r"\hline" not in text
    negative = attend(ws.q, ws.k, ws.v).scores[0, 0]
    assert negative < 0 and f"$-${num(-negative)}" in text


def test_an_unknown_format_is_refused() -> None:
    with pytest.raises(ValueError, match="unknown format 'xls'"):
        export.export_text(state.from_preset("one"), "xls")


def test_a_folder_named_as_the_export_says_it_is_a_folder(tmp_path: Path) -> None:
    """e with the name of a folder said "Cannot tell the format of ex"."""
    (tmp_path / "ex").mkdir()
    with pytest.raises(ValueError, match="it is a folder; name a file in it, e.g. .*steps.md"):
        export.export_file(state.from_preset("one"), tmp_path / "ex")
    with pytest.raises(ValueError, match="Cannot tell the format of"):
        export.export_file(state.from_preset("one"), tmp_path / "notes")
    # the format given (the palette's "export csv"): "it is a directory", and no file named
    with pytest.raises(ValueError, match=r"it is a folder; name a file in it, e.g. .*steps\.csv"):
        export.export_file(state.from_preset("one"), tmp_path / "ex", "csv")
    with pytest.raises(ValueError, match=r"Cannot export to ~: it is a folder; .* e.g. ~/steps"):
        export.export_file(state.from_preset("one"), "~", "csv")  # as the writer reads it


@pytest.mark.parametrize("mask", MASKS)
def test_npz_holds_every_stage_and_the_settings(mask: str, tmp_path: Path) -> None:
    ws = workspace("random", mask, selected=2)
    path = tmp_path / "stages.npz"
    export.export_npz(ws, path)
    s = attend(ws.q, ws.k, ws.v, mask=mask, scale=ws.scale)
    with np.load(path, allow_pickle=False) as z:
        for name in export.NPZ_STAGES:
            np.testing.assert_array_equal(z[name], getattr(s, name), err_msg=name)
        for name in ("q", "k", "v"):
            np.testing.assert_array_equal(z[name], np.asarray(getattr(ws, name)))
        assert z["query_tokens"].tolist() == list(ws.query_tokens)
        assert z["mask"].shape == () and str(z["mask"]) == mask
        assert bool(z["scale"]) is ws.scale and int(z["selected"]) == 2
        assert int(z["d_k"]) == ws.d_k and str(z["dtype"]) == "float64"
        assert float(z["scale_factor"]) == pytest.approx(np.sqrt(ws.d_k))
        # what the softmax received: -inf only where the mask comes before it
        assert np.isneginf(z["masked"]).any() == (mask == "causal")
        with np.errstate(over="ignore"):
            np.testing.assert_array_equal(z["exp"], np.exp(z["masked"]))


def run_script(text: str, folder: Path) -> str:
    path = folder / "attention.py"
    path.write_text(text, encoding="utf-8")
    result = subprocess.run(
        [sys.executable, "-I", "-c", LAUNCH, str(path)], capture_output=True, cwd=folder,
        env={}, timeout=120,
    )
    assert result.returncode == 0, result.stderr.decode(errors="replace")
    return result.stdout.decode("utf-8")


def test_the_launcher_really_hides_attn_tui(tmp_path: Path) -> None:
    (tmp_path / "probe.py").write_text("import attn_tui\n")
    result = subprocess.run([sys.executable, "-I", "-c", LAUNCH, str(tmp_path / "probe.py")],
                            capture_output=True, text=True, cwd=tmp_path, env={}, timeout=60)
    assert result.returncode != 0 and "ModuleNotFoundError" in result.stderr


@pytest.mark.parametrize(("preset", "mask"), CASES)
def test_an_exported_script_prints_the_screens_numbers(preset: str, mask: str,
                                                       tmp_path: Path) -> None:
    ws = workspace(preset, mask)
    printed = run_script(export.export_script(ws), tmp_path)
    assert_tables_match(ws, parse_md(printed))
    assert printed == export.export_text(ws, "md")


def test_numbers_from_a_real_head_say_so_in_every_format_and_in_the_script(
        tmp_path: Path) -> None:
    """A head opened with w exported as a table of numbers with no word of where they came
    from, and its .npz named the random example, seed 0."""
    ws = replace(workspace("random", "none"), dtype="float32",
                 source="all-MiniLM-L6-v2, layer 1 head 3, on 'a | b_c'")
    md = export.export_text(ws, "md")
    assert md.startswith("From all-MiniLM-L6-v2, layer 1 head 3, on 'a \\| b\\_c'.\n\nSteps")
    assert run_script(export.export_script(ws), tmp_path) == md
    # which query the steps are for, and where from: after the tables, whose header is first
    query = ws.query_tokens[ws.selected]
    assert export.export_text(ws, "csv").endswith(
        f'\n\nsteps_for_query,{query},{ws.selected + 1} of {ws.t_q}\n'
        'from,"all-MiniLM-L6-v2, layer 1 head 3, on \'a | b_c\'"\n')
    assert export.export_text(ws, "tex").startswith(
        "% from all-MiniLM-L6-v2, layer 1 head 3, on 'a | b_c'\n% steps for query")
    arrays = export.npz_arrays(ws)
    assert str(arrays["source"]) == ws.source and "preset" not in arrays
    assert arrays["q"].dtype == np.float32
    # a sentence that ends itself takes no second full stop: on “The cat sat.”, not “…sat.”.
    said = replace(ws, source="all-MiniLM-L6-v2, layer 1 head 3, on “The cat sat.”")
    md = export.export_text(said, "md")
    assert md.startswith("From all-MiniLM-L6-v2, layer 1 head 3, on “The cat sat.”\n\nSteps")
    assert run_script(export.export_script(said), tmp_path) == md
    plain = export.export_text(replace(ws, source=""), "md")  # typed numbers: as before
    assert plain.startswith("Steps for query") and "preset" in export.npz_arrays(
        replace(ws, source=""))


def test_a_float32_script_matches_float32_attention(tmp_path: Path) -> None:
    ws = replace(workspace("random", "causal", selected=3), dtype="float32", scale=False)
    printed = run_script(export.export_script(ws), tmp_path)
    assert printed == export.export_text(ws, "md")
    assert "numpy float32" in printed


def test_a_script_survives_scores_that_overflow_exp(tmp_path: Path) -> None:
    """Scores near 1e3: the exp column overflows to inf, alpha stays a distribution."""
    ws = state.from_preset("select")
    for r in range(3):
        ws = state.set_cell(ws, "Q", r, r, 1500.0)
    ws = replace(ws, mask="causal", selected=2)
    printed = run_script(export.export_script(ws), tmp_path)
    assert printed == export.export_text(ws, "md")
    steps = parse_md(printed)[0]
    assert "inf" in [r[3] for r in steps]
    assert [r[4] for r in steps if r[0] == "sum"] == ["1.0000"]
    # inf beside α 1.0000 was left unexplained: the file says what the screen's note says
    assert "\nexp overflows float64 (inf above); α is computed from e^(x − max), which " \
           "does not\n" in printed


def test_an_exp_that_underflows_beside_a_weight_is_said(tmp_path: Path) -> None:
    ws = state.from_preset("select")
    for r in range(3):
        ws = state.set_cell(ws, "Q", r, r, -1500.0)
    ws = replace(ws, selected=2)
    printed = run_script(export.export_script(ws), tmp_path)
    assert printed == export.export_text(ws, "md")
    assert "exp underflows float64 to 0 above; α is computed from e^(x − max)" in printed


@pytest.mark.parametrize("dtype", ["float64", "bfloat16"])
def test_a_torch_script_prints_the_same_numbers(dtype: str, tmp_path: Path) -> None:
    pytest.importorskip("torch")
    ws = replace(workspace("mask", "causal-after", selected=2), backend="torch", dtype=dtype)
    printed = run_script(export.export_script(ws, backend="torch"), tmp_path)
    assert_tables_match(ws, parse_md(printed))
    assert printed == export.export_text(ws, "md")
    assert f"torch {dtype}" in printed


@pytest.mark.parametrize("backend", ["numpy", "torch"])
def test_a_script_imports_nothing_but_its_array_library(backend: str) -> None:
    text = export.export_script(workspace("select", "none"), backend=backend)
    imported = set()
    for node in ast.walk(ast.parse(text)):
        if isinstance(node, ast.Import):
            imported |= {a.name for a in node.names}
        elif isinstance(node, ast.ImportFrom):
            imported.add(node.module)
    assert imported == {"__future__", "math", "sys", "types", backend}


@pytest.mark.parametrize("backend", ["numpy", "torch"])
def test_a_script_reads_as_a_teacher_would_hand_it_out(backend: str) -> None:
    """A backslash at a line's end inside the template joined two lines into one of 128
    columns with a run of blanks inside it."""
    text = export.export_script(workspace("mask", "causal"), backend=backend)
    lines = text.splitlines()
    assert max(len(line) for line in lines) <= 100
    assert not [line for line in lines if re.search(r"\S {3,}\S", line.split("#")[0])]


def test_a_script_keeps_every_bit_of_the_matrices() -> None:
    ws = state.set_cell(state.from_preset("one"), "Q", 0, 0, 0.1 + 0.2)
    ws = state.set_cell(ws, "K", 1, 2, -0.0)
    names: dict = {}
    text = export.export_script(ws)
    head = text[: text.index("\ndef ")]
    exec(compile(head.replace("import numpy as np", ""), "script", "exec"), names)
    assert names["Q"][0][0] == 0.30000000000000004
    assert repr(names["K"][1][2]) == "-0.0"
    assert (names["MASK"], names["SCALE"], names["SELECTED"]) == ("none", True, 0)


def test_a_numpy_script_refuses_bfloat16() -> None:
    ws = replace(state.from_preset("one"), backend="torch", dtype="bfloat16")
    with pytest.raises(ValueError, match="numpy has no bfloat16"):
        export.export_script(ws, backend="numpy")


def test_numbers_four_decimals_would_hide_are_written_in_e_notation() -> None:
    # exp(420) was written as its 183 digits, and an α·v of 3.4e-10 as 0.0000
    ws = replace(state.from_preset("one"), q=((700.0, 0.0, 0.0),), scale=False)
    for fmt in ("md", "csv", "tex"):
        text = export.export_text(ws, fmt)
        if fmt == "tex":
            assert r"$2.5333\times 10^{182}$" in text and r"$1.5804\times 10^{-61}$" in text
        else:
            assert "2.5333e+182" in text and "1.5804e-61" in text, fmt
        assert not re.search(r"\d{12}", text), fmt  # no number runs to a dozen digits
    tiny = replace(state.from_preset("one"), v=((1e-9, 0.0, 0.0),) * 3)
    assert "| is | 0.3200 | 0.1848 | 1.2029 | 0.3369 | 3.3694e-10 | 0.0000 | 0.0000 |" in \
        export.export_text(tiny, "md")


def test_latex_guards_a_cell_that_starts_with_a_bracket() -> None:
    ws = replace(state.from_preset("one"), key_tokens=("[b]x", "the", "best"))
    text = export.export_text(ws, "tex")
    assert "\n{}[b]x & " in text  # not read as \\midrule's or \\\\'s optional argument


@pytest.mark.parametrize("fmt", [None, "csv", "md", "npz"])
def test_an_export_never_writes_over_a_session_json(tmp_path: Path, fmt: str | None) -> None:
    """`export --format csv -o mask.json` replaced a saved session with a CSV, exit 0."""
    session = tmp_path / "mask.json"
    session.write_text("{}")
    want = f".{fmt}" if fmt else ".md, .csv, .tex, .npz or .py"
    with pytest.raises(ValueError, match=re.escape(
            f"is named as a session (.json), which an export never writes: end the name with "
            f"{want}.")):
        export.export_file(state.from_preset("one"), session, fmt)
    assert session.read_text() == "{}"


@pytest.mark.parametrize("key, name, content, said", [
    # e on an existing s1.json said "already exists. Enter again replaces it", and the
    # second Enter then refused the name it had offered to write
    ("e", "s1.json", "{}", "is named as a session (.json), which an export never writes: "
                           "end the name with .md, .csv, .tex, .npz or .py."),
    # save as an existing x.md: the same, the other way round
    ("ctrl+s", "x.md", "mine", "it is named as a .md file, but a session is JSON: end the name "
                               "with .json (the export dialog, e, writes the other kinds)."),
])
async def test_a_file_dialog_refuses_a_name_before_it_offers_to_replace_the_file(
        tmp_path: Path, key: str, name: str, content: str, said: str) -> None:
    from textual.widgets import Input, Static

    from attn_tui.tui.app import make_app
    from attn_tui.tui.screens.dialogs.file_modal import FileModal

    existing = tmp_path / name
    existing.write_text(content)
    app = make_app()
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.press(key)
        await pilot.pause()
        modal = app.screen
        assert isinstance(modal, FileModal)
        modal.query_one("#file-path", Input).value = str(existing)
        await pilot.press("enter")
        await pilot.pause()
        shown = str(modal.query_one("#file-error", Static).render())
        assert "already exists" not in shown and shown.endswith(said), shown
    assert existing.read_text() == content


def test_a_tex_comment_gives_the_sources_quotes_and_dashes_in_ascii() -> None:
    """A head's sentence in curly quotes began the .tex with \\u201cThe cat sat.\\u201d."""
    ws = replace(workspace("random", "none"), source="m, on “The cat — sat…” 日")
    first = export.export_text(ws, "tex").splitlines()[0]
    assert first == '% from m, on "The cat -- sat..." \\u65e5'
    assert first.isascii()


def test_a_script_says_to_run_it_by_the_name_it_was_saved_under(tmp_path: Path) -> None:
    ws = state.from_preset("one")
    export.export_file(ws, tmp_path / "one.py")
    assert "Run: python one.py\n" in (tmp_path / "one.py").read_text(encoding="utf-8")
    assert "Run: python attention.py\n" in export.export_bytes(ws, "py").decode()  # to stdout
    export.export_file(ws, tmp_path / "my head.py")  # as a shell reads it
    assert "Run: python 'my head.py'\n" in (tmp_path / "my head.py").read_text(encoding="utf-8")
    export.export_file(ws, tmp_path / "-x.py")  # not python's option -x
    assert "Run: python ./-x.py\n" in (tmp_path / "-x.py").read_text(encoding="utf-8")
    for odd in ('a""".py', "back\\slash.py"):  # a name the docstring cannot hold: the default
        export.export_file(ws, tmp_path / odd)
        script_text = (tmp_path / odd).read_text(encoding="utf-8")
        assert "Run: python attention.py\n" in script_text
        compile(script_text, odd, "exec")  # still a script


def test_md_and_tex_tell_a_repeated_token_and_a_token_named_sum_apart(tmp_path: Path) -> None:
    """A head's Markdown had two columns named "the", and a row "sum" beside the total's, as
    the csv had before it numbered them; the script prints what the Markdown shows."""
    ws = replace(state.from_preset("select"), query_tokens=("the", "cat", "the"),
                 key_tokens=("the", "sum", "the"))
    md = export.export_text(ws, "md")
    steps, alpha = parse_md(md)
    assert [r[0] for r in steps] == ["1:the", "2:sum", "3:the", "sum"]
    assert [r[0] for r in alpha] == ["1:the", "cat", "3:the"]
    assert "| query | 1:the | 2:sum | 3:the | row sum |" in md
    assert run_script(export.export_script(ws), tmp_path) == md
    tex = export.export_text(ws, "tex")
    assert r"query $\backslash$ key & 1:the & 2:sum & 3:the & row sum \\" in tex
    # names a reader can already tell apart are left as they are
    plain = export.export_text(state.from_preset("select"), "md")
    assert "| query | dog | truck | barked | row sum |" in plain
