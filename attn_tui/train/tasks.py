"""The synthetic tasks as batches of token ids, drawn from a private torch.Generator.

Each batch is ``(x, y)``: x the model's input (B, T), y the token it should predict at each
position, or IGNORE where nothing is asked (the digits before '>' cannot be predicted).
"""

from __future__ import annotations

import torch

from attn_tui.train.config import HALF, PREVIOUS_T, REPEAT, VOCAB

IGNORE = -100
SEP_ID = VOCAB.index(">")
N_DIGITS = 10
EXAMPLE_SEED = 20_251  # the example sequence is the same for every run of a task
HELD_OUT_SEED = 7_919
HELD_OUT_N = 256


def _digits(b: int, n: int, g: torch.Generator, held_out: bool) -> torch.Tensor:
    """Random digits, split into two disjoint sets by a checksum: held-out sequences are the
    ones whose checksum is 0, and training never draws one (its first digit is nudged)."""
    a = torch.randint(0, N_DIGITS, (b, n), generator=g)
    check = _checksum(a)
    if held_out:
        a[:, 0] = (a[:, 0] - check) % N_DIGITS
    else:
        a[:, 0] = torch.where(check == 0, (a[:, 0] + 1) % N_DIGITS, a[:, 0])
    return a


def _checksum(a: torch.Tensor) -> torch.Tensor:
    weights = torch.arange(1, a.shape[1] + 1)  # the first digit's weight is 1: a nudge moves it
    return (a * weights).sum(dim=1) % N_DIGITS


def _after_sep(a: torch.Tensor, b_part: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
    """digits, '>', answer: the input drops the last token; y asks only for the answer."""
    sep = torch.full((a.shape[0], 1), SEP_ID, dtype=a.dtype)
    seq = torch.cat([a, sep, b_part], dim=1)
    x, y = seq[:, :-1], seq[:, 1:].clone()
    y[:, : a.shape[1]] = IGNORE  # predicting the next digit, or '>', is not the task
    return x, y


def previous(b: int, g: torch.Generator, held_out: bool = False) -> tuple[torch.Tensor, torch.Tensor]:
    x = _digits(b, PREVIOUS_T, g, held_out)
    y = torch.full_like(x, IGNORE)
    y[:, 1:] = x[:, :-1]
    return x, y


def reverse(b: int, g: torch.Generator, held_out: bool = False) -> tuple[torch.Tensor, torch.Tensor]:
    a = _digits(b, HALF, g, held_out)
    return _after_sep(a, torch.flip(a, dims=[1]))


def sort(b: int, g: torch.Generator, held_out: bool = False) -> tuple[torch.Tensor, torch.Tensor]:
    a = _digits(b, HALF, g, held_out)
    return _after_sep(a, torch.sort(a, dim=1).values)


def induction(b: int, g: torch.Generator, held_out: bool = False) -> tuple[torch.Tensor, torch.Tensor]:
    # distinct digits, so "the token after the earlier copy" names one position; of the
    # 1.8 million such sequences the held-out set is not kept out of training (a few percent
    # of it may be seen, a chance the README states)
    keys = torch.rand((b, N_DIGITS), generator=g)
    r = torch.argsort(keys, dim=1)[:, :REPEAT]
    seq = torch.cat([r, r], dim=1)
    x, y = seq[:, :-1], seq[:, 1:].clone()
    y[:, :REPEAT] = IGNORE  # the first copy, and its first token again, cannot be known
    return x, y


BATCHES = {"previous": previous, "reverse": reverse, "sort": sort, "induction": induction}


def batch(task: str, b: int, g: torch.Generator,
          held_out: bool = False) -> tuple[torch.Tensor, torch.Tensor]:
    return BATCHES[task](b, g, held_out)


def example(task: str) -> tuple[torch.Tensor, torch.Tensor]:
    """The one sequence whose α the run captures: (T,) input and (T,) targets."""
    x, y = batch(task, 1, torch.Generator().manual_seed(EXAMPLE_SEED), held_out=True)
    return x[0], y[0]
