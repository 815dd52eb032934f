"""The model calculator: where a transformer's parameters sit, and what sequence length costs.

Each component with its formula, one layer, all L layers, the embeddings and the total, for the
chapter's model or a published one; a note says what the chapter's formula leaves out, so the
gap to a model's published count is accounted for. D must split into h heads: when it does not,
a message says so and the last valid numbers stay on screen.

Actions (for keys, the command palette and lessons, as ``screen.<action>``):
``set_preset('chapter')`` one of chapter, transformer-base, bert-base, gpt2-small;
``set_vocab(50000)`` V; ``set_width(512)`` D; ``set_layers(6)`` L; ``set_heads(8)`` h;
``set_hidden(2048)`` H; ``set_tokens(512)`` n for the cost table; ``next_preset()``; ``reset()``.
State to read: ``settings`` (ModelSettings), ``count`` (the last valid ParamCount), ``message``.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical
from textual.widgets import Static

from attn_tui.compute import ParamCount, count_params, sequence_cost
from attn_tui.compute.model_presets import MODEL_PRESETS, PRESET_NAMES, matching_preset
from attn_tui.report.fmt import count
from attn_tui.tui import bindings
from attn_tui.tui.screens.labs.lab_screen import LabScreen, setter
from attn_tui.tui.widgets.control_field import Field
from attn_tui.tui.widgets.text_table import TextTable

FIELDS = (
    # "custom" comes round after the published ones: the learner's own dimensions, kept
    Field("preset", "preset", "choice", choices=(*PRESET_NAMES, "custom")),
    Field("V", "V", "int", 1, 1_000_000, step=1000, meaning="vocabulary size, in tokens"),
    Field("D", "D", "int", 1, 16384, step=64, meaning="numbers per token (d_model)"),
    Field("L", "L", "int", 1, 128, meaning="layers"),
    Field("h", "h", "int", 1, 1024, meaning="heads in each layer"),
    Field("H", "H", "int", 1, 65536, step=256, meaning="feed-forward hidden size"),
    Field("n", "n", "int", 1, 65536, geometric=True, meaning="tokens in the sequence"),
)
LENGTH_STEPS = (0.25, 1, 4, 16, 64)  # the cost table: n/4 … 64 n, as the chapter's 128 … 32768


@dataclass(frozen=True)
class ModelSettings:
    preset: str = "chapter"
    V: int = 50000
    D: int = 512
    L: int = 6
    h: int = 8
    H: int = 2048
    n: int = 512

    @property
    def dims(self) -> dict[str, int]:
        return dict(V=self.V, D=self.D, L=self.L, h=self.h, H=self.H)


def big(n: int | float, width: int = 15) -> str:
    text = count(int(n))
    return text if len(text) <= width else f"{n:.3e}"


def _one_form(values: list[int | float]) -> list[str]:
    """A column's numbers all in full, or all in e-notation once one is too long for it:
    "68,719,476,736" over "1.100e+12" read as the smaller of the two."""
    texts = [big(v) for v in values]
    if any("e" in t for t in texts):
        return [f"{v:.3e}" for v in values]
    return texts


class ModelLabScreen(LabScreen):
    FIELDS = FIELDS
    BINDINGS = bindings.LABS["model"]
    DEFAULT_CSS = """
    ModelLabScreen #model-cols { height: auto; layout: vertical; }
    ModelLabScreen.-wide #model-cols { layout: horizontal; }
    ModelLabScreen.-wide #model-left { width: 72; }
    ModelLabScreen #model-left, ModelLabScreen #model-right { height: auto; }
    ModelLabScreen.-wide #model-right { width: 1fr; }
    """

    def __init__(self, backend: str = "numpy", dtype: str = "float64", **kwargs) -> None:
        super().__init__(backend, dtype, **kwargs)
        self.count: ParamCount | None = None  # the last valid count: it stays when D % h != 0
        self._custom: ModelSettings | None = None  # the learner's own dimensions, if any

    def default_settings(self) -> ModelSettings:
        return ModelSettings()

    def compose_body(self) -> ComposeResult:
        with Horizontal(id="model-cols"):
            with Vertical(id="model-left"):
                with Vertical(id="params-box", classes="pane"):
                    yield TextTable(id="params-table", cell_width=16, label_width=18)
                    yield Static(id="shares", classes="lab-text")
                with Vertical(id="cost-box", classes="pane"):
                    yield TextTable(id="cost-table", cell_width=16, label_width=9,
                                    corner="tokens n")
                    yield Static(id="cost-caption", classes="lab-text")
            with Vertical(id="model-right"):
                with Vertical(id="note-box", classes="pane"):
                    yield Static(id="preset-note", classes="lab-text")

    def updated(self, key: str, value: Any) -> ModelSettings:
        if key == "preset":
            if self.settings.preset == "custom":  # leaving them for a preset: keep them
                self._custom = self.settings
            if value == "custom":
                if self._custom is not None:
                    return replace(self._custom, n=self.settings.n)
                # none yet: step past "custom" to the preset beyond it, either way round
                value = PRESET_NAMES[0] if self.settings.preset == PRESET_NAMES[-1] \
                    else PRESET_NAMES[-1]
            return replace(self.settings, preset=value, **MODEL_PRESETS[value].dims)
        new = replace(self.settings, **{key: value})
        return replace(new, preset=matching_preset(**new.dims) or "custom")

    def lesson_shows(self) -> tuple[object, str]:
        if self.standing_problem() is not None:
            return None, (f"not counted while h = {self.settings.h} does not divide "
                          f"D = {self.settings.D}")
        return self.count, "computing…"

    def standing_problem(self) -> str | None:
        try:
            count_params(**self.settings.dims)
        except ValueError as exc:
            c, s = self.count, self.settings
            # every value the panes still show that the bar no longer does: V and L changed
            # meanwhile are held too
            held = ", ".join(f"{name} = {getattr(c, name):,}" for name in ("V", "D", "L", "h", "H")
                             if c and (name in ("D", "h") or getattr(c, name) != getattr(s, name)))
            last = f" The numbers below are the last valid ones ({held})." if c else ""
            return f"{exc}.{last}"
        return None

    def recompute(self) -> None:
        s = self.settings
        try:
            c = count_params(**s.dims)
        except ValueError:
            self.say(self.standing_problem() or "", error=True)
            self.query_one("#params-box").border_subtitle = "last valid numbers"
            return
        self.count = c
        self._show_params(c)
        self._show_costs(c, s.n)
        self._show_note(s, c)

    def _show_params(self, c: ParamCount) -> None:
        def share(part: int, whole: int, of: str) -> str:
            return f"{100 * part / whole:.1f}% {of}"

        rows = [
            ("attention Q,K,V,O", "4 D²", c.attention, share(c.attention, c.layer, "layer")),
            ("feed-forward", "2 D H + H + D", c.feed_forward,
             share(c.feed_forward, c.layer, "layer")),
            ("layer norms", "4 D", c.layer_norms, share(c.layer_norms, c.layer, "layer")),
            ("one layer", "sum of the above", c.layer, ""),
            ("1 layer" if c.L == 1 else f"all {c.L} layers", "L × layer", c.layers,
             share(c.layers, c.total, "total")),
            ("embeddings", "V D", c.embeddings, share(c.embeddings, c.total, "total")),
            ("total", "", c.total, ""),
        ]
        self.query_one("#params-table", TextTable).show(
            [r[0] for r in rows], ("formula", "parameters", "share"),
            [(r[1], big(r[2]), r[3]) for r in rows], row_styles={3: "total", 6: "total"},
        )
        box = self.query_one("#params-box")
        box.border_title = f"V = {c.V:,}  D = {c.D}  L = {c.L}  h = {c.h}  H = {c.H}"
        box.border_subtitle = ""
        ratio = c.feed_forward / c.attention
        self.query_one("#shares", Static).update(
            f"Feed-forward holds {ratio:.2f}× the attention block's parameters.\n"
            f"d_k = D / h = {c.D} / {c.h} = {c.d_k}. Heads are free: h × d_k = D, so 4 D² "
            f"is the same for any h that divides D.")

    def _show_costs(self, c: ParamCount, n: int) -> None:
        lengths = [int(n * f) for f in LENGTH_STEPS if n * f >= 1 and float(n * f).is_integer()]
        costs = [sequence_cost(t, reference=n) for t in lengths]
        per_head = _one_form([cost for cost, _ in costs])
        all_heads = _one_form([cost * c.h * c.L for cost, _ in costs])
        cells = [(per_head[i], f"{ratio:.2f}×", all_heads[i])
                 for i, (_, ratio) in enumerate(costs)]
        self.query_one("#cost-table", TextTable).show(
            [str(t) for t in lengths], ("n² per head", f"vs n = {n}", "n² h L"), cells,
            row_styles={lengths.index(n): "total"} if n in lengths else None,
        )
        box = self.query_one("#cost-box")
        box.border_title = "what the sequence length costs"
        self.query_one("#cost-caption", Static).update(
            f"No parameter grows with n, but every token scores every token: n² per head, "
            f"n² h L = every head of {'the one layer' if c.L == 1 else f'all {c.L} layers'}. "
            "Four times n, sixteen times the scores.")

    def _show_note(self, s: ModelSettings, c: ParamCount) -> None:
        box = self.query_one("#note-box")
        p = MODEL_PRESETS.get(s.preset)
        if p is None:
            box.border_title = "custom dimensions"
            self.query_one("#preset-note", Static).update(
                f"The count is the chapter's formula. A real model adds biases on the "
                f"projections ({count(4 * c.D * c.L)} here), position embeddings unless they "
                f"are sinusoids, and an output layer of V D = {count(c.embeddings)} more when "
                f"it is not tied to the embeddings.")
            return
        box.border_title = p.title
        lines = [f"published: {p.published}", f"the formula: {count(c.total)}"]
        if p.extras:
            lines.append("left out by the formula:")
            # the numbers first, in a column, then what they count: words after a number column
            # wrapped each number onto a line of its own in the side panel
            rows = [("+", term, count(n)) for term, n in p.extras]
            rows.append(("=", "formula + these", count(p.accounted)))
            nw = max(len(n) for _, _, n in rows)
            lines += [f"  {op} {n:>{nw}}  {term}" for op, term, n in rows]
        lines += ["", p.note]
        self.query_one("#preset-note", Static).update("\n".join(lines))

    # ---- actions: the names lessons and the command palette use
    action_set_preset = setter("preset")
    action_set_vocab = setter("V")
    action_set_width = setter("D")
    action_set_layers = setter("L")
    action_set_heads = setter("h")
    action_set_hidden = setter("H")
    action_set_tokens = setter("n")

    def action_reset(self) -> None:
        if self.settings.preset == "custom":  # R keeps them for the preset cycle, as it goes
            self._custom = self.settings
        super().action_reset()

    def action_next_preset(self) -> None:
        self.offer("preset", FIELDS[0].stepped(self.settings.preset, 1))
