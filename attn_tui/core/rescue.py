"""Where a session's unsaved work goes when the app ends without the learner choosing to (the
SSH connection dropped, the browser tab closed, a `kill` or the server stopped it), and how the
next start finds it to say so once.

A rescued session is an ordinary session file: ``unsaved-YYYYmmdd-HHMMSS.json`` in the data
folder's ``unsaved/``, or in the learner's own files folder under `attn-tui serve`, where ctrl+o
lists it. An unsaved training run goes beside it as ``unsaved-YYYYmmdd-HHMMSS.npz``, the file e
in the train lab writes. Each rescue adds its file's name to a list in the data folder, which
the next start reads, tells and clears: a file saved later under such a name is not taken for
a rescue.
"""

from __future__ import annotations

import contextlib
import errno
import os
import time
from pathlib import Path

from attn_tui.core.files import OWN_FOLDER_ENV, private_folders
from attn_tui.core.progress import data_folder

PREFIX = "unsaved-"
KINDS = (".json", ".npz")  # what a rescue writes: a session, a training run
PENDING = ".unsaved-to-tell"  # in the data folder: one rescued file's path a line


def folder() -> Path:
    own = os.environ.get(OWN_FOLDER_ENV)
    return Path(own) if own else data_folder() / "unsaved"


def reserve(suffixes: tuple[str, ...] = (".json",), now: float | None = None) -> list[Path]:
    """New, empty files of their own for a rescue made now, one per suffix (a session, a
    training run's .npz), sharing one name, so that the files of one ending go together and
    two sessions ending in the same second never take the same name (the second gets -2).
    OSError if the folder cannot take them."""
    where = folder()
    if where.exists() and not where.is_dir():  # mkdir would say only "file exists"
        raise NotADirectoryError(errno.ENOTDIR, "not a folder", str(where))
    private_folders(where)
    stamp = time.strftime("%Y%m%d-%H%M%S", time.localtime(now))
    for n in range(1, 1000):
        stem = f"{PREFIX}{stamp}{'' if n == 1 else f'-{n}'}"
        if any((where / f"{stem}{kind}").exists() for kind in KINDS if kind not in suffixes):
            continue  # another ending's file: one name, one ending
        made: list[Path] = []
        try:
            for suffix in suffixes:
                path = where / f"{stem}{suffix}"
                os.close(os.open(path, os.O_CREAT | os.O_EXCL | os.O_WRONLY, 0o644))
                made.append(path)
        except FileExistsError:
            for path in made:  # this name is another ending's: give back what was taken
                path.unlink(missing_ok=True)
            continue
        return made
    raise FileExistsError(f"{where}: no free name for {PREFIX}{stamp}")


def give_back(path: Path) -> None:
    """A name ``reserve`` took and nothing was written to (the file still empty) is freed."""
    with contextlib.suppress(OSError):
        if path.stat().st_size == 0:
            path.unlink()


def to_tell(path: Path) -> None:
    """Note ``path`` for the next start to tell of (one line, appended whole)."""
    pending = data_folder() / PENDING
    fd = os.open(pending, os.O_CREAT | os.O_APPEND | os.O_WRONLY, 0o600)
    try:
        os.write(fd, os.fsencode(str(path)) + b"\n")
    finally:
        os.close(fd)


def untold() -> list[Path]:
    """Rescued files not told of yet that are still there, oldest first (those of one ending
    share a stem; see ``endings``)."""
    try:
        lines = (data_folder() / PENDING).read_bytes().splitlines()
    except (OSError, RuntimeError):
        return []
    paths = [Path(os.fsdecode(line)) for line in lines if line.strip()]
    return [path for path in dict.fromkeys(paths) if path.is_file()]


def told() -> None:
    """The learner has been told of every rescue so far."""
    with contextlib.suppress(OSError, RuntimeError):  # told again next time, then
        (data_folder() / PENDING).unlink()


def endings(paths: list[Path]) -> list[list[Path]]:
    """``paths`` (oldest first) by the ending that left them, latest ending first; in each,
    the session before the run."""
    by_stem: dict[Path, list[Path]] = {}
    for path in paths:
        by_stem.setdefault(path.with_suffix(""), []).append(path)
    return [sorted(files, key=lambda p: p.suffix == ".npz")
            for files in reversed(by_stem.values())]
