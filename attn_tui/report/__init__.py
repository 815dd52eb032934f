"""Plain-text reports from compute results: no textual, no colour.

The sections load on first use, so a widget that needs only report.fmt does not pull them in.
"""

import importlib

__all__ = ["SECTIONS", "render"]


def __getattr__(name: str):
    if name in __all__:
        value = getattr(importlib.import_module("attn_tui.report.sections"), name)
        globals()[name] = value
        return value
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
