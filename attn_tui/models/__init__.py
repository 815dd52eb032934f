"""Real pretrained models read from installed packages: a trained encoder's heads, run with
attn-tui's own attention. No textual, and never a network call.

    from attn_tui.models import load_model
    run = load_model("minilm").run("The cat sat on the mat.")
    run.tokens, run.weights.shape  # [..., '[SEP]'], (6, 12, T, T)

The names load on first use, so the command line can read the model list (files.MODELS)
without numpy.
"""

import importlib

_LAZY = {
    "MODELS": "files", "ModelDamaged": "files", "ModelSpec": "files",
    "ModelUnavailable": "files", "install_line": "files", "spec_for": "files",
    "Model": "model", "Run": "model", "load_model": "model", "shared_model": "model",
    "HeadSummary": "summary", "summarise": "summary", "summarise_all": "summary",
    "head_name": "names", "short_head_name": "names", "token_label": "names",
    "token_labels": "names", "unlabelled": "names",
    "MAX_TOKENS": "text", "EmptySentence": "text", "clean": "text",
}

__all__ = sorted(_LAZY)


def __getattr__(name: str):
    if name in _LAZY:
        value = getattr(importlib.import_module(f"attn_tui.models.{_LAZY[name]}"), name)
        globals()[name] = value
        return value
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
