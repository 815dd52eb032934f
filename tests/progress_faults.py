"""A data folder that takes no progress files, for the tests of what waits and is said."""

from __future__ import annotations


def read_only(monkeypatch):
    """Progress files refused as a read-only folder refuses them; returns the undo."""
    import attn_tui.core.progress as progress

    written = progress.atomic_write

    def refuse(path, data, verb):
        raise OSError(30, "Read-only file system", str(path))

    monkeypatch.setattr(progress, "atomic_write", refuse)
    return lambda: monkeypatch.setattr(progress, "atomic_write", written)
