"""AdamW as torch.optim.AdamW computes it on the CPU, step for step and bit for bit.

torch.optim imports torch._dynamo, its compiler, at an optimizer's first call and at every
step (1.2 s and 71 MiB here): the train lab's first Enter waited twice as long on "loading
torch…", for a compiler no run uses. This is torch's single-tensor path, the one it takes for
CPU tensors, with the same operations in the same order (tests/train/test_adamw.py holds it
to torch's own to the last bit). ``state`` is laid out as torch's: per parameter, ``step`` (a
float32 scalar tensor), ``exp_avg`` and ``exp_avg_sq``.
"""

from __future__ import annotations

from collections.abc import Iterable

import torch


class AdamW:
    def __init__(self, params: Iterable[torch.Tensor], lr: float,
                 betas: tuple[float, float] = (0.9, 0.999), eps: float = 1e-8,
                 weight_decay: float = 1e-2) -> None:
        self.params = list(params)
        self.lr, self.betas, self.eps, self.weight_decay = lr, betas, eps, weight_decay
        self.state: dict[torch.Tensor, dict[str, torch.Tensor]] = {}

    def zero_grad(self, set_to_none: bool = True) -> None:
        for p in self.params:
            if set_to_none:
                p.grad = None
            elif p.grad is not None:
                p.grad.zero_()

    @torch.no_grad()
    def step(self) -> None:
        beta1, beta2 = self.betas
        lr, eps = self.lr, self.eps
        for p in self.params:
            if p.grad is None:  # not used by the loss: no moments, as torch keeps none
                continue
            state = self.state.get(p)
            if not state:
                state = self.state[p] = {
                    "step": torch.tensor(0.0, dtype=torch.float32),
                    "exp_avg": torch.zeros_like(p, memory_format=torch.preserve_format),
                    "exp_avg_sq": torch.zeros_like(p, memory_format=torch.preserve_format),
                }
            grad, exp_avg, exp_avg_sq = p.grad, state["exp_avg"], state["exp_avg_sq"]
            state["step"] += 1
            if self.weight_decay != 0:
                p.mul_(1 - lr * self.weight_decay)  # decoupled: AdamW's W
            exp_avg.lerp_(grad, 1 - beta1)
            exp_avg_sq.mul_(beta2).addcmul_(grad, grad, value=1 - beta2)
            step = state["step"].item()
            step_size = lr / (1 - beta1**step)
            bias_correction2_sqrt = (1 - beta2**step) ** 0.5
            denom = (exp_avg_sq.sqrt() / bias_correction2_sqrt).add_(eps)
            p.addcdiv_(exp_avg, denom, value=-step_size)
