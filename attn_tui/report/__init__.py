"""Plain-text reports from compute results: no textual, no colour."""

from attn_tui.report.sections import SECTIONS, render

__all__ = ["SECTIONS", "render"]
