"""At 80 columns every column header of a lab's table stands apart from the next one."""

from __future__ import annotations

import re

import pytest
from lab_pilot import lab_app, settle
from screen_text import screen_lines

TABLES = [
    ("scaling", ("sd of q·k", "H raw", "H scaled", "max α raw", "max α scaled")),
    ("heads", ("d_k", "mean H", "mean max α")),
    ("precision", ("ln max", "e^(max z)", "naive α₁", "stable α₁", "stable Δ", "ε")),
    ("precision", ("q·k", "weights α", "output ζ", "α finite?")),
    ("model", ("formula", "parameters", "share")),
    ("model", ("n² per head", "vs n = 512", "n² h L")),
]


@pytest.mark.parametrize(("lab", "headers"), TABLES, ids=[t[1][-1] for t in TABLES])
async def test_headers_do_not_run_together_at_80_columns(lab: str, headers: tuple) -> None:
    """`max α raw max α scaled` (scaling lab) and `mean H mean max α` (heads lab) read as one."""
    if lab == "precision":
        pytest.importorskip("torch")
    async with lab_app(lab).run_test(size=(80, 50)) as pilot:
        await settle(pilot)
        line = next(x for x in screen_lines(pilot.app) if headers[-1] in x)
        gaps = r"\s{2,}".join(re.escape(h) for h in headers)
        assert re.search(gaps, line), line
