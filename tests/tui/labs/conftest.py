"""Each lab test starts with no kept scaling scores: what it sees does not depend on the order."""

from __future__ import annotations

import pytest

from attn_tui.compute.scaling import forget_scores


@pytest.fixture(autouse=True)
def _no_kept_scores():
    forget_scores()
    yield
    forget_scores()
