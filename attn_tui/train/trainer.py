"""A training run, one AdamW step at a time: losses, held-out accuracy and α frames.

Deterministic for a seed on one machine: torch.manual_seed for the weights, a private
torch.Generator for the batches, and one torch thread while stepping (a thread count changes the
order of float sums, and with it the last bits of every loss).
"""

from __future__ import annotations

import math
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager

import numpy as np
import torch
from torch.nn import functional as F

from attn_tui.train import tasks
from attn_tui.train.adamw import AdamW
from attn_tui.train.config import VOCAB, TrainConfig, seq_len
from attn_tui.train.model import TinyTransformer
from attn_tui.train.runfile import RunRecord


@contextmanager
def one_thread() -> Iterator[None]:
    before = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        yield
    finally:
        torch.set_num_threads(before)


def build_model(config: TrainConfig) -> TinyTransformer:
    torch.manual_seed(config.seed)
    return TinyTransformer(len(VOCAB), seq_len(config.task), config.d_model,
                           config.heads, config.layers)


def accuracy(model: TinyTransformer, x: torch.Tensor, y: torch.Tensor) -> float:
    """The share of asked-for tokens predicted right (the argmax of the logits); nan when the
    logits are not numbers (an argmax of nan would pick token 0 and count it)."""
    with torch.no_grad():
        logits, _ = model(x)
    if not bool(torch.isfinite(logits).all()):
        return math.nan
    asked = y != tasks.IGNORE
    return float((logits.argmax(-1)[asked] == y[asked]).float().mean())


class Run:
    """One run of ``config``; ``advance`` trains, ``record`` is everything so far as numpy."""

    def __init__(self, config: TrainConfig) -> None:
        self.config = config.checked()
        with one_thread():
            self.model = build_model(config)
            self.optimizer = AdamW(self.model.parameters(), lr=config.lr)
            self.data = torch.Generator().manual_seed(config.seed)
            self.held_out = tasks.batch(config.task, tasks.HELD_OUT_N,
                                        torch.Generator().manual_seed(tasks.HELD_OUT_SEED),
                                        held_out=True)
            self.example, self.example_y = tasks.example(config.task)
        self.step = 0
        self.losses: list[float] = []
        self.evals: list[tuple[int, float]] = []
        self.frames: list[tuple[int, np.ndarray]] = []
        self.diverged = False
        # held by the thread advancing the run: a lab left mid-run keeps it, and the thread
        # of its next visit waits for the last one's step
        self.stepping = threading.Lock()
        self._capture()

    @property
    def done(self) -> bool:
        return self.diverged or self.step >= self.config.steps

    @property
    def last_accuracy(self) -> float | None:
        return self.evals[-1][1] if self.evals else None

    def _capture(self, frame: bool = True, evaluate: bool = True) -> None:
        # the last update can make a weight nan or inf while its loss (computed before it) was
        # still a number: then the run has diverged, and nothing computed from it is kept
        if frame:
            with torch.no_grad():
                _, alpha = self.model(self.example[None])
            a = alpha[0].numpy()
            if not np.isfinite(a).all():
                self.diverged = True
                return
            self.frames.append((self.step, a.copy()))
        if evaluate:
            acc = accuracy(self.model, *self.held_out)
            if math.isnan(acc):
                self.diverged = True
                return
            self.evals.append((self.step, acc))

    def _one_step(self) -> None:
        x, y = tasks.batch(self.config.task, self.config.batch, self.data)
        logits, _ = self.model(x)
        loss = F.cross_entropy(logits.reshape(-1, logits.shape[-1]), y.reshape(-1),
                               ignore_index=tasks.IGNORE)
        self.optimizer.zero_grad(set_to_none=True)
        loss.backward()
        self.optimizer.step()
        self.step += 1
        value = float(loss.detach())
        self.losses.append(value)
        if not math.isfinite(value):
            self.diverged = True  # the frames so far are kept; the weights are not trusted
            return
        c = self.config
        last = self.step >= c.steps
        frame, evaluate = self.step % c.frame_every == 0, self.step % c.eval_every == 0
        if frame or evaluate or last:
            self._capture(frame or last, evaluate or last)

    def advance(self, n: int | None = None, stop: Callable[[], bool] | None = None) -> None:
        """Train up to ``n`` more steps (all that are left without it), until ``stop()``."""
        left = self.config.steps - self.step if n is None else n
        with one_thread():
            while left > 0 and not self.done and not (stop and stop()):
                self._one_step()
                left -= 1

    def frame_now(self) -> None:
        """Paused between two frames: take α at this step, so that the last frame is the
        weights' own (the α a head opened in the workbench has). The accuracy keeps its
        schedule: the lab says which step it is from."""
        if not self.diverged and (not self.frames or self.frames[-1][0] != self.step):
            with one_thread():
                self._capture(frame=True, evaluate=False)

    def check_now(self) -> None:
        """Stopped between two checks (ctrl+c, a closed pipe): take α and the held-out accuracy
        at this step, so the record's last frame and accuracy are its weights' own."""
        if self.diverged:
            return
        frame = not self.frames or self.frames[-1][0] != self.step
        evaluate = not self.evals or self.evals[-1][0] != self.step
        if frame or evaluate:
            with one_thread():
                self._capture(frame, evaluate)

    def record_now(self) -> RunRecord:
        """The record of a paused or finished run, its last frame and accuracy taken at its
        last step (between two checks, they are older than its weights). Waits for a step
        another thread is taking (a lab left with Esc may be finishing one)."""
        with self.stepping:
            self.check_now()
            return self.record()

    def record(self) -> RunRecord:
        weights = {name: t.detach().numpy().copy()
                   for name, t in self.model.state_dict().items() if not name.endswith("tril")}
        resume = {"batches": self.data.get_state().numpy().copy()}
        moments = self.optimizer.state
        for name, p in self.model.named_parameters():
            state = moments.get(p, {})
            if not state:  # before the first step: there is nothing to train on from
                resume = {}
                break
            resume[f"exp_avg:{name}"] = state["exp_avg"].detach().numpy().copy()
            resume[f"exp_avg_sq:{name}"] = state["exp_avg_sq"].detach().numpy().copy()
            resume[f"step:{name}"] = np.asarray(float(state["step"]), dtype=np.float32)
        return RunRecord(
            config=self.config, losses=np.asarray(self.losses, dtype=np.float64),
            eval_steps=np.asarray([s for s, _ in self.evals], dtype=np.int64),
            accuracy=np.asarray([a for _, a in self.evals], dtype=np.float64),
            frame_steps=np.asarray([s for s, _ in self.frames], dtype=np.int64),
            frames=np.stack([f for _, f in self.frames]).astype(np.float32),
            example=self.example.numpy().astype(np.int64), weights=weights,
            diverged=self.diverged, resume=resume if not self.diverged else {},
        )

    @classmethod
    def from_record(cls, record: RunRecord) -> Run:
        """The run ``record`` was taken from, to train on from its last step: the same losses
        as a run never stopped (``record.resumable``)."""
        run = cls(record.config)
        try:
            run._take_state(record)
        except (RuntimeError, ValueError, TypeError) as exc:  # a generator state torch refuses
            raise ValueError(f"its training state cannot be used ({exc})") from exc
        run.step = record.steps_done
        run.losses = record.losses.tolist()
        run.evals = list(zip(record.eval_steps.tolist(), record.accuracy.tolist(), strict=True))
        run.frames = list(zip(record.frame_steps.tolist(), list(record.frames), strict=True))
        return run

    def _take_state(self, record: RunRecord) -> None:
        """The weights, AdamW's moments and the batch generator's state of ``record``."""
        r = record.resume
        with one_thread(), torch.no_grad():
            state = self.model.state_dict()
            state.update({k: torch.from_numpy(v.copy()) for k, v in record.weights.items()})
            self.model.load_state_dict(state)
            for name, p in self.model.named_parameters():
                self.optimizer.state[p] = {
                    "step": torch.tensor(float(r[f"step:{name}"]), dtype=torch.float32),
                    "exp_avg": torch.from_numpy(r[f"exp_avg:{name}"].copy()),
                    "exp_avg_sq": torch.from_numpy(r[f"exp_avg_sq:{name}"].copy()),
                }
            self.data.set_state(torch.from_numpy(r["batches"].copy()))
