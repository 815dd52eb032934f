"""`attn-tui train` as plain text: the run's settings, its progress lines and, at the end, every
head's α for the example sequence in the 4-decimal tables of `attn-tui print`."""

from __future__ import annotations

import math
import textwrap

from attn_tui.core.words import as_typed, plural
from attn_tui.report.fmt import fit, num
from attn_tui.train.config import TASKS, TrainConfig
from attn_tui.train.runfile import RunRecord

CELL = 8


def _wrapped(lines: list[str], width: int | None) -> list[str]:
    """Each line broken between words to fit ``width`` (none: as it is), indented by one."""
    if width is None:
        return lines
    return [part for line in lines
            for part in (textwrap.wrap(line, width - 1, subsequent_indent=" ") or [""])]


def header_lines(c: TrainConfig, width: int | None = None) -> list[str]:
    task = TASKS[c.task]
    lines = [f"TRAINING: {c.task} ({task.line})",
             # two lines: as one (82 columns) it broke mid-word in an 80-column terminal
             f" {plural(c.layers, 'layer')}, {plural(c.heads, 'head')} "
             f"of {c.head_size} (d_model {c.d_model})",
             f" AdamW lr {as_typed(c.lr)}, batch {c.batch}, {plural(c.steps, 'step')}, seed {c.seed}",
             f" to look for: {task.pattern_for(c.layers)}", "",
             f" {'step':>7}{'loss':>10}{'held-out accuracy':>20}"]
    return _wrapped(lines, width)


def progress_line(step: int, loss: float, acc: float) -> str:
    # a diverging run's loss (1057907968) must not run into the step column: at most 9 wide
    loss_text = "-" if step == 0 else fit(loss, 9)
    return f" {step:>7}{loss_text:>10}{num(acc):>20}"


def alpha_table(tokens: tuple[str, ...], alpha, title: str,
                width: int | None = None) -> list[str]:
    """α with queries down and keys across; '.' where the causal mask hides a key. A weight
    too small for four decimals is written in e-notation (9.17e-8), as the workbench's tables
    write it, not as 0.0000. Given a ``width`` (a terminal's), the keys come in blocks that
    fit it, each saying which keys it holds: a wrapped row could not be read."""
    n = len(tokens)
    per = n if width is None else max(1, (width - 6) // CELL)
    blocks = -(-n // per)
    per = -(-n // blocks)  # as even as they come: 12 keys at 11 a block are 6 and 6, not 11 and 1
    rows = ["", f" {title}"]
    for first in range(0, n, per):
        last = min(n, first + per)
        if per < n:
            rows += ["", f" keys {first + 1} to {last} of {n}:"]
        rows += ["", " " + " " * 5 + "".join(f"{t:>{CELL}}" for t in tokens[first:last])]
        for i, t in enumerate(tokens):
            cells = "".join(f"{'.':>{CELL}}" if j > i
                            else f"{fit(float(alpha[i, j]), CELL - 1):>{CELL}}"
                            for j in range(first, last))
            rows.append(f" {t:<5}{cells}")
    return rows


def diverged_words(losses: list[float], step: int, lr: float) -> str:
    """Why a run stopped: its loss stopped being a number, or (that loss still one) what the
    model computes after the last update did."""
    last = losses[-1] if losses else math.nan
    # that step's loss was computed before its update broke the model, and is a number
    what = (f"The loss became {num(last)} at step {step}" if not math.isfinite(last)
            else f"The model's outputs stopped being numbers at step {step} (its loss, "
                 f"from before that step's update: {fit(last, 9)})")
    return f"{what}: the learning rate {as_typed(lr)} is too large."


def frames_kept_words(frame_steps: list[int]) -> str:
    """What a diverged run keeps to look at: "the frames up to step 400 are kept", or, when
    it broke before a second frame, "the frame at step 0 is kept"."""
    if len(frame_steps) == 1:
        return f"the frame at step {frame_steps[0]} is kept"
    return f"the frames up to step {frame_steps[-1]} are kept"


def _example_line(r: RunRecord) -> str:
    """The example sequence as the model reads it, and the token it only predicts, if any."""
    read = " ".join(r.tokens)
    if not TASKS[r.config.task].last_only_predicted:
        return f" example: {read} (the tokens the model reads)"
    try:
        from attn_tui.train.tasks import VOCAB, example  # torch: here whenever a run trained

        last = f", then {VOCAB[int(example(r.config.task)[1][-1])]},"
    except ImportError:
        last = ", then one more token,"
    return (f" example: {read}{last} which the model only predicts: the tables below have no "
            "row or column for it")


def alpha_tables(r: RunRecord, seconds: float, width: int | None = None) -> list[str]:
    c = r.config
    out = [""]
    if r.diverged:
        out.append(f" {diverged_words(list(r.losses), r.steps_done, c.lr)} Training stopped; "
                   f"{frames_kept_words([int(s) for s in r.frame_steps])}.")
    else:
        acc = r.accuracy[-1] if len(r.accuracy) else math.nan
        checked = int(r.eval_steps[-1]) if len(r.eval_steps) else r.steps_done
        # stopped between two checks: the accuracy is the last check's, and says which
        steps = plural(r.steps_done, "step")
        when = (f"after {steps}" if checked == r.steps_done else
                f"at step {checked}, the last check of {steps} run")
        rate = round(r.steps_done / max(seconds, 1e-9))
        out.append(f" held-out accuracy {num(acc)} {when} "
                   f"({seconds:.1f} s, {plural(rate, 'step')} a second)")
        # numbers still, but not learning (twice: beyond a batch's noise, short runs too)
        if len(r.losses) > 1 and r.losses[-1] > 2 * r.losses[0]:
            out.append(f" The loss ended above twice where it started ({num(r.losses[0])} → "
                       f"{num(r.losses[-1])}): the learning rate {as_typed(c.lr)} is too large to learn "
                       "with; try a smaller one.")
    out.append(_example_line(r))
    out = _wrapped(out, width)  # in a terminal, between words, as the tables fit it
    step = int(r.frame_steps[-1])
    for layer in range(c.layers):
        for h in range(c.heads):
            out += alpha_table(r.tokens, r.frames[-1, layer, h],
                               f"layer {layer + 1}, head {h + 1}: alpha at step {step} "
                               "(queries down, keys across)", width)
    return out
