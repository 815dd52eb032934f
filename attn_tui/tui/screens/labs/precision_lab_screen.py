"""The precision lab: float64 is not float32, and a naive softmax overflows.

One seeded attention (6 tokens, d_k = 8) in every precision, each stage's largest |difference|
from float64; numpy against torch on the same inputs; the naive softmax against the stable one
on scores made large by a multiplier; and the lecture's ``allclose`` that says False in float32.

Actions (for keys, the command palette and lessons, as ``screen.<action>``):
``set_multiplier(100)`` multiplies the scores (0.001 … 100000);
``step_multiplier(1)`` / ``step_multiplier(-1)`` walk 1, 2, 5, 10 … 10000 (the + and - keys);
``set_seed(0)``; ``set_backend('torch')`` numpy or torch for float64 and float32; ``reset()``.
State to read: ``settings`` (PrecisionSettings), ``outcome`` (PrecisionRun: dtypes, backends,
softmax, lecture), ``message``.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from rich.text import Text
from textual.app import ComposeResult
from textual.containers import Vertical
from textual.widgets import Static

from attn_tui.compute import torch_problem, torch_usable
from attn_tui.compute.precision import (
    BASE_SCORES,
    MULTIPLIERS,
    AllcloseCheck,
    StageDiff,
    allclose_check,
    compare_backends,
    compare_dtypes,
    softmax_race,
)
from attn_tui.report.fmt import num
from attn_tui.tui import bindings
from attn_tui.tui.screens.labs.background import LatestRun
from attn_tui.tui.screens.labs.lab_screen import LabScreen, setter
from attn_tui.tui.widgets.control_field import Field
from attn_tui.tui.widgets.text_table import TextTable
from attn_tui.tui.widgets.words_in_place import put_words


def fields(backends: tuple[str, ...]) -> tuple[Field, ...]:
    return (
        Field("multiplier", "scores ×", "ladder", 0.001, 100_000, choices=MULTIPLIERS,
              meaning="every score multiplied by this"),
        Field("seed", "seed", "int", 0, 2**31 - 1),
        Field("backend", "backend", "choice", choices=backends),
    )


def backend_choices() -> tuple[str, ...]:
    """numpy, and torch where it imports (asked when the lab opens, not when it is loaded)."""
    return ("numpy", "torch") if torch_usable() else ("numpy",)


@dataclass(frozen=True)
class PrecisionSettings:
    multiplier: float = 1
    seed: int = 0
    backend: str = "numpy"


@dataclass(frozen=True, eq=False)
class PrecisionRun:
    dtypes: tuple
    backends: tuple
    softmax: tuple
    lecture: tuple[AllcloseCheck, ...]


def sci(x: float) -> str:
    """A difference: 0, nan, or three significant digits in scientific notation."""
    if math.isnan(x):
        return "nan"
    return "0" if x == 0 else f"{x:.2e}"


def _compute(s: PrecisionSettings, lectures: tuple | None) -> PrecisionRun:
    if lectures is None:  # the lecture's own draws need torch; it does not change with m
        lb = "torch" if torch_usable() else "numpy"
        lectures = tuple(allclose_check(dt, lb) for dt in ("float32", "float64"))
    return PrecisionRun(compare_dtypes(s.multiplier, s.seed, s.backend),
                        compare_backends(s.multiplier, s.seed),
                        softmax_race(s.multiplier, s.backend), lectures)


class PrecisionLabScreen(LabScreen):
    FIELDS = fields(("numpy", "torch"))
    BINDINGS = bindings.LABS["precision"]

    def __init__(self, backend: str = "numpy", dtype: str = "float64", **kwargs) -> None:
        choices = backend_choices()
        self.FIELDS = fields(choices)
        self.start_backend = backend if backend in choices else "numpy"
        super().__init__(backend, dtype, **kwargs)
        self.outcome: PrecisionRun | None = None
        self.runs = LatestRun(self, "precision-lab")

    def default_settings(self) -> PrecisionSettings:
        return PrecisionSettings(backend=self.start_backend)

    def compose_body(self) -> ComposeResult:
        with Vertical(id="softmax-box", classes="pane"):
            yield Static(id="softmax-scores", classes="lab-text")
            yield TextTable(id="softmax-table", cell_width=11, label_width=9, corner="dtype")
            yield Static(id="softmax-caption", classes="lab-text")
        with Vertical(id="dtype-box", classes="pane"):
            yield TextTable(id="dtype-table", cell_width=11, label_width=18, corner="dtype")
            yield Static(id="dtype-caption", classes="lab-text")
        with Vertical(id="backend-box", classes="pane"):
            yield TextTable(id="backend-table", cell_width=11, label_width=24, corner="")
            yield Static(id="backend-caption", classes="lab-text")
        with Vertical(id="lecture-box", classes="pane"):
            yield Static(id="lecture-text", classes="lab-text")
        yield Static(id="status", classes="lab-status")

    def recompute(self) -> None:
        s, lectures = self.settings, self.outcome.lecture if self.outcome else None
        put_words(self.query_one("#status", Static), "computing…")
        self.runs.start(lambda job: _compute(s, lectures), lambda run: self.deliver(s, run),
                        lambda error: self.say(str(error), error=True))

    def deliver(self, s: PrecisionSettings, run: PrecisionRun) -> None:
        self.outcome = run
        self._show_dtypes(s, run.dtypes)
        self._show_softmax(s, run.softmax)
        self._show_backends(run.backends)
        self._show_lecture(run)
        problem = torch_problem()
        extra = f"  ({problem} for float16 and bfloat16)" if problem else ""
        # plain text: the install hint's [torch] is not a style
        put_words(self.query_one("#status", Static), Text(f"seed {s.seed} · scores × "
                                                      f"{s.multiplier:g}{extra}"))

    def _show_dtypes(self, s: PrecisionSettings, rows: tuple[StageDiff, ...]) -> None:
        cells, labels, flagged, reasons = [], [], set(), []
        for i, r in enumerate(rows):
            labels.append(r.label if r.dtype != "float64" else f"{r.label} (ref)")
            if r.error:  # the whole reason is too long for a cell: the caption says it
                cells.append(("—", "—", "—", "overflow"))
                flagged.add((i, 3))
                reasons.append(f"{r.label}: {r.error}, so nothing is computed in it.")
            elif r.dtype == "float64":
                cells.append(("0", "0", "0", "reference"))
            else:
                diffs = (r.scores, r.weights, r.output)
                cells.append((*map(sci, diffs), "yes" if r.finite else "NO"))
                flagged.update((i, j) for j, x in enumerate(diffs) if not math.isfinite(x))
                if not r.finite:
                    flagged.add((i, 3))
        self.query_one("#dtype-table", TextTable).show(
            labels, ("q·k", "weights α", "output ζ", "α finite?"), cells,
            flagged=frozenset(flagged))
        box = self.query_one("#dtype-box")
        box.border_title = f"one attention (6 tokens, d_k = 8) in every precision, on {s.backend}"
        box.border_subtitle = "largest |difference| from float64; › marks inf, nan and an α not finite"
        put_words(self.query_one("#dtype-caption", Static), Text("\n".join([*reasons, (
            "Significant digits: about 16 in float64, 7 in float32, 3 in float16, 2 in bfloat16, "
            "and the differences follow. Q is multiplied too, so they grow with the scores.")])))

    def _show_softmax(self, s: PrecisionSettings, rows: tuple) -> None:
        z = tuple(s.multiplier * b for b in BASE_SCORES)
        put_words(self.query_one("#softmax-scores", Static),
            "scores z = " + f"{s.multiplier:g} × (1, 0.9, 0.5, 0) = ("
            + ", ".join(f"{x:g}" for x in z) + "); α₁ is the first one's weight")
        cells, flagged, broken, summed, unstorable = [], set(), [], [], []
        for i, r in enumerate(rows):
            naive = float(r.naive[0])
            cells.append((f"{r.limit:.2f}", f"{r.exp_top:.4g}", num(naive),
                          num(float(r.stable[0])), sci(r.stable_error), f"{r.eps:.2e}"))
            if math.isinf(r.exp_top):
                flagged.add((i, 1))
            if r.naive_broken:
                flagged.add((i, 2))
                (summed if r.sum_overflows_alone else broken).append(r.dtype)
            if math.isinf(r.top):  # the score itself does not fit: no softmax can recover
                flagged.add((i, 3))
                unstorable.append(r.dtype)
            if not math.isfinite(r.stable_error):
                flagged.add((i, 4))
        self.query_one("#softmax-table", TextTable).show(
            [r.dtype for r in rows],
            ("ln max", "e^(max z)", "naive α₁", "stable α₁", "stable Δ", "ε"),
            cells, flagged=frozenset(flagged))
        box = self.query_one("#softmax-box")
        box.border_title = "softmax: naive exp(z) / Σ exp(z) against stable exp(z − max z) / Σ …"
        box.border_subtitle = "› marks inf, nan and a naive α broken by an overflow"
        said = []
        if broken:
            said.append(f"Now the naive softmax gives NaN in {', '.join(broken)}: e^(max z) "
                        "became inf, and inf / inf is NaN.")
        if summed:
            said.append(f"In {', '.join(summed)} each exp still fits but their sum does not: "
                        "Σ exp(z) is inf, so every naive weight is x / inf = 0.")
        if not said:
            said.append("No naive exp or sum overflows. Raise the multiplier (+) past an ln "
                        "max.")
        if unstorable:
            said.append(f"In {', '.join(unstorable)} the scores themselves are too large to "
                        "store (inf), so even the stable softmax gives NaN.")
        where = " wherever the scores can be stored" if unstorable else ""
        put_words(self.query_one("#softmax-caption", Static),
            f"{' '.join(said)}\nexp(x) is inf once x > ln(largest number): 709.78 (float64), "
            "88.72 (float32, bfloat16), 11.09 (float16). The stable softmax subtracts max z "
            "first, so no exponent is above 0; its largest error over the four weights, against "
            f"the exact softmax of the same stored scores (stable Δ), stays within ε{where}.")

    def _show_backends(self, rows: tuple[StageDiff, ...]) -> None:
        box = self.query_one("#backend-box")
        box.border_title = "numpy against torch, same inputs, same dtype"
        table = self.query_one("#backend-table", TextTable)
        if not rows:
            table.show([], (), [])
            put_words(self.query_one("#backend-caption", Static),
                Text(f"No torch to compare with: {torch_problem()}."))
            return
        table.show([r.label for r in rows], ("q·k", "weights α", "output ζ"),
                   [(sci(r.scores), sci(r.weights), sci(r.output)) for r in rows])
        put_words(self.query_one("#backend-caption", Static),
            "Same numbers in, same dtype, yet not always bit for bit: the libraries may add "
            "the products of a matmul in a different order, and rounding depends on order.")

    def _show_lecture(self, run: PrecisionRun) -> None:
        box = self.query_one("#lecture-box")
        box.border_title = "the lecture's allclose: a running mean by loops vs by one matmul"
        first = run.lecture[0]
        draws = "the lecture's draws" if first.backend == "torch" else "numpy's draws, not the " \
            "lecture's (those need torch)"
        lines = [f"{first.backend}, seed 1337, {draws}. allclose asks |a − b| ≤ 1e-8 + 1e-5 |b| "
                 "for every element."]
        for c in run.lecture:
            lines.append(f"  {c.dtype}: allclose {c.ok}. Tightest element: |b| = "
                         f"{c.worst_b:.4f} allows {sci(c.worst_allowed)}, the two ways differ "
                         f"by {sci(c.worst_diff)}.")
        if all(c.ok for c in run.lecture):  # numpy's draws (no torch) may leave every b large
            lines.append("Both pass with these draws. The two ways round differently in the "
                         "last bits (about 1e-8 in float32), which only an element with a small "
                         "b cannot absorb: the lecture's draws have one, and float32 fails there.")
        else:
            lines.append("Both ways compute the same means; float32 rounds them differently in "
                         "the last bits, and a small b leaves almost no room. "
                         "float64's rounding step is 2²⁹ ≈ 5.4×10⁸ times finer (ε 2.2e-16 "
                         "against 1.2e-7).")
        put_words(self.query_one("#lecture-text", Static), "\n".join(lines))

    # ---- actions: the names lessons and the command palette use
    action_set_multiplier = setter("multiplier")
    action_set_seed = setter("seed")
    action_set_backend = setter("backend")

    def action_step_multiplier(self, direction: int) -> None:
        field, now = self.FIELDS[0], self.settings.multiplier
        new = field.stepped(now, direction)
        if new == now:  # + at the top said nothing
            self.refuse(field.at_end(now, direction))
        else:
            self.offer("multiplier", new)
