"""Model sizes to try in the parameter count: the chapter's, and a few published ones.

The chapter's formula counts the weights every transformer layer has (4 D² for attention,
2 D H + H + D for the feed-forward block, 4 D for two layer norms) plus one V x D embedding.
Real models carry a few more terms. For each published model, ``extras`` lists what the formula
leaves out, each with its size, so the gap to the published count can be accounted for.
"""

from __future__ import annotations

from dataclasses import dataclass

from attn_tui.compute.params import CHAPTER_MODEL, count_params


@dataclass(frozen=True)
class ModelPreset:
    name: str
    title: str
    V: int
    D: int
    L: int
    h: int
    H: int
    published: str  # the count as its authors or its released weights give it
    extras: tuple[tuple[str, int], ...]  # (term the formula leaves out, parameters)
    note: str

    @property
    def dims(self) -> dict[str, int]:
        return dict(V=self.V, D=self.D, L=self.L, h=self.h, H=self.H)

    @property
    def formula_total(self) -> int:
        return count_params(**self.dims).total

    @property
    def accounted(self) -> int:
        """The formula's total plus every listed extra."""
        return self.formula_total + sum(n for _, n in self.extras)


def _bert_base() -> ModelPreset:
    V, D, L, h, H = 30522, 768, 12, 12, 3072
    return ModelPreset(
        "bert-base", "BERT-base (encoder only)", V, D, L, h, H, "109,482,240 (released weights)",
        extras=(
            ("biases of Q, K, V, O", 4 * D * L),
            ("position embeddings, 512 x D", 512 * D),
            ("segment embeddings, 2 x D", 2 * D),
            ("layer norm after the embeddings", 2 * D),
            ("pooler (D x D + D)", D * D + D),
        ),
        note="Learned positions, two segment types and a pooler on top; "
             "the output layer for masked words is tied to the token embeddings.",
    )


def _gpt2_small() -> ModelPreset:
    V, D, L, h, H = 50257, 768, 12, 12, 3072
    return ModelPreset(
        "gpt2-small", "GPT-2 small (decoder only)", V, D, L, h, H,
        "124,439,808 (released weights; the paper's table says 117M)",
        extras=(
            ("biases of Q, K, V, O", 4 * D * L),
            ("position embeddings, 1024 x D", 1024 * D),
            ("final layer norm", 2 * D),
        ),
        note="The output layer is tied to the token embeddings, so it adds nothing.",
    )


def _transformer_base() -> ModelPreset:
    V, D, L, h, H = 37000, 512, 6, 8, 2048
    decoder_layer = 8 * D * D + (2 * D * H + H + D) + 6 * D  # self- and cross-attention, 3 norms
    return ModelPreset(
        "transformer-base", "Transformer base (encoder + decoder)", V, D, L, h, H,
        "about 65 million (the paper's rounded figure)",
        extras=(
            (f"decoder: {L} layers, 2 attention blocks each", L * decoder_layer),
            ("biases of all attention projections", 4 * D * L + 8 * D * L),
        ),
        note="Each decoder layer adds a cross-attention block (4 D²) and a third norm. One "
             "embedding of a shared ~37,000-token vocabulary serves both stacks and the output "
             "layer; positions are sinusoids, with no parameters. The paper gives no itemised "
             "count, so its last two million or so are not accounted for here.",
    )


def _chapter() -> ModelPreset:
    return ModelPreset(
        "chapter", "the chapter's example", **CHAPTER_MODEL, published="44,502,016",
        extras=(),
        note="The formula exactly: no biases on Q, K, V, O, no position embeddings, and an "
             "output layer tied to the embeddings.",
    )


MODEL_PRESETS: dict[str, ModelPreset] = {
    p.name: p for p in (_chapter(), _transformer_base(), _bert_base(), _gpt2_small())
}
PRESET_NAMES = tuple(MODEL_PRESETS)


def matching_preset(V: int, D: int, L: int, h: int, H: int) -> str | None:
    """The preset with exactly these dimensions, if any."""
    for p in MODEL_PRESETS.values():
        if (p.V, p.D, p.L, p.h, p.H) == (V, D, L, h, H):
            return p.name
    return None
