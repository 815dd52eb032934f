"""Regenerate screenshots/ from the app itself, with the snapshot tests' deterministic set-up.

    python scripts/screenshots.py            write every picture
    python scripts/screenshots.py --list     print the file names it would write
    python scripts/screenshots.py --out DIR  write them somewhere else (the test compares)
    python scripts/screenshots.py --only A,B only the named pictures (without .svg)
"""

from __future__ import annotations

import asyncio
import functools
import sys
from dataclasses import dataclass, field
from pathlib import Path

from same_kernels import same_kernels

from attn_tui.cli.blas_threads import one_blas_thread

same_kernels()  # before numpy loads: the pictures match the tests' on any x86-64 machine
one_blas_thread()  # as the app and the tests run: two threads split a product's sums otherwise

OUT = Path(__file__).resolve().parents[1] / "screenshots"


@dataclass(frozen=True)
class Shot:
    name: str
    kwargs: dict = field(default_factory=dict)
    keys: tuple[str, ...] = ()
    size: tuple[int, int] = (120, 40)


SHOTS = [
    Shot("workbench"),
    Shot("workbench-80x24", size=(80, 24)),
    Shot("mask-causal", {"preset": "mask"}),
    Shot("mask-causal-after", {"preset": "mask"}, ("m",)),
    Shot("mask-none", {"preset": "mask"}, ("m", "m")),
    Shot("step-table-select", {"preset": "select"}, ("down",)),
    Shot("heatmap-random", {"preset": "random"}, ("D", "pageup", "pageup", "escape")),
    Shot("help", keys=("question_mark",)),
    Shot("too-small", size=(30, 10)),
    Shot("model-80x24", {"lab": "minilm"}, size=(80, 24)),
    # layer 1 head 3, the previous-token head, and the steps for 'sat' (4 of 13)
    Shot("model-step-table", {"lab": "minilm"},
         ("right", "right", "right_square_bracket", "right_square_bracket",
          "right_square_bracket")),
]

# every module under attn_tui/tui/screens/ named *_screen.py, and the picture that shows it; a test
# fails when a screen has no entry here or its picture is missing
SCREEN_SHOTS = {
    "workbench_screen": "workbench",
    "help_screen": "help",
    "too_small_screen": "too-small",
    "lab_screen": "lab-scaling",  # the base every lab shares
    "scaling_lab_screen": "lab-scaling",
    "model_lab_screen": "lab-model",
    "precision_lab_screen": "lab-precision",
    "heads_lab_screen": "lab-heads",
    "model_screen": "lab-minilm",
    "train_lab_screen": "train-after",
}

# the README's before-and-after pictures: the run that
#   attn-tui train --task reverse --steps 300 --seed 0 --save reverse.npz
# makes, opened with attn-tui --lab train --load reverse.npz (Home: the first frame)
TRAINED = {"task": "reverse", "steps": 300, "seed": 0}


@functools.cache  # the before and after pictures show one run: trained once (seconds)
def trained_run() -> dict:
    from attn_tui.train import default_config
    from attn_tui.train.trainer import Run

    run = Run(default_config(TRAINED["task"], steps=TRAINED["steps"], seed=TRAINED["seed"]))
    run.advance()
    return {"record": run.record()}


def extra_shots() -> list[Shot]:
    """Lesson and lab screens, once they exist in this checkout."""
    shots = []
    try:
        from attn_tui.core.labs import LABS, lab_available
    except ImportError:  # pragma: no cover
        return shots
    for name in LABS:
        if lab_available(name):
            shots.append(Shot(f"lab-{name}", {"lab": name}))
    import importlib.util

    if lab_available("train") and importlib.util.find_spec("torch") is not None:
        shots.append(Shot("train-before", {"lab": "train", "lab_options": trained_run},
                          ("home",)))
        shots.append(Shot("train-after", {"lab": "train", "lab_options": trained_run}))
    try:
        from attn_tui.lessons import catalog
    except ImportError:
        return shots
    for lesson in catalog():
        shots.append(Shot(f"lesson-{lesson.name}", {"lesson": lesson.name}, ("n",)))
    shots.append(Shot("lesson-mask-80x24", {"lesson": "mask"}, ("n",), size=(80, 24)))
    # a task met: select step 4, K[barked, d3] = 2 typed into the cell (the step puts the
    # keys in K, the one matrix its task lets change)
    shots.append(Shot("lesson-task", {"lesson": "select"},
                      ("n", "n", "n", "down", "down", "right", "right", "enter", "2", "enter"),
                      size=(80, 24)))
    return shots


def all_shots() -> list[Shot]:
    return SHOTS + extra_shots()


async def take(shot: Shot, out: Path = OUT) -> Path:
    import os
    import tempfile

    from attn_tui.tui.tutor import runner

    # a picture is of where the keys lead, as a learner who reads each step gets there: n
    # past a question a few ms after it came up would be refused (runner.READ_FIRST)
    runner.ANSWER_GUARD = 0.0

    # a callable stands for something made only when its picture is taken (a trained run)
    kwargs = {k: v() if callable(v) else v for k, v in shot.kwargs.items()}
    # a data folder of their own: the learner's progress, and the rescues the next real start
    # tells of, stay out of the pictures and untouched by them
    kept, was = tempfile.TemporaryDirectory(), os.environ.get("ATTN_TUI_DATA_DIR")
    os.environ["ATTN_TUI_DATA_DIR"] = kept.name
    try:
        return await _take(shot, kwargs, out)
    finally:
        if was is None:
            os.environ.pop("ATTN_TUI_DATA_DIR", None)
        else:
            os.environ["ATTN_TUI_DATA_DIR"] = was
        kept.cleanup()


async def _take(shot: Shot, kwargs: dict, out: Path) -> Path:
    from attn_tui.tui.app import make_app

    app = make_app(**kwargs)
    async with app.run_test(size=shot.size) as pilot:
        app.animation_level = "none"
        await pilot.pause()
        for key in shot.keys:
            await pilot.press(key)
            await app.workers.wait_for_complete()
            await pilot.pause()
        await app.workers.wait_for_complete()
        await pilot.pause()
        # a lesson step scrolls its cells into view after the refresh: let that land too
        await pilot.wait_for_scheduled_animations()
        await pilot.pause()
        await pilot.pause()
        path = out / f"{shot.name}.svg"
        app.save_screenshot(filename=path.name, path=str(out))
    return path


async def main() -> int:
    shots = all_shots()
    if "--list" in sys.argv:
        print("\n".join(f"{s.name}.svg" for s in shots))
        return 0
    out = Path(sys.argv[sys.argv.index("--out") + 1]) if "--out" in sys.argv else OUT
    if "--only" in sys.argv:
        wanted = set(sys.argv[sys.argv.index("--only") + 1].split(","))
        shots = [s for s in shots if s.name in wanted]
    out.mkdir(exist_ok=True)
    for shot in shots:
        print(await take(shot, out))
    return 0


if __name__ == "__main__":
    raise SystemExit(asyncio.run(main()))
