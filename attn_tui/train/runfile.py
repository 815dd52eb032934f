"""A training run as numpy arrays, and its .npz file: the config, the losses, the held-out
accuracies, the α frames and the weights. Reading one needs no torch."""

from __future__ import annotations

import io
import json
import os
import stat
import tokenize
import zipfile
import zlib
from dataclasses import dataclass, field, fields

import numpy as np

from attn_tui.core.files import ZIP_MAGIC, FileError, atomic_write, npz_kind, os_reason
from attn_tui.core.session import FORMAT as SESSION_FORMAT
from attn_tui.train.config import VOCAB, TrainConfig, TrainConfigError

FORMAT = "attn-tui train run 1"


@dataclass(frozen=True, eq=False)
class RunRecord:
    config: TrainConfig
    losses: np.ndarray  # (steps done,) float64, one per step
    eval_steps: np.ndarray  # (E,) int64
    accuracy: np.ndarray  # (E,) held-out accuracy at those steps
    frame_steps: np.ndarray  # (F,) int64
    frames: np.ndarray  # (F, layers, heads, T, T) float32: α for the example sequence
    example: np.ndarray  # (T,) token ids
    weights: dict[str, np.ndarray]  # the model's state dict, float32
    diverged: bool = False
    # AdamW's moments and step count per parameter ("exp_avg:<name>", "exp_avg_sq:<name>",
    # "step:<name>") and the batch generator's state ("batches"): what training on from
    # where it stopped needs, to the same losses as a run never stopped. Empty in a file
    # from before they were kept.
    resume: dict[str, np.ndarray] = field(default_factory=dict)
    # why a file's training state was left out (it does not fit the weights), or "": said
    # when the run opens, since Enter then trains it anew
    resume_problem: str = ""

    @property
    def resumable(self) -> bool:
        return bool(self.resume) and not self.diverged and self.steps_done < self.config.steps

    @property
    def tokens(self) -> tuple[str, ...]:
        return tuple(VOCAB[int(i)] for i in self.example)

    @property
    def steps_done(self) -> int:
        return len(self.losses)


def save(record: RunRecord, path: str) -> None:
    atomic_write(path, encode(record), "save")


def encode(record: RunRecord, compress: bool = True) -> bytes:
    """The bytes of the .npz file ``save`` writes; uncompressed, several times larger and
    many times quicker to make (a rescue, as the app is made to end, cannot wait)."""
    arrays = {f.name: getattr(record, f.name) for f in fields(record)
              if f.name not in ("config", "weights", "diverged", "resume", "resume_problem")}
    arrays.update({f"r:{name}": a for name, a in record.resume.items()})
    arrays["meta"] = np.asarray(json.dumps({"format": FORMAT, "config": record.config.as_dict(),
                                            "diverged": record.diverged}))
    arrays.update({f"w:{name}": a for name, a in record.weights.items()})
    buf = io.BytesIO()
    (np.savez_compressed if compress else np.savez)(buf, **arrays)
    return buf.getvalue()


def load(path: str) -> RunRecord:
    """The run saved in ``path``, or FileError in one sentence."""
    try:
        mode = os.stat(os.path.expanduser(path)).st_mode
    except OSError as exc:
        raise FileError(os_reason(exc), path) from exc
    if stat.S_ISDIR(mode):
        raise FileError("it is a directory, not a saved training run", path)
    if not stat.S_ISREG(mode):  # a FIFO nobody writes would block for ever
        raise FileError("it is not a regular file", path)
    try:
        with open(os.path.expanduser(path), "rb") as f:
            head = f.read(4096)
        with np.load(os.path.expanduser(path), allow_pickle=False) as z:
            declared = _declared(z)
            if "meta" in declared:  # a run's: nothing larger than its settings hold is read
                dtype, n = declared["meta"]
                _fits(declared, z["meta"] if n * dtype.itemsize <= META_BYTES else None)
                data = {name: z[name] for name in z.files}
            else:  # another .npz: named by its members' names, none of them read
                data = dict.fromkeys(declared)
    except _TooLarge as exc:
        raise FileError(f"it is not a saved training run ({exc})", path) from None
    except OSError as exc:
        raise FileError(os_reason(exc), path) from exc
    # damaged compressed data is zlib.error; a damaged member header can name a compression
    # method zipfile lacks (NotImplementedError) or a size no memory holds
    except (ValueError, zipfile.BadZipFile, EOFError, KeyError, zlib.error,
            NotImplementedError, MemoryError) as exc:
        if f'"{SESSION_FORMAT}"'.encode() in head:  # the file a learner saved with ctrl+s
            raise FileError("it is an attn-tui session, not a saved training run; "
                            "attn-tui --session opens it", path) from exc
        if head.startswith(ZIP_MAGIC):  # a zip, as a .npz is: damaged or cut short
            if (others := _not_arrays(path)) is not None:
                raise FileError(f"it is a zip of other files ({others}), not a saved "
                                "training run", path) from exc
            raise FileError("it is a zip that is damaged or cut short (not a readable .npz)",
                            path) from exc
        raise FileError("it is not a saved training run (not a readable .npz)", path) from exc
    if (kind := npz_kind(data.keys())) != "run":  # the workbench's export of its stages, say
        what = "an export of the workbench's stages (Q, K, V, α)" if kind == "stages" \
            else "some other .npz"
        raise FileError(f"it is {what}, not a saved training run; e in the train lab or "
                        "attn-tui train --save writes one", path)
    try:
        return _record(data)
    except (KeyError, ValueError, TypeError, TrainConfigError) as exc:
        raise FileError(f"it is not a saved training run ({_why(exc)})", path) from exc


def _not_arrays(path: str) -> str | None:
    """A whole zip holding files that are not .npy arrays: the first of their names (the
    .npz reader said only that something was missing); None if it is not that."""
    try:
        with zipfile.ZipFile(os.path.expanduser(path)) as z:
            names = z.namelist()
            if z.testzip() is not None:
                return None
    except (OSError, ValueError, zipfile.BadZipFile, EOFError, zlib.error,
            NotImplementedError, MemoryError):
        return None
    others = [n for n in names if not n.endswith(".npy")]
    if not others:
        return None
    return ", ".join(others[:3]) + (" …" if len(others) > 3 else "")


META_BYTES = 1 << 20  # a run's description: its settings, a few hundred bytes


class _TooLarge(Exception):
    """A member that would take more memory than a run of the file's settings holds."""


def _declared(z) -> dict[str, tuple[np.dtype, int]]:
    """Each member's dtype and number of values as its header declares them, read before its
    data: a 1.7 MB file declared a 1 GB array of losses, and reading it took that much."""
    out = {}
    for name in z.files:
        with z.zip.open(name + ".npy") as f:
            version = np.lib.format.read_magic(f)
            read = {(1, 0): np.lib.format.read_array_header_1_0,
                    (2, 0): np.lib.format.read_array_header_2_0}.get(version)
            if read is None:
                raise ValueError(f"array format {version}")
            try:
                shape, _, dtype = read(f)
            # numpy reads the header as a Python literal, so damage there fails as Python's
            # parser fails: unbalanced brackets, a list as a key, nesting past the stack
            except (SyntaxError, tokenize.TokenError, TypeError, RecursionError) as exc:
                raise ValueError(f"the header of the array {name} is damaged") from exc
        if dtype.hasobject:  # refused by allow_pickle=False anyway, said plainly here
            raise _TooLarge(f"the array {name} holds Python objects, which attn-tui does not "
                            "read")
        out[name] = (dtype, int(np.prod(shape, dtype=object)))
    return out


def _fits(declared: dict[str, tuple[np.dtype, int]], meta: np.ndarray | None) -> None:
    """Raise _TooLarge if members take more bytes than the settings in ``meta`` allow (a
    loss per step; a check and a frame at most per step and one at the start; the weights and
    the optimizer's two moments exactly; 8 bytes a value), or if reading them would take more
    memory than is free."""
    if meta is None:
        raise _TooLarge("its description is larger than any settings")
    # read, then each array copied once as it is checked and converted: twice its size
    total = 2 * sum(n * dtype.itemsize for dtype, n in declared.values())
    if (free := _free_memory()) is not None and total > free:
        raise _TooLarge(f"it would take {total / 2**20:,.0f} MB to open, more than the "
                        f"memory free here ({free / 2**20:,.0f} MB)")
    try:
        config = _config(json.loads(str(meta)))
    except (ValueError, TypeError, KeyError, AttributeError, TrainConfigError):
        return  # _record says what is wrong with it
    from attn_tui.train.replay import expected_shapes

    def count(name: str) -> int:
        return declared.get(name, (None, 0))[1]

    t = min(count("example"), MAX_TOKENS)
    steps = min(count("losses"), config.steps)
    shapes = expected_shapes(config, t)
    params = sum(int(np.prod(shape)) for shape in shapes.values())
    # a frame every steps/frames steps, and one more at each pause (a learner's key): far
    # fewer than one a step in any run a learner makes
    frames = min(steps + 1, 2 * config.frames + PAUSES)
    values = {"losses": config.steps, "example": MAX_TOKENS, "eval_steps": steps + 1,
              "accuracy": steps + 1, "frame_steps": steps + 1,
              "frames": frames * config.layers * config.heads * t * t,
              "w:": params, "r:exp_avg:": params, "r:exp_avg_sq:": params,
              "r:step:": len(shapes), "r:batches": 1 << 13}
    held: dict[str, int] = {}  # bytes, by group; members attn-tui does not write are "other"
    for name, (dtype, n) in declared.items():
        if name == "meta":
            continue
        group = next((g for g in values if g.endswith(":") and name.startswith(g)),
                     name if name in values else "other")
        held[group] = held.get(group, 0) + n * dtype.itemsize
        # smaller, it is read, and _record says what is wrong with it in its own words
        if held[group] > 8 * values.get(group, 0) and held[group] > WORTH_REFUSING:
            what = group.rstrip(":")
            raise _TooLarge(f"its {_NAMES.get(what, what)} would take "
                            f"{held[group] / 2**20:,.0f} MB, more than a run of its settings "
                            "holds")


def _free_memory() -> int | None:
    """Bytes of memory free for a new allocation: Linux's MemAvailable, or what is left of
    the cgroup's limit (a container's, a systemd service's) if less; None if neither is
    known."""
    free: list[int] = []
    try:
        with open("/proc/meminfo") as f:
            free += [int(line.split()[1]) * 1024 for line in f
                     if line.startswith("MemAvailable:")]
    except (OSError, ValueError, IndexError):
        pass
    try:
        with open("/sys/fs/cgroup/memory.max") as f:
            limit = f.read().strip()
        with open("/sys/fs/cgroup/memory.current") as f:
            if limit != "max":
                free.append(int(limit) - int(f.read().strip()))
    except (OSError, ValueError):
        pass
    return min(free) if free else None


MAX_TOKENS = 64  # an example sequence: the tasks' are 12 to 20
PAUSES = 1000
WORTH_REFUSING = 16 << 20  # bytes of a member too many for its settings, before reading it
_NAMES = {"w": "weights", "r:exp_avg": "optimizer moments", "r:exp_avg_sq": "optimizer moments",
          "r:step": "optimizer step counts", "r:batches": "batch generator state",
          "eval_steps": "accuracy steps", "frame_steps": "frame steps",
          "accuracy": "accuracies", "other": "arrays attn-tui does not write"}


def _config(meta: object) -> TrainConfig:
    known = {f.name for f in fields(TrainConfig)}
    return TrainConfig(**{k: v for k, v in meta["config"].items() if k in known}).checked()


def _why(exc: Exception) -> str:
    return f"no {exc.args[0]!r}" if isinstance(exc, KeyError) else str(exc).rstrip(".")


def _real(a: np.ndarray) -> bool:
    return np.issubdtype(a.dtype, np.number) and not np.issubdtype(a.dtype, np.complexfloating)


def _record(data: dict[str, np.ndarray]) -> RunRecord:
    try:
        meta = json.loads(str(data["meta"]))
    except json.JSONDecodeError:
        raise ValueError("its description is not readable") from None
    if not isinstance(meta, dict) or meta.get("format") != FORMAT:
        kind, _, version = str(meta.get("format") if isinstance(meta, dict) else "").rpartition(" ")
        ours = int(FORMAT.rpartition(" ")[2])
        if kind == FORMAT.rpartition(" ")[0] and version.isdigit() and int(version) > ours:
            raise ValueError(f"a newer attn-tui wrote it, in format {version}; this one reads "
                             f"format {ours}")
        raise ValueError("it was written by something else")
    if not isinstance(meta.get("config"), dict):
        raise ValueError("its settings are not readable")
    config = _config(meta)
    for name, what in (("losses", "losses are"), ("eval_steps", "accuracy steps are"),
                       ("accuracy", "accuracies are"), ("frame_steps", "frame steps are"),
                       ("example", "example is")):
        if data[name].ndim != 1 or not _real(data[name]):
            raise ValueError(f"its {what} not a list of numbers")
    if not _real(data["frames"]) or not all(_real(v) for k, v in data.items()
                                            if k.startswith("w:")):
        raise ValueError("its frames or weights are not real numbers")
    frames = data["frames"].astype(np.float32)
    example = data["example"].astype(np.int64)
    t = len(example)
    if frames.ndim == 5 and frames.shape[3] == frames.shape[4] != t:
        raise ValueError(f"the example has {t} tokens, but each frame is {frames.shape[3]}×"
                         f"{frames.shape[4]}")
    if frames.ndim != 5 or frames.shape[1:] != (config.layers, config.heads, t, t):
        raise ValueError(f"frames have shape {frames.shape}, not (F, {config.layers}, "
                         f"{config.heads}, {t}, {t})")
    if len(data["frame_steps"]) != len(frames) or len(frames) == 0:
        raise ValueError("the frame steps do not match the frames")
    if len(data["eval_steps"]) != len(data["accuracy"]):
        raise ValueError("the accuracy steps do not match the accuracies")
    if t == 0 or example.min() < 0 or example.max() >= len(VOCAB):
        raise ValueError("the example has tokens outside the vocabulary")
    if not np.all(np.isfinite(frames)):
        raise ValueError("a frame holds a value that is not a number")
    # α: drawn as shades of weight, a negative one read as nothing (every cell ·)
    if frames.size and (frames.min() < 0 or np.abs(frames.sum(axis=-1) - 1).max() > 1e-3):
        raise ValueError("a frame's weights are not α (each row 0 or more, summing to 1)")
    accuracy = data["accuracy"].astype(np.float64)
    if not np.all((accuracy >= 0) & (accuracy <= 1)):  # nan fails both
        raise ValueError("a held-out accuracy is not between 0 and 1")
    diverged = meta.get("diverged", False)
    if not isinstance(diverged, bool):
        raise ValueError("its description is not readable")
    losses = data["losses"].astype(np.float64)
    # a run stops at its first loss that is not a number, and says it diverged
    kept, last = (losses[:-1], losses[-1:]) if diverged and len(losses) else (losses, losses[:0])
    if not np.all(np.isfinite(kept) & (kept >= 0)):
        raise ValueError("a loss before the last is not a number of 0 or more" if diverged else
                         "a loss is not a number of 0 or more, in a run not marked as diverged")
    if np.any(last < 0):  # not a number, or too large for one: never below 0
        raise ValueError("its last loss is below 0")
    if len(losses) > config.steps:  # showed as "100% 1249/100"
        raise ValueError(f"it has {len(losses):,} losses, more than its {config.steps:,} steps")
    for name, what in (("frame_steps", "frame"), ("eval_steps", "accuracy")):
        steps = data[name]
        if len(steps) and (steps.min() < 0 or steps.max() > len(losses)
                           or np.any(np.diff(steps) < 0)):
            raise ValueError(f"its {what} steps are not steps of its {len(losses)} losses")
    weights = {k[2:]: v.astype(np.float32) for k, v in data.items() if k.startswith("w:")}
    from attn_tui.train.replay import check_weights

    check_weights(config, t, weights, finite=not diverged)  # a diverged run's are nan
    resume, problem = _resume(data, weights)
    return RunRecord(
        config=config, losses=losses, eval_steps=data["eval_steps"].astype(np.int64),
        accuracy=accuracy,
        frame_steps=data["frame_steps"].astype(np.int64), frames=frames, example=example,
        weights=weights, diverged=diverged, resume=resume, resume_problem=problem,
    )


def _resume(data: dict[str, np.ndarray], weights: dict[str, np.ndarray]
            ) -> tuple[dict, str]:
    """The state to train on from (see RunRecord.resume), checked against the weights, and
    why it was left out: none in the file (one from before it was kept) is no problem; one that
    does not fit the weights is said (the run still opens, to look at)."""
    resume = {k[2:]: v for k, v in data.items() if k.startswith("r:")}
    if not resume:
        return {}, ""
    batches = resume.get("batches")
    if batches is None or batches.dtype != np.uint8 or batches.ndim != 1 or not len(batches):
        return {}, "its batch generator's state is missing or damaged"
    steps = len(data["losses"])
    for name, w in weights.items():
        for kind, shape in (("exp_avg", w.shape), ("exp_avg_sq", w.shape), ("step", ())):
            a = resume.get(f"{kind}:{name}")
            if a is None:
                return {}, f"its optimizer state has no {kind} for {name}"
            if a.shape != shape or a.dtype != np.float32 or not np.all(np.isfinite(a)):
                return {}, f"its optimizer's {kind} for {name} does not fit the weights"
        # AdamW has taken one step per loss; its second moments are squares
        if float(resume[f"step:{name}"]) != steps:
            return {}, (f"its optimizer has taken {float(resume[f'step:{name}']):g} steps for "
                        f"{name}, not the {steps} its losses count")
        if np.any(resume[f"exp_avg_sq:{name}"] < 0):
            return {}, f"its optimizer's exp_avg_sq for {name} is negative"
    return resume, ""
