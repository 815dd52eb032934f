"""Every test here needs torch; without it they are skipped, and the one that checks the
message for a missing torch runs anyway (it is in tests/cli)."""

import pytest

pytest.importorskip("torch")
