"""Sessions: a Workspace as a versioned JSON file, written atomically and read back strictly.

Reading either returns a Workspace that state's functions accept (shapes, limits, names), or
raises SessionError with one sentence; it never returns something half-checked.
"""

from __future__ import annotations

import codecs
import json
import math
import os
import re
import stat
import unicodedata
from collections.abc import Callable
from dataclasses import fields, replace
from typing import Any, NamedTuple

from attn_tui.compute.attend import MASKS
from attn_tui.compute.backend import DTYPES_BY_BACKEND
from attn_tui.core.files import ZIP_MAGIC, FileError, atomic_write, npz_kind, os_reason
from attn_tui.core.labs import SCREENS
from attn_tui.core.presets import EXAMPLE_NAMES
from attn_tui.core.state import MAX_ABS, MAX_DK, MAX_DV, MAX_TOKENS, Workspace
from attn_tui.core.words import json_short, plural

FORMAT = "attn-tui-session"
# 2 adds "lab_settings", 3 "kept", 4 the workspace's "source"; a file is written as the
# lowest version that holds it
VERSION = 4
VERSIONS = (1, 2, 3, 4)
MAX_LAB_SETTINGS = 32  # a lab has at most a dozen controls
MAX_BYTES = 24 * 2**20  # the largest workspace, written in full, is about 20 MB
MAX_LABEL = 100
MAX_LAB_TEXT = 2000  # a lab's longest value: the model screen's sentence
MAX_SEED = 2**31 - 1

# float16 has no array-api-strict dtype and bfloat16 exists only in torch
WORKSPACE_KEYS = tuple(f.name for f in fields(Workspace) if f.name != "source")
TOP_KEYS = ("format", "version", "workspace", "screen")
LabSettings = dict[str, bool | int | float | str]


class Session(NamedTuple):
    workspace: Workspace
    screen: str
    lab_settings: LabSettings  # the open lab's controls ({} for the workbench, or version 1)
    # labs left with Esc, by name, as Go to would reopen them (the model screen's sentence)
    kept: dict[str, LabSettings] = {}  # noqa: RUF012 (never changed in place)


# the names of the files attn-tui writes that are not sessions: exports, scripts, runs
NOT_SESSION_NAMES = frozenset({".md", ".csv", ".tex", ".npz", ".py", ".txt"})


class SessionError(FileError):
    """A session could not be read or written; str() is one sentence for the user."""


def is_dirty(current: Workspace, saved: Workspace) -> bool:
    """Unsaved edits? Picking another query to look at is not an edit."""
    return _content(current) != _content(saved)


def _content(ws: Workspace) -> tuple:
    return tuple(getattr(ws, k) for k in WORKSPACE_KEYS if k != "selected")


# ---- writing
def to_json(ws: Workspace, screen: str = "workbench",
            lab_settings: LabSettings | None = None,
            kept: dict[str, LabSettings] | None = None) -> str:
    """The session text: one matrix row per line, so files diff well."""
    parts = []
    for key in WORKSPACE_KEYS:
        value = getattr(ws, key)
        if key in ("q", "k", "v"):
            rows = ",\n      ".join(json.dumps(list(r), allow_nan=False) for r in value)
            text = "[\n      " + rows + "\n    ]"
        else:
            text = json.dumps(list(value) if isinstance(value, tuple) else value)
        parts.append(f"    {json.dumps(key)}: {text}")
    if ws.source:  # where the numbers came from (a model's head): an export credits it
        parts.append(f"    \"source\": {json.dumps(ws.source)}")
    workspace = "{\n" + ",\n".join(parts) + "\n  }"
    lab = (f',\n  "lab_settings": {json.dumps(lab_settings, allow_nan=False)}'
           if lab_settings else "")
    left = f',\n  "kept": {json.dumps(kept, allow_nan=False)}' if kept else ""
    version = 4 if ws.source else 3 if left else 2 if lab else 1
    return (f'{{\n  "format": {json.dumps(FORMAT)},\n  "version": {version},\n'
            f'  "workspace": {workspace},\n  "screen": {json.dumps(screen)}{lab}{left}\n}}\n')


def name_problem(path: str | os.PathLike) -> str | None:
    """Why ``path`` may not name a session, whatever is on disk there; None if it may."""
    ext = os.path.splitext(os.fspath(path))[1].lower()
    if os.path.basename(os.fspath(path)).lower() == ".json":
        return "give the file a name before .json (.json alone would be a hidden file)"
    if ext in NOT_SESSION_NAMES:  # as export and train --save refuse a name of another kind
        others = "" if ext == ".txt" else " (the export dialog, e, writes the other kinds)"
        return (f"it is named as a {ext} file, but a session is JSON: end the name with "
                f".json{others}")
    return None


def save(ws: Workspace, path: str | os.PathLike, screen: str = "workbench",
         lab_settings: LabSettings | None = None,
         kept: dict[str, LabSettings] | None = None) -> None:
    if screen not in SCREENS:
        raise ValueError(f"unknown screen {screen!r}")
    if (problem := name_problem(path)) is not None:
        raise SessionError(problem, os.fspath(path), "save")
    try:
        atomic_write(path, to_json(ws, screen, lab_settings, kept).encode("utf-8"),
                     verb="save")
    except FileError as exc:
        raise SessionError(exc.reason, exc.path, "save") from None


# ---- reading
def load(path: str | os.PathLike, *, stream: bool = False,
         waiting: Callable[[], object] | None = None) -> tuple[Workspace, str]:
    """(workspace, screen) from a session file, or SessionError naming the file."""
    return load_full(path, stream=stream, waiting=waiting)[:2]


PIPE_PATIENCE = 1.0  # seconds a named pipe may keep its writer waiting before it is said


def load_full(path: str | os.PathLike, *, stream: bool = False,
              waiting: Callable[[], object] | None = None) -> Session:
    """A session file, the open lab's settings too, or SessionError naming the file.

    ``stream``: for a command that reads once and ends (export), ``-`` is standard input and
    a pipe (``<(…)``) is read; the app refuses both, as its keys come from the terminal and a
    pipe could hold it before its first screen. ``waiting`` is called once a named pipe has
    had nothing to read for ``PIPE_PATIENCE`` seconds (no program writes to it yet)."""
    shown = os.fspath(path)
    full = os.path.expanduser(shown)
    if shown == "-":
        if not stream:
            raise SessionError("- would be standard input, where the app reads the keyboard; "
                               "name the session's file", shown)
        return _parsed(_read_stdin(), "standard input")
    try:
        st = os.stat(full)
        if stat.S_ISDIR(st.st_mode):
            raise SessionError("it is a directory, not a session file", shown)
        if not stat.S_ISREG(st.st_mode) and not (stream and stat.S_ISFIFO(st.st_mode)):
            # a device never ends; a pipe could hold the app before its first screen
            raise SessionError("it is not a regular file" + (
                " (attn-tui export --session reads a pipe)" if stat.S_ISFIFO(st.st_mode)
                else ""), shown)
        if st.st_size > MAX_BYTES:
            raise SessionError(f"it is {st.st_size / 2**20:.1f} MB, and a session file is at "
                               f"most {MAX_BYTES // 2**20} MB", shown)
        if stat.S_ISFIFO(st.st_mode):
            raw = _read_pipe(full, waiting)
        else:
            with open(full, "rb") as f:
                raw = f.read(MAX_BYTES + 1)
    except OSError as exc:
        raise SessionError(os_reason(exc), shown) from exc
    return _parsed(raw, shown)


def _read_pipe(full: str, waiting: Callable[[], object] | None) -> bytes:
    """A named pipe's bytes, once a program writes to it. Opened as a file is, one with no
    writer held `export --session` silently until ctrl+c."""
    import select

    fd = os.open(full, os.O_RDONLY | os.O_NONBLOCK)  # returns at once, writer or not
    try:
        if not select.select([fd], [], [], PIPE_PATIENCE)[0] and waiting is not None:
            waiting()
        select.select([fd], [], [])  # a writer's bytes, or its end
        os.set_blocking(fd, True)
        chunks, size = [], 0
        while size <= MAX_BYTES and (chunk := os.read(fd, 1 << 16)):
            chunks.append(chunk)
            size += len(chunk)
        return b"".join(chunks)
    finally:
        os.close(fd)


def _read_stdin() -> bytes:
    import sys

    if sys.stdin is None or sys.stdin.isatty():  # closed, or a person would have to type it
        raise SessionError("standard input is " + ("closed" if sys.stdin is None else
                           "the terminal: redirect a session file into it (< s.json) or pipe "
                           "one (cat s.json |)"), "-")
    try:
        return sys.stdin.buffer.read(MAX_BYTES + 1)
    except OSError as exc:
        raise SessionError(os_reason(exc), "standard input") from exc


def _parsed(raw: bytes, shown: str) -> Session:
    if len(raw) > MAX_BYTES:
        raise SessionError(f"it is larger than {MAX_BYTES // 2**20} MB", shown)
    text = decode(raw, shown)
    try:
        return parse_full(text)
    except SessionError as exc:
        ext = os.path.splitext(shown)[1].lower()
        if ext in NOT_SESSION_NAMES and exc.reason.startswith("it is not valid JSON"):
            # an export opened by mistake: its name says what it is, the JSON error did not
            # (a .txt is no export's: e refuses the name)
            made = "" if ext == ".txt" else ", as the export (e) writes"
            raise SessionError(f"it is a {ext} file{made}, not a session: a session is the "
                               "JSON file ctrl+s saves", shown) from None
        raise SessionError(exc.reason, shown) from None


# A byte-order mark names its encoding: Windows editors and PowerShell's ">" write UTF-16 with
# one. UTF-32's marks begin with UTF-16's, so they are tried first.
BOMS = ((codecs.BOM_UTF32_LE, "utf-32"), (codecs.BOM_UTF32_BE, "utf-32"),
        (codecs.BOM_UTF16_LE, "utf-16"), (codecs.BOM_UTF16_BE, "utf-16"))


def _zip_words(raw: bytes) -> str:
    """What a zip opened as a session is, by the arrays it holds: a training run (its meta)
    opens with --lab train --load; an export of the stages opens nowhere."""
    import io
    import zipfile

    try:
        names = set(zipfile.ZipFile(io.BytesIO(raw)).namelist())
    except (zipfile.BadZipFile, OSError, ValueError, EOFError):
        names = set()
    kind = npz_kind(names)
    if kind == "run":
        return ("it is a saved training run (.npz), not a session; attn-tui --lab train "
                "--load opens it")
    if kind == "stages":
        return ("it is an export of the workbench's stages (.npz: the numbers alone), not a "
                "session; a session is the JSON file ctrl+s saves")
    return "it is a zip archive, not a session; a session is the JSON file ctrl+s saves"


def decode(raw: bytes, shown: str) -> str:
    """A session file's text: UTF-8, or UTF-16 or UTF-32 marked by a byte-order mark."""
    if raw.startswith(ZIP_MAGIC):  # a zip: what attn-tui writes as one is a .npz
        raise SessionError(_zip_words(raw), shown)
    encoding = next((enc for bom, enc in BOMS if raw.startswith(bom)), "utf-8-sig")
    try:
        text = raw.decode(encoding)
    except UnicodeDecodeError as exc:
        named = "UTF-8" if encoding == "utf-8-sig" else f"{encoding.upper()}, as its first bytes say"
        raise SessionError(f"it is not a text file (not {named}), so not a session",
                           shown) from exc
    if "\x00" in text:  # valid UTF-8, but no JSON holds a NUL: UTF-16 without its mark, or binary
        raise SessionError("it holds NUL bytes, so it is not UTF-8 text and not a session (UTF-16 "
                           "needs its byte-order mark)", shown)
    return text


def from_json(text: str) -> Workspace:
    return parse(text)[0]


def parse(text: str) -> tuple[Workspace, str]:
    """(workspace, screen) from session text, checked field by field."""
    return parse_full(text)[:2]


def parse_full(text: str) -> Session:
    """The session in ``text``, checked field by field."""
    if not text.strip():
        raise SessionError("it is empty")
    try:
        # NaN/Infinity and 1e400 are refused below, by cell; what json would pass silently,
        # a key given twice (the last one won) and 1e-400 (read as 0), is refused here
        doc = json.loads(text, parse_constant=float, parse_float=_float,
                         object_pairs_hook=_object)
    except SessionError:
        raise
    except json.JSONDecodeError as exc:
        if _cut_short(text, exc):
            raise SessionError("the file ends early, so it looks truncated") from None
        raise SessionError(f"it is not valid JSON (line {exc.lineno}, column {exc.colno}: "
                           f"{exc.msg})") from None
    except (ValueError, RecursionError):  # e.g. a 5,000-digit integer, or [[[[…]]]] nesting
        raise SessionError("it is not JSON that attn-tui can read") from None
    if not isinstance(doc, dict) or doc.get("format") != FORMAT:
        raise SessionError(f'it is not an attn-tui session (no "format": "{FORMAT}")')
    if "version" not in doc:
        raise SessionError("it has no schema version")
    version = doc["version"]
    if type(version) is not int:
        raise SessionError("its schema version is not a whole number")
    if version not in VERSIONS:
        newer = " (a newer attn-tui wrote it)" if version > VERSION else ""
        raise SessionError(f"it is schema version {_short(version)}{newer}; "
                           f"this attn-tui reads versions 1 to {VERSION}")
    if version == 1 and "lab_settings" in doc:
        raise SessionError('it has "lab_settings", which only schema version 2 has, but says '
                           "version 1")
    if version < 3 and "kept" in doc:
        raise SessionError(f'it has "kept", which only schema version 3 has, but says version '
                           f"{version}")
    lab_settings = _lab_settings(doc.pop("lab_settings", {})) if version >= 2 else {}
    kept = _kept(doc.pop("kept", {})) if version >= 3 else {}
    _keys(doc, TOP_KEYS, "the session")
    screen = doc["screen"]
    if screen not in SCREENS:
        raise SessionError(f"unknown screen {_short(screen)}; expected one of {', '.join(SCREENS)}")
    w = doc["workspace"]
    if not isinstance(w, dict):
        raise SessionError('"workspace" is not a JSON object')
    if version < 4 and "source" in w:
        raise SessionError(f'its workspace has "source", which only schema version 4 has, but '
                           f"it says version {version}")
    source = _source(w.pop("source", ""))
    _keys(w, WORKSPACE_KEYS, "the workspace")
    if lab_settings and not screen.startswith("lab:"):
        raise SessionError(f'it has "lab_settings" but its screen is {_short(screen)}, not a lab')
    return Session(replace(_workspace(w), source=source), screen, lab_settings, kept)


MAX_SOURCE = 3000  # a head's: the model, the head and the sentence (2,000 characters at most)


def _source(raw: Any) -> str:
    if not isinstance(raw, str):
        raise SessionError('"source" is not text')
    if len(raw) > MAX_SOURCE or any(_unshowable(c) for c in raw):
        raise SessionError(f'"source" is {_short(raw)}: where the numbers came from, one line of '
                           f"at most {MAX_SOURCE:,} characters without control characters")
    return raw


KEPT_LABS = ("minilm",)  # the labs a session keeps as left with Esc (see "kept")


def _kept(raw: Any) -> dict[str, LabSettings]:
    """Labs left with Esc, by their names: each one's settings checked as lab_settings are."""
    if not isinstance(raw, dict):
        raise SessionError('"kept" is not a JSON object')
    for name in raw:
        if f"lab:{name}" not in SCREENS:
            raise SessionError(f'"kept" names {_short(name)}, which is not a lab')
        if name not in KEPT_LABS:  # taken as read, its settings went unchecked and unused
            raise SessionError(f'"kept" names {_short(name)}: a session keeps only the model '
                               "screen (minilm) left with Esc, not that lab")
    return {name: _lab_settings(settings) for name, settings in raw.items()}


def _lab_settings(raw: Any) -> LabSettings:
    """Names and plain values only: which a lab takes is the lab's to say when it opens."""
    if not isinstance(raw, dict):
        raise SessionError('"lab_settings" is not a JSON object')
    if len(raw) > MAX_LAB_SETTINGS:
        raise SessionError(f'"lab_settings" has {len(raw)} entries; a lab has at most '
                           f"{MAX_LAB_SETTINGS}")
    for key, value in raw.items():
        if len(key) > MAX_LABEL or not key.isidentifier():
            raise SessionError(f"a lab setting is named {_short(key)}, not a setting's name")
        if isinstance(value, int) and not isinstance(value, bool) and abs(value) > 2**53:
            raise SessionError(f"the lab setting {_short(key)} is {_short(value)}, too large "
                               "for any lab's control")
        plain = (isinstance(value, bool | str | int)
                 or (isinstance(value, float) and math.isfinite(value)))
        if isinstance(value, str) and len(value) > MAX_LAB_TEXT:
            raise SessionError(f"the lab setting {_short(key)} is {len(value):,} characters "
                               f"long; a lab's text is at most {MAX_LAB_TEXT:,}")
        if not plain:
            raise SessionError(f"the lab setting {_short(key)} is {_short(value)}, not a "
                               "number, a name or true/false")
    return dict(raw)


def _object(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    d = dict(pairs)
    if len(d) != len(pairs):
        seen: set[str] = set()
        twice = next(k for k, _ in pairs if k in seen or seen.add(k))
        raise SessionError(f"the key {_short(twice)} is given twice in one object; "
                           "keep the one you mean")
    return d


def _float(text: str) -> float:
    x = float(text)
    if x == 0 and any(c in "123456789" for c in text.partition("e")[0].partition("E")[0]):
        raise SessionError(f"{text[:40]} is too small to store (it would read as 0); "
                           "write 0 for zero")
    return x


def _cut_short(text: str, exc: json.JSONDecodeError) -> bool:
    """A document that starts like one and breaks only in its last, unfinished token."""
    body = text.strip()
    if not body.startswith("{") or exc.msg.startswith("Extra data"):
        return False
    # "Unterminated string" only happens when a string runs into the end of the text
    return exc.msg.startswith("Unterminated string") or re.fullmatch(
        r"[^\s,:\[\]{}\"]*", body[exc.pos:]) is not None


def _keys(d: dict, expected: tuple[str, ...], where: str) -> None:
    missing = [k for k in expected if k not in d]
    if missing:
        raise SessionError(f'{where} has no "{missing[0]}"')
    extra = [k for k in d if k not in expected]
    if extra:
        raise SessionError(f'{where} has an unknown key {_short(extra[0])}')


def _short(x: Any) -> str:
    return json_short(x)


def _workspace(w: dict) -> Workspace:
    q, k, v = (_matrix(w[key], key.upper()) for key in ("q", "k", "v"))
    if len(q[0]) != len(k[0]):
        raise SessionError(f"Q rows have {plural(len(q[0]), 'number')} but K rows have {len(k[0])}; "
                           "queries and keys need the same width d_k")
    if len(k) != len(v):
        raise SessionError(f"K has {plural(len(k), 'row')} but V has {len(v)}; each key needs one value")
    if len(v[0]) > MAX_DV:
        raise SessionError(f"V is {len(v[0])} wide; the most attn-tui takes is d_v = {MAX_DV}")
    if len(q[0]) > MAX_DK:
        raise SessionError(f"Q and K are {len(q[0])} wide; the most is d_k = {MAX_DK}")
    query_tokens = _labels(w["query_tokens"], "query_tokens", len(q), "Q")
    key_tokens = _labels(w["key_tokens"], "key_tokens", len(k), "K")
    mask, backend, dtype, preset = (w[n] for n in ("mask", "backend", "dtype", "preset"))
    _choice(mask, MASKS, "mask")
    _choice(backend, tuple(DTYPES_BY_BACKEND), "backend")
    _choice(dtype, ("float64", "float32", "float16", "bfloat16"), "dtype")
    if dtype not in DTYPES_BY_BACKEND[backend]:
        raise SessionError(f"the {dtype} dtype is not available on the {backend} backend")
    _choice(preset, EXAMPLE_NAMES, "preset")
    if type(w["scale"]) is not bool:
        raise SessionError('"scale" is not true or false')
    seed, selected = w["seed"], w["selected"]
    if type(seed) is not int or not 0 <= seed <= MAX_SEED:
        raise SessionError(f'"seed" is {_short(seed)}, not a whole number from 0 to {MAX_SEED}')
    if type(selected) is not int or not 0 <= selected < len(q):
        raise SessionError(f'"selected" is {_short(selected)}, not a query row '
                           f"from 0 to {len(q) - 1} (an index: query 1 is 0)")
    return Workspace(q=q, k=k, v=v, query_tokens=query_tokens, key_tokens=key_tokens,
                     mask=mask, scale=w["scale"], backend=backend, dtype=dtype,
                     selected=selected, seed=seed, preset=preset)


def _matrix(rows: Any, name: str) -> tuple[tuple[float, ...], ...]:
    if not isinstance(rows, list):
        raise SessionError(f"{name} is not a list of rows")
    if not rows:
        raise SessionError(f"{name} is empty; it needs at least one row")
    if len(rows) > MAX_TOKENS:
        raise SessionError(f"{name} has {len(rows)} rows; the most is {MAX_TOKENS} tokens")
    out = []
    for i, row in enumerate(rows, 1):
        if not isinstance(row, list):
            raise SessionError(f"{name} row {i} is not a list of numbers")
        if not row:
            raise SessionError(f"{name} row {i} is empty")
        if len(row) != len(rows[0]):
            raise SessionError(f"{name} row {i} has {plural(len(row), 'number')} but row 1 has "
                               f"{len(rows[0])}; every row needs the same length")
        for j, x in enumerate(row, 1):
            if type(x) not in (int, float):  # bool is an int subclass: refused here too
                raise SessionError(f"{name} row {i}, column {j} is {_short(x)}, not a number")
            if x != x or abs(x) > MAX_ABS:  # NaN, ±inf, a 400-digit integer (no float)
                raise SessionError(f"{name} row {i}, column {j} is {_short(x)}; cells must be "
                                   f"finite numbers between -{MAX_ABS:,.0f} and {MAX_ABS:,.0f}")
        out.append(tuple(float(x) for x in row))
    return tuple(out)


def _labels(xs: Any, key: str, n: int, matrix: str) -> tuple[str, ...]:
    if not isinstance(xs, list) or not all(isinstance(x, str) for x in xs):
        raise SessionError(f'"{key}" is not a list of token names')
    if len(xs) != n:
        raise SessionError(f'"{key}" names {plural(len(xs), "token")} but {matrix} has {plural(n, "row")}')
    for i, x in enumerate(xs):
        if not x.strip():  # an unlabelled row in every table and export
            raise SessionError(f'"{key}" has a blank name ({_short(x)}, token {i + 1}): a token '
                               "name shows at least one character")
        if len(x) > MAX_LABEL or any(_unshowable(c) for c in x):
            raise SessionError(f'"{key}" has the name {_short(x)}: a token name is one line '
                               f"of at most {MAX_LABEL} characters, without control or invisible "
                               "format characters")
    return tuple(xs)


def _unshowable(c: str) -> bool:
    """A character a token name cannot hold: a control, half a surrogate pair (it cannot even
    be written out as UTF-8), a line or paragraph separator, or an invisible format character:
    bidi overrides reorder the text drawn after them, and a zero-width joiner makes one glyph
    of 👨‍👩‍👧 in most terminals but three in Rich's count, which pushes the columns out of line."""
    return unicodedata.category(c) in ("Cc", "Cs", "Zl", "Zp", "Cf")


def _choice(value: Any, choices: tuple[str, ...], key: str) -> None:
    if value not in choices or not isinstance(value, str):
        raise SessionError(f'unknown {key} {_short(value)}; expected one of {", ".join(choices)}')
