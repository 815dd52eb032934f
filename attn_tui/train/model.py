"""A small causal transformer built from the nanoGPT lecture's attention head.

Each head is the lecture's: q, k, v as nn.Linear without bias, q kᵀ ÷ √head_size, the future
masked to −inf, softmax. Blocks are pre-norm: x + attention(ln(x)), then x + feed-forward(ln(x)).
The feed-forward uses ReLU so a numpy forward pass can follow it exactly.
"""

from __future__ import annotations

import math

import torch
import torch.nn as nn
from torch.nn import functional as F


class Head(nn.Module):
    def __init__(self, d_model: int, head_size: int, block: int) -> None:
        super().__init__()
        self.key = nn.Linear(d_model, head_size, bias=False)
        self.query = nn.Linear(d_model, head_size, bias=False)
        self.value = nn.Linear(d_model, head_size, bias=False)
        self.register_buffer("tril", torch.tril(torch.ones(block, block)))
        self.head_size = head_size

    def forward(self, x: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        t = x.shape[1]
        q, k, v = self.query(x), self.key(x), self.value(x)
        wei = q @ k.transpose(-2, -1) / math.sqrt(self.head_size)
        wei = wei.masked_fill(self.tril[:t, :t] == 0, float("-inf"))
        wei = F.softmax(wei, dim=-1)
        return wei @ v, wei


class Block(nn.Module):
    def __init__(self, d_model: int, heads: int, block: int) -> None:
        super().__init__()
        self.ln1 = nn.LayerNorm(d_model)
        self.heads = nn.ModuleList(Head(d_model, d_model // heads, block) for _ in range(heads))
        self.proj = nn.Linear(d_model, d_model)
        self.ln2 = nn.LayerNorm(d_model)
        self.ff = nn.Sequential(nn.Linear(d_model, 4 * d_model), nn.ReLU(),
                                nn.Linear(4 * d_model, d_model))

    def forward(self, x: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        outs = [h(self.ln1(x)) for h in self.heads]
        x = x + self.proj(torch.cat([o for o, _ in outs], dim=-1))
        x = x + self.ff(self.ln2(x))
        return x, torch.stack([w for _, w in outs], dim=1)  # α: (B, heads, T, T)


class TinyTransformer(nn.Module):
    def __init__(self, vocab: int, block: int, d_model: int, heads: int, layers: int) -> None:
        super().__init__()
        self.tok = nn.Embedding(vocab, d_model)
        self.pos = nn.Embedding(block, d_model)
        self.blocks = nn.ModuleList(Block(d_model, heads, block) for _ in range(layers))
        self.ln_f = nn.LayerNorm(d_model)
        self.head = nn.Linear(d_model, vocab)

    def forward(self, idx: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        """Logits (B, T, vocab) and every head's α (B, layers, heads, T, T)."""
        t = idx.shape[1]
        x = self.tok(idx) + self.pos(torch.arange(t))
        alphas = []
        for block in self.blocks:
            x, a = block(x)
            alphas.append(a)
        return self.head(self.ln_f(x)), torch.stack(alphas, dim=1)
