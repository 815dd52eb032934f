"""Every binding is data with an id: the keyboard reference reads it without the app, and a
keymap moves a key by its id."""

from __future__ import annotations

import subprocess
import sys

from attn_tui.tui import bindings
from attn_tui.tui.app import make_app

ALL = [*bindings.APP, *bindings.LESSON, *bindings.WORKBENCH, *bindings.GRID, *bindings.EDITOR,
       *bindings.CONTROL_BAR, *bindings.DIMS_BAR, *bindings.LAB,
       *(b for own in bindings.LABS.values() for b in own)]


def test_every_binding_has_an_id_of_its_own():
    assert all(b.id for b in ALL)
    by_id: dict[str, object] = {}
    for b in ALL:  # the typing keys are one list shared by three widgets
        assert by_id.setdefault(b.id, b) is b, b.id


def test_the_labs_named_are_the_registry_s():
    from attn_tui.core.labs import LABS

    assert set(bindings.LABS) <= set(LABS)


def test_the_keyboard_reference_imports_no_app_screen_or_lab():
    code = ("import sys; from attn_tui.tui.help_keys import as_markdown; as_markdown(); "
            "print([m for m in sys.modules if m.endswith('_screen') or m.startswith(("
            "'attn_tui.tui.app', 'attn_tui.tui.widgets', 'attn_tui.tui.tutor'))])")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=60)
    assert done.stdout.strip() == "[]", done.stdout + done.stderr


async def test_a_keymap_moves_a_key_by_its_id():
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        app.set_keymap({"workbench.mask": "M"})
        await pilot.press("M")
        await pilot.pause()
        assert app.workbench().workspace.mask == "causal"
        await pilot.press("m")  # no longer the mask's key
        await pilot.pause()
        assert app.workbench().workspace.mask == "causal"
