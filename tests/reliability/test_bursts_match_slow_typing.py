"""Random key sequences, typed in one burst and typed slowly, end in the same state.

Over SSH several keys often arrive in one read; the app must not read them differently from
the same keys a few hundred milliseconds apart. Seeded: each case is reproducible by its id.
"""

from __future__ import annotations

import random

import pytest
from key_burst import typed_state

# every kind of key that moves focus, opens or closes a dialog, steps a lesson or edits;
# not q (it quits: what the keys after it do then is moot) nor b (torch loads on a thread)
KEYS = ["n", "p", "a", "c", "D", "]", "v", "R", "5", "7", ".", "Enter", "Tab", "Right",
        "Down", "Escape", "m", "s", "u", "?", "e", "C-u", "x", "g", "C-s", "1"]
CASES = 12


def _case(seed: int) -> tuple[str, str]:
    rnd = random.Random(seed)
    lesson = rnd.choice(["one", "mask", "scale"])
    return lesson, " ".join(rnd.choice(KEYS) for _ in range(rnd.randint(3, 10)))


@pytest.mark.parametrize("seed", range(CASES))
async def test_a_burst_ends_where_the_same_keys_typed_slowly_end(seed, tmp_path, monkeypatch):
    lesson, keys = _case(seed)
    monkeypatch.chdir(tmp_path)
    slow = await typed_state(lesson, keys, True, tmp_path)
    for path in tmp_path.iterdir():
        path.unlink()
    assert await typed_state(lesson, keys, False, tmp_path) == slow, (lesson, keys)
