"""The benchmark's figures, targets and table: raw measurements in, rows and text out.

Every figure is a ratio against a baseline measured in the same run (absolute times drift on a
shared machine); the target says which ratio (or, for idle CPU and the import check, which
absolute) must hold. Nothing here measures anything, so the smoke test can feed fake numbers.
"""

from __future__ import annotations

import statistics
from dataclasses import dataclass, replace

# key -> (figure, baseline, target text); the order is the table's order
FIGURES: dict[str, tuple[str, str, str]] = {
    "first_screen": ("1. launch → first usable screen (pty)", "bare Textual app", "≤ 1.3×"),
    "first_screen_numpy": ("1. the same, against a bare app that imports numpy",
                           "bare Textual app + numpy", "≤ 1.10×"),
    "first_screen_floor": ("1. bare Textual app that imports numpy (numpy's floor)",
                           "bare Textual app", "— (info)"),
    "lazy_imports": ("1b. torch, labs, lessons unloaded at first frame", "—", "yes"),
    "edit_t8": ("2. edit → repaint, T = 8, d = 3", "bare app key → label", "— (info)"),
    "edit_frame": ("2. edit → repaint, T = 8, within half a frame", "one frame at 60 fps",
                   "≤ 0.5×"),
    "edit_t64": ("2. edit → repaint, T = 64, d = 64", "attn-tui T = 8", "— (info)"),
    "edit_t256": ("2. edit → repaint, T = 256, d = 64", "attn-tui T = 8", "≤ 3×"),
    "edit_burst": ("2. typed at machine speed, first key → α, T = 8", "one frame at 60 fps",
                   "— (info)"),
    "scaling": ("3. scaling experiment's arithmetic, net of its draws",
                "the chapter's loop, net of its draws", "≤ 0.067× (≥ 15× faster)"),
    "scaling_whole": ("3. the same, draws included", "the chapter's loop", "— (info)"),
    "scaling_answer": ("3. scaling lab: ÷√d_k or temp → numbers shown", "one frame at 60 fps",
                       "≤ 1×"),
    "scaling_answer_largest": ("3. the same, top d_k 4096, 64 keys, 500 trials",
                               "one frame at 60 fps", "≤ 1×"),
    "scaling_plots": ("3. the same → plots redrawn", "one frame at 60 fps", "— (info)"),
    "scaling_draws": ("3. new draws for those presses", "—", "0 (kept scores)"),
    "print_all": ("4. `attn-tui print all`", "seeds/attention.py", "≤ 1.2×"),
    "memory": ("5. resident memory after first screen", "bare Textual app", "≤ 1.5×"),
    "memory_floor": ("5. the same, bare Textual app that imports numpy", "bare Textual app",
                     "— (info)"),
    "idle": ("6. idle CPU, no input", "bare Textual app", "< 1 % of a core"),
    "model_first": ("7. model: process start → first α, 12 tokens", "transformers BertModel",
                    "≤ 1×"),
    "model_load": ("7. model: load weights and tokenizer", "BertModel.from_pretrained",
                   "— (info)"),
    "model_forward": ("7. model: forward pass with every α, 12 tokens", "BertModel forward",
                      "≤ 1×"),
    "model_frame": ("7. model: new sentence → 72 maps, 32 tokens, float32 (the screen's default)",
                    "one frame at 60 fps", "≤ 1×"),
    "model_frame_f64": ("7. the same in float64 (--dtype float64)", "one frame at 60 fps",
                        "≤ 1×"),
    "train_speed": ("8. train lab, time per training step", "bare torch loop",
                    "≤ 1.11× (≥ 0.9× steps/s)"),
    "train_key": ("8. key → repaint while the lab trains", "the same key, no run", "≤ 2×"),
}
FRAME = 1 / 60  # seconds: Textual paints at most 60 frames a second
LIMITS = {"first_screen": 1.3, "first_screen_numpy": 1.10, "edit_frame": 0.5, "edit_t256": 3.0,
          "scaling": 1 / 15, "scaling_answer": 1.0, "scaling_answer_largest": 1.0,
          "print_all": 1.2, "memory": 1.5, "model_first": 1.0, "model_forward": 1.0,
          "model_frame": 1.0, "model_frame_f64": 1.0,
          "train_speed": 1 / 0.9, "train_key": 2.0}
IDLE_LIMIT = 1.0  # percent of one core
HEADERS = ("figure", "attn-tui", "baseline", "ratio", "target", "result")


@dataclass(frozen=True)
class Row:
    figure: str
    value: str
    baseline: str
    ratio: str
    target: str
    result: str  # PASS, MISS or info

    def cells(self) -> tuple[str, ...]:
        return (self.figure, self.value, self.baseline, self.ratio, self.target, self.result)


def median(xs: list[float]) -> float:
    return statistics.median(xs) if xs else float("nan")


def ms(seconds: float) -> str:
    return f"{seconds * 1e3:.1f} ms" if seconds < 10 else f"{seconds:.2f} s"


def mib(kib: float) -> str:
    return f"{kib / 1024:.1f} MiB"


def _verdict(ok: bool | None) -> str:
    return "info" if ok is None else ("PASS" if ok else "MISS")


def _ratio_row(key: str, value: float, base: float, fmt, base_name: str | None = None,
               extra: str = "") -> Row:
    figure, base_label, target = FIGURES[key]
    ratio = value / base if base > 0 else float("inf")
    limit = LIMITS.get(key)
    ok = None if limit is None else ratio <= limit
    faster = key in ("scaling", "scaling_whole")
    shown = f"{ratio:.3f}× ({1 / ratio:.1f}× faster)" if faster else f"{ratio:.2f}×"
    return Row(figure + extra, fmt(value), f"{fmt(base)} ({base_name or base_label})", shown,
               target, _verdict(ok))


def _packages(modules: list[str]) -> list[str]:
    """attn_tui.lessons and its three submodules → 'attn_tui.lessons (+3)'."""
    tops = [m for m in modules if not any(m.startswith(o + ".") for o in modules)]
    return [t + (f" (+{n})" if (n := sum(m.startswith(t + ".") for m in modules)) else "")
            for t in tops]


def build_rows(m: dict) -> list[Row]:
    """Rows for whatever figures ``m`` holds (seconds, KiB, CPU percent; see bench.py)."""
    rows: list[Row] = []
    if "first_screen" in m:
        a, b = m["first_screen"]
        rows.append(_ratio_row("first_screen", a, b, ms))
    if "numpy_floor" in m:
        floor = m["numpy_floor"]["t"][0]
        if "first_screen" in m:
            rows.append(_ratio_row("first_screen_numpy", m["first_screen"][0], floor, ms))
        rows.append(_ratio_row("first_screen_floor", *m["numpy_floor"]["t"], ms))
    if "lazy_imports" in m:
        loaded = m["lazy_imports"]
        figure, _, target = FIGURES["lazy_imports"]
        shown = "yes" if not loaded else "no: " + ", ".join(_packages(loaded))
        rows.append(Row(figure, shown, "—", "—", target, _verdict(not loaded)))
    if "edit" in m:
        e = m["edit"]
        if "t8" in e and "bare" in e:
            rows.append(_ratio_row("edit_t8", e["t8"], e["bare"], ms))
        if "t8" in e:
            rows.append(_ratio_row("edit_frame", e["t8"], FRAME, ms))
        for t in ("t64", "t256"):
            if t in e and "t8" in e:
                rows.append(_ratio_row(f"edit_{t}", e[t], e["t8"], ms))
        if "t8_burst" in e:
            rows.append(_ratio_row("edit_burst", e["t8_burst"], FRAME, ms))
    if "scaling" in m:
        s = m["scaling"]
        same = "" if s["same"] else " — RESULTS DIFFER"
        row = _ratio_row("scaling", s["arithmetic"], s["loop_arithmetic"], ms, extra=same)
        if not s["same"]:
            row = Row(*row.cells()[:5], "MISS")
        rows.append(row)
        rows.append(_ratio_row("scaling_whole", s["vectorised"], s["loop"], ms))
    if "scaling_lab" in m:
        lab = m["scaling_lab"]
        rows.append(_ratio_row("scaling_answer", lab["chapter"], FRAME, ms))
        rows.append(_ratio_row("scaling_answer_largest", lab["largest"], FRAME, ms))
        rows.append(_ratio_row("scaling_plots", max(lab["chapter_plots"], lab["largest_plots"]),
                               FRAME, ms))
        figure, base, target = FIGURES["scaling_draws"]
        sweeps = lab["chapter_sweeps"] + lab["largest_sweeps"]
        rows.append(Row(figure, f"{sweeps} sweeps", base, "—", target, _verdict(sweeps == 0)))
    if "print_all" in m:
        a, b = m["print_all"]
        rows.append(_ratio_row("print_all", a, b, ms))
    if "memory" in m:
        a, b = m["memory"]
        rows.append(_ratio_row("memory", a, b, mib))
    if "numpy_floor" in m:
        rows.append(_ratio_row("memory_floor", *m["numpy_floor"]["rss"], mib))
    if "idle" in m:
        a, b, seconds = m["idle"]
        figure, base_label, target = FIGURES["idle"]
        ratio = f"{a / b:.2f}×" if b > 0 else "—"
        pct = lambda x: f"{x:.2f} %"  # noqa: E731
        rows.append(Row(f"{figure} ({seconds:g} s)", pct(a), f"{pct(b)} ({base_label})", ratio,
                        target, _verdict(a < IDLE_LIMIT)))
    if "model" in m:
        md = m["model"]
        rows.append(_ratio_row("model_first", *md["first"], ms))
        rows.append(_ratio_row("model_load", *md["load"], ms))
        rows.append(_ratio_row("model_forward", *md["forward"], ms))
        rows.append(_ratio_row("model_frame", md["frame"], FRAME, ms))
        if "frame_f64" in md:
            rows.append(_ratio_row("model_frame_f64", md["frame_f64"], FRAME, ms))
    if "train" in m:
        t = m["train"]
        row = _ratio_row("train_speed", t["lab"], t["bare"], ms)
        rows.append(replace(row, ratio=f"{row.ratio} ({t['bare'] / t['lab']:.2f}× steps/s)"))
        rows.append(_ratio_row("train_key", t["key_training"], t["key_idle"], ms))
    return rows


def text_table(rows: list[Row]) -> str:
    table = [HEADERS, *(r.cells() for r in rows)]
    widths = [max(len(line[i]) for line in table) for i in range(len(HEADERS))]
    out = []
    for n, line in enumerate(table):
        out.append("  ".join(c.ljust(w) for c, w in zip(line, widths, strict=True)).rstrip())
        if n == 0:
            out.append("  ".join("-" * w for w in widths))
    misses = [r.figure for r in rows if r.result == "MISS"]
    if misses:
        out.append("")
        out += [f"*** MISS: {f}" for f in misses]
    return "\n".join(out)


def markdown_table(rows: list[Row]) -> str:
    def esc(c: str) -> str:
        return c.replace("|", "\\|")

    out = ["| " + " | ".join(HEADERS) + " |",
           "|" + "|".join(["---", "--:", "--:", "--:", "---", "---"]) + "|"]
    for r in rows:
        cells = list(r.cells())
        if r.result == "MISS":
            cells[-1] = "**MISS**"
        out.append("| " + " | ".join(esc(c) for c in cells) + " |")
    return "\n".join(out)
