"""Read the numbers out of the two reference printouts in ``shared/seeds/reference``.

``attention.txt`` is what the chapter's ``attention.py`` prints; ``self_attention.txt`` is what
the nanoGPT lecture script prints. Tests compare these parsed numbers with what
``attn_tui.compute`` calculates, each at the number of decimals it was printed with.

The folder is looked for beside the clone (``<repo>/../shared/seeds/reference``), then in
``$ATTN_TUI_SEEDS`` (the seeds folder or its ``reference`` folder), then beside the checkout
this clone was made from, when its ``origin`` is a local folder (a clone in a scratch
directory, as a clean CI run makes). When none has it, :class:`ReferenceNotFound` says where
it looked; the fixtures turn that into a test failure.
"""

from __future__ import annotations

import ast
import os
import re
import subprocess
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

import numpy as np

REPO = Path(__file__).resolve().parents[1]
SIBLING = REPO.parent / "shared/seeds/reference"
ENV_VAR = "ATTN_TUI_SEEDS"
FILES = ("attention.txt", "self_attention.txt")


class ReferenceNotFound(FileNotFoundError):
    """The reference printouts are missing: the compute tests cannot check anything."""


class ReferenceFormatError(ValueError):
    """A reference file no longer has the layout this parser expects."""


# ---------------------------------------------------------------- finding the folder


def origin_sibling(repo: Path = REPO) -> Path | None:
    """``shared/seeds/reference`` beside the local checkout ``repo`` was cloned from, if any."""
    try:
        url = subprocess.run(["git", "-C", str(repo), "config", "--get", "remote.origin.url"],
                             capture_output=True, text=True, timeout=10).stdout.strip()
    except (OSError, subprocess.SubprocessError):
        return None
    if not url or "://" in url.replace("file://", "") or ":" in url.split("/")[0]:
        return None  # no origin, or a remote one (https://, user@host:path)
    origin = Path(url.removeprefix("file://"))
    if not origin.is_absolute():
        origin = repo / origin
    return origin.resolve().parent / "shared/seeds/reference"


def reference_dir(sibling: Path = SIBLING, environ: Mapping[str, str] = os.environ,
                  origin: Path | None | bool = True) -> Path:
    """The folder holding both reference files; raises :class:`ReferenceNotFound` if none does.
    ``origin``: True looks beside the checkout this clone came from; a path is used as is."""
    candidates = [sibling]
    seeds = environ.get(ENV_VAR)
    if seeds:
        candidates += [Path(seeds) / "reference", Path(seeds)]
    if origin is True:
        origin = origin_sibling()
    if origin:
        candidates.append(origin)
    for folder in candidates:
        if all((folder / name).is_file() for name in FILES):
            return folder
    looked = "\n".join(f"  {c}" for c in candidates)
    raise ReferenceNotFound(
        f"cannot find the reference printouts ({', '.join(FILES)}); looked in:\n{looked}\n"
        f"Check out the shared folder beside the clone (../shared/seeds/reference) or set "
        f"{ENV_VAR} to the seeds folder. The compute tests compare against these numbers, "
        f"so they fail rather than skip without them."
    )


# ---------------------------------------------------------------- printed numbers

_NUMBER = r"-?\d[\d,]*(?:\.\d*)?"


class Printed(float):
    """A number as printed: its value plus how many decimals the printout kept."""

    text: str
    decimals: int

    def __new__(cls, text: str) -> Printed:
        clean = text.strip().rstrip("x").replace(",", "")
        obj = super().__new__(cls, float(clean))
        obj.text = text.strip()
        obj.decimals = len(clean.split(".", 1)[1]) if "." in clean else 0
        return obj

    @property
    def tolerance(self) -> float:
        """Half a unit in the last printed place; 0 for whole numbers (they must be exact)."""
        return 0.0 if self.decimals == 0 else 0.5 * 10.0**-self.decimals


@dataclass(frozen=True)
class PrintedArray:
    """A printed tensor: values (with -inf kept) and the decimals torch printed them with."""

    values: np.ndarray
    decimals: int

    @property
    def tolerance(self) -> float:
        return 0.0 if self.decimals == 0 else 0.5 * 10.0**-self.decimals


def _slack(tol: float) -> float:
    # a printed value can sit exactly on the rounding boundary; allow float noise on top
    return tol * (1 + 1e-9) + 1e-12


def assert_printed(actual: object, expected: Printed | PrintedArray, what: str) -> None:
    """``actual`` rounds to ``expected`` at the printed precision (-inf must match exactly)."""
    if isinstance(expected, Printed):
        got = float(actual)  # type: ignore[arg-type]
        diff = abs(got - float(expected))
        assert diff <= _slack(expected.tolerance), (
            f"{what}: computed {got!r}, reference prints {expected.text} "
            f"(off by {diff:.3g}, allowed {expected.tolerance:g})"
        )
        return
    got_arr = np.asarray(actual, dtype=np.float64)
    want = expected.values
    assert got_arr.shape == want.shape, (
        f"{what}: computed shape {got_arr.shape}, reference shape {want.shape}"
    )
    inf_want, inf_got = np.isinf(want), np.isinf(got_arr)
    assert np.array_equal(inf_want, inf_got) and np.array_equal(
        want[inf_want], got_arr[inf_got]
    ), f"{what}: infinities differ\ncomputed:\n{got_arr}\nreference:\n{want}"
    finite = ~inf_want
    diff = np.abs(got_arr[finite] - want[finite])
    worst = float(diff.max()) if diff.size else 0.0
    assert worst <= _slack(expected.tolerance), (
        f"{what}: off by up to {worst:.3g} (allowed {expected.tolerance:g} at "
        f"{expected.decimals} decimals)\ncomputed:\n{got_arr}\nreference:\n{want}"
    )


def _numbers(text: str) -> list[Printed]:
    return [Printed(t) for t in re.findall(_NUMBER, text)]


def _vector(text: str) -> list[Printed]:
    """``[0.1 0.2 0.3]`` or ``(0.4118, 0.4514, 0.5816)`` as printed numbers."""
    return _numbers(text.strip().strip("[]()"))


def _need(pattern: str, text: str, what: str, flags: int = re.M) -> re.Match[str]:
    m = re.search(pattern, text, flags)
    if m is None:
        raise ReferenceFormatError(f"cannot find {what} in the reference (pattern {pattern!r})")
    return m


def _all(pattern: str, text: str, what: str, count: int | None = None) -> list[re.Match[str]]:
    found = list(re.finditer(pattern, text, re.M))
    if not found or (count is not None and len(found) != count):
        raise ReferenceFormatError(
            f"expected {count or 'some'} {what} in the reference, found {len(found)}"
        )
    return found


# ---------------------------------------------------------------- attention.txt


@dataclass(frozen=True)
class KeyRow:
    token: str
    qk: Printed
    scaled: Printed
    exp: Printed
    alpha: Printed


@dataclass(frozen=True)
class StepOne:
    q: list[Printed]
    keys: dict[str, list[Printed]]
    d_k: int
    sqrt_d: Printed
    rows: list[KeyRow]
    exp_sum: Printed
    alpha_sum: Printed
    contributions: list[tuple[Printed, list[Printed]]]  # alpha_i x v_i lines
    output: list[Printed]
    alpha_2dp: list[Printed]  # "Now look at the alpha column: 0.34, 0.30, 0.36."
    entropy: Printed
    max_entropy: Printed


@dataclass(frozen=True)
class SelectQuery:
    name: str
    q: list[Printed]
    alpha: dict[str, Printed]
    output: list[Printed]
    entropy: Printed


@dataclass(frozen=True)
class StepTwo:
    queries: list[SelectQuery]
    max_entropy: Printed


@dataclass(frozen=True)
class ScalingLine:
    d_k: int
    sd: Printed
    entropy_raw: Printed
    entropy_scaled: Printed
    max_alpha_raw: Printed


@dataclass(frozen=True)
class StepThree:
    rows: list[ScalingLine]
    n_keys: int
    max_entropy: Printed


@dataclass(frozen=True)
class MaskTable:
    """Weights with NaN where the printout shows ``.`` (a blocked cell), and the row sums."""

    weights: PrintedArray
    row_sums: list[Printed]


@dataclass(frozen=True)
class StepFour:
    tokens: list[str]
    scores: PrintedArray
    mask_first: MaskTable
    softmax_first: MaskTable
    first_row_sum: Printed  # "Row 1 now sums to 0.4551"


@dataclass(frozen=True)
class StepFive:
    model: dict[str, int]  # V, D, L, h, H
    d_k: int
    counts: dict[str, int]  # ParamCount field -> printed count
    lengths: list[tuple[int, int, Printed]]  # n, n^2, n^2 / 512^2


@dataclass(frozen=True)
class AttentionReference:
    one: StepOne
    select: StepTwo
    scaling: StepThree
    mask: StepFour
    params: StepFive


def _steps(text: str) -> dict[int, str]:
    parts = re.split(r"^STEP (\d) ", text, flags=re.M)
    steps = {int(n): body for n, body in zip(parts[1::2], parts[2::2], strict=True)}
    if sorted(steps) != [1, 2, 3, 4, 5]:
        raise ReferenceFormatError(f"expected STEP 1 to STEP 5, found {sorted(steps)}")
    return steps


def _parse_one(s: str) -> StepOne:
    q = _vector(_need(r"^ query '\w+'\s+q = (\[.*\])$", s, "step 1 query").group(1))
    keys = {
        m.group(1): _vector(m.group(2))
        for m in _all(r"^ key '(\w+)'\s+k = (\[.*\])$", s, "step 1 keys")
    }
    m = _need(r"d_k = (\d+), so the scale is sqrt\(\d+\) = (" + _NUMBER + ")", s, "sqrt(d_k)")
    d_k, sqrt_d = int(m.group(1)), Printed(m.group(2))
    num = f"\\s+({_NUMBER})"
    rows = [
        KeyRow(r.group(1), *(Printed(r.group(i)) for i in range(2, 6)))
        for r in _all(rf"^ ({'|'.join(keys)}){num * 4}$", s, "step 1 table rows", len(keys))
    ]
    sums = _need(rf"^ sum{num}{num}$", s, "step 1 sums")
    contributions = [
        (Printed(c.group(1)), _vector(c.group(2)))
        for c in _all(rf"^ ({_NUMBER}) x (\[.*\])$", s, "alpha_i v_i lines", len(keys))
    ]
    output = _vector(_need(r"^ = (\(.*\))$", s, "step 1 output").group(1))
    alpha_2dp = _numbers(_need(r"alpha column: (.*)\.$", s, "alpha to 2 decimals").group(1))
    ent = _need(rf"entropy is ({_NUMBER}) bits\s+against a maximum of ({_NUMBER})\.", s,
                "step 1 entropy")
    return StepOne(
        q, keys, d_k, sqrt_d, rows, Printed(sums.group(1)), Printed(sums.group(2)),
        contributions, output, alpha_2dp, Printed(ent.group(1)), Printed(ent.group(2)),
    )


def _parse_two(s: str) -> StepTwo:
    blocks = _all(
        r"^ (an? [\w ]+? query)\s+q = (\[.*\])\n alpha (.*)\n output (\(.*\)) entropy ("
        + _NUMBER + ") bits$",
        s, "step 2 queries",
    )
    queries = []
    for b in blocks:
        cells = re.findall(rf"(\w+) ({_NUMBER})", b.group(3))
        queries.append(SelectQuery(
            b.group(1), _vector(b.group(2)), {w: Printed(a) for w, a in cells},
            _vector(b.group(4)), Printed(b.group(5)),
        ))
    top = _need(rf"entropy sits at the ({_NUMBER}) bit maximum", s, "step 2 maximum entropy")
    return StepTwo(queries, Printed(top.group(1)))


def _parse_three(s: str) -> StepThree:
    num = f"\\s+({_NUMBER})"
    rows = [
        ScalingLine(int(r.group(1)), *(Printed(r.group(i)) for i in range(2, 6)))
        for r in _all(rf"^\s+(\d+){num * 4}$", s, "scaling table rows")
    ]
    m = _need(rf"entropy over (\d+) keys is\s+({_NUMBER}) bits", s, "step 3 maximum entropy")
    return StepThree(rows, int(m.group(1)), Printed(m.group(2)))


def _mask_table(block: str, tokens: list[str]) -> MaskTable:
    weights, sums = [], []
    for tok in tokens:
        line = _need(rf"^ {tok}\s+(.*)$", block, f"mask table row {tok!r}").group(1)
        cells = line.split()
        if len(cells) != len(tokens) + 1:
            raise ReferenceFormatError(f"mask table row {tok!r} has cells {cells}")
        weights.append([float("nan") if c == "." else Printed(c) for c in cells[:-1]])
        sums.append(Printed(cells[-1]))
    decimals = {c.decimals for row in weights for c in row if isinstance(c, Printed)}
    return MaskTable(PrintedArray(np.array(weights, dtype=float), max(decimals)), sums)


def _parse_four(s: str) -> StepFour:
    header = _need(r"^ raw scores S.*\n\n(.*)$", s, "step 4 token header").group(1)
    tokens = header.split()
    after_raw = s.split("raw scores S", 1)[1]
    raw_block, rest = after_raw.split("after masking then softmax", 1)
    mask_block, wrong_block = rest.split("Compare softmax first", 1)
    score_rows = [
        _numbers(_need(rf"^ {tok}\s+(.*)$", raw_block, f"score row {tok!r}").group(1))
        for tok in tokens
    ]
    scores = PrintedArray(
        np.array(score_rows, dtype=float), max(c.decimals for r in score_rows for c in r)
    )
    first = _need(rf"Row 1 now sums to ({_NUMBER})", wrong_block, "row 1 sum sentence")
    return StepFour(
        tokens, scores, _mask_table(mask_block, tokens), _mask_table(wrong_block, tokens),
        Printed(first.group(1)),
    )


_COUNT_LABELS = {
    "attention Q,K,V,O": "attention",
    "feed-forward": "feed_forward",
    "layer norms": "layer_norms",
    "one layer": "layer",
    r"all \d+ layers": "layers",
    "embeddings": "embeddings",
    "total": "total",
}


def _parse_five(s: str) -> StepFive:
    m = _need(
        r"\|V\| = (\d+), D = (\d+), layers L = (\d+), heads h = (\d+),\s+"
        r"d_k = d_v = D/h = (\d+), feed-forward H = (\d+)",
        s, "step 5 model sizes",
    )
    model = dict(zip(("V", "D", "L", "h"), map(int, m.group(1, 2, 3, 4)), strict=True))
    model["H"] = int(m.group(6))
    counts = {}
    for label, field in _COUNT_LABELS.items():
        row = _need(rf"^ {label}\s.*?([\d,]+)$", s, f"parameter row {label!r}")
        counts[field] = int(row.group(1).replace(",", ""))
    lengths = [
        (int(r.group(1)), int(r.group(2).replace(",", "")), Printed(r.group(3)))
        for r in _all(r"^\s+(\d+)\s+([\d,]+)\s+([\d.]+)x$", s, "sequence length rows")
    ]
    return StepFive(model, int(m.group(5)), counts, lengths)


def parse_attention(text: str) -> AttentionReference:
    steps = _steps(text)
    return AttentionReference(
        _parse_one(steps[1]), _parse_two(steps[2]), _parse_three(steps[3]),
        _parse_four(steps[4]), _parse_five(steps[5]),
    )


def load_attention(folder: Path | None = None) -> AttentionReference:
    folder = reference_dir() if folder is None else folder
    return parse_attention((folder / "attention.txt").read_text(encoding="utf-8"))


# ---------------------------------------------------------------- self_attention.txt

# What the lecture script prints, in order, named after LectureRun's fields.
LECTURE_PRINTS = (
    "x.shape", "x[0]", "bow_loops[0]", "toy_sum", "toy_tril", "toy_avg_weights", "toy_avg",
    "bow_matmul[0]", "allclose_matmul", "tril", "zero_scores_masked", "avg_weights",
    "bow_softmax[0]", "allclose_softmax", "head_scores[0]", "head_masked[0]", "head_weights[0]",
    "head_out.shape",
)


def _tensor(body: str) -> PrintedArray:
    start, end = body.index("["), body.rindex("]") + 1
    literal = body[start:end]
    values = np.array(ast.literal_eval(literal.replace("inf", "1e999")), dtype=np.float64)
    fractions = re.findall(r"\d\.(\d*)", literal)
    if not fractions:
        raise ReferenceFormatError(f"no numbers in tensor {body[:60]!r}")
    return PrintedArray(values, max(len(f) for f in fractions))


def parse_lecture(text: str) -> dict[str, PrintedArray | tuple[int, ...] | bool]:
    """Each printed item of the lecture script, keyed by the names in :data:`LECTURE_PRINTS`."""
    items: list[PrintedArray | tuple[int, ...] | bool] = []
    pending: list[str] = []
    for line in text.splitlines():
        if pending:
            pending.append(line)
        elif line.startswith("tensor("):
            pending = [line]
        elif m := re.fullmatch(r"torch\.Size\(\[([\d, ]*)\]\)", line.strip()):
            items.append(tuple(int(n) for n in m.group(1).split(",") if n.strip()))
            continue
        elif line.strip() in ("True", "False"):
            items.append(line.strip() == "True")
            continue
        elif line.strip():
            raise ReferenceFormatError(f"unexpected line in the lecture printout: {line!r}")
        if pending:
            body = "\n".join(pending)
            if body.count("(") == body.count(")") and body.rstrip().endswith(")"):
                items.append(_tensor(body))
                pending = []
    if pending or len(items) != len(LECTURE_PRINTS):
        raise ReferenceFormatError(
            f"expected {len(LECTURE_PRINTS)} printed items in self_attention.txt, "
            f"found {len(items)}"
        )
    return dict(zip(LECTURE_PRINTS, items, strict=True))


def load_lecture(folder: Path | None = None) -> dict[str, PrintedArray | tuple[int, ...] | bool]:
    folder = reference_dir() if folder is None else folder
    return parse_lecture((folder / "self_attention.txt").read_text(encoding="utf-8"))
