"""Where a session's unsaved work goes when the app ends without the learner choosing to (the
SSH connection dropped, the browser tab closed, the server stopped), and how the next start
finds it to say so once.

A rescued session is an ordinary session file: ``unsaved-YYYYmmdd-HHMMSS.json`` in the data
folder's ``unsaved/``, or in the learner's own files folder under `attn-tui serve`, where ctrl+o
lists it. A marker file's time says which ones the learner has been told of.
"""

from __future__ import annotations

import os
import time
from pathlib import Path

from attn_tui.core.files import OWN_FOLDER_ENV
from attn_tui.core.progress import data_folder

PREFIX = "unsaved-"
TOLD = ".unsaved-told"  # in the data folder: its time is that of the last notice


def folder() -> Path:
    own = os.environ.get(OWN_FOLDER_ENV)
    return Path(own) if own else data_folder() / "unsaved"


def new_path(now: float | None = None) -> Path:
    """A name of its own for a rescue made now (a second one in the same second gets -2)."""
    where = folder()
    stamp = time.strftime("%Y%m%d-%H%M%S", time.localtime(now))
    path, n = where / f"{PREFIX}{stamp}.json", 1
    while path.exists():
        n += 1
        path = where / f"{PREFIX}{stamp}-{n}.json"
    return path


def untold() -> list[Path]:
    """Rescued sessions made since the learner was last told of one, oldest first."""
    try:
        since = (data_folder() / TOLD).stat().st_mtime
    except (OSError, RuntimeError):
        since = 0.0
    try:
        found = [(entry.stat().st_mtime, Path(entry.path)) for entry in os.scandir(folder())
                 if entry.name.startswith(PREFIX) and entry.name.endswith(".json")]
    except (OSError, RuntimeError):
        return []
    return [path for mtime, path in sorted(found) if mtime > since]


def mark_told() -> None:
    """The learner has been told of every rescue so far."""
    try:
        marker = data_folder() / TOLD
        marker.parent.mkdir(parents=True, exist_ok=True)
        marker.touch()
        os.utime(marker)
    except (OSError, RuntimeError):
        pass  # told again next time: better than not at all
