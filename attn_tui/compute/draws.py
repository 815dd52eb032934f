"""The lecture's seeded draws, in the lecture's order, on torch or on numpy.

``lecture_draws`` picks the generator: on torch the draws match the lecture's script tensor for
tensor; on numpy they come from ``numpy.random.default_rng(seed)``, other numbers with the same
shapes and ranges. The lecture itself (compute.nanogpt) and the lesson workspaces built from its
tensors (lessons.workspaces) draw through the same objects, so they agree.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np


def lecture_draws(backend: str, seed: int, xp: Any, dt: Any) -> TorchDraws | NumpyDraws:
    """The generator the lecture uses on ``backend``: torch's own, or numpy's elsewhere."""
    return TorchDraws(seed, dt) if backend == "torch" else NumpyDraws(seed, xp, dt)


class TorchDraws:
    """torch's generator in the lecture's order: seed, x; seed 42, b; seed, x, key, query, value.

    A private torch.Generator gives the same stream as the lecture's torch.manual_seed, without
    touching torch's global one: two lectures computed at once in two threads (a lesson does
    that) would otherwise interleave their draws and get other numbers.
    """

    def __init__(self, seed: int, dt: Any) -> None:
        import torch

        self.torch, self.seed, self.dt = torch, seed, dt
        self.gen = torch.Generator()

    def normal(self, shape: tuple[int, ...]) -> Any:
        self.gen.manual_seed(self.seed)
        return self.torch.randn(*shape, generator=self.gen).to(self.dt)

    def toy_integers(self) -> Any:
        gen = self.torch.Generator().manual_seed(42)
        return self.torch.randint(low=0, high=10, size=(3, 2), generator=gen).to(self.dt)

    def head_input(self, shape: tuple[int, ...]) -> Any:
        return self.normal(shape)

    def linear(self, fan_in: int, fan_out: int) -> Any:
        # exactly what nn.Linear(fan_in, fan_out).reset_parameters() draws, from our generator
        w = self.torch.empty(fan_out, fan_in)
        self.torch.nn.init.kaiming_uniform_(w, a=math.sqrt(5), generator=self.gen)
        return w.to(self.dt)


class NumpyDraws:
    def __init__(self, seed: int, xp: Any, dt: Any) -> None:
        self.seed, self.xp, self.dt = seed, xp, dt
        self.rng = np.random.default_rng(seed)

    def normal(self, shape: tuple[int, ...]) -> Any:
        self.rng = np.random.default_rng(self.seed)
        return self.xp.asarray(self.rng.standard_normal(shape), dtype=self.dt)

    def toy_integers(self) -> Any:
        b = np.random.default_rng(42).integers(0, 10, size=(3, 2))
        return self.xp.asarray(b.astype(np.float64), dtype=self.dt)

    def head_input(self, shape: tuple[int, ...]) -> Any:
        return self.normal(shape)

    def linear(self, fan_in: int, fan_out: int) -> Any:
        # the same uniform(-1/sqrt(fan_in), 1/sqrt(fan_in)) range nn.Linear uses
        bound = 1 / math.sqrt(fan_in)
        w = self.rng.uniform(-bound, bound, (fan_out, fan_in))
        return self.xp.asarray(w, dtype=self.dt)
