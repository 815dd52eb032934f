"""attn-tui's screens. The size floor lives here so the app can check it on every resize
without importing the screen that says "too small" until it is needed."""

MIN_WIDTH, MIN_HEIGHT = 40, 12


def too_small(width: int, height: int) -> bool:
    return width < MIN_WIDTH or height < MIN_HEIGHT
