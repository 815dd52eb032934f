"""Tasks: a goal over the live state that a lesson step asks the learner to reach, as plain data.

A task names what is checked (a stage of the workbench — weights, scores, scaled, row_sums,
entropy, lost, output — or a lab's figure or setting), where (a cell, a row, or the whole
matrix, reduced by max / min / sum / mean), a comparison (>=, <=, >, <, near, between) with a
value or another stage as the target, and optional rules: which matrices may change, at most N
cells changed, settings that must stay. The loader builds these from TOML; nothing is evaluated
as code. ``evaluate`` reads the live state and says the value, the target, met or not, and the
rule broken if one was. No textual here.
"""

from __future__ import annotations

import math
from dataclasses import asdict, dataclass, is_dataclass, replace
from decimal import ROUND_HALF_UP, Decimal
from typing import Any

import numpy as np

from attn_tui.models.names import head_name
from attn_tui.train.config import default_config as train_defaults

STAGES = {  # workbench stages: their symbol in the panel and whether they are key-by-key
    "scores": ("q·k", True), "scaled": ("q·k/√d", True), "weights": ("α", True),
    "row_sums": ("Σα", False), "entropy": ("H", False), "max_entropy": ("log₂n", False),
    "lost": ("lost", False), "output": ("ζ", True),
}
BENCH_SETTINGS = ("mask", "scale", "dtype", "backend")
MATRICES = ("Q", "K", "V")
REDUCE = ("max", "min", "sum", "mean")
OPS = {">=": "≥", "<=": "≤", ">": ">", "<": "<", "near": "≈", "between": "in"}

# a lab's figures: name -> (words in the panel, what it reads); a setting is read as it stands
LAB_FIGURES: dict[str, dict[str, str]] = {
    "lab:scaling": {"entropy_raw": "H raw", "entropy_scaled": "H scaled",
                    "max_alpha_raw": "max α raw", "max_alpha_scaled": "max α scaled",
                    "sd": "sd of q·k"},
    "lab:model": {"total": "parameters", "layer": "one layer's parameters",
                  "attention": "attention parameters", "feed_forward": "feed-forward parameters",
                  "layers": "all layers' parameters", "embeddings": "embedding parameters",
                  "attention_share": "attention's share of a layer"},
    "lab:minilm": {"entropy": "entropy (bits)", "previous": "share on the previous token",
                   "next": "share on the next token", "itself": "share on itself",
                   "cls": "share on [CLS]", "sep": "share on [SEP]"},
    "lab:train": {"accuracy": "held-out accuracy", "share": "weight on the pattern",
                  "diverged": "diverged"},
}
MODEL_SENTENCE = "The cat sat on the mat because it was tired."  # the model screen's first
# each lab's settings as it opens (checked against the lab screens by a test), and the actions
# a step may run that change one of them; other actions only move the view
LAB_DEFAULTS: dict[str, dict[str, Any]] = {
    "lab:scaling": dict(d_k=1024, keys=8, trials=200, seed=0, scale=True, temperature=1.0),
    "lab:model": dict(preset="chapter", V=50000, D=512, L=6, h=8, H=2048, n=512),
    "lab:minilm": dict(text=MODEL_SENTENCE, layer=0, head=0, query=0),
    "lab:train": asdict(train_defaults("sort")),
}
INDEXES = ("layer", "head", "query")  # the model screen's settings that are array indexes
LAB_ACTIONS: dict[str, dict[str, str]] = {
    "lab:scaling": {"set_dk": "d_k", "set_keys": "keys", "set_trials": "trials",
                    "set_seed": "seed", "set_scale": "scale", "set_temperature": "temperature"},
    "lab:model": {"set_vocab": "V", "set_width": "D", "set_layers": "L", "set_heads": "h",
                  "set_hidden": "H", "set_tokens": "n"},
    "lab:minilm": {"set_text": "text", "set_query": "query"},  # pick(layer, head) sets two
    # set_task brings the task's defaults
    "lab:train": {"set_layers": "layers", "set_heads": "heads", "set_width": "d_model",
                  "set_steps": "steps", "set_lr": "lr", "set_seed": "seed"},
}
TASK_KEYS = {"goal", "stage", "cell", "row", "reduce", "op", "value", "tol", "change",
             "max_cells", "keep", "why", "hints", "solution"}


class TaskError(ValueError):
    """What is wrong with a task table; the loader turns it into a LessonError for its step."""


@dataclass(frozen=True)
class Edit:
    """One change "show me" makes: a cell of Q, K or V, or a setting."""

    target: str  # "Q", "K", "V" or a setting's name
    value: Any
    cell: tuple[int, int] | None = None


@dataclass(frozen=True)
class Task:
    goal: str  # in words
    stage: str
    cell: tuple[int, int] | None
    row: int | None
    reduce: str | None
    op: str
    value: float | str | tuple[float, float]  # a number, a stage's name, or [low, high]
    tol: float
    change: tuple[str, ...] | None  # the matrices that may change (None: any)
    max_cells: int | None
    keep: tuple[str, ...]  # settings that must stay as the step set them
    why: str
    hints: tuple[str, ...]
    solution: tuple[Edit, ...]


@dataclass(frozen=True)
class Verdict:
    value: float | None  # None: cannot be read now (a lab still computing, a refused setting)
    label: str  # what is checked, e.g. "α(dog → barked)"
    target: str  # e.g. "≥ 0.80"
    met: bool
    broken: str | None = None  # the rule the change broke, said instead of ✓
    waiting: str = ""  # why there is no value
    digits: int = 2  # 4 when the value is too close to its goal for two to show it
    yes_no: bool = False  # a figure that is 1 or 0 (did the run diverge?): said in words

    @property
    def done(self) -> bool:
        return self.met and self.broken is None

    def line(self) -> str:
        if self.yes_no:
            shown = self.waiting or ("yes" if self.value else "no")
            return f"{self.label}: {shown} · goal: yes"
        if self.waiting:  # a phrase, not a number: "held-out accuracy: paused (…)"
            return f"{self.label}: {self.waiting} · goal {self.target}"
        # "α(dog → barked) 0.83", but "entropy (bits) of layer 1 head 3: 0.0034": a number
        # after a name that ends in one read as one with it
        sep = " " if self.label.endswith(")") else ": "
        return f"{self.label}{sep}{fmt(self.value, self.digits)} · goal {self.target}"


@dataclass(frozen=True)
class Live:
    """The state a task is checked against: the workbench's workspace (with its computed
    stages), or a lab's settings and the figures it shows."""

    screen: str
    settings: dict[str, Any]
    matrices: dict[str, tuple[tuple[float, ...], ...]]
    tokens: tuple[tuple[str, ...], tuple[str, ...]] = ((), ())  # queries, keys
    steps: Any = None  # attn_tui.compute.Steps on the workbench
    figures: dict[str, Any] | None = None  # a lab's, None while it computes or refuses
    waiting: str = ""


def fmt(x: float | None, digits: int = 2) -> str:
    if x is None:
        return "–"
    if abs(x) >= 10_000:
        return f"{x:,.0f}"
    if abs(x) >= 0.01 or x == 0:
        # half up, as a learner rounds the panes' 0.1250 (1/8): Python's half-even wrote 0.12
        return str(Decimal(x).quantize(Decimal(1).scaleb(-digits), ROUND_HALF_UP))
    mantissa, _, power = f"{x:.{digits}g}".partition("e")  # 2.7e-5, as the tables write it
    return f"{mantissa}e{int(power)}" if power else mantissa


# ---- reading a task table
def parse(raw: Any, screen: str) -> Task:
    """A Task from a step's ``[steps.task]`` table, or TaskError saying what is wrong."""
    if not isinstance(raw, dict):
        raise TaskError("'task' must be a table")
    unknown = sorted(set(raw) - TASK_KEYS)
    if unknown:
        raise TaskError(f"unknown field {unknown[0]!r} in the task (known: "
                        f"{', '.join(sorted(TASK_KEYS))})")
    bench = screen == "workbench"
    stage = raw.get("stage")
    known = tuple(STAGES) if bench else (*LAB_FIGURES.get(screen, {}),
                                          *LAB_DEFAULTS.get(screen, {}))
    if stage not in known:
        raise TaskError(f"unknown stage {stage!r} on {screen}; choose one of: {', '.join(known)}")
    cell = raw.get("cell")
    if cell is not None:
        if not _whole(cell, 2):
            raise TaskError(f"a task's cell is [row, column] of whole numbers, got {cell!r}")
        if bench and not STAGES[stage][1]:
            raise TaskError(f"{stage} has one value per query: name a row, not a cell")
        cell = (cell[0], cell[1])
    row = raw.get("row")
    if row is not None and not (isinstance(row, int) and not isinstance(row, bool)):
        raise TaskError(f"a task's row is a whole number, got {row!r}")
    if cell is not None and row is not None:
        raise TaskError("a task checks a cell or a row, not both")
    reduce = raw.get("reduce")
    if reduce is not None and reduce not in REDUCE:
        raise TaskError(f"'reduce' must be one of: {', '.join(REDUCE)}")
    if bench and cell is None and reduce is None and (row is None or STAGES[stage][1]):
        raise TaskError(f"checking {stage} needs a cell, or a row, or 'reduce' over them")
    op = raw.get("op")
    if op not in OPS:
        raise TaskError(f"'op' must be one of: {', '.join(OPS)}")
    value = raw.get("value")
    if op == "between":
        if not (isinstance(value, list) and len(value) == 2 and all(_num(v) for v in value)
                and value[0] <= value[1]):
            raise TaskError("'between' needs value = [low, high]")
        value = (float(value[0]), float(value[1]))
    elif isinstance(value, str):
        if not bench or value not in STAGES:
            raise TaskError(f"the value {value!r} is neither a number nor a stage to compare with")
    elif not _num(value):
        raise TaskError(f"'value' must be a number, got {value!r}")
    else:
        value = float(value)
    tol = raw.get("tol", 0.0 if op != "near" else None)
    if tol is None or not _num(tol) or tol < 0:
        raise TaskError("'near' needs a tolerance: tol = 0.01, say")
    change = raw.get("change")
    if change is not None:
        if not bench:
            raise TaskError("'change' names matrices, which only the workbench has; "
                            "use 'keep' for a lab's settings")
        if not isinstance(change, list) or any(m not in MATRICES for m in change):
            bad = next((m for m in change if m not in MATRICES), change) \
                if isinstance(change, list) else change
            raise TaskError(f"'change' names an unknown matrix {bad!r}; choose from "
                            f"{', '.join(MATRICES)}")
        change = tuple(change)
    max_cells = raw.get("max_cells")
    if max_cells is not None and not (_whole(max_cells) and max_cells >= 1):
        raise TaskError("'max_cells' must be a whole number, at least 1")
    settings = BENCH_SETTINGS if bench else tuple(LAB_DEFAULTS.get(screen, {}))
    keep = raw.get("keep", [])
    if not isinstance(keep, list) or any(k not in settings for k in keep):
        bad = next((k for k in keep if k not in settings), keep) if isinstance(keep, list) \
            else keep
        raise TaskError(f"'keep' names an unknown setting {bad!r}; choose from "
                        f"{', '.join(settings)}")
    hints = raw.get("hints", [])
    if not isinstance(hints, list) or not 1 <= len(hints) <= 2 or not all(
            isinstance(h, str) and h.strip() for h in hints):
        raise TaskError("a task needs 'hints': one or two lines of text")
    return Task(
        goal=_words(raw, "goal"), stage=stage, cell=cell, row=row, reduce=reduce, op=op,
        value=value, tol=float(tol), change=change, max_cells=max_cells, keep=tuple(keep),
        why=_words(raw, "why"), hints=tuple(" ".join(h.split()) for h in hints),
        solution=_solution(raw.get("solution"), settings, bench),
    )


def _solution(raw: Any, settings: tuple[str, ...], bench: bool) -> tuple[Edit, ...]:
    if not isinstance(raw, list) or not raw or not all(isinstance(e, dict) for e in raw):
        raise TaskError("a task needs a 'solution': a list of { cell = [\"K\", row, column], "
                        "value = … } or { setting = …, value = … }")
    out = []
    for e in raw:
        if set(e) - {"cell", "setting", "value"} or "value" not in e or \
                ("cell" in e) == ("setting" in e):
            raise TaskError(f"a solution's change is a cell or a setting with a value, got {e!r}")
        if "cell" in e:
            c = e["cell"]
            if not bench or not (isinstance(c, list) and len(c) == 3 and c[0] in MATRICES
                                 and _whole(c[1]) and _whole(c[2]) and _num(e["value"])):
                raise TaskError(f"a solution's cell is [\"Q\"|\"K\"|\"V\", row, column] with a "
                                f"number, got {e!r}")
            out.append(Edit(c[0], float(e["value"]), (c[1], c[2])))
        else:
            if e["setting"] not in settings:
                raise TaskError(f"a solution sets an unknown setting {e['setting']!r}")
            out.append(Edit(e["setting"], e["value"]))
    return tuple(out)


def _words(raw: dict[str, Any], field: str) -> str:
    v = raw.get(field)
    if not isinstance(v, str) or not v.strip():
        raise TaskError(f"a task needs '{field}': non-empty text")
    return " ".join(v.split())


def _whole(x: Any, n: int | None = None) -> bool:
    if n is not None:
        return isinstance(x, list) and len(x) == n and all(_whole(v) for v in x)
    return isinstance(x, int) and not isinstance(x, bool) and x >= 0


def _num(x: Any) -> bool:
    return isinstance(x, (int, float)) and not isinstance(x, bool) and math.isfinite(x)


# ---- the live state
def bench_live(ws: Any, steps: Any = None) -> Live:
    """The workbench's state; its stages computed here unless given (the screen's own)."""
    if steps is None:
        from attn_tui.compute import attend

        steps = attend(ws.q, ws.k, ws.v, mask=ws.mask, scale=ws.scale, backend=ws.backend,
                       dtype=ws.dtype)
    return Live("workbench", {k: getattr(ws, k) for k in BENCH_SETTINGS},
                {"Q": ws.q, "K": ws.k, "V": ws.v}, (ws.query_tokens, ws.key_tokens), steps)


def lab_live(screen: str, settings: Any, figures: Any, waiting: str = "") -> Live:
    """A lab's state: its settings (a dataclass or dict) and what it shows for them — for the
    scaling lab its ScalingResult, for the model lab its ParamCount — or None with why not."""
    s = asdict(settings) if is_dataclass(settings) else dict(settings)
    return Live(screen, s, {}, figures=_figures(screen, figures), waiting=waiting)


def _figures(screen: str, shown: Any) -> dict[str, Any] | None:
    if shown is None:
        return None
    if screen == "lab:scaling":
        return {name: tuple(getattr(r, name) for r in shown.rows) for name in
                LAB_FIGURES[screen]} | {"d_ks": tuple(r.d_k for r in shown.rows)}
    return {name: getattr(shown, name) for name in LAB_FIGURES[screen]}


def simulate_start(screen: str, workspace: Any, actions: tuple[tuple[str, tuple], ...]) -> Live:
    """The state a step starts from, from its workspace and actions, without the app: what the
    loader checks a task against (a goal must not hold yet; its solution must reach it)."""
    if screen == "workbench":
        ws = workspace
        for name, args in actions:
            if name == "set_mask":
                ws = replace(ws, mask=args[0])
            elif name == "set_scale":
                ws = replace(ws, scale=bool(args[0]))
            elif name == "toggle_scale":
                ws = replace(ws, scale=not ws.scale)
            elif name == "set_dtype":
                ws = replace(ws, dtype=args[0])
        return bench_live(ws)
    settings = dict(LAB_DEFAULTS[screen])
    for name, args in actions:
        if name == "reset":
            settings = dict(LAB_DEFAULTS[screen])
        elif name == "pick" and screen == "lab:minilm":
            settings["layer"], settings["head"] = args
        elif name == "set_task" and screen == "lab:train":
            settings = asdict(train_defaults(args[0])) | {"seed": settings["seed"]}
        elif name in LAB_ACTIONS[screen]:
            settings[LAB_ACTIONS[screen][name]] = args[0]
    return lab_live(screen, settings, lab_compute(screen, settings))


def lab_compute(screen: str, settings: dict[str, Any]) -> Any:
    """What a lab shows for ``settings`` (None if it refuses them), computed as the lab does."""
    if screen == "lab:scaling":
        from attn_tui.compute.scaling import scaling_experiment, sweep_up_to

        dims = sweep_up_to(settings["d_k"])  # as the lab sweeps
        return scaling_experiment(dims, settings["keys"], settings["trials"], settings["seed"],
                                  temperature=settings["temperature"])
    if screen == "lab:train":  # trains the run, as Enter in the lab does
        from attn_tui.train.config import TrainConfig, TrainConfigError
        from attn_tui.train.patterns import run_figures
        from attn_tui.train.trainer import Run

        try:
            run = Run(TrainConfig(**settings))
        except TrainConfigError:
            return None
        run.advance()
        return run_figures(run.config.task, run.evals, run.frames, run.diverged)
    if screen == "lab:minilm":
        from attn_tui.models import shared_model, summarise

        run = shared_model("minilm").run(settings["text"], full=False)
        return summarise(run.weights[settings["layer"], settings["head"]])
    from attn_tui.compute import count_params

    try:
        return count_params(**{k: settings[k] for k in ("V", "D", "L", "h", "H")})
    except ValueError:
        return None


def solved(task: Task, start: Live) -> Live:
    """``start`` with the task's solution applied (for the loader's check and "show me")."""
    if start.screen != "workbench":
        settings = dict(start.settings) | {e.target: e.value for e in task.solution}
        return lab_live(start.screen, settings, lab_compute(start.screen, settings))
    from attn_tui.core import state

    ws = workspace_of(start)
    for e in task.solution:
        if e.cell is not None:
            ws = state.set_cell(ws, e.target, e.cell[0], e.cell[1], float(e.value))
        else:
            ws = replace(ws, **{e.target: e.value})
    return bench_live(ws)


def workspace_of(live: Live) -> Any:
    from attn_tui.core.state import Workspace

    return Workspace(q=live.matrices["Q"], k=live.matrices["K"], v=live.matrices["V"],
                     query_tokens=live.tokens[0], key_tokens=live.tokens[1], **live.settings)


# ---- checking
def label(task: Task, live: Live) -> str:
    if live.screen != "workbench":
        words = LAB_FIGURES.get(live.screen, {}).get(task.stage, task.stage)
        if live.screen == "lab:minilm" and task.stage in LAB_FIGURES[live.screen]:
            words += f" of {head_name(live.settings['layer'], live.settings['head'])}"
        if live.figures and "d_ks" in live.figures and task.stage in LAB_FIGURES[live.screen]:
            d_ks = live.figures["d_ks"]
            r = task.row if task.row is not None else -1
            if -len(d_ks) <= r < len(d_ks):
                words += f" at d_k = {d_ks[r]}"
        return words
    sym = STAGES[task.stage][0]
    queries, keys = live.tokens

    def name(names: tuple[str, ...], i: int) -> str:
        return names[i] if 0 <= i < len(names) else str(i)

    if task.cell is not None:
        r, c = task.cell
        inner = f"{name(queries, r)}, d{c + 1}" if task.stage == "output" else \
            f"{name(queries, r)} → {name(keys, c)}"
        return f"{sym}({inner})"
    lead = f"{task.reduce} " if task.reduce else ""
    if task.row is not None:
        return f"{lead}{sym}({name(queries, task.row)})"
    return f"{lead}{sym}"


def _read(task: Task, live: Live, stage: str | None = None) -> float | None:
    stage = stage or task.stage
    if live.screen != "workbench":
        if stage in live.settings:
            v = live.settings[stage]
            return float(v) if _num(v) or isinstance(v, bool) else None
        if live.figures is None:
            return None
        v = live.figures[stage]
        if v is None:  # a figure this run has not got (a task without a pattern)
            return None
        if isinstance(v, tuple):
            v = v[task.row if task.row is not None else -1]
        return float(v)
    a = np.asarray(getattr(live.steps, stage), dtype=float)
    if task.cell is not None:
        a = a[task.cell]
    elif task.row is not None:
        a = a[task.row]
    if a.ndim and task.reduce:
        a = {"max": np.max, "min": np.min, "sum": np.sum, "mean": np.mean}[task.reduce](a)
    return float(a)


def target(task: Task, live: Live, digits: int = 2
           ) -> tuple[str, float | tuple[float, float] | None]:
    """The target in words, e.g. "≥ 0.80", and as a number (a range for between)."""
    if task.op == "between":
        lo, hi = task.value  # type: ignore[misc]
        return f"between {fmt(lo, digits)} and {fmt(hi, digits)}", (lo, hi)
    if isinstance(task.value, str):
        v = _read(task, live, task.value)
        # log₂3, as the lessons write it: an n the panes never name was a puzzle
        name = f"log₂{round(2 ** v)}" if task.value == "max_entropy" else STAGES[task.value][0]
        words = f"{name} = {fmt(v, digits)}"
    else:
        v = float(task.value)  # type: ignore[arg-type]
        words = fmt(v, digits)
    if task.op == "near":
        return f"{words} ± {fmt(task.tol)}", v
    return f"{OPS[task.op]} {words}", v


def holds(task: Task, live: Live) -> bool:
    return evaluate(task, live, None).met


def evaluate(task: Task, live: Live, start: Live | None) -> Verdict:
    """The task checked against ``live``; rules are checked against ``start`` when given."""
    words, goal = target(task, live)
    lab = label(task, live)
    try:
        value = _read(task, live)
    except IndexError:  # the learner removed the row or column the task is about
        return Verdict(None, lab, words, False, waiting="not on the panes now")
    if start is not None and (gone := _moved_away(task, live, start)) is not None:
        # 'who' removed with x: its row went to t2, whose α was read as who's and credited
        return Verdict(None, label(task, start), words, False,
                       waiting=f"{gone} is not where the task began (u brings it back)")
    if start is not None and (away := _looking_elsewhere(task, live, start)) is not None:
        return Verdict(None, label(task, live), words, False, waiting=away)
    yes_no = live.screen in YES_NO.get(task.stage, ())
    # a rule is broken by the settings alone, said at once: a training run of them (minutes
    # long) could never count
    broken = None if start is None else broken_rule(task, live, start)
    if value is None or goal is None:
        why = live.waiting or ("the current settings are refused" if live.figures is None
                               and live.screen == "lab:model" else "computing…")
        return Verdict(None, lab, words, False, broken, waiting=why, yes_no=yes_no)
    eps = 1e-12
    if task.op == "between":
        lo, hi = goal  # type: ignore[misc]
        met = lo - eps <= value <= hi + eps
    elif task.op == "near":
        met = abs(value - goal) <= task.tol + eps  # type: ignore[operator]
    else:
        met = {">=": value >= goal - eps, "<=": value <= goal + eps, ">": value > goal,  # type: ignore[operator]
               "<": value < goal}[task.op]  # type: ignore[operator]
    if yes_no:
        return Verdict(value, lab, words, met, broken, yes_no=True)
    if not met and _miss(task, value, goal) < CLOSE:  # 1.57 against 1.58 ± 0.01 read as met
        edges = (goal - task.tol, goal + task.tol) if task.op == "near" else goal
        digits = _telling_digits(value, edges)
        return Verdict(value, lab, target(task, live, digits)[0], met, broken, digits=digits)
    if met and task.op != "between" and _miss(task, value, goal) < CLOSE:
        # met by a little: the value as the panes write it (a met 0.9982 read "1.00" beside
        # the lab's own 0.9982), the goal as the task sets it; a goal read from the panes
        # (log₂3) as they write it too: "1.5850 · goal log₂3 = 1.58" read as two numbers
        if isinstance(task.value, str):
            words = target(task, live, 4)[0]
        return Verdict(value, lab, words, met, broken, digits=4)
    return Verdict(value, lab, words, met, broken)


def _moved_away(task: Task, live: Live, start: Live) -> str | None:
    """The token the task names (its query, its key) if another now stands in its place, as
    tokens added or removed move the rows; None if each is where the step began."""
    if live.screen != "workbench":
        return None
    rows = [task.cell[0]] if task.cell is not None else [task.row] if task.row is not None else []
    keys = [task.cell[1]] if task.cell is not None and task.stage != "output" else []
    for index, now, then in ([(r, live.tokens[0], start.tokens[0]) for r in rows]
                             + [(c, live.tokens[1], start.tokens[1]) for c in keys]):
        if -len(then) <= index < len(then) and (
                not -len(now) <= index < len(now) or now[index] != then[index]):
            return f"'{then[index]}'"
    return None


YES_NO = {"diverged": ("lab:train",)}  # figures that are 1 or 0


CLOSE = 0.01  # a miss by less than this is shown to four decimals


def _telling_digits(value: float, goal: Any) -> int:
    """Four decimals, or as many more as it takes (up to 8) for a value that misses its goal
    not to be written as the goal itself ("0.5500 · goal ≥ 0.5500" for 0.549983). ``goal``:
    a number, or the edges of a range (a near goal's, goal ± its tolerance)."""
    goals = goal if isinstance(goal, tuple) else (goal,)
    if value in goals:  # the goal exactly, missing a strict > or <: no decimals tell it apart
        return 4
    for digits in range(4, 9):
        if all(fmt(value, digits) != fmt(g, digits) for g in goals):
            return digits
    return 8


def _miss(task: Task, value: float, goal: Any) -> float:
    """How far ``value`` is from meeting the goal."""
    if task.op == "between":
        lo, hi = goal
        return max(lo - value, value - hi)
    if task.op == "near":
        return abs(value - goal) - task.tol
    return abs(value - goal)


def _looking_elsewhere(task: Task, live: Live, start: Live) -> str | None:
    """On the model screen a layer, head or query is where one looks, not work: away from the
    one a task keeps, what is looked at is named and not counted (it had said "Rule broken:
    layer must stay 5 … ctrl+r starts the step again", for ↑ pressed to look)."""
    if live.screen != "lab:minilm":
        return None
    for key in task.keep:
        was = start.settings.get(key)
        if key in INDEXES and isinstance(was, int) and live.settings.get(key) != was:
            return f"counts only in {_setting(key)} {was + 1}"
    return None


def broken_rule(task: Task, live: Live, start: Live) -> str | None:
    """The first rule the change from ``start`` to ``live`` broke, in words, or None."""
    for key in task.keep:
        if live.settings.get(key) != start.settings.get(key):
            was = start.settings.get(key)
            if live.screen == "lab:minilm" and key in INDEXES and isinstance(was, int):
                was += 1  # an array index, named from 1 as the screen names it
            return f"{_setting(key)} must stay {_value(was)}"
    if live.screen != "workbench":
        return None
    changed = [m for m in MATRICES if live.matrices[m] != start.matrices[m]]
    if task.change is not None:
        wrong = [m for m in changed if m not in task.change]
        if wrong:
            allowed = " or ".join(task.change) if task.change else "none of Q, K and V"
            return f"only {allowed} may change, and {wrong[0]} did"
    if task.max_cells is not None:
        cells = "one cell" if task.max_cells == 1 else f"{task.max_cells} cells"
        for m in changed:  # a token or a dimension added: a count of cells would not say so
            now, then = _shape(live.matrices[m]), _shape(start.matrices[m])
            if now != then:
                return (f"change at most {cells}, not the size: {m} is {now[0]}×{now[1]} now, "
                        f"not {then[0]}×{then[1]}")
        where = [(m, r, c) for m in changed for r, c in zip(*np.nonzero(
            np.asarray(live.matrices[m]) != np.asarray(start.matrices[m])), strict=True)]
        if len(where) > task.max_cells:
            # named, so that the one changed by mistake can be found and put back
            names = [f"{m} {_row_name(live, m, int(r))}·d{int(c) + 1}" for m, r, c in where[:3]]
            more = " …" if len(where) > 3 else ""
            return (f"change at most {cells}; {len(where)} changed ({', '.join(names)}{more}: "
                    "u undoes one at a time)")
    return None


def _row_name(live: Live, m: str, row: int) -> str:
    """Q's rows are its queries, K's and V's its keys, named as the panes name them."""
    names = live.tokens[0] if m == "Q" else live.tokens[1]
    return names[row] if row < len(names) else f"row {row + 1}"


def _shape(a: Any) -> tuple[int, int]:
    return len(a), len(a[0]) if len(a) else 0


def _setting(key: str) -> str:
    return {"scale": "÷√d_k", "d_k": "top d_k", "temperature": "temp",
            "text": "the sentence"}.get(key, key)


def _value(v: Any) -> str:
    if isinstance(v, bool):
        return "on" if v else "off"
    return repr(v) if isinstance(v, str) and " " in v else str(v)
