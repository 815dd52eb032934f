"""Where a session's unsaved work goes when the app ends without the learner choosing to (the
SSH connection dropped, the browser tab closed, a `kill` or the server stopped it), and how the
next start finds it to say so once.

A rescued session is an ordinary session file: ``unsaved-YYYYmmdd-HHMMSS.json`` in the data
folder's ``unsaved/``, or in the learner's own files folder under `attn-tui serve`, where ctrl+o
lists it. An unsaved training run goes beside it as ``unsaved-YYYYmmdd-HHMMSS.npz``, the file e
in the train lab writes. Each rescue adds its file's name to a list in the data folder, which
the next start reads and tells of; ctrl+o offers the files on it at every start until one is
opened, and then it leaves the list: a file saved later under such a name is not taken for a
rescue.
"""

from __future__ import annotations

import contextlib
import errno
import fcntl
import os
import time
from pathlib import Path

from attn_tui.core.files import OWN_FOLDER_ENV, private_folders
from attn_tui.core.progress import data_folder

PREFIX = "unsaved-"
KINDS = (".json", ".npz")  # what a rescue writes: a session, a training run
PENDING = ".unsaved-to-tell"  # in the data folder: one rescued file's path a line, unopened
TOLD = ".unsaved-told"  # those of them a start has told of


def folder() -> Path:
    own = os.environ.get(OWN_FOLDER_ENV)
    return Path(own) if own else data_folder() / "unsaved"


def holds(path: str | os.PathLike[str]) -> bool:
    """Whether ``path`` is a rescue's file (a name of its kind in the rescue folder): work in
    no file of the learner's, which a save must not go back to under its "unsaved" name. In a
    browser rescues are among the learner's own files, listed with them: none is."""
    if os.environ.get(OWN_FOLDER_ENV):
        return False
    path = os.path.expanduser(path)
    if not os.path.basename(path).startswith(PREFIX):
        return False
    try:
        return os.path.samefile(os.path.dirname(os.path.abspath(path)), folder())
    except OSError:
        return False


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


def _append(name: str, paths: list[Path]) -> None:
    """Lines appended whole, under the lock ``opened`` rewrites the list with."""
    fd = os.open(data_folder() / name, os.O_CREAT | os.O_APPEND | os.O_WRONLY, 0o600)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
        os.write(fd, b"".join(os.fsencode(str(p)) + b"\n" for p in paths))
    finally:
        os.close(fd)  # and the lock with it


def _listed(name: str) -> list[Path]:
    try:
        fd = os.open(data_folder() / name, os.O_RDONLY)
    except (OSError, RuntimeError):
        return []
    try:  # not while ``opened`` has it emptied to write it again
        fcntl.flock(fd, fcntl.LOCK_SH)
        lines = os.read(fd, os.fstat(fd).st_size).splitlines()
    except OSError:
        return []
    finally:
        os.close(fd)
    return list(dict.fromkeys(Path(os.fsdecode(line)) for line in lines if line.strip()))


def to_tell(path: Path) -> None:
    """Note ``path`` for the next start to tell of and ctrl+o to offer."""
    _append(PENDING, [path])


def unopened() -> list[Path]:
    """Rescued files not opened yet that are still there, oldest first (those of one ending
    share a stem; see ``endings``)."""
    return [path for path in _listed(PENDING) if path.is_file()]


def untold() -> list[Path]:
    """Those of them no start has told of yet."""
    said = set(_listed(TOLD))
    return [path for path in unopened() if path not in said]


def told(paths: list[Path]) -> None:
    """The learner has been told of ``paths``: ctrl+o still offers them until opened."""
    with contextlib.suppress(OSError, RuntimeError):  # told again next time, then
        _append(TOLD, paths)


def opened(path: str | os.PathLike[str] | None = None) -> None:
    """``path`` was opened (ctrl+o, --session, --load): no more a rescue to offer, if it was
    one. The lists also lose the lines of files no longer there (deleted: not offered, and
    not taken for a rescue if a file of that name comes back); None: only those."""
    real = None if path is None else os.path.realpath(path)
    for name in (PENDING, TOLD):
        with contextlib.suppress(OSError, RuntimeError):
            fd = os.open(data_folder() / name, os.O_RDWR)
            try:  # under the lock appends take
                fcntl.flock(fd, fcntl.LOCK_EX)
                lines = os.read(fd, os.fstat(fd).st_size).splitlines()
                kept = [line for line in lines if line.strip() and os.path.exists(
                    os.fsdecode(line)) and os.path.realpath(os.fsdecode(line)) != real]
                if len(kept) < len(lines):
                    os.lseek(fd, 0, os.SEEK_SET)
                    os.ftruncate(fd, 0)
                    os.write(fd, b"".join(line + b"\n" for line in kept))
            finally:
                os.close(fd)


def endings(paths: list[Path]) -> list[list[Path]]:
    """``paths`` (oldest first) by the ending that left them, latest ending first; in each,
    the session before the run."""
    by_stem: dict[Path, list[Path]] = {}
    for path in paths:
        by_stem.setdefault(path.with_suffix(""), []).append(path)
    return [sorted(files, key=lambda p: p.suffix == ".npz")
            for files in reversed(by_stem.values())]
