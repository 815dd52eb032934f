"""Sessions: save → open gives the same workspace; every bad file is refused with one sentence;
a save that fails part-way leaves the old file as it was."""

from __future__ import annotations

import codecs
import errno
import json
import os
import tempfile
from dataclasses import replace
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from attn_tui.compute import MASKS
from attn_tui.core import session, state
from attn_tui.core.session import SessionError
from attn_tui.core.state import MAX_ABS, MAX_DK, MAX_DV, MAX_TOKENS, Workspace

cells = st.floats(-MAX_ABS, MAX_ABS, allow_nan=False, allow_infinity=False)


@st.composite
def workspaces(draw: st.DrawFn) -> Workspace:
    """A workspace reached the way the app reaches one: a start, then edits through state."""
    start = draw(st.sampled_from(("one", "select", "mask", "random")))
    seed = draw(st.integers(0, 2**31 - 1))
    ws = state.from_preset(start, seed=seed)
    for _ in range(draw(st.integers(0, 8))):
        op = draw(st.sampled_from(("cell", "resize", "add_row", "remove_row", "add_col",
                                   "remove_col", "settings")))
        m = draw(st.sampled_from(state.MATRICES))
        rows, cols = len(ws.matrix(m)), len(ws.matrix(m)[0])
        if op == "cell":
            ws = state.set_cell(ws, m, draw(st.integers(0, rows - 1)),
                                draw(st.integers(0, cols - 1)), draw(cells))
        elif op == "resize":
            ws = state.resize(ws, t=draw(st.integers(1, 7)), d_k=draw(st.integers(1, 5)),
                              d_v=draw(st.integers(1, 5)))
        elif op == "add_row":
            ws = state.add_row(ws, m)
        elif op == "remove_row":
            ws = state.remove_row(ws, m, draw(st.integers(0, rows - 1)))
        elif op == "add_col":
            ws = state.add_column(ws, m)
        elif op == "remove_col":
            ws = state.remove_column(ws, m, draw(st.integers(0, cols - 1)))
        else:
            backend, dtype = draw(st.sampled_from(
                [(b, d) for b, ds in session.DTYPES_BY_BACKEND.items() for d in ds]))
            ws = replace(ws, mask=draw(st.sampled_from(MASKS)), scale=draw(st.booleans()),
                         backend=backend, dtype=dtype)
    return replace(ws, selected=draw(st.integers(0, ws.t_q - 1)))


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(ws=workspaces(), screen=st.sampled_from(session.SCREENS))
def test_save_then_open_gives_an_equal_workspace(ws: Workspace, screen: str) -> None:
    assert session.from_json(session.to_json(ws, screen)) == ws
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp, "s.json")
        session.save(ws, path, screen=screen)
        loaded, loaded_screen = session.load(path)
    assert loaded == ws
    assert loaded_screen == screen
    # the matrices come back as floats, bit for bit (-0.0 included)
    assert [repr(x) for r in loaded.q for x in r] == [repr(x) for r in ws.q for x in r]


def test_the_saved_file_is_json_with_format_and_version_1(tmp_path: Path) -> None:
    ws = replace(state.from_preset("select"), selected=2, mask="causal")
    path = tmp_path / "s.json"
    session.save(ws, path, screen="lab:scaling")
    doc = json.loads(path.read_text(encoding="utf-8"))
    assert doc["format"] == "attn-tui-session"
    assert doc["version"] == 1
    assert doc["screen"] == "lab:scaling"
    assert doc["workspace"]["q"] == [[5.0, 0.0, 0.0], [0.0, 0.0, 5.0], [2.0, 2.0, 2.0]]
    assert doc["workspace"]["selected"] == 2
    assert doc["workspace"]["mask"] == "causal"
    assert set(doc["workspace"]) == set(session.WORKSPACE_KEYS)


def test_the_largest_workspace_fits_under_the_size_limit() -> None:
    worst = -2.2250738585072014e-308  # the longest repr a float in range has
    m = tuple((worst,) * MAX_DK for _ in range(MAX_TOKENS))
    toks = tuple(f"t{i}" for i in range(MAX_TOKENS))
    ws = replace(state.from_preset("one"), q=m, k=m, v=m, query_tokens=toks, key_tokens=toks)
    assert MAX_DK == MAX_DV
    assert len(session.to_json(ws).encode()) < session.MAX_BYTES


# ---- bad files: (what, how the file is made, words the message must contain)
GOOD = json.loads(session.to_json(state.from_preset("select")))


def doc(**changes) -> str:
    d = json.loads(json.dumps(GOOD))
    for key, value in changes.items():
        target, _, field = key.rpartition("__")
        where = d["workspace"] if target == "ws" else d
        if value is DELETE:
            del where[field]
        else:
            where[field] = value
    return json.dumps(d)


DELETE = object()
good_text = session.to_json(state.from_preset("select"))
wide = [[0.0] * (MAX_DK + 1)] * 3
BAD_TEXT = {
    "empty": ("", "empty"),
    "not JSON": ("hello, world", "not valid JSON (line 1, column 1"),
    "truncated": (good_text[: len(good_text) // 2], "truncated"),
    "nested too deep": ("[" * 100_000 + "]" * 100_000, "not JSON that attn-tui can read"),
    "a JSON list": ("[1, 2, 3]", "not an attn-tui session"),
    "another format": (json.dumps({"format": "other", "version": 1}), "not an attn-tui"),
    "no version": (doc(version=DELETE), "no schema version"),
    "version as text": (doc(version="1"), "not a whole number"),
    "newer version": (doc(version=5), "schema version 5 (a newer attn-tui wrote it)"),
    "older version": (doc(version=0), "schema version 0; this attn-tui reads versions 1 to 4"),
    "kept labs in version 2": (doc(version=2, kept={"minilm": {"text": "a"}}),
                               'it has "kept", which only schema version 3 has, but says version 2'),
    "kept, not a lab": (doc(version=3, kept={"workbench": {"text": "a"}}),
                        '"kept" names "workbench", which is not a lab'),
    # read, then never used: a train lab's bad settings there went without a word
    "kept, a lab not kept": (doc(version=3, kept={"train": {"lr": "abc", "steps": -1}}),
                             '"kept" names "train": a session keeps only the model screen '
                             "(minilm) left with Esc, not that lab"),
    "kept, a bad setting": (doc(version=3, kept={"minilm": {"text": [1]}}),
                            'the lab setting "text" is [1], not a number'),
    "lab settings in version 1": (doc(screen="lab:scaling", lab_settings={"trials": 7}),
                                  'it has "lab_settings", which only schema version 2 has'),
    "a 401-digit lab setting": (doc(version=2, screen="lab:scaling",
                                    lab_settings={"seed": 10**400}),
                                'the lab setting "seed" is 1000000000'),
    # a number, only too large: it was called "not a number, a name or true/false"
    "a 2**70 lab setting": (doc(version=2, screen="lab:heads", lab_settings={"D": 2**70}),
                            'the lab setting "D" is 1180591620717411303424, too large for any '
                            "lab's control"),
    # text only too long: it was called "not a number, a name or true/false" too
    "a 2,001-character sentence": (doc(version=2, screen="lab:minilm",
                                       lab_settings={"text": "x" * 2001}),
                                   'the lab setting "text" is 2,001 characters long; a lab\'s '
                                   "text is at most 2,000"),
    "lab settings not an object": (doc(version=2, screen="lab:scaling", lab_settings=[7]),
                                   '"lab_settings" is not a JSON object'),
    "lab setting as a list": (doc(version=2, screen="lab:scaling", lab_settings={"trials": [7]}),
                              'the lab setting "trials" is [7], not a number, a name or true/false'),
    "lab setting badly named": (doc(version=2, screen="lab:scaling", lab_settings={"a b": 1}),
                                'a lab setting is named "a b", not a setting\'s name'),
    "lab settings on the workbench": (doc(version=2, lab_settings={"trials": 7}),
                                      'it has "lab_settings" but its screen is "workbench"'),
    "too many lab settings": (doc(version=2, screen="lab:scaling",
                                  lab_settings={f"s{i}": i for i in range(33)}),
                              '"lab_settings" has 33 entries'),
    "no screen": (doc(screen=DELETE), 'the session has no "screen"'),
    "extra top key": (doc(extra=1), 'unknown key "extra"'),
    "unknown screen": (doc(screen="lab:nope"), 'unknown screen "lab:nope"'),
    "workspace not object": (doc(workspace=[1]), '"workspace" is not a JSON object'),
    "missing field": (doc(ws__mask=DELETE), 'the workspace has no "mask"'),
    "extra field": (doc(ws__colour="red"), 'unknown key "colour"'),
    "matrix as text": (doc(ws__q="1 2 3"), "Q is not a list of rows"),
    "row as number": (doc(ws__k=[1.0, 2.0, 3.0]), "K row 1 is not a list of numbers"),
    "cell as text": (doc(ws__v=[[1, 0, 0], [0, "1", 0], [0, 0, 1]]), 'V row 2, column 2 is "1"'),
    "cell as bool": (doc(ws__v=[[1, 0, 0], [0, True, 0], [0, 0, 1]]), "column 2 is true"),
    "ragged rows": (doc(ws__q=[[1, 2, 3], [1, 2], [1, 2, 3]]), "Q row 2 has 2 numbers"),
    "empty matrix": (doc(ws__q=[]), "Q is empty"),
    "empty row": (doc(ws__q=[[], [], []]), "Q row 1 is empty"),
    "Q width is not K width": (doc(ws__q=[[1, 2]] * 3), "same width d_k"),
    "K rows are not V rows": (doc(ws__v=[[1, 0, 0]] * 2), "K has 3 rows but V has 2"),
    "labels do not fit": (doc(ws__key_tokens=["a", "b"]), "names 2 tokens but K has 3 rows"),
    "one label for three": (doc(ws__key_tokens=["a"]), "names 1 token but K has 3 rows"),
    "one number in a row": (doc(ws__k=[[1, 0, 0], [1], [0, 0, 1]]),
                            "K row 2 has 1 number but row 1 has 3"),
    "label not text": (doc(ws__query_tokens=["a", 2, "c"]), "not a list of token names"),
    "label with newline": (doc(ws__key_tokens=["a", "b\nc", "d"]), "a token name is one line"),
    # loaded, they made unlabelled rows in every table and export ("query,,  ,3:sum")
    "blank label": (doc(ws__query_tokens=["a", "  ", "c"]), 'has a blank name ("  ", token 2)'),
    "empty label": (doc(ws__key_tokens=["", "b", "c"]), "a token name shows at least one"),
    # cut, with its closing quote: it read "xxxx… : a token name"
    "label too long": (doc(ws__key_tokens=["a", "x" * 300, "d"]),
                       f'has the name "{"x" * 37}…": a token name'),
    "NaN": (good_text.replace("5.0", "NaN", 1), "row 1, column 1 is nan"),
    "Infinity": (good_text.replace("5.0", "-Infinity", 1), "row 1, column 1 is -inf"),
    "overflowing literal": (good_text.replace("5.0", "1e400", 1), "finite numbers"),
    "underflowing literal": (good_text.replace("5.0", "1e-400", 1), "1e-400 is too small"),
    "a key given twice": (good_text.replace('"seed": ', '"seed": 5, "seed": ', 1),
                          'the key "seed" is given twice'),
    "too large a value": (good_text.replace("5.0", "2000000.0", 1), "between -1,000,000"),
    "huge integer": (good_text.replace("5.0", "9" * 5000, 1), "not JSON that attn-tui"),
    # 400 digits parse as an int too big for a float: math.isfinite raised OverflowError
    "400-digit integer": (good_text.replace("5.0", "-" + "9" * 400, 1), "column 1 is -999"),
    "400-digit seed": (doc(ws__seed=10**400), '"seed" is 1000'),
    "400-digit version": (doc(version=10**400), "schema version 1000000"),
    "half a surrogate pair": (doc(ws__key_tokens=["a", "\ud800", "c"]), "without control"),
    "line separator": (doc(ws__key_tokens=["a", "b\u2028c", "d"]), "a token name is one line"),
    "bidi override": (doc(ws__query_tokens=["\u202eabc", "b", "c"]), "without control"),
    "zero-width joiner": (doc(ws__query_tokens=["\U0001f468\u200d\U0001f469", "b", "c"]),
                          "invisible format characters"),
    "zero-width space": (doc(ws__key_tokens=["a", "b\u200bc", "d"]), "without control"),
    "unknown mask": (doc(ws__mask="diagonal"), 'unknown mask "diagonal"'),
    "unknown backend": (doc(ws__backend="jax"), 'unknown backend "jax"'),
    "unknown dtype": (doc(ws__dtype="float8"), 'unknown dtype "float8"'),
    "dtype not on backend": (doc(ws__dtype="bfloat16"), "not available on the numpy backend"),
    "unknown preset": (doc(ws__preset="two"), 'unknown preset "two"'),
    "scale not bool": (doc(ws__scale="yes"), '"scale" is not true or false'),
    "seed negative": (doc(ws__seed=-1), '"seed" is -1'),
    "seed fractional": (doc(ws__seed=1.5), '"seed" is 1.5'),
    "selected out of range": (doc(ws__selected=3),
                              '"selected" is 3, not a query row from 0 to 2 (an index: query 1 is 0)'),
    "selected negative": (doc(ws__selected=-1), '"selected" is -1'),
    "selected bool": (doc(ws__selected=True), '"selected" is true'),
    "too many tokens": (doc(ws__q=[[1, 2, 3]] * (MAX_TOKENS + 1)), f"the most is {MAX_TOKENS}"),
    "d_k too wide": (doc(ws__q=wide, ws__k=wide), f"the most is d_k = {MAX_DK}"),
    "d_v too wide": (doc(ws__v=[[0.0] * (MAX_DV + 1)] * 3), f"takes is d_v = {MAX_DV}"),
}


def _check_message(exc: SessionError, path: Path, words: str) -> None:
    text = str(exc)
    assert "\n" not in text
    assert text.startswith(f"Cannot open {path}: ")
    assert text.endswith(".")
    assert words in text


@pytest.mark.parametrize("kind", list(BAD_TEXT))
def test_a_bad_file_is_refused_with_one_sentence(kind: str, tmp_path: Path) -> None:
    text, words = BAD_TEXT[kind]
    path = tmp_path / "bad.json"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(SessionError) as info:
        session.load(path)
    _check_message(info.value, path, words)


def test_a_file_cut_anywhere_is_called_truncated() -> None:
    text = session.to_json(replace(state.from_preset("mask"), mask="causal"))
    body = text.rstrip()
    for n in range(1, len(body)):
        with pytest.raises(SessionError, match="^The file ends early, so it looks truncated.$"):
            session.parse(text[:n])


@pytest.mark.parametrize("text", ['{"a": 1} x', '{"a": [1, 2 3]}', '{"a": tru e}', "hello"])
def test_corrupt_json_is_not_called_truncated(text: str) -> None:
    with pytest.raises(SessionError, match="^It is not valid JSON"):
        session.parse(text)


def test_an_export_opened_as_a_session_is_named_for_what_it_is(tmp_path) -> None:
    """ctrl+o on an export said "not valid JSON (line 1, column 1: Expecting value)"."""
    from attn_tui.report.export import export_text

    path = tmp_path / "head.md"
    path.write_text(export_text(state.from_preset("mask"), "md"), encoding="utf-8")
    with pytest.raises(SessionError) as err:
        session.load(path)
    assert str(err.value) == (f"Cannot open {path}: it is a .md file, as the export (e) "
                              "writes, not a session: a session is the JSON file ctrl+s saves.")
    path = tmp_path / "notes.txt"  # print's text, saved: named as such too
    path.write_text("hello", encoding="utf-8")
    with pytest.raises(SessionError, match="it is a .txt file"):
        session.load(path)
    path = tmp_path / "s.json"
    path.write_text("hello", encoding="utf-8")
    with pytest.raises(SessionError, match="it is not valid JSON"):
        session.load(path)


def test_a_heads_source_is_kept_by_a_session_and_checked_when_read(tmp_path) -> None:
    """A head opened with w and saved came back as plain numbers: its export no longer said
    which model, head and sentence they were, and R had nothing to say about them."""
    ws = replace(state.from_preset("select"),
                 source="all-MiniLM-L6-v2, layer 1 head 3, on “The cat sat.”, edited since")
    text = session.to_json(ws)
    assert json.loads(text)["version"] == 4
    assert session.from_json(text) == ws
    assert json.loads(session.to_json(state.from_preset("select")))["version"] == 1
    for bad, said in ((text.replace('"version": 4', '"version": 3'),
                       'workspace has "source", which only schema version 4 has, but it '
                       "says version 3"),
                      (text.replace("The cat", "The\\u001bcat"), '"source" is '),
                      (text.replace('"source": "all', '"source": 7, "x": "all'),
                       '"source" is not text')):
        with pytest.raises(SessionError) as err:
            session.from_json(bad)
        assert said in str(err.value)


def test_every_bad_text_is_otherwise_a_good_session() -> None:
    # the variants differ from a good file in one place only: the good one must load
    assert session.from_json(doc()) == state.from_preset("select")


def _unreadable(path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path.write_text(good_text)

    def denied(*args, **kwargs):
        raise PermissionError(errno.EACCES, "Permission denied")

    monkeypatch.setattr(session, "open", denied, raising=False)


def _sparse(path: Path, size: int) -> None:
    with path.open("wb") as f:
        f.truncate(size)


BAD_FILES = {
    "missing": (lambda p, mp: None, "no such file"),
    "a directory": (lambda p, mp: p.mkdir(), "it is a directory"),
    "a FIFO": (lambda p, mp: os.mkfifo(p), "not a regular file"),
    "unreadable": (_unreadable, "permission denied"),
    "not UTF-8": (lambda p, mp: p.write_bytes(b"\xfe\x81 not text"), "not UTF-8"),
    "not UTF-16": (lambda p, mp: p.write_bytes(b"\xff\xfe{\x00\x00\xdc"), "not UTF-16, as its"),
    "UTF-16, unmarked": (lambda p, mp: p.write_bytes(good_text.encode("utf-16-le")),
                         "it holds NUL bytes"),
    "binary": (lambda p, mp: p.write_bytes(bytes(range(256)) * 4), "not UTF-8"),
    "too large": (lambda p, mp: _sparse(p, session.MAX_BYTES + 1),
                  "a session file is at most 24 MB"),
}


@pytest.mark.parametrize("kind", list(BAD_FILES))
def test_a_bad_path_is_refused_with_one_sentence(kind: str, tmp_path: Path,
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    make, words = BAD_FILES[kind]
    path = tmp_path / "s.json"
    make(path, monkeypatch)
    with pytest.raises(SessionError) as info:
        session.load(path)
    _check_message(info.value, path, words)


@pytest.mark.skipif(os.geteuid() == 0, reason="root reads files whatever their mode")
def test_a_file_without_read_permission_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "s.json"
    path.write_text(good_text)
    path.chmod(0)
    with pytest.raises(SessionError, match="permission denied"):
        session.load(path)


def test_a_byte_order_mark_is_accepted(tmp_path: Path) -> None:
    path = tmp_path / "s.json"
    path.write_bytes(b"\xef\xbb\xbf" + good_text.encode())
    assert session.load(path) == (state.from_preset("select"), "workbench")


@pytest.mark.parametrize("encoding", ["utf-16", "utf-16-be", "utf-32", "utf-32-be"])
def test_utf16_and_utf32_with_their_byte_order_mark_are_read(tmp_path: Path, encoding: str):
    """as Notepad's "Unicode" and PowerShell's > write them"""
    path = tmp_path / "s.json"
    mark = {"utf-16-be": codecs.BOM_UTF16_BE, "utf-32-be": codecs.BOM_UTF32_BE}.get(encoding, b"")
    path.write_bytes(mark + good_text.encode(encoding))
    assert path.read_bytes()[:2] in (b"\xff\xfe", b"\xfe\xff", b"\x00\x00")
    assert session.load(path) == (state.from_preset("select"), "workbench")


def test_a_labs_settings_are_kept_in_version_2_and_a_workbench_session_stays_version_1(tmp_path):
    ws = state.from_preset("select")
    plain, lab = tmp_path / "plain.json", tmp_path / "lab.json"
    session.save(ws, plain)
    settings = {"d_k": 1024, "trials": 7, "scale": True, "temperature": 0.5, "task": "sort"}
    session.save(ws, lab, screen="lab:scaling", lab_settings=settings)
    assert json.loads(plain.read_text())["version"] == 1  # an older attn-tui still reads it
    assert json.loads(lab.read_text())["version"] == 2
    assert session.load_full(plain) == (ws, "workbench", {}, {})
    assert session.load_full(lab) == (ws, "lab:scaling", settings, {})
    assert session.load(lab) == (ws, "lab:scaling")


def test_a_model_screen_left_with_escape_is_kept_in_version_3(tmp_path):
    ws = state.from_preset("one")
    path = tmp_path / "kept.json"
    kept = {"minilm": {"text": "dogs bark", "layer": 1, "head": 2, "query": 0}}
    session.save(ws, path, kept=kept)
    assert json.loads(path.read_text())["version"] == 3
    assert session.load_full(path) == (ws, "workbench", {}, kept)


@pytest.mark.parametrize("name", ["sess.md", "sess.NPZ", "sess.py", "steps.csv"])
def test_a_session_named_as_another_kind_of_file_is_not_saved(tmp_path, name):
    # ctrl+s took sess.md and wrote JSON into it, while export and train --save refuse a name
    # of another kind
    path = tmp_path / name
    with pytest.raises(session.SessionError) as err:
        session.save(state.from_preset("one"), path)
    assert str(err.value).startswith(f"Cannot save {path}: it is named as a ")
    assert "end the name with .json" in str(err.value) and not path.exists()
    session.save(state.from_preset("one"), tmp_path / "sess")  # no extension: a session
    assert session.load(tmp_path / "sess")[0] == state.from_preset("one")


def test_a_session_named_txt_is_not_sent_to_the_export_that_refuses_txt():
    assert session.name_problem("notes.txt") == (
        "it is named as a .txt file, but a session is JSON: end the name with .json")
    assert "the export dialog, e, writes the other kinds" in session.name_problem("x.md")


def _run_npz(path: Path) -> None:
    import numpy as np

    np.savez(path, meta=np.zeros(1))


def _stages_npz(path: Path) -> None:
    from attn_tui.report import export

    export.export_npz(state.from_preset("mask"), path)


def _other_npz(path: Path) -> None:
    import numpy as np

    np.savez(path, x=np.zeros(1))


# a zip was "a saved training run, or an export" with --lab train --load to open it, which
# then refused an export too; a .txt was "as the export (e) writes", which refuses .txt
@pytest.mark.parametrize(("name", "write", "words"), [
    ("run.npz", _run_npz, "it is a saved training run (.npz), not a session; attn-tui --lab "
     "train --load opens it"),
    ("m.npz", _stages_npz, "it is an export of the workbench's stages (.npz: the numbers "
     "alone), not a session; a session is the JSON file ctrl+s saves"),
    ("other.npz", _other_npz, "it is a zip archive, not a session; a session is the JSON file "
     "ctrl+s saves"),
    ("notes.txt", lambda path: path.write_text("my notes"), "it is a .txt file, not a "
     "session: a session is the JSON file ctrl+s saves"),
])
def test_a_file_of_another_kind_opened_as_a_session_is_named_for_what_it_is(
        tmp_path: Path, name, write, words) -> None:
    path = tmp_path / name
    write(path)
    with pytest.raises(SessionError) as info:
        session.load(path)
    _check_message(info.value, path, words)
