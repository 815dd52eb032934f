"""Session files fuzzed: never a crash, never a change to the open workspace."""

from __future__ import annotations

import json
import random
from pathlib import Path

import numpy as np
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from attn_tui.compute import attend
from attn_tui.core import session, state
from attn_tui.core.state import Workspace
from attn_tui.tui.app import make_app

GOOD = session.to_json(state.from_preset("mask"))

json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=8),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=6), inner,
                                                                max_size=4),
    max_leaves=20,
)


def mutate(text: str, rng: random.Random) -> str:
    """A valid session with one field replaced, a slice removed or bytes flipped."""
    kind = rng.randrange(3)
    if kind == 0:
        data = json.loads(text)
        keys = list(data["workspace"])
        data["workspace"][rng.choice(keys)] = rng.choice(
            [None, -1, 1e308, "x", [], [[1.0]], {"a": 1}, float("nan"), True, [[1e9] * 3] * 3])
        return json.dumps(data, allow_nan=True)
    if kind == 1:
        a = rng.randrange(len(text))
        return text[:a] + text[a + rng.randrange(1, 40):]
    chars = list(text)
    for _ in range(rng.randint(1, 5)):
        chars[rng.randrange(len(chars))] = chr(rng.randrange(0, 0x3000))
    return "".join(chars)


def outcome(text: str) -> Workspace | str:
    try:
        return session.from_json(text)
    except session.SessionError as exc:
        return str(exc)


@settings(max_examples=300, deadline=None, database=None)
@given(st.integers(0, 10**9))
def test_mutated_sessions_are_refused_in_words_or_valid(seed: int):
    result = outcome(mutate(GOOD, random.Random(seed)))
    if isinstance(result, str):
        assert result and "\n" not in result and "Traceback" not in result
    else:  # survived the mutation: then it must be a workspace the app can compute and show
        steps = attend(result.q, result.k, result.v, mask=result.mask, scale=result.scale)
        assert not np.isnan(steps.weights).any()
        assert 0 <= result.selected < result.t_q


@settings(max_examples=200, deadline=None, database=None)
@given(json_values)
def test_any_json_is_refused_in_words_or_valid(value):
    result = outcome(json.dumps(value, allow_nan=True))
    assert isinstance(result, str | Workspace)


@settings(max_examples=100, deadline=None, database=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.binary(max_size=300))
def test_any_bytes_on_disk_are_refused_in_words(tmp_path: Path, data: bytes):
    path = tmp_path / "fuzz.json"
    path.write_bytes(data)
    try:
        session.load(path)
    except session.SessionError as exc:
        assert str(exc)


async def test_opening_fuzzed_files_in_the_app_never_changes_the_workspace(tmp_path: Path):
    rng = random.Random(3)
    files = []
    for i in range(12):
        text = mutate(GOOD, rng)
        if isinstance(outcome(text), str):
            path = tmp_path / f"bad{i}.json"
            path.write_text(text, encoding="utf-8", errors="surrogatepass")
            files.append(path)
    assert len(files) >= 6
    app = make_app(preset="select", confirm_quit=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        before = app.workbench().workspace
        for path in files:
            await pilot.press("ctrl+o")
            await pilot.pause()
            box = app.screen.query_one("Input")
            box.value = str(path)
            await pilot.press("enter")
            await pilot.pause()
            assert app.workbench().workspace == before
            await pilot.press("escape")
            await pilot.pause()
        assert app.screen is app.workbench()
