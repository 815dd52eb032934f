"""Real pretrained models read from installed packages: a trained encoder's heads, run with
attn-tui's own attention. No textual, and never a network call.

    from attn_tui.models import load_model
    run = load_model("minilm").run("The cat sat on the mat.")
    run.tokens, run.weights.shape  # [..., '[SEP]'], (6, 12, T, T)
"""

from attn_tui.models.files import (
    MODELS,
    ModelDamaged,
    ModelSpec,
    ModelUnavailable,
    install_line,
    spec_for,
)
from attn_tui.models.model import Model, Run, load_model
from attn_tui.models.summary import HeadSummary, summarise, summarise_all
from attn_tui.models.text import MAX_TOKENS, EmptySentence, clean

__all__ = [
    "MAX_TOKENS", "MODELS", "EmptySentence", "HeadSummary", "Model", "ModelDamaged",
    "ModelSpec", "ModelUnavailable", "Run", "clean", "install_line", "load_model", "spec_for",
    "summarise", "summarise_all",
]
