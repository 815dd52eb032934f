"""attn-tui's screens. The size floor lives here so the app can check it on every resize
without importing the screen that says "too small" until it is needed."""

import sys

MIN_WIDTH, MIN_HEIGHT = 40, 12


def too_small(width: int, height: int) -> bool:
    return width < MIN_WIDTH or height < MIN_HEIGHT


def says_too_small(screen: object) -> bool:
    """Is ``screen`` the one saying the window is too small? (Never, while its module has not
    been imported: the check does not import it.)"""
    module = sys.modules.get("attn_tui.tui.screens.too_small_screen")
    return module is not None and isinstance(screen, module.TooSmallScreen)


def say_put_back(app, undo: bool, what: str) -> None:
    """u or U: which change it took back ("Undid: h 4 → 8"), one notice at a time (u u u
    stacked three notices over the tables)."""
    from attn_tui.tui import textual_compat

    textual_compat.dismiss_notices(app, starts=("Undid: ", "Redid: "))
    end = "" if what.endswith("…") else "."  # "h 1 → 2 …", not "h 1 → 2 …."
    said = f"{'Undid' if undo else 'Redid'}: {what}{end}"
    # long enough to read, about 25 characters a second
    app.notify(said, timeout=max(2.0, len(said) / 25), markup=False)
