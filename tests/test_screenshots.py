"""screenshots/ covers every screen, lesson and lab, so a new one cannot be forgotten."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "scripts"))

import screenshots  # noqa: E402


def test_every_screen_module_has_a_picture_listed():
    modules = sorted(p.stem for p in (ROOT / "attn_tui" / "tui" / "screens").rglob("*_screen.py"))
    assert "workbench_screen" in modules  # the glob still finds the screens where they live
    missing = [m for m in modules if m not in screenshots.SCREEN_SHOTS]
    assert not missing, f"add these screens to SCREEN_SHOTS in scripts/screenshots.py: {missing}"


def test_every_listed_picture_exists():
    names = {f"{s.name}.svg" for s in screenshots.all_shots()}
    names |= {f"{n}.svg" for n in screenshots.SCREEN_SHOTS.values()}
    have = {p.name for p in (ROOT / "screenshots").glob("*.svg")}
    assert names - have == set(), f"run `make screenshots`: missing {sorted(names - have)}"


def test_every_lesson_and_lab_is_shot():
    from attn_tui.core.labs import LABS
    from attn_tui.lessons import catalog

    names = {s.name for s in screenshots.all_shots()}
    assert {f"lab-{n}" for n in LABS} <= names
    assert {f"lesson-{e.name}" for e in catalog()} <= names


def test_readme_pictures_exist():
    import re

    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    for path in re.findall(r"\]\((screenshots/[^)]+)\)", readme):
        assert (ROOT / path).is_file(), path


SCROLLBAR_GLYPHS = str.maketrans("", "", "▁▂▃▄▅▆▇█▉▊▋▌▍▎▏")


def picture_text(path: Path) -> list[str]:
    """The words and numbers of a screenshot, line by line, without scrollbar thumbs: a thumb
    can be drawn a frame before or after a lesson's scroll settles, the words cannot."""
    import html
    import re

    svg = path.read_text(encoding="utf-8")
    texts = (html.unescape(t).translate(SCROLLBAR_GLYPHS)
             for t in re.findall(r">([^<]*)</text>", svg))
    texts = [t for t in texts if t.strip()]
    # numpy against torch differs by the CPU's kernels (0 on one machine, 4 units in the last
    # place on another): its three numbers are checked in tests/tui/labs/test_lab_compute.py
    for i, t in enumerate(texts):
        if "numpy\xa0vs\xa0torch" in t:
            texts[i + 1:i + 4] = ["(kernel rounding)"] * len(texts[i + 1:i + 4])
    return texts


@pytest.mark.parametrize("shot", screenshots.all_shots(), ids=lambda s: s.name)
async def test_screenshots_are_current(shot, tmp_path):
    """Take each picture again, as `make screenshots` does, and compare what it says: a changed
    screen needs `make screenshots`. (Exact colours are held by the snapshot tests.)"""
    made = await screenshots.take(shot, tmp_path)
    assert picture_text(made) == picture_text(ROOT / "screenshots" / made.name), (
        f"run `make screenshots` (and look at it): {made.name}")


def test_the_suite_adds_in_the_order_every_machine_can():
    """tests/conftest.py asks OpenBLAS for its AVX2 kernels before numpy loads: on an AVX-512
    machine its own choice (SkylakeX) gave MiniLM's maps other last digits than this picture."""
    import ctypes
    import os

    import numpy
    from same_kernels import _has_avx2

    if not _has_avx2("/proc/cpuinfo"):
        pytest.skip("this CPU has no AVX2: its libraries choose their kernels, and the model's "
                    "pictures may differ in a last digit")
    libs = Path(numpy.__file__).parent.parent / "numpy.libs"
    openblas = ctypes.CDLL(str(next(libs.glob("libscipy_openblas*"))))
    corename = openblas.scipy_openblas_get_corename64_
    corename.restype = ctypes.c_char_p
    assert corename() == os.environ["OPENBLAS_CORETYPE"].encode()  # Haswell, unless one chose
    assert "X86_V4" in os.environ["NPY_DISABLE_CPU_FEATURES"].split()


def test_the_avx2_kernels_are_asked_for_only_where_the_cpu_has_them(tmp_path):
    """OPENBLAS_CORETYPE=Haswell on a CPU without AVX2 ends the process at its first product."""
    from same_kernels import same_kernels

    old, new = tmp_path / "old", tmp_path / "new"
    old.write_text("processor\t: 0\nflags\t\t: fpu sse sse2 avx\n")
    new.write_text("processor\t: 0\nflags\t\t: fpu sse sse2 avx fma avx2\n")
    env: dict[str, str] = {}
    assert same_kernels(env, str(old)) is False and env == {}
    assert same_kernels(env, str(tmp_path / "none")) is False and env == {}
    assert same_kernels(env, str(new)) is True and env["OPENBLAS_CORETYPE"] == "Haswell"
    env = {"OPENBLAS_CORETYPE": "Zen"}
    same_kernels(env, str(new))
    assert env["OPENBLAS_CORETYPE"] == "Zen"  # the one running the suite chose
