"""attn-tui's AdamW against torch.optim.AdamW: the same weights and moments, to the last bit,
and no torch._dynamo loaded by a run."""

from __future__ import annotations

import subprocess
import sys

import pytest
import torch

from attn_tui.train import default_config
from attn_tui.train.adamw import AdamW
from attn_tui.train.trainer import Run


def same(a: torch.Tensor, b: torch.Tensor) -> None:
    """Equal to the bit, dtype and shape included (nan where the other has nan)."""
    torch.testing.assert_close(a, b, rtol=0, atol=0, equal_nan=True)


@pytest.mark.parametrize(("task", "changes"), [
    ("previous", {}),
    ("sort", dict(d_model=16, heads=2, layers=2, lr=3e-2)),
    ("previous", dict(lr=1000.0)),  # a run that diverges: nan and inf go through alike
])
def test_a_run_steps_as_torchs_adamw_steps_to_the_bit(task, changes) -> None:
    config = default_config(task, steps=40, **changes)
    ours, theirs = Run(config), Run(config)
    theirs.optimizer = torch.optim.AdamW(theirs.model.parameters(), lr=config.lr)
    ours.advance()
    theirs.advance()
    same(torch.tensor(ours.losses), torch.tensor(theirs.losses))
    assert ours.diverged == theirs.diverged == (changes.get("lr") == 1000.0)
    for p, q in zip(ours.model.parameters(), theirs.model.parameters(), strict=True):
        same(p, q)
        mine, torchs = ours.optimizer.state[p], theirs.optimizer.state[q]
        assert mine.keys() == torchs.keys() == {"step", "exp_avg", "exp_avg_sq"}
        for key in mine:
            same(mine[key], torchs[key])
    assert ours.step == theirs.step > 0


def test_a_run_resumed_from_its_record_steps_as_torchs_adamw_resumed() -> None:
    config = default_config("previous", steps=30)
    first = Run(config)
    first.advance(12)
    record = first.record()
    ours = Run.from_record(record)
    theirs = Run.from_record(record)
    moments = theirs.optimizer.state
    theirs.optimizer = torch.optim.AdamW(theirs.model.parameters(), lr=config.lr)
    for p in theirs.model.parameters():
        theirs.optimizer.state[p] = moments[p]
    ours.advance()
    theirs.advance()
    assert ours.losses == theirs.losses and len(ours.losses) == 30
    for p, q in zip(ours.model.parameters(), theirs.model.parameters(), strict=True):
        same(p, q)
        for key in ("step", "exp_avg", "exp_avg_sq"):
            same(ours.optimizer.state[p][key], theirs.optimizer.state[q][key])


def test_zero_grad_empties_or_zeroes_every_gradient() -> None:
    run = Run(default_config("previous", steps=2))
    run.advance(1)
    params = run.optimizer.params
    for p in params:
        p.grad = torch.ones_like(p)
    run.optimizer.zero_grad(set_to_none=False)
    assert all(torch.equal(p.grad, torch.zeros_like(p)) for p in params)
    run.optimizer.zero_grad()
    assert all(p.grad is None for p in params)


def test_a_whole_run_loads_no_compiler() -> None:
    """torch.optim imported torch._dynamo at a run's first step: 1.2 s of the lab's "loading
    torch…" and 71 MiB a session, for a compiler nothing uses."""
    code = ("import sys\n"
            "from attn_tui.train import default_config\n"
            "from attn_tui.train.trainer import Run\n"
            "run = Run(default_config('previous', steps=3))\n"
            "run.advance()\n"
            "run = Run.from_record(run.record())\n"
            "print(run.step, 'torch._dynamo' in sys.modules)\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         timeout=120, check=True).stdout
    assert out.split() == ["3", "False"]


def test_a_parameter_without_a_gradient_is_left_alone_as_torch_leaves_it() -> None:
    """A parameter the loss did not use that step has no gradient: no moments, no step
    counted, no weight decay (torch skips it; treating it as zeros would decay it)."""
    def model():
        torch.manual_seed(0)
        return torch.nn.Linear(4, 3), torch.nn.Linear(4, 3)

    ours_m, theirs_m = model(), model()
    ours = AdamW([*ours_m[0].parameters(), *ours_m[1].parameters()], lr=0.1)
    theirs = torch.optim.AdamW([*theirs_m[0].parameters(), *theirs_m[1].parameters()], lr=0.1)
    x = torch.randn(5, 4, generator=torch.Generator().manual_seed(1))
    for step in range(8):
        for (a, b), opt in ((ours_m, ours), (theirs_m, theirs)):
            opt.zero_grad(set_to_none=True)
            used = a if step < 3 or step % 2 else b  # b is first used at step 4
            used(x).square().sum().backward()
            opt.step()
        for p, q in zip([*ours_m[0].parameters(), *ours_m[1].parameters()],
                        [*theirs_m[0].parameters(), *theirs_m[1].parameters()], strict=True):
            same(p, q)
            assert (p in ours.state) == (q in theirs.state)
            if p in ours.state:
                for key in ("step", "exp_avg", "exp_avg_sq"):
                    same(ours.state[p][key], theirs.state[q][key])
    assert float(ours.state[ours_m[1].weight]["step"]) == 2  # used at steps 4 and 6 only
