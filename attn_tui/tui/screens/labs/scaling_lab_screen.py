"""The scaling lab: does dividing by √d_k keep the softmax from saturating? Try it.

Random queries and keys with unit-variance entries, for d_k up to the chosen one in steps of ×4;
the table and the two plots compare the softmax of q·k (raw) with that of q·k / √d_k (scaled).
The defaults are the chapter's experiment and reproduce its table.

Actions (for keys, the command palette and lessons, as ``screen.<action>``):
``set_dk(1024)`` largest d_k, a power of two 1 … 4096 (rows go down from it in steps of ×4);
``set_keys(8)`` 2 … 64; ``set_trials(200)`` 1 … 500; ``set_seed(0)``; ``toggle_scale()``,
``set_scale(True)``; ``set_temperature(1.0)`` 0.05 … 20; ``reset()``.
State to read: ``settings`` (ScalingSettings), ``result`` (the ScalingResult shown), ``shown``
(the settings it was run with), ``message`` (the refusal line, or "").

A change that needs new draws runs in a thread while the table, marked stale, keeps the last
run's numbers; ÷√d_k, the temperature and settings seen before reuse kept scores and answer at
once.
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass, replace

from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical
from textual.widgets import Static

from attn_tui.compute import ScalingResult, scaling_experiment
from attn_tui.compute.scaling import kept_scores, scaling_rows, sweep_up_to
from attn_tui.core.words import plural
from attn_tui.report.fmt import num
from attn_tui.tui import bindings
from attn_tui.tui.screens.labs.background import Job, LatestRun
from attn_tui.tui.screens.labs.lab_screen import LabScreen, setter, toggler
from attn_tui.tui.widgets.control_field import Field
from attn_tui.tui.widgets.series_plot import SeriesPlot
from attn_tui.tui.widgets.text_table import TextTable
from attn_tui.tui.widgets.words_in_place import put_words

FIELDS = (
    Field("d_k", "top d_k", "pow2", 1, 4096,  # the sweep's largest: rows go down from it
          meaning="the last row's d_k; each row above is ÷4"),
    Field("keys", "keys", "int", 2, 64, meaning="keys each random query scores"),
    Field("trials", "trials", "int", 1, 500, step=10,
          meaning="random draws averaged in each row"),
    Field("seed", "seed", "int", 0, 2**31 - 1),
    Field("scale", "÷√d_k", "bool"),
    Field("temperature", "temp", "float", 0.05, 20, step=0.1, places=2,
          meaning="temperature (scores ÷ temp before the softmax)"),
)
FEW_TRIALS = 20  # below this many trials the summary says its trends are noisy
SPREAD_LEVEL = 1.5  # scaled spreads within this factor of each other (and of 1) are "level"
ENTROPY_LEVEL = 0.1  # scaled entropies within this share of log₂ keys are "level"
COLUMNS = ("sd of q·k", "H raw", "H scaled", "max α raw", "max α scaled")


@dataclass(frozen=True)
class ScalingSettings:
    d_k: int = 1024
    keys: int = 8
    trials: int = 200
    seed: int = 0
    scale: bool = True
    temperature: float = 1.0

    @property
    def dims(self) -> tuple[int, ...]:
        return sweep_up_to(self.d_k)


def _moves(before: float, after: float, up: str = "grows", down: str = "falls") -> str:
    return up if after > before else down if after < before else "stays"


def _draws(s: ScalingSettings) -> tuple[int, int, int, int]:
    """What the random numbers depend on: ÷√d_k and the temperature act on them after."""
    return s.d_k, s.keys, s.trials, s.seed


class ScalingLabScreen(LabScreen):
    FIELDS = FIELDS
    BINDINGS = bindings.LABS["scaling"]
    DEFAULT_CSS = """
    ScalingLabScreen #plots { height: auto; }
    ScalingLabScreen .plot-box { width: 1fr; height: auto; }
    ScalingLabScreen.-wide SeriesPlot { height: 15; }
    ScalingLabScreen #table-box.-stale TextTable { text-style: dim; }
    """

    def __init__(self, backend: str = "numpy", dtype: str = "float64", **kwargs) -> None:
        super().__init__(backend, dtype, **kwargs)
        self.result: ScalingResult | None = None
        self.shown: ScalingSettings | None = None  # the settings the table is showing
        self.runs = LatestRun(self, "scaling-lab")
        self.elapsed = 0.0  # seconds the shown result took (draws included, if it drew)
        self._texts: dict[str, str] = {}  # what each text line shows
        self._drawing: ScalingSettings | None = None  # the settings of the run going, if any

    def default_settings(self) -> ScalingSettings:
        return ScalingSettings()

    def compose_body(self) -> ComposeResult:
        with Vertical(id="table-box", classes="pane"):
            yield TextTable(id="scaling-table", cell_width=14, label_width=6, corner="d_k")
            yield Static(id="caption", classes="lab-text")
        yield Static(id="explain", classes="lab-text")
        with Horizontal(id="plots"):
            with Vertical(id="entropy-box", classes="pane plot-box"):
                yield SeriesPlot(id="entropy-plot")
            with Vertical(id="alpha-box", classes="pane plot-box"):
                yield SeriesPlot(id="alpha-plot")
        yield Static(id="status", classes="lab-status")

    # ---- work: the scores are drawn in a thread; the arithmetic on kept scores is done at once
    def recompute(self) -> None:
        s, shown = self.settings, self.shown
        if self.result is not None and shown is not None and replace(shown, scale=s.scale) == s:
            self._drawing = None
            self.runs.supersede()  # both columns are in the result: only what is shown changes
            self.deliver(s, (self.result, self.elapsed))
            return
        kept = kept_scores(s.dims, s.keys, s.trials, s.seed, backend=self.backend,
                           dtype=self.dtype)
        if kept is not None:  # nothing to draw (÷√d_k, temperature, settings seen before)
            self._drawing = None
            self.runs.supersede()
            start = time.perf_counter()
            result = scaling_rows(s.dims, kept, s.keys, s.trials, s.seed, s.temperature)
            self.deliver(s, (result, time.perf_counter() - start))
            return
        self._show_stale(s, 0.0)
        if self._drawing is not None and _draws(self._drawing) == _draws(s):
            return  # the run going draws these numbers: it lands as the settings are by then
        self._drawing = s
        self._put("#status",
                  "computing… (the table shows the last finished run until this one is done)")
        self.runs.start(lambda job: self._experiment(s, job), lambda out: self._landed(s, out),
                        self._failed)

    def _landed(self, s: ScalingSettings, outcome: tuple[ScalingResult, float]) -> None:
        self._drawing = None
        if s != self.settings:  # ÷√d_k or the temperature moved meanwhile: the scores are kept
            self.recompute()
        else:
            self.deliver(s, outcome)

    def _experiment(self, s: ScalingSettings, job: Job) -> tuple[ScalingResult, float]:
        start = time.perf_counter()
        result = scaling_experiment(
            s.dims, s.keys, s.trials, s.seed, temperature=s.temperature, backend=self.backend,
            dtype=self.dtype, should_stop=job.stopped,
            progress=lambda done: job.tell(self._show_stale, s, done),
        )
        return result, time.perf_counter() - start

    def _show_stale(self, s: ScalingSettings, done: float) -> None:
        """Say, where the eye is, that the table below is the last run's and a new one is on
        its way: the box's title (with how far the draws are) and its subtitle."""
        box = self.query_one("#table-box")
        box.add_class("-stale")
        box.border_title = (f"computing {plural(s.trials, 'trial')} × {plural(s.keys, 'key')}, "
                            f"d_k up to {s.d_k}… {done:.0%}")
        box.border_subtitle = "stale: these are the last run's numbers"

    def _failed(self, error: Exception) -> None:
        self._drawing = None
        self.say(str(error), error=True)
        self.query_one("#table-box").border_title = "the run failed: below, the last run's"
        self._put("#status", "the run failed: the table is the last one")

    def deliver(self, s: ScalingSettings, outcome: tuple[ScalingResult, float]) -> None:
        result, elapsed = outcome
        self.result, self.shown, self.elapsed = result, s, elapsed
        self.query_one("#table-box").remove_class("-stale")
        self._show_table(s, result)
        self._explain(s, result)
        # the plots take longer to draw than the rest of the screen: the numbers go out in this
        # frame, the plots in the next
        self.call_after_refresh(self._show_plots, s, result)
        self.app.tutor.host_changed(self)
        self._put("#status",
                  f"{self.backend} {self.dtype} · {plural(len(result.rows), 'row')} × "
                  f"{plural(s.trials, 'trial')} · {plural(s.keys, 'key')} · seed {s.seed} · done")

    def _put(self, selector: str, text: str) -> None:
        """Update a text line only if it changes, and lay the screen out only if its height
        does."""
        if self._texts.get(selector) != text:
            self._texts[selector] = text
            widget = self.query_one(selector, Static)
            height = widget.size.height
            put_words(widget, text)
            # a line more or fewer moves what is below it: a lesson's marks there (the plots,
            # on ÷√d_k) are brought back into view once it is laid out again
            self.call_after_refresh(self._marks_into_view, widget, height)

    def _marks_into_view(self, widget: Static, height: int) -> None:
        if widget.size.height != height:
            self.app.tutor.points_again()

    def _show_table(self, s: ScalingSettings, r: ScalingResult) -> None:
        off = "off"
        cells = [
            (f"{row.sd:.3f}", num(row.entropy_raw),
             num(row.entropy_scaled) if s.scale else off, num(row.max_alpha_raw),
             num(row.max_alpha_scaled) if s.scale else off)
            for row in r.rows
        ]
        self.query_one(TextTable).show([str(row.d_k) for row in r.rows], COLUMNS, cells)
        box = self.query_one("#table-box")
        box.border_title = (f"{plural(s.trials, 'trial')} of one query against "
                            f"{plural(s.keys, 'key')}, N(0, 1) entries")
        box.border_subtitle = f"seed {s.seed}" + (
            f" · temperature {s.temperature:g}" if s.temperature != 1 else "")
        self._put("#caption",
                  f"sd of q·k: the spread of one query's {s.keys} scores, averaged over the "
                  "trials. It follows the query's length |q|, which grows as √d_k, but at "
                  "d_k = 1 averages only 0.8: the first rows grow faster than √d_k. "
                  f"H: entropy of α in bits, at most log₂ {s.keys} "
                  f"= {num(r.max_entropy)} (all keys equal). max α: the largest weight; 1 means "
                  "one key takes everything.")

    def _show_plots(self, s: ScalingSettings, r: ScalingResult) -> None:
        if not self.is_attached or r is not self.result:  # gone, or a newer result is shown
            return
        dims = [str(row.d_k) for row in r.rows]
        raw_h = [row.entropy_raw for row in r.rows]
        raw_a = [row.max_alpha_raw for row in r.rows]
        h_series = [("r", raw_h)] + ([("s", [x.entropy_scaled for x in r.rows])] if s.scale else [])
        a_series = [("r", raw_a)] + ([("s", [x.max_alpha_scaled for x in r.rows])] if s.scale
                                     else [])
        self.query_one("#entropy-plot", SeriesPlot).show(dims, h_series, ceiling=r.max_entropy,
                                                         top=r.max_entropy)
        self.query_one("#alpha-plot", SeriesPlot).show(dims, a_series, ceiling=1.0, top=1.0)
        legend = "r raw  s scaled" if s.scale else "r raw (scaled: off)"
        eb, ab = self.query_one("#entropy-box"), self.query_one("#alpha-box")
        eb.border_title, ab.border_title = "entropy H (bits) against d_k", "max α against d_k"
        eb.border_subtitle = f"{legend}  ─ log₂ {s.keys}"
        ab.border_subtitle = f"{legend}  ─ 1"

    def _explain(self, s: ScalingSettings, r: ScalingResult) -> None:
        top, first = r.rows[-1], r.rows[0]
        if len(r.rows) == 1:
            lines = [f"One row only: raise d_k to see a trend. The raw softmax's entropy is "
                     f"{num(top.entropy_raw)} bits."]
        else:
            growth = top.sd / first.sd if first.sd > 0 else 1.0
            # what the numbers show, not more: at a top d_k of 8 one key takes 0.63, not all
            taken = ("one key takes nearly all the weight, untrained" if top.max_alpha_raw >= 0.9
                     else f"the largest weight {_moves(first.max_alpha_raw, top.max_alpha_raw)}"
                          f" to {num(top.max_alpha_raw)}, untrained")
            # a few trials can turn any trend round: the words follow the numbers, and say so
            few = f" ({plural(r.trials, 'trial')}: noisy)" if r.trials < FEW_TRIALS else ""
            # two lines at 80 columns: under a lesson's panel, a third was cut off
            lines = [f"d_k {first.d_k} → {top.d_k}{few}: the spread of q·k "
                     f"{_moves(first.sd, top.sd, 'grows', 'shrinks')} ×{growth:.1f} "
                     f"(√({top.d_k}/{first.d_k}) = {math.sqrt(top.d_k / first.d_k):.1f}) and raw "
                     f"entropy {_moves(first.entropy_raw, top.entropy_raw, 'rises', 'falls')} "
                     f"{num(first.entropy_raw)} → {num(top.entropy_raw)} bits: {taken}."]
        if s.scale and len(r.rows) == 1:
            lines.append(f"Scaled, its entropy is {num(top.entropy_scaled)} of "
                         f"{num(r.max_entropy)} bits.")
        elif s.scale:
            lines.append(self._scaled_words(r))
        else:
            lines.append("÷√d_k is off: only the raw softmax is shown. Press s to compare.")
        if s.temperature != 1:
            lines.append(f"Temperature {s.temperature:g} divides every score: above 1 flattens "
                         "both columns, below 1 sharpens them.")
        self._put("#explain", "\n".join(lines))

    @staticmethod
    def _scaled_words(r: ScalingResult) -> str:
        """The scaled columns across d_k, claimed level only where every row's figure is."""
        # the scores a softmax sees scaled: q·k ÷ √d_k ÷ temp; how high they sit is the
        # temperature's doing, level across d_k is the point
        spreads = [row.sd / math.sqrt(row.d_k) / r.temperature for row in r.rows]
        level = max(spreads) <= SPREAD_LEVEL * min(spreads)
        near = r.temperature == 1 and all(1 / SPREAD_LEVEL <= x <= SPREAD_LEVEL for x in spreads)
        spread = "the spread stays near 1" if near else "the spread stays level" if level else \
            f"the spread runs {min(spreads):.3g} to {max(spreads):.3g}"
        entropies = [row.entropy_scaled for row in r.rows]
        if max(entropies) - min(entropies) <= ENTROPY_LEVEL * r.max_entropy:
            return (f"Scaled, {spread} and entropy stays level across d_k: "
                    f"{num(entropies[0])} → {num(entropies[-1])} of {num(r.max_entropy)} bits.")
        return (f"Scaled, {spread} and entropy runs {num(min(entropies))} to "
                f"{num(max(entropies))} of {num(r.max_entropy)} bits across d_k.")

    def lesson_shows(self) -> tuple[object, str]:
        s, shown = self.settings, self.shown
        fresh = shown is not None and replace(shown, scale=s.scale) == s
        return (self.result if fresh else None), "computing…"

    # ---- actions: the names lessons and the command palette use
    action_set_dk = setter("d_k")
    action_set_keys = setter("keys")
    action_set_trials = setter("trials")
    action_set_seed = setter("seed")
    action_set_scale = setter("scale")
    action_set_temperature = setter("temperature")
    action_toggle_scale = toggler("scale")
